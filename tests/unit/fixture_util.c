/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "fixture_util.h"

#include "rdmakit/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char captured[64][512];
static size_t ncaptured;

const char *fixture_path(const char *name)
{
	static char path[4096];
	const char *base = getenv("FIXTURES");

	snprintf(path, sizeof(path), "%s/sysfs/%s", base ? base : "tests/fixtures", name);
	return path;
}

char *fixture_copy(const char *name)
{
	char tmpl[] = "/tmp/rdmakit-test-XXXXXX";
	char *dir = mkdtemp(tmpl);
	char copy_dest[4096];

	if (!dir)
		return NULL;
	snprintf(copy_dest, sizeof(copy_dest), "%s/root", dir);
	if (copy_tree(fixture_path(name), copy_dest) != 0)
		return NULL;
	return strdup(copy_dest);
}

void fixture_discard(char *copy)
{
	char *slash;

	if (!copy)
		return;
	remove_tree(copy);
	slash = strrchr(copy, '/');
	if (slash) {
		*slash = '\0';
		rmdir(copy);
	}
	free(copy);
}

void write_file(const char *root, const char *relpath, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, relpath);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int move_path(const char *root, const char *from, const char *to)
{
	char from_path[4096], to_path[4096];

	snprintf(from_path, sizeof(from_path), "%s/%s", root, from);
	snprintf(to_path, sizeof(to_path), "%s/%s", root, to);
	return rename(from_path, to_path);
}

/* Remove whatever is at root/relpath (a file or a tree); its full path into path. */
static void clear_path(const char *root, const char *relpath, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", root, relpath);
	if (unlink(path) != 0)
		remove_tree(path);
}

int replace_with(const char *root, const char *relpath, enum hostile_kind kind)
{
	char path[4096];

	clear_path(root, relpath, path, sizeof(path));
	switch (kind) {
	case HOSTILE_FIFO:
		return mkfifo(path, 0644);
	case HOSTILE_DIR:
		return mkdir(path, 0755);
	case HOSTILE_LOOP:
		return symlink(strrchr(path, '/') + 1, path); /* a link to itself */
	}
	return -1;
}

void limit_address_space(size_t extra)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	struct rlimit limit;

	if (f) {
		if (fscanf(f, "%lu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	limit.rlim_cur = limit.rlim_max = pages * (unsigned long)sysconf(_SC_PAGESIZE) + extra;
	setrlimit(RLIMIT_AS, &limit);
}

static void capture(enum rk_log_level level, const char *message, void *ctx)
{
	(void)level;
	(void)ctx;
	if (ncaptured < sizeof(captured) / sizeof(captured[0]))
		snprintf(captured[ncaptured++], sizeof(captured[0]), "%s", message);
}

void log_capture_start(void)
{
	ncaptured = 0;
	rk_log_set_handler(capture, NULL);
	rk_log_set_level(RK_LOG_DEBUG);
}

size_t log_capture_count(const char *needle)
{
	size_t count = 0;

	for (size_t i = 0; i < ncaptured; i++)
		if (strstr(captured[i], needle))
			count++;
	return count;
}

struct rk_fabric *test_fabric(const struct test_node *nodes, size_t nnodes,
			      const struct test_link *links, size_t nlinks)
{
	struct rk_fabric *fabric = calloc(1, sizeof(*fabric));

	if (!fabric || !(fabric->nodes = calloc(nnodes + 1, sizeof(*fabric->nodes))) ||
	    !(fabric->links = calloc(nlinks + 1, sizeof(*fabric->links))))
		abort();
	for (size_t i = 0; i < nnodes; i++) {
		struct rk_fabric_node *n = &fabric->nodes[fabric->nnodes++];

		n->guid = nodes[i].guid;
		n->type = nodes[i].type;
		n->nports = nodes[i].nports;
		snprintf(n->description, sizeof(n->description), "%s", nodes[i].description);
		snprintf(n->name, sizeof(n->name), "%s", nodes[i].description);
		if (!(n->ports = calloc((size_t)n->nports + 1, sizeof(*n->ports))))
			abort();
	}
	for (size_t i = 0; i < nlinks; i++) {
		bool swap = links[i].a > links[i].b;

		fabric->links[fabric->nlinks++] =
		    (struct rk_fabric_link){.node_a = swap ? links[i].b : links[i].a,
					    .port_a = swap ? links[i].port_b : links[i].port_a,
					    .node_b = swap ? links[i].a : links[i].b,
					    .port_b = swap ? links[i].port_a : links[i].port_b,
					    .width = 4,
					    .speed = RK_SPEED_EDR};
	}
	return fabric;
}
