/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the fuzz targets share: a silent log handler, a private directory in tmpfs. */
#ifndef RDMAKIT_FUZZ_UTIL_H
#define RDMAKIT_FUZZ_UTIL_H

#include "tree_util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** ASan's defaults for every target: fill all of a fresh allocation (not only its first 4 KB)
 * with garbage, so a read past the end of a string in a bigger buffer is seen at once. */
const char *__asan_default_options(void);

/** Route the core's log to a handler that drops messages (they are still formatted). */
void fuzz_quiet_log(void);

/** This process's scratch directory in tmpfs (/dev/shm), created on first use. */
const char *fuzz_scratch_dir(void);

/** Write size bytes to path (created or truncated); 0 or -1. */
int fuzz_write_file(const char *path, const uint8_t *data, size_t size);

/** The nth part (from 0) of data split at form feeds; false when there are fewer parts. */
bool fuzz_part(const uint8_t *data, size_t size, unsigned n, const uint8_t **part, size_t *len);

#endif
