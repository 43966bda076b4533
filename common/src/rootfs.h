/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Paths resolved inside a root (tune's --root, and the sysfs tree tune audits under it): every
 * component, symlinks included, is resolved as if the root were "/", so an absolute or
 * ".."-climbing link in an image never leads outside it. */
#ifndef RDMAKIT_ROOTFS_H
#define RDMAKIT_ROOTFS_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/** Open relpath inside root (open(2) flags; O_NOFOLLOW refuses a link at the end); fd or -errno. */
int rootfs_open(const char *root, const char *relpath, int flags, mode_t mode);

/** Open relpath inside the directory rootfd (same rules, by hand, as before Linux 5.6). */
int rootfs_walk(int rootfd, const char *relpath, int flags, mode_t mode);

/** Open relpath inside the directory rootfd: openat2, or the walk by hand; fd or -errno. */
int rootfs_openat(int rootfd, const char *relpath, int flags, mode_t mode);

/** Open the directory that holds relpath inside rootfd and copy its last component to name. */
int rootfs_openat_parent(int rootfd, const char *relpath, char *name, size_t size);

/** Open the directory that holds relpath inside root and copy its last component to name. */
int rootfs_open_parent(const char *root, const char *relpath, char *name, size_t size);

/** stat of relpath inside root, the last component's link followed inside root; -errno. */
int rootfs_stat(const char *root, const char *relpath, struct stat *st);

/** lstat of relpath inside root (a link at the end is described, not followed); -errno. */
int rootfs_lstat(const char *root, const char *relpath, struct stat *st);

/** mkdir of relpath inside root; -errno (-EEXIST when anything, a link too, is there). */
int rootfs_mkdir(const char *root, const char *relpath, mode_t mode);

/** rmdir of relpath inside root; -errno. */
int rootfs_rmdir(const char *root, const char *relpath);

/** Unlink the file at relpath inside root; a symlink there is refused with -ELOOP. */
int rootfs_unlink(const char *root, const char *relpath);

/** Rename from to to, both inside root; a symlink at to is refused with -ELOOP. */
int rootfs_rename(const char *root, const char *from, const char *to);

/** Sorted entry names (not "." ones) of the directory reldir inside root; rk_names_free them. */
int rootfs_list(const char *root, const char *reldir, char ***names, size_t *count);

#endif
