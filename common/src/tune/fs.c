/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Files under the tune root, every path resolved inside it (rootfs.c): reading regular files
 * only, bounded, with precise errors; and writing them atomically, never through a link. */
#include "rdmakit/file.h"
#include "tune_internal.h"

#include "rdmakit/log.h"
#include "rootfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tune_path(const char *root, const char *relpath, char *buf, size_t size)
{
	size_t rootlen = strlen(root);
	int n;

	while (rootlen > 1 && root[rootlen - 1] == '/')
		rootlen--;
	while (*relpath == '/')
		relpath++;
	n = snprintf(buf, size, "%.*s/%s", (int)rootlen, root, relpath);
	if (rootlen == 1 && root[0] == '/')
		n = snprintf(buf, size, "/%s", relpath);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int open_regular(const char *root, const char *relpath, int follow, int *fd_out,
			struct stat *st)
{
	int fd = rootfs_open(root, relpath, O_RDONLY | O_NONBLOCK | O_NOCTTY | follow, 0);

	if (fd < 0)
		return fd;
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return -EINVAL;
	}
	*fd_out = fd;
	return 0;
}

static int read_all(int fd, char **data, size_t *len)
{
	size_t cap = 4096, used = 0;
	char *buf = malloc(cap + 1);
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	while ((n = read(fd, buf + used, cap - used)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return -errno;
		}
		used += (size_t)n;
		if (used == cap && cap >= TUNE_MAX_FILE) {
			free(buf);
			return -EFBIG;
		}
		if (used == cap) {
			char *bigger = realloc(buf, cap * 2 + 1);

			if (!bigger) {
				free(buf);
				return -ENOMEM;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	buf[used] = '\0';
	*data = buf;
	*len = used;
	return 0;
}

void tune_refuse_link(const char *root, const char *relpath)
{
	rk_log(RK_LOG_ERR,
	       "tune: /%s under %s is a symbolic link: refused (rdmakit tune never writes a file "
	       "or value through a link, nor replaces one)",
	       relpath + strspn(relpath, "/"), root);
}

/* Say why a file that is there could not be read (a missing one is not news). */
static void warn_unreadable(const char *root, const char *relpath, int nofollow, int err)
{
	char path[RK_PATH_SIZE];

	if (err == -ELOOP && nofollow) {
		tune_refuse_link(root, relpath);
	} else if (err != -ENOENT && err != -ENOTDIR) {
		tune_path(root, relpath, path, sizeof(path));
		rk_log(RK_LOG_WARNING, "tune: %s: %s", path,
		       err == -EINVAL ? "not a regular file" : strerror(-err));
	}
}

/* Read the file at relpath whole; a link at its end followed (inside root) unless nofollow. */
static int slurp(const char *root, const char *relpath, int nofollow, char **data, size_t *len,
		 mode_t *mode)
{
	struct stat st;
	int fd, err = open_regular(root, relpath, nofollow, &fd, &st);

	if (err) {
		warn_unreadable(root, relpath, nofollow, err);
		return err;
	}
	err = read_all(fd, data, len);
	close(fd);
	if (err)
		warn_unreadable(root, relpath, nofollow, err);
	else if (mode)
		*mode = st.st_mode & 07777;
	return err;
}

int tune_slurp(const char *root, const char *relpath, char **data, size_t *len, mode_t *mode)
{
	return slurp(root, relpath, 0, data, len, mode);
}

int tune_slurp_target(const char *root, const char *relpath, char **data, size_t *len, mode_t *mode)
{
	return slurp(root, relpath, O_NOFOLLOW, data, len, mode);
}

ssize_t tune_read_text(const char *root, const char *relpath, char *buf, size_t size)
{
	char *data;
	size_t len;
	int err = tune_slurp(root, relpath, &data, &len, NULL);

	if (err)
		return err;
	while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == ' ' || data[len - 1] == '\t'))
		len--;
	if (len >= size || memchr(data, '\0', len)) {
		rk_log(RK_LOG_WARNING, "tune: %s under %s: %s", relpath, root,
		       len >= size ? "longer than a value" : "binary data, not text");
		free(data);
		return -EINVAL;
	}
	memcpy(buf, data, len);
	buf[len] = '\0';
	free(data);
	return (ssize_t)len;
}

int tune_read_long(const char *root, const char *relpath, long *out)
{
	char buf[64], *end;
	ssize_t len = tune_read_text(root, relpath, buf, sizeof(buf));

	if (len < 0)
		return (int)len;
	errno = 0;
	*out = strtol(buf, &end, 10);
	if (end == buf || *end != '\0' || errno) {
		rk_log(RK_LOG_WARNING, "tune: %s under %s: not a whole number: \"%s\"", relpath,
		       root, buf);
		return -EINVAL;
	}
	return 0;
}

void tune_each_line(char *data, size_t len, tune_line_fn fn, void *arg)
{
	char *p = data, *end = data + len;
	unsigned lineno = 0;

	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));

		if (nl)
			*nl = '\0';
		fn(p, ++lineno, arg);
		if (!nl)
			break;
		p = nl + 1;
	}
}

int tune_text_add(struct tune_text *text, const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vsnprintf(NULL, 0, fmt, args);
	va_end(args);
	if (n < 0)
		return -EINVAL;
	if (text->len + (size_t)n + 1 > text->capacity) {
		size_t grown = (text->len + (size_t)n + 1) * 2;
		char *bigger = realloc(text->data, grown);

		if (!bigger)
			return -ENOMEM;
		text->data = bigger;
		text->capacity = grown;
	}
	va_start(args, fmt);
	vsnprintf(text->data + text->len, (size_t)n + 1, fmt, args);
	va_end(args);
	text->len += (size_t)n;
	return 0;
}

