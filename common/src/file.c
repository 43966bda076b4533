/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *rk_file_open_regular(const char *path, int *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	FILE *file = NULL;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) != 0)
		*err = -errno;
	else if (!S_ISREG(st.st_mode))
		*err = S_ISDIR(st.st_mode) ? -EISDIR : -ESPIPE;
	else if (!(file = fdopen(fd, "r")))
		*err = -errno;
	if (!file && fd >= 0)
		close(fd);
	return file;
}
