/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* An LD_PRELOAD shim for the fault matrix (tests/e2e/test_tune_faults.py): it counts the
 * write, fsync, rename, unlink and rmdir calls of a process and makes one of them fail.
 *
 *   RDMAKIT_FAULT_CALL=write|fsync|rename|unlink|rmdir  the call to fail (rename counts
 *                                                     renameat too, unlink unlinkat, rmdir
 *                                                     unlinkat with AT_REMOVEDIR)
 *   RDMAKIT_FAULT_AT=N                                   its Nth call fails (1-based)
 *   RDMAKIT_FAULT_ERRNO=ENOSPC|EIO                        with this errno
 *   RDMAKIT_FAULT_COUNTS=FILE                             at exit, "CALL COUNT" lines to FILE
 *   RDMAKIT_FAULT_EINVAL=SUFFIX                           every pread of a file whose path
 *                                                     ends with SUFFIX fails with EINVAL
 *                                                     (as a ConnectX-7 port in switch mode
 *                                                     answers some of its sysfs attributes)
 *
 * Writes to descriptors 0-2 (the command's output and messages) are neither counted nor
 * failed: the matrix is about the files a command changes. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum fault_call { CALL_WRITE, CALL_FSYNC, CALL_RENAME, CALL_UNLINK, CALL_RMDIR, CALL_COUNT };

static const char *const call_names[CALL_COUNT] = {"write", "fsync", "rename", "unlink", "rmdir"};
static long calls[CALL_COUNT];

/* Count this call; true when it is the one to fail (errno is then set). */
static int should_fail(enum fault_call call)
{
	const char *name = getenv("RDMAKIT_FAULT_CALL"), *at = getenv("RDMAKIT_FAULT_AT");
	const char *err = getenv("RDMAKIT_FAULT_ERRNO");

	calls[call]++;
	if (!name || !at || strcmp(name, call_names[call]) != 0 || calls[call] != atol(at))
		return 0;
	errno = err && strcmp(err, "EIO") == 0 ? EIO : ENOSPC;
	return 1;
}

/* The next definition of name (libc's, or a sanitizer's interceptor in front of it). */
static void *real(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn)
		abort();
	return fn;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*next)(int, const void *, size_t);

	if (!next)
		next = (ssize_t(*)(int, const void *, size_t))real("write");
	if (fd > 2 && should_fail(CALL_WRITE))
		return -1;
	return next(fd, buf, count);
}

int fsync(int fd)
{
	static int (*next)(int);

	if (!next)
		next = (int (*)(int))real("fsync");
	return should_fail(CALL_FSYNC) ? -1 : next(fd);
}

int rename(const char *from, const char *to)
{
	static int (*next)(const char *, const char *);

	if (!next)
		next = (int (*)(const char *, const char *))real("rename");
	return should_fail(CALL_RENAME) ? -1 : next(from, to);
}

int unlink(const char *path)
{
	static int (*next)(const char *);

	if (!next)
		next = (int (*)(const char *))real("unlink");
	return should_fail(CALL_UNLINK) ? -1 : next(path);
}

int rmdir(const char *path)
{
	static int (*next)(const char *);

	if (!next)
		next = (int (*)(const char *))real("rmdir");
	return should_fail(CALL_RMDIR) ? -1 : next(path);
}

int renameat(int from_dir, const char *from, int to_dir, const char *to)
{
	static int (*next)(int, const char *, int, const char *);

	if (!next)
		next = (int (*)(int, const char *, int, const char *))real("renameat");
	return should_fail(CALL_RENAME) ? -1 : next(from_dir, from, to_dir, to);
}

int unlinkat(int dir, const char *path, int flags)
{
	static int (*next)(int, const char *, int);

	if (!next)
		next = (int (*)(int, const char *, int))real("unlinkat");
	return should_fail(flags & AT_REMOVEDIR ? CALL_RMDIR : CALL_UNLINK)
		   ? -1
		   : next(dir, path, flags);
}

/* Whether fd is a file whose path ends with RDMAKIT_FAULT_EINVAL. */
static int refused(int fd)
{
	const char *suffix = getenv("RDMAKIT_FAULT_EINVAL");
	char link[64], path[4096];
	ssize_t len;
	size_t want;

	if (!suffix || !*suffix)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len < 0)
		return 0;
	path[len] = '\0';
	want = strlen(suffix);
	return (size_t)len >= want && strcmp(path + len - want, suffix) == 0;
}

ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	static ssize_t (*next)(int, void *, size_t, off_t);

	if (!next)
		next = (ssize_t(*)(int, void *, size_t, off_t))real("pread");
	if (refused(fd)) {
		errno = EINVAL;
		return -1;
	}
	return next(fd, buf, count, offset);
}

ssize_t pread64(int fd, void *buf, size_t count, off_t offset)
{
	return pread(fd, buf, count, offset);
}

/* At exit, how many of each call the process made, for the driver to enumerate. */
__attribute__((destructor)) static void write_counts(void)
{
	const char *path = getenv("RDMAKIT_FAULT_COUNTS");
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	for (int i = 0; i < CALL_COUNT; i++)
		fprintf(f, "%s %ld\n", call_names[i], calls[i]);
	fclose(f);
}
