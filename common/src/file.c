/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/file.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int rk_file_check_regular(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return 0;
	return S_ISDIR(st->st_mode) ? -EISDIR : -ESPIPE;
}

FILE *rk_file_open_regular(const char *path, int *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	FILE *file = NULL;
	struct stat st;

	*err = fd < 0 || fstat(fd, &st) != 0 ? -errno : rk_file_check_regular(&st);
	if (!*err && !(file = fdopen(fd, "r")))
		*err = -errno;
	if (!file && fd >= 0)
		close(fd);
	return file;
}
