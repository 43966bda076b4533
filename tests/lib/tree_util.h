/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Directory trees for the unit tests and the fuzz targets: copy, empty, remove. */
#ifndef RDMAKIT_TEST_TREE_UTIL_H
#define RDMAKIT_TEST_TREE_UTIL_H

/** Copy the tree at src (files, directories, symlinks as they are) into dst; 0 or -1. */
int copy_tree(const char *src, const char *dst);

/** Copy the regular file src to dst (created or truncated); 0 or -1. */
int copy_file(const char *src, const char *dst);

/** Remove everything under dir (not dir itself). */
void empty_tree(const char *dir);

/** Remove a directory tree (or a file) and everything under it. */
void remove_tree(const char *path);

#endif
