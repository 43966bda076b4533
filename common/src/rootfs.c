/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Paths inside a root: openat2(RESOLVE_IN_ROOT), or on kernels before 5.6 a walk by hand
 * that follows each link inside the root (an absolute target restarts at the root, ".." stops
 * there) and gives up after ROOTFS_MAX_LINKS links. */
#include "rootfs.h"
#include "rdmakit/file.h"

#include "rdmakit/sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* As many links as one lookup of the kernel follows. */
#define ROOTFS_MAX_LINKS 40
#define ROOTFS_MAX_PATH	 RK_PATH_SIZE

#ifdef RDMAKIT_TEST_HOOKS
/* RDMAKIT_TUNE_NO_OPENAT2 set: take the walk by hand, as on a kernel without openat2. */
static bool openat2_disabled(void)
{
	return getenv("RDMAKIT_TUNE_NO_OPENAT2") != NULL;
}
#else
static bool openat2_disabled(void)
{
	return false;
}
#endif

static bool at_root(int fd, const struct stat *root)
{
	struct stat st;

	return fstat(fd, &st) == 0 && st.st_dev == root->st_dev && st.st_ino == root->st_ino;
}

/* Move the first component of rest into name; false when none is left. */
static bool pop_component(char *rest, char *name, size_t size)
{
	size_t skip = strspn(rest, "/"), len = strcspn(rest + skip, "/");

	if (len == 0 || len >= size)
		return false;
	memcpy(name, rest + skip, len);
	name[len] = '\0';
	memmove(rest, rest + skip + len, strlen(rest + skip + len) + 1);
	return true;
}

static bool no_component_left(const char *rest)
{
	return rest[strspn(rest, "/")] == '\0';
}

/* A walk by hand: the root, the directory reached so far, the components still to go. */
struct walk {
	int rootfd, cur;
	struct stat root_st;
	char rest[ROOTFS_MAX_PATH];
	unsigned links;
	int flags;
	mode_t mode;
};

/* Replace the current directory fd by next (closing the old one); -errno when next failed. */
static int step_to(struct walk *w, int next)
{
	if (next < 0)
		return -errno;
	close(w->cur);
	w->cur = next;
	return 0;
}

/* The link name in the current directory: its target goes in front of the rest; an absolute
 * one restarts at the root. */
