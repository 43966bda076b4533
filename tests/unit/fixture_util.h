/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Helpers for unit tests: fixture paths, private copies of fixture trees, captured logs. */
#ifndef RDMAKIT_TEST_FIXTURE_UTIL_H
#define RDMAKIT_TEST_FIXTURE_UTIL_H

#include "rdmakit/fabric.h"
#include "tree_util.h"

#include <stddef.h>

/** Path of a fixture tree under tests/fixtures/sysfs (static buffer). */
const char *fixture_path(const char *name);

/** Copy a fixture tree into a new temporary directory; returns its path (free it). */
char *fixture_copy(const char *name);

/** Remove a copy made by fixture_copy (and its temporary parent) and free the path. */
void fixture_discard(char *copy);

/** Write text to root/relpath, replacing its content. */
void write_file(const char *root, const char *relpath, const char *text);

/** Rename root/from to root/to; rename's result. */
int move_path(const char *root, const char *from, const char *to);

/* What a hostile tree puts where an attribute file should be. */
enum hostile_kind {
	HOSTILE_FIFO, /* a named pipe: opening it for reading waits for a writer */
	HOSTILE_DIR,  /* an empty directory */
	HOSTILE_LOOP, /* a symlink to itself */
};

/** Replace root/relpath (file or tree) with a FIFO, a directory or a symlink loop; 0 or -1. */
int replace_with(const char *root, const char *relpath, enum hostile_kind kind);

/* Whether this build runs under AddressSanitizer (RDMAKIT_SANITIZE). */
#if defined(__SANITIZE_ADDRESS__)
#define RUNNING_UNDER_ASAN 1
#else
#define RUNNING_UNDER_ASAN 0
#endif

/** Limit this process's address space to what it maps now plus extra bytes. */
void limit_address_space(size_t extra);

/* A node of a fabric built by hand: its description is its name too. */
struct test_node {
	uint64_t guid;
	enum rk_node_type type;
	int nports;
	const char *description;
};

/* A link of such a fabric, 4X EDR: node indexes and ports. */
struct test_link {
	int a, port_a, b, port_b;
};

/** A fabric of these nodes (sorted by GUID) and links, freed by rk_fabric_free. */
struct rk_fabric *test_fabric(const struct test_node *nodes, size_t nnodes,
			      const struct test_link *links, size_t nlinks);

/** Start capturing the core's log messages (drops earlier ones). */
void log_capture_start(void);

/** Number of captured messages containing needle. */
size_t log_capture_count(const char *needle);

#endif
