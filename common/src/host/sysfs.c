/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/sysfs.h"

#include "rdmakit/file.h"
#include "rdmakit/log.h"
#include "rdmakit/rdma_stack.h"
#include "rootfs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Descriptors left for everything else a process does (stdio, sockets, MADs). */
#define FD_RESERVE 64
/* No point keeping more than this many attributes open. */
#define FD_CEILING 65536

/* Attributes kept open go at or above this descriptor (0: wherever open() puts them). */
static int fd_floor;

struct rk_sysfs {
	int root_fd;  /* the tree, or in a root (in_root) the root it is confined to */
	char *root;   /* the tree's path, for messages */
	char *reldir; /* in a root: the tree's path inside it ("sys"); NULL otherwise */
	size_t fd_budget;
	size_t fds_open;
	size_t fallbacks;
};

/* The soft descriptor limit, raised towards the hard one (up to FD_CEILING above the floor). */
static rlim_t raised_fd_limit(rlim_t *hard)
{
	rlim_t ceiling = (rlim_t)fd_floor + FD_CEILING;
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
		*hard = 1024;
		return 1024;
	}
	*hard = limit.rlim_max;
	if (limit.rlim_cur < limit.rlim_max && limit.rlim_cur < ceiling) {
		rlim_t wanted = limit.rlim_max < ceiling ? limit.rlim_max : ceiling;
		struct rlimit raised = {.rlim_cur = wanted, .rlim_max = limit.rlim_max};

		if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
			limit.rlim_cur = wanted;
	}
	return limit.rlim_cur;
}

/* How many attributes may stay open: every descriptor above the floor, or all but a reserve. */
static size_t raise_fd_limit(void)
{
	rlim_t hard, soft = raised_fd_limit(&hard);

	if (fd_floor > 0 && soft > (rlim_t)fd_floor)
		return soft - (rlim_t)fd_floor;
	return soft > 2 * FD_RESERVE ? soft - FD_RESERVE : soft / 2;
}

/* RDMAKIT_FD_FLOOR when set to a number (a wrong one logged), else floor. */
static int floor_from_env(int floor)
{
	const char *text = getenv("RDMAKIT_FD_FLOOR");
	uint64_t value;

	if (!text || !*text)
		return floor;
	if (rk_parse_u64(text, &value) == 0 && value <= INT_MAX / 2)
		return (int)value;
	rk_log(RK_LOG_WARNING, "RDMAKIT_FD_FLOOR=%s is not a descriptor number: %d is used", text,
	       floor);
	return floor;
}

int rk_sysfs_set_fd_floor(int floor)
{
	rlim_t hard, soft;

	if (floor < 0)
		return -EINVAL;
	if (rk_rdma_stack_simulated())
		floor =
		    0; /* ibsim's umad2sim shim takes every descriptor from 1024 up for its own */
	floor = floor_from_env(floor);
	fd_floor = floor;
	soft = raised_fd_limit(&hard);
	if (floor == 0 || soft >= (rlim_t)floor + FD_RESERVE)
		return 0;
	fd_floor = 0;
	rk_log(RK_LOG_WARNING,
	       "descriptor limit %llu (hard %llu) leaves no room above descriptor %d: sysfs "
	       "attributes stay among the other descriptors, which may then land above %d "
	       "(raise the limit, e.g. LimitNOFILE=, to at least %d)",
	       (unsigned long long)soft, (unsigned long long)hard, floor, floor,
	       floor + FD_RESERVE);
	return -EMFILE;
}

/* fd moved to the floor or above (the original closed), or fd itself when no floor is set or
 * the move fails (logged once). */
static int lift_fd(int fd)
{
	static atomic_flag warned = ATOMIC_FLAG_INIT;
	int high;

	if (fd_floor <= 0 || fd >= fd_floor)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, fd_floor);
	if (high < 0) {
		if (!atomic_flag_test_and_set(&warned))
			rk_log(RK_LOG_WARNING,
			       "cannot move an attribute's descriptor above %d: %s; it stays at %d",
			       fd_floor, strerror(errno), fd);
		return fd;
	}
	close(fd);
	return high;
}

/* A tree whose descriptor (root_fd, closed here on failure) is open and whose path is shown as
 * shown; NULL for -ENOMEM. */
static struct rk_sysfs *new_sysfs(int root_fd, const char *shown, const char *reldir)
{
	struct rk_sysfs *fs = calloc(1, sizeof(*fs));

