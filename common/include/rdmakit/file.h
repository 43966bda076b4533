/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Opening a file an operator names (a plan, a node name map, a config) as hostile input. */
#ifndef RDMAKIT_FILE_H
#define RDMAKIT_FILE_H

#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

/* Room for every path rdmakit joins: a path kept as it is takes PATH_MAX, the kernel's own
 * limit; one joined from it (a root before it, a suffix such as ".new" after it) takes this. */
#define RK_PATH_SIZE (PATH_MAX + 512)

/** The regular file at path as a stream for reading, opened without blocking (a FIFO's open
 * would wait for a writer) and close-on-exec; NULL and *err when not: -EISDIR for a directory,
 * -ESPIPE for anything else that is not a regular file, or the open's -errno (say why with
 * rk_sysfs_error). */
FILE *rk_file_open_regular(const char *path, int *err);

/** 0 when st is a regular file's; -EISDIR for a directory, -ESPIPE for anything else (a FIFO, a
 * socket, a device node), so that no read waits on a writer or drains a device. */
int rk_file_check_regular(const struct stat *st);

#endif