void tune_text_free(struct tune_text *text)
{
	free(text->data);
	*text = (struct tune_text){0};
}

void tune_note_error(struct tune_ctx *ctx, int err)
{
	if (err && !ctx->err)
		ctx->err = err;
}

static int set_cpu_range(unsigned long *mask, size_t words, unsigned long first, unsigned long last)
{
	if (last < first || last >= words * 8 * sizeof(unsigned long))
		return -EINVAL;
	for (unsigned long cpu = first; cpu <= last; cpu++)
		mask[cpu / (8 * sizeof(unsigned long))] |= 1ul
							   << (cpu % (8 * sizeof(unsigned long)));
	return 0;
}

int tune_parse_cpulist(const char *text, unsigned long *mask, size_t words)
{
	const char *p = text;

	memset(mask, 0, words * sizeof(*mask));
	while (*p) {
		char *end;
		unsigned long first, last;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		first = last = strtoul(p, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -EINVAL;
			last = strtoul(end + 1, &end, 10);
		}
		if (set_cpu_range(mask, words, first, last) != 0)
			return -EINVAL;
		p = end;
		if (*p == ',' && p[1] != '\0')
			p++;
		else if (*p != '\0')
			return -EINVAL;
	}
	return p == text ? -EINVAL : 0;
}

void tune_selected(const char *text, char *out, size_t size)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close)
		snprintf(out, size, "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(out, size, "%s", text);
}

void tune_temp_path(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');

	snprintf(buf, size, "%.*s.%s.rdmakit-tmp", slash ? (int)(slash - path + 1) : 0, path,
		 slash ? slash + 1 : path);
}

int tune_write_all(int fd, const void *bytes, size_t len)
{
	const char *p = bytes;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* fsync the directory dirfd (an O_PATH descriptor) names. */
static int fsync_dir(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) != 0)
		err = -errno;
	close(fd);
	return err;
}

int tune_fsync_dir_of(const char *root, const char *relpath)
{
	char name[256];
	int dirfd = rootfs_open_parent(root, relpath, name, sizeof(name)), err;

	if (dirfd < 0)
		return dirfd;
	err = fsync_dir(dirfd);
	close(dirfd);
	return err;
}

/* Write the temporary file temp in dirfd whole, with its owner (if given) and mode, and fsync
 * it; *op names the step that failed. */
static int write_temp(int dirfd, const char *temp, const void *bytes, size_t len, unsigned mode,
		      const struct tune_owner *owner, const char **op)
{
	int fd = openat(dirfd, temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	int err;

	*op = "create of its temporary copy";
	if (fd < 0)
		return -errno;
	*op = "write of its temporary copy";
	err = tune_write_all(fd, bytes, len);
	if (!err && owner && (*op = "chown of its temporary copy") &&
	    fchown(fd, (uid_t)owner->uid, (gid_t)owner->gid) != 0)
		err = -errno;
	if (!err && (*op = "chmod of its temporary copy") && fchmod(fd, mode & 07777) != 0)
		err = -errno;
	if (!err && (*op = "fsync of its temporary copy") && fsync(fd) != 0)
		err = -errno;
	if (close(fd) != 0 && !err) {
		*op = "close of its temporary copy";
		err = -errno;
	}
	return err;
}

/* Write name in dirfd atomically; a link there is refused (-ELOOP), never replaced; *op names
 * the step that failed. */
static int replace_at(int dirfd, const char *name, const void *bytes, size_t len, unsigned mode,
		      const struct tune_owner *owner, const char **op)
{
	char temp[300];
	struct stat st;
	int err;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return -ELOOP;
	tune_temp_path(name, temp, sizeof(temp));
	err = write_temp(dirfd, temp, bytes, len, mode, owner, op);
	if (!err && renameat(dirfd, temp, dirfd, name) != 0) {
		*op = "rename into place";
		err = -errno;
	}
	if (err && unlinkat(dirfd, temp, 0) != 0 && errno != ENOENT)
		rk_log(RK_LOG_ERR,
		       "tune: %s: unlink of the temporary copy: %s (the next rollback "
		       "removes it)",
		       temp, strerror(errno));
	if (!err && (err = fsync_dir(dirfd)) != 0)
		*op = "fsync of its directory";
	return err;
}

int tune_write_atomic(const char *root, const char *relpath, const void *bytes, size_t len,
		      unsigned mode)
{
	return tune_write_atomic_owned(root, relpath, bytes, len, mode, NULL);
}

int tune_write_atomic_owned(const char *root, const char *relpath, const void *bytes, size_t len,
			    unsigned mode, const struct tune_owner *owner)
{
	char name[256];
	const char *op = "open of its directory";
	int dirfd = rootfs_open_parent(root, relpath, name, sizeof(name)), err = dirfd;

	if (dirfd >= 0) {
		err = replace_at(dirfd, name, bytes, len, mode, owner, &op);
		close(dirfd);
	}
	if (err == -ELOOP)
		tune_refuse_link(root, relpath);
	else if (err)
		rk_log(RK_LOG_ERR, "tune: /%s under %s: %s: %s", relpath + strspn(relpath, "/"),
		       root, op, strerror(-err));
	return err;
}