	if (!fs) {
		close(root_fd);
		return NULL;
	}
	fs->root_fd = root_fd;
	fs->root = strdup(shown);
	fs->reldir = reldir ? strdup(reldir) : NULL;
	fs->fd_budget = raise_fd_limit();
	if (!fs->root || (reldir && !fs->reldir)) {
		rk_sysfs_close(fs);
		return NULL;
	}
	return fs;
}

int rk_sysfs_open(const char *root, struct rk_sysfs **out)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		int err = -errno;

		rk_log(RK_LOG_ERR, "%s: cannot open sysfs root: %s", root, strerror(errno));
		return err;
	}
	*out = new_sysfs(fd, root, NULL);
	return *out ? 0 : -ENOMEM;
}

/* "root/reldir" as a message shows it: "/sys" for the root "/". */
static int join_shown(const char *root, const char *reldir, char *buf, size_t size)
{
	size_t rootlen = strlen(root);
	int n;

	while (rootlen > 0 && root[rootlen - 1] == '/')
		rootlen--;
	reldir += strspn(reldir, "/");
	n = snprintf(buf, size, "%.*s/%s", (int)rootlen, root, reldir);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int rk_sysfs_open_in_root(const char *root, const char *reldir, struct rk_sysfs **out)
{
	char shown[RK_PATH_SIZE];
	int fd, tree;

	if (join_shown(root, reldir, shown, sizeof(shown)) != 0)
		return -ENAMETOOLONG;
	fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	tree = fd < 0 ? -errno : rootfs_openat(fd, reldir, O_PATH | O_DIRECTORY, 0);
	if (tree < 0) {
		rk_log(RK_LOG_ERR, "%s: cannot open sysfs root: %s", shown, strerror(-tree));
		if (fd >= 0)
			close(fd);
		return tree;
	}
	close(tree);
	*out = new_sysfs(fd, shown, reldir);
	return *out ? 0 : -ENOMEM;
}

void rk_sysfs_close(struct rk_sysfs *fs)
{
	if (!fs)
		return;
	close(fs->root_fd);
	free(fs->root);
	free(fs->reldir);
	free(fs);
}

/* Open relpath in the tree (inside the root, links followed there, when in a root); -errno. */
static int tree_open(const struct rk_sysfs *fs, const char *relpath, int flags)
{
	char path[RK_PATH_SIZE];
	int fd;

	if (!fs->reldir) {
		fd = openat(fs->root_fd, relpath, flags | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	if (snprintf(path, sizeof(path), "%s/%s", fs->reldir, relpath) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return rootfs_openat(fs->root_fd, path, flags, 0);
}

/* stat of relpath in the tree, links followed; 0 or -errno. */
static int tree_stat(const struct rk_sysfs *fs, const char *relpath, struct stat *st)
{
	int fd, err = 0;

	if (!fs->reldir)
		return fstatat(fs->root_fd, relpath, st, 0) == 0 ? 0 : -errno;
	fd = tree_open(fs, relpath, O_PATH);
	if (fd < 0)
		return fd;
	if (fstat(fd, st) != 0)
		err = -errno;
	close(fd);
	return err;
}

/* readlink of the link at relpath in the tree (the links before it followed); length or -errno. */
static ssize_t tree_readlink(const struct rk_sysfs *fs, const char *relpath, char *buf, size_t size)
{
	char path[RK_PATH_SIZE], name[NAME_MAX + 1];
	ssize_t len;
	int dirfd;

	if (!fs->reldir) {
		len = readlinkat(fs->root_fd, relpath, buf, size);
		return len < 0 ? -errno : len;
	}
	if (snprintf(path, sizeof(path), "%s/%s", fs->reldir, relpath) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	dirfd = rootfs_openat_parent(fs->root_fd, path, name, sizeof(name));
	if (dirfd < 0)
		return dirfd;
	len = readlinkat(dirfd, name, buf, size);
	if (len < 0)
		len = -errno;
	close(dirfd);
	return len;
}

const char *rk_sysfs_root(const struct rk_sysfs *fs)
{
	return fs->root;
}

void rk_sysfs_set_fd_budget(struct rk_sysfs *fs, size_t budget)
{
	fs->fd_budget = budget;
}

size_t rk_sysfs_fallback_count(const struct rk_sysfs *fs)
{
	return fs->fallbacks;
}

static void note_fallback(struct rk_sysfs *fs)
{
	if (fs->fallbacks++ == 0)
		rk_log(
		    RK_LOG_WARNING,
		    "descriptor budget of %zu used up: further attributes are opened on every read",
		    fs->fd_budget);
}

/* Open relpath for reading without blocking (a FIFO's open waits for a writer otherwise), and
 * only when it is a regular file (its stat in st); the descriptor, or -errno. */
static int open_regular_stat(const struct rk_sysfs *fs, const char *relpath, struct stat *st)
{
	int fd = tree_open(fs, relpath, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	int err;

	if (fd < 0)
		return fd;
	err = fstat(fd, st) != 0 ? -errno : rk_file_check_regular(st);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

static int open_regular(const struct rk_sysfs *fs, const char *relpath)
{
	struct stat st;

	return open_regular_stat(fs, relpath, &st);
}

/* Without opening it: is relpath a regular file? 0 or -errno. */
static int check_regular_at(const struct rk_sysfs *fs, const char *relpath)
{
	struct stat st;
	int err = tree_stat(fs, relpath, &st);

	return err ? err : rk_file_check_regular(&st);
}

int rk_attr_open(struct rk_sysfs *fs, const char *relpath, struct rk_attr *attr)
{
	struct stat st;
	int fd = -1, err;

	attr->fd = -1;
	attr->path = NULL;
	attr->warned = false;
	if (fs->fds_open < fs->fd_budget) {
		fd = open_regular_stat(fs, relpath, &st);
		if (fd < 0)
			return fd;
		fd = lift_fd(fd);
		fs->fds_open++;
		attr->dev = st.st_dev;
		attr->ino = st.st_ino;
	} else if ((err = check_regular_at(fs, relpath)) != 0) {
		return err;
	} else {
		note_fallback(fs);
	}
	attr->path = strdup(relpath);
	if (!attr->path) {
		rk_attr_close(fs, &(struct rk_attr){.fd = fd});
		return -ENOMEM;
	}
	attr->fd = fd;
	return 0;
}

/* Is the file at the attribute's path still the regular file its descriptor holds? */
static bool still_the_same(const struct rk_sysfs *fs, const struct rk_attr *attr)
{
	struct stat st;

	return tree_stat(fs, attr->path, &st) == 0 && S_ISREG(st.st_mode) &&
	       st.st_dev == attr->dev && st.st_ino == attr->ino;
}

int rk_attr_recheck(struct rk_sysfs *fs, struct rk_attr *attr)
{
	struct stat st;
	int fd;

	if (attr->fd < 0 || still_the_same(fs, attr))
		return 0; /* read by path (already opened at each read), or unchanged */
	close(attr->fd);
	fs->fds_open--;
	attr->fd = -1;
	fd = open_regular_stat(fs, attr->path, &st);
	if (fd < 0)
		return fd;
	fs->fds_open++;
	attr->fd = lift_fd(fd);
	attr->dev = st.st_dev;
	attr->ino = st.st_ino;
	return 0;
}

void rk_attr_close(struct rk_sysfs *fs, struct rk_attr *attr)
{
	if (attr->fd >= 0) {
		close(attr->fd);
		fs->fds_open--;
	}
	attr->fd = -1;
	free(attr->path);
	attr->path = NULL;
}

static ssize_t trim_value(char *buf, ssize_t len)
{
	while (len > 0 && isspace((unsigned char)buf[len - 1]))
		len--;
	buf[len] = '\0';
	return len;
}

static ssize_t read_fd(int fd, char *buf, size_t size)
{
	ssize_t len = pread(fd, buf, size - 1, 0);

	if (len < 0)
		return -errno;
	return trim_value(buf, len);
}

ssize_t rk_sysfs_read(struct rk_sysfs *fs, const char *relpath, char *buf, size_t size)
{
	int fd = open_regular(fs, relpath);
	ssize_t len;

	if (fd < 0)
		return fd;
	len = read_fd(fd, buf, size);
	close(fd);
	return len;
}

ssize_t rk_attr_read(struct rk_sysfs *fs, const struct rk_attr *attr, char *buf, size_t size)
{
	if (attr->fd >= 0)
		return read_fd(attr->fd, buf, size);
	if (!attr->path)
		return -EBADF;
	return rk_sysfs_read(fs, attr->path, buf, size);
}

const char *rk_sysfs_error(int err)
{
	if (err == -ESPIPE)
		return "not a regular file (a FIFO, socket or device node?)";
	if (err == -EISDIR)
		return "a directory, not a regular file";
	return strerror(-err);
}

void rk_attr_warn_once(struct rk_attr *attr, const char *problem, const char *text)
{
	if (attr->warned)
		return;
	attr->warned = true;
	if (text)
		rk_log(RK_LOG_WARNING, "%s: %s: \"%.32s\"", attr->path, problem, text);
	else
		rk_log(RK_LOG_WARNING, "%s: %s", attr->path, problem);
}

bool rk_sysfs_exists(struct rk_sysfs *fs, const char *relpath)
{
	struct stat st;

	if (!fs->reldir)
		return faccessat(fs->root_fd, relpath, F_OK, 0) == 0;
	return tree_stat(fs, relpath, &st) == 0;
}

int rk_sysfs_link_name(struct rk_sysfs *fs, const char *relpath, char *buf, size_t size)
{
	char target[RK_PATH_SIZE];
	ssize_t len = tree_readlink(fs, relpath, target, sizeof(target) - 1);
	const char *base;

	if (len < 0)
		return (int)len;
	target[len] = '\0';
	while (len > 1 && target[len - 1] == '/')
		target[--len] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= size)
		return -ENAMETOOLONG;
	strcpy(buf, base);
	return 0;
}

static int compare_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static int append_name(char ***names, size_t *count, size_t *cap, const char *name)
{
	if (*count == *cap) {
		size_t grown = *cap ? *cap * 2 : 16;
		char **bigger = realloc(*names, grown * sizeof(**names));

		if (!bigger)
			return -ENOMEM;
		*names = bigger;
		*cap = grown;
	}
	(*names)[*count] = strdup(name);
	if (!(*names)[*count])
		return -ENOMEM;
	(*count)++;
	return 0;
}

int rk_names_of_dir_fd(int fd, char ***names, size_t *count)
{
	size_t cap = 0;
	struct dirent *entry;
	DIR *dir;
	int err = 0;

	*names = NULL;
	*count = 0;
	if (fd < 0)
		return fd;
	dir = fdopendir(fd);
	if (!dir) {
		err = -errno;
		close(fd);
		return err;
	}
	while (!err && (entry = readdir(dir)) != NULL) {
		if (entry->d_name[0] == '.')
			continue;
		err = append_name(names, count, &cap, entry->d_name);
	}
	closedir(dir);
	if (err) {
		rk_names_free(*names, *count);
		*names = NULL;
		*count = 0;
		return err;
	}
	if (*count)
		qsort(*names, *count, sizeof(**names), compare_names);
	return 0;
}

int rk_sysfs_list(struct rk_sysfs *fs, const char *reldir, char ***names, size_t *count)
{
	return rk_names_of_dir_fd(tree_open(fs, reldir, O_RDONLY | O_DIRECTORY), names, count);
}

void rk_names_free(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

static int parse_decimal(const char *p, uint64_t *out)
{
	uint64_t value = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (__builtin_mul_overflow(value, 10, &value) ||
		    __builtin_add_overflow(value, (uint64_t)(*p - '0'), &value))
			return -ERANGE;
	}
	if (*p != '\0')
		return -EINVAL;
	*out = value;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int parse_hex(const char *p, uint64_t *out)
{
	uint64_t value = 0;
	int digit;

	if (hex_digit(*p) < 0)
		return -EINVAL;
	for (; (digit = hex_digit(*p)) >= 0; p++) {
		if (value >> 60)
			return -ERANGE;
		value = value << 4 | (uint64_t)digit;
	}
	if (*p != '\0')
		return -EINVAL;
	*out = value;
	return 0;
}

int rk_parse_u64(const char *text, uint64_t *out)
{
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
		return parse_hex(text + 2, out);
	return parse_decimal(text, out);
}

int rk_parse_numbered(const char *text, int *number, char *name, size_t name_size)
{
	const char *colon = strchr(text, ':');
	char digits[16];
	uint64_t value;
	size_t len;

	if (!colon || colon == text || (size_t)(colon - text) >= sizeof(digits))
		return -EINVAL;
	memcpy(digits, text, (size_t)(colon - text));
	digits[colon - text] = '\0';
	if (rk_parse_u64(digits, &value) != 0 || value > 255)
		return -EINVAL;
	colon++;
	while (*colon == ' ')
		colon++;
	len = strlen(colon);
	if (len == 0 || len >= name_size)
		return -EINVAL;
	memcpy(name, colon, len + 1);
	*number = (int)value;
	return 0;
}
