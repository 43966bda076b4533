/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Helpers for unit tests: fixture paths, private copies of fixture trees, captured logs. */
#ifndef RDMAKIT_TEST_FIXTURE_UTIL_H
#define RDMAKIT_TEST_FIXTURE_UTIL_H

#include <stddef.h>

/** Path of a fixture tree under tests/fixtures/sysfs (static buffer). */
const char *fixture_path(const char *name);

/** Copy a fixture tree into a new temporary directory; returns its path (free it). */
char *fixture_copy(const char *name);

/** Remove a copy made by fixture_copy (and its temporary parent) and free the path. */
void fixture_discard(char *copy);

/** Remove a directory tree. */
void remove_tree(const char *path);

/** Write text to root/relpath, replacing its content. */
void write_file(const char *root, const char *relpath, const char *text);

/** Rename root/from to root/to; rename's result. */
int move_path(const char *root, const char *from, const char *to);

/** Start capturing the core's log messages (drops earlier ones). */
void log_capture_start(void);

/** Number of captured messages containing needle. */
size_t log_capture_count(const char *needle);

#endif
