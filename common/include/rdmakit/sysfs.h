/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Reading sysfs attributes under a configurable root, keeping descriptors open. */
#ifndef RDMAKIT_SYSFS_H
#define RDMAKIT_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A sysfs root ("/sys" or a fixture tree) and its budget of open descriptors. */
struct rk_sysfs;

/* One attribute file: kept open when the budget allows, else read by path. */
struct rk_attr {
	int fd;	     /* -1: opened and closed on every read */
	char *path;  /* relative to the root */
	bool warned; /* a problem with it has been logged */
	dev_t dev;   /* the open file's identity, to notice a file replaced under it */
	ino_t ino;
};

/** Open a sysfs root; raises the soft descriptor limit where the hard limit allows. */
int rk_sysfs_open(const char *root, struct rk_sysfs **out);

/** Open the sysfs tree at reldir inside root (e.g. "sys" in a tune --root) confined to it: every
 * path, each symlink's target too, is resolved inside root as if it were "/". */
int rk_sysfs_open_in_root(const char *root, const char *reldir, struct rk_sysfs **out);

/** Close the root (attributes must have been closed first). */
void rk_sysfs_close(struct rk_sysfs *fs);

/** The root's path as given to rk_sysfs_open. */
const char *rk_sysfs_root(const struct rk_sysfs *fs);

/** Keep the attributes held open at descriptor floor or above (0: anywhere) in the trees opened
 * from now on, raising the soft descriptor limit to make room, so that a daemon's sockets stay
 * below FD_SETSIZE; call once at start. Under ibsim's umad2sim shim, which takes every
 * descriptor from 1024 up for its own, there is no floor; RDMAKIT_FD_FLOOR in the environment
 * overrides both (0 turns it off). 0, or
 * -EMFILE (logged) when the limit leaves no room above the floor: it is then not applied. */
int rk_sysfs_set_fd_floor(int floor);

/** Cap how many attributes stay open (tests and daemons sharing a process). */
void rk_sysfs_set_fd_budget(struct rk_sysfs *fs, size_t budget);

/** Number of attributes read by open-read-close because the budget ran out. */
size_t rk_sysfs_fallback_count(const struct rk_sysfs *fs);

/** Open the attribute at relpath without blocking; -ENOENT when the file does not exist,
 * -EISDIR for a directory, -ESPIPE for anything else that is not a regular file (a FIFO). */
int rk_attr_open(struct rk_sysfs *fs, const char *relpath, struct rk_attr *attr);

/** When the file at the attribute's path is no longer the one it holds open (replaced, removed,
 * or not a regular file now), drop the old descriptor and open the new file, or read by path
 * from now on (where the read then fails as rk_attr_open would); 0, or -errno of the reopen. */
int rk_attr_recheck(struct rk_sysfs *fs, struct rk_attr *attr);

/** Close an attribute (safe on a zeroed or already closed one). */
void rk_attr_close(struct rk_sysfs *fs, struct rk_attr *attr);

/** Read an attribute's text without trailing whitespace; length or -errno. */
ssize_t rk_attr_read(struct rk_sysfs *fs, const struct rk_attr *attr, char *buf, size_t size);

/** Log a problem with an attribute (its value quoted when text is given), once while open. */
void rk_attr_warn_once(struct rk_attr *attr, const char *problem, const char *text);

/** Read the attribute at relpath once (open, read, close); length or -errno (as rk_attr_open). */
ssize_t rk_sysfs_read(struct rk_sysfs *fs, const char *relpath, char *buf, size_t size);

/** Why rk_attr_open or rk_sysfs_read failed with err, for a message. */
const char *rk_sysfs_error(int err);

/** True when relpath exists under the root. */
bool rk_sysfs_exists(struct rk_sysfs *fs, const char *relpath);

/** Last path component of the symlink at relpath (e.g. a PCI address); -errno. */
int rk_sysfs_link_name(struct rk_sysfs *fs, const char *relpath, char *buf, size_t size);

/** Sorted (mlx5_2 before mlx5_10) entry names of a directory; free with rk_names_free. */
int rk_sysfs_list(struct rk_sysfs *fs, const char *reldir, char ***names, size_t *count);

/** The same list of the directory open at fd (consumed, closed in every case); fd < 0 is
 * returned as the error. */
int rk_names_of_dir_fd(int fd, char ***names, size_t *count);

/** Free a list returned by rk_sysfs_list or rk_names_of_dir_fd. */
void rk_names_free(char **names, size_t count);

/** Parse a whole decimal or 0x-prefixed hex number; -EINVAL or -ERANGE. */
int rk_parse_u64(const char *text, uint64_t *out);

/** Parse "4: ACTIVE" into 4 and "ACTIVE"; -EINVAL when malformed. */
int rk_parse_numbered(const char *text, int *number, char *name, size_t name_size);

#endif
