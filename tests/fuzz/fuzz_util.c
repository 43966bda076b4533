/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "fuzz_util.h"

#include "rdmakit/log.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *__asan_default_options(void)
{
	return "max_malloc_fill_size=1048576";
}

static void drop(enum rk_log_level level, const char *message, void *ctx)
{
	(void)level;
	(void)message;
	(void)ctx;
}

void fuzz_quiet_log(void)
{
	rk_log_set_handler(drop, NULL);
	rk_log_set_level(RK_LOG_DEBUG);
}

static char scratch[64];

static void remove_scratch(void)
{
	fuzz_empty_dir(scratch);
	rmdir(scratch);
}

const char *fuzz_scratch_dir(void)
{
	if (!scratch[0]) {
		snprintf(scratch, sizeof(scratch), "/dev/shm/rdmakit-fuzz-%d", (int)getpid());
		if (mkdir(scratch, 0700) != 0)
			abort(); /* no tmpfs to work in: nothing can be fuzzed */
		atexit(remove_scratch);
	}
	return scratch;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

void fuzz_empty_dir(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	ssize_t n = fd >= 0 ? write(fd, data, size) : -1;

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)size ? 0 : -1;
}

int fuzz_copy_file(const char *src, const char *dst)
{
	char buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	int out =
	    in >= 0 ? open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644) : -1;
	ssize_t n = out >= 0 ? 1 : -1;

	while (n > 0 && (n = read(in, buf, sizeof(buf))) > 0)
		n = write(out, buf, (size_t)n) == n ? 1 : -1;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return n == 0 ? 0 : -1;
}

static const char *copy_src, *copy_dst;
static int copy_failed;

static int copy_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char target[4096], link[4096];
	ssize_t n;

	(void)ftw;
	snprintf(target, sizeof(target), "%s%s", copy_dst, path + strlen(copy_src));
	if (type == FTW_D)
		copy_failed |= mkdir(target, 0755) != 0 && errno != EEXIST;
	else if (type == FTW_SL && (n = readlink(path, link, sizeof(link) - 1)) > 0) {
		link[n] = '\0';
		copy_failed |= symlink(link, target) != 0;
	} else if (type == FTW_F && S_ISREG(st->st_mode))
		copy_failed |= fuzz_copy_file(path, target) != 0;
	else
		copy_failed = 1;
	return copy_failed;
}

int fuzz_copy_tree(const char *src, const char *dst)
{
	copy_src = src;
	copy_dst = dst;
	copy_failed = 0;
	return nftw(src, copy_entry, 16, FTW_PHYS) == 0 && !copy_failed ? 0 : -1;
}

bool fuzz_part(const uint8_t *data, size_t size, unsigned n, const uint8_t **part, size_t *len)
{
	const uint8_t *end = data + size, *p = data, *next;

	for (; n > 0; n--) {
		const uint8_t *ff = memchr(p, '\f', (size_t)(end - p));

		if (!ff)
			return false;
		p = ff + 1;
	}
	next = memchr(p, '\f', (size_t)(end - p));
	*part = p;
	*len = (size_t)((next ? next : end) - p);
	return true;
}
