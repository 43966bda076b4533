/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "fuzz_util.h"

#include "rdmakit/log.h"

#include <fcntl.h>
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
	remove_tree(scratch);
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

int fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	ssize_t n = fd >= 0 ? write(fd, data, size) : -1;

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)size ? 0 : -1;
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
