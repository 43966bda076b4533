/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/sysfs.h"

#include "rdmakit/log.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

struct rk_sysfs {
	int root_fd;
	char *root;
	size_t fd_budget;
	size_t fds_open;
	size_t fallbacks;
};

static size_t raise_fd_limit(void)
{
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
		return 1024 - FD_RESERVE;
	if (limit.rlim_cur < limit.rlim_max && limit.rlim_cur < FD_CEILING) {
		rlim_t wanted = limit.rlim_max < FD_CEILING ? limit.rlim_max : FD_CEILING;
		struct rlimit raised = {.rlim_cur = wanted, .rlim_max = limit.rlim_max};

		if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
			limit.rlim_cur = wanted;
	}
	return limit.rlim_cur > 2 * FD_RESERVE ? limit.rlim_cur - FD_RESERVE : limit.rlim_cur / 2;
}

int rk_sysfs_open(const char *root, struct rk_sysfs **out)
{
	struct rk_sysfs *fs = calloc(1, sizeof(*fs));

	if (!fs)
		return -ENOMEM;
	fs->root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fs->root_fd < 0) {
		int err = -errno;

		rk_log(RK_LOG_ERR, "%s: cannot open sysfs root: %s", root, strerror(errno));
		free(fs);
		return err;
	}
	fs->root = strdup(root);
	if (!fs->root) {
		close(fs->root_fd);
		free(fs);
		return -ENOMEM;
	}
	fs->fd_budget = raise_fd_limit();
	*out = fs;
	return 0;
}

void rk_sysfs_close(struct rk_sysfs *fs)
{
	if (!fs)
		return;
	close(fs->root_fd);
	free(fs->root);
	free(fs);
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

/* An attribute is a regular file: a directory is -EISDIR, anything else (a FIFO, a socket, a
 * device node) -ESPIPE, so no read ever waits on a writer or drains a device. */
static int check_regular(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return 0;
	return S_ISDIR(st->st_mode) ? -EISDIR : -ESPIPE;
}

/* Open relpath for reading without blocking (a FIFO's open waits for a writer otherwise), and
 * only when it is a regular file (its stat in st); the descriptor, or -errno. */
static int open_regular_stat(int dirfd, const char *relpath, struct stat *st)
{
	int fd = openat(dirfd, relpath, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	err = fstat(fd, st) != 0 ? -errno : check_regular(st);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

static int open_regular(int dirfd, const char *relpath)
{
	struct stat st;

	return open_regular_stat(dirfd, relpath, &st);
}

/* Without opening it: is relpath a regular file? 0 or -errno. */
static int check_regular_at(int dirfd, const char *relpath)
{
	struct stat st;

	if (fstatat(dirfd, relpath, &st, 0) != 0)
		return -errno;
	return check_regular(&st);
}

int rk_attr_open(struct rk_sysfs *fs, const char *relpath, struct rk_attr *attr)
{
	struct stat st;
	int fd = -1, err;

	attr->fd = -1;
	attr->path = NULL;
	attr->warned = false;
	if (fs->fds_open < fs->fd_budget) {
		fd = open_regular_stat(fs->root_fd, relpath, &st);
		if (fd < 0)
			return fd;
		fs->fds_open++;
		attr->dev = st.st_dev;
		attr->ino = st.st_ino;
	} else if ((err = check_regular_at(fs->root_fd, relpath)) != 0) {
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

	return fstatat(fs->root_fd, attr->path, &st, 0) == 0 && S_ISREG(st.st_mode) &&
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
	fd = open_regular_stat(fs->root_fd, attr->path, &st);
	if (fd < 0)
		return fd;
	fs->fds_open++;
	attr->fd = fd;
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
	int fd = open_regular(fs->root_fd, relpath);
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
		return "a directory, not an attribute file";
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
	return faccessat(fs->root_fd, relpath, F_OK, 0) == 0;
}

int rk_sysfs_link_name(struct rk_sysfs *fs, const char *relpath, char *buf, size_t size)
{
	char target[4096];
	ssize_t len = readlinkat(fs->root_fd, relpath, target, sizeof(target) - 1);
	const char *base;

	if (len < 0)
		return -errno;
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

int rk_sysfs_list(struct rk_sysfs *fs, const char *reldir, char ***names, size_t *count)
{
	int fd = openat(fs->root_fd, reldir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t cap = 0;
	struct dirent *entry;
	DIR *dir;
	int err = 0;

	*names = NULL;
	*count = 0;
	if (fd < 0)
		return -errno;
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