static int follow_link(struct walk *w, const char *name)
{
	char target[ROOTFS_MAX_PATH], joined[2 * ROOTFS_MAX_PATH + 2];
	ssize_t n;

	if (++w->links > ROOTFS_MAX_LINKS)
		return -ELOOP;
	n = readlinkat(w->cur, name, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	if (snprintf(joined, sizeof(joined), "%s/%s", target, w->rest) >= ROOTFS_MAX_PATH)
		return -ENAMETOOLONG;
	strcpy(w->rest, joined);
	return target[0] == '/' ? step_to(w, fcntl(w->rootfd, F_DUPFD_CLOEXEC, 0)) : 0;
}

/* Open the end of the walk, name in the current directory; 1 (done) or -errno. */
static int open_end(struct walk *w, const char *name, int *fd)
{
	*fd = openat(w->cur, name, w->flags | O_NOFOLLOW, w->mode);
	return *fd < 0 ? -errno : 1;
}

/* "." stays, ".." climbs but never above the root. */
static int step_dots(struct walk *w, const char *name, bool last, int *fd)
{
	int err = 0;

	if (strcmp(name, "..") == 0 && !at_root(w->cur, &w->root_st))
		err = step_to(w, openat(w->cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC));
	return err ? err : last ? open_end(w, ".", fd) : 0;
}

/* One component of the walk: -errno, 1 when it opened the end into *fd, 0 to go on. */
static int walk_step(struct walk *w, int *fd)
{
	char name[NAME_MAX + 1];
	struct stat st;
	bool last;

	if (!pop_component(w->rest, name, sizeof(name)))
		return no_component_left(w->rest) ? open_end(w, ".", fd) : -ENAMETOOLONG;
	last = no_component_left(w->rest);
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return step_dots(w, name, last, fd);
	if (fstatat(w->cur, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT && last ? open_end(w, name, fd) : -errno; /* O_CREAT */
	if (S_ISLNK(st.st_mode))
		return last && (w->flags & O_NOFOLLOW) ? -ELOOP : follow_link(w, name);
	if (last)
		return open_end(w, name, fd);
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return step_to(w, openat(w->cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

int rootfs_walk(int rootfd, const char *relpath, int flags, mode_t mode)
{
	struct walk w = {.rootfd = rootfd, .flags = flags | O_CLOEXEC, .mode = mode};
	int fd = -1, done = 0;

	if (strlen(relpath) >= sizeof(w.rest))
		return -ENAMETOOLONG;
	if (fstat(rootfd, &w.root_st) != 0)
		return -errno;
	w.cur = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	if (w.cur < 0)
		return -errno;
	strcpy(w.rest, relpath);
	while (done == 0)
		done = walk_step(&w, &fd);
	close(w.cur);
	return done < 0 ? done : fd;
}

/* openat2 inside rootfd; -ENOSYS on a kernel before 5.6, -ENOSYS or -EPERM in a sandbox that
 * filters it (the walk then gives the answer, the same -EPERM if that was the file's). */
static int open_in_root(int rootfd, const char *relpath, int flags, mode_t mode)
{
	struct open_how how = {.flags = (uint64_t)(flags | O_CLOEXEC),
			       .mode = flags & O_CREAT ? mode : 0,
			       .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS};
	long fd = -1;

	if (openat2_disabled())
		return -ENOSYS;
	for (int tries = 0; tries < 8 && fd < 0; tries++) { /* EAGAIN: a rename raced the lookup */
		fd = syscall(SYS_openat2, rootfd, relpath, &how, sizeof(how));
		if (fd < 0 && errno != EAGAIN)
			break;
	}
	return fd < 0 ? -errno : (int)fd;
}

int rootfs_openat(int rootfd, const char *relpath, int flags, mode_t mode)
{
	const char *rel = relpath + strspn(relpath, "/");
	int fd = open_in_root(rootfd, rel[0] ? rel : ".", flags, mode);

	if (fd == -ENOSYS || fd == -EPERM)
		fd = rootfs_walk(rootfd, rel, flags, mode);
	return fd;
}

int rootfs_open(const char *root, const char *relpath, int flags, mode_t mode)
{
	int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC), fd;

	if (rootfd < 0)
		return -errno;
	fd = rootfs_openat(rootfd, relpath, flags, mode);
	close(rootfd);
	return fd;
}

/* The directory part of relpath into dir and its last component into name; -errno. */
static int split_parent(const char *relpath, char *dir, size_t dir_size, char *name, size_t size)
{
	size_t len = strlen(relpath);
	const char *slash;

	while (len > 0 && relpath[len - 1] == '/')
		len--;
	if (len >= dir_size)
		return -ENAMETOOLONG;
	memcpy(dir, relpath, len);
	dir[len] = '\0';
	slash = strrchr(dir, '/');
	if (snprintf(name, size, "%s", slash ? slash + 1 : dir) >= (int)size)
		return -ENAMETOOLONG;
	if (!name[0] || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return -EINVAL;
	dir[slash ? (size_t)(slash - dir) : 0] = '\0';
	return 0;
}

int rootfs_openat_parent(int rootfd, const char *relpath, char *name, size_t size)
{
	char dir[ROOTFS_MAX_PATH];
	int err = split_parent(relpath, dir, sizeof(dir), name, size);

	return err ? err : rootfs_openat(rootfd, dir, O_PATH | O_DIRECTORY, 0);
}

int rootfs_open_parent(const char *root, const char *relpath, char *name, size_t size)
{
	char dir[ROOTFS_MAX_PATH];
	int err = split_parent(relpath, dir, sizeof(dir), name, size);

	return err ? err : rootfs_open(root, dir, O_PATH | O_DIRECTORY, 0);
}

int rootfs_stat(const char *root, const char *relpath, struct stat *st)
{
	int fd = rootfs_open(root, relpath, O_PATH, 0), err = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, st) != 0)
		err = -errno;
	close(fd);
	return err;
}

int rootfs_lstat(const char *root, const char *relpath, struct stat *st)
{
	char name[NAME_MAX + 1];
	int dirfd = rootfs_open_parent(root, relpath, name, sizeof(name)), err = 0;

	if (dirfd < 0)
		return dirfd;
	if (fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW) != 0)
		err = -errno;
	close(dirfd);
	return err;
}

int rootfs_mkdir(const char *root, const char *relpath, mode_t mode)
{
	char name[NAME_MAX + 1];
	int dirfd = rootfs_open_parent(root, relpath, name, sizeof(name)), err = 0;

	if (dirfd < 0)
		return dirfd;
	if (mkdirat(dirfd, name, mode) != 0)
		err = -errno;
	close(dirfd);
	return err;
}

int rootfs_rmdir(const char *root, const char *relpath)
{
	char name[NAME_MAX + 1];
	int dirfd = rootfs_open_parent(root, relpath, name, sizeof(name)), err = 0;

	if (dirfd < 0)
		return dirfd;
	if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0)
		err = -errno;
	close(dirfd);
	return err;
}

static bool is_link_at(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

int rootfs_unlink(const char *root, const char *relpath)
{
	char name[NAME_MAX + 1];
	int dirfd = rootfs_open_parent(root, relpath, name, sizeof(name)), err = 0;

	if (dirfd < 0)
		return dirfd;
	if (is_link_at(dirfd, name))
		err = -ELOOP;
	else if (unlinkat(dirfd, name, 0) != 0)
		err = -errno;
	close(dirfd);
	return err;
}

int rootfs_rename(const char *root, const char *from, const char *to)
{
	char from_name[NAME_MAX + 1], to_name[NAME_MAX + 1];
	int from_dir = rootfs_open_parent(root, from, from_name, sizeof(from_name)), to_dir,
	    err = 0;

	if (from_dir < 0)
		return from_dir;
	to_dir = rootfs_open_parent(root, to, to_name, sizeof(to_name));
	if (to_dir < 0)
		err = to_dir;
	else if (is_link_at(to_dir, to_name))
		err = -ELOOP;
	else if (renameat(from_dir, from_name, to_dir, to_name) != 0)
		err = -errno;
	if (to_dir >= 0)
		close(to_dir);
	close(from_dir);
	return err;
}

int rootfs_list(const char *root, const char *reldir, char ***names, size_t *count)
{
	return rk_names_of_dir_fd(rootfs_open(root, reldir, O_RDONLY | O_DIRECTORY, 0), names,
				  count);
}
