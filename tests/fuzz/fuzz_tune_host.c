/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: tune's host audit (rk_tune_audit_host, with a plan, under the latency and
 * the throughput profile) on a copy of tests/fixtures/tune/host in tmpfs, where the files
 * FUZZ_TUNE_FILES names (comma-separated, relative to the tree) hold the input's bytes. With
 * several files, form feeds split the input between them in that order; a file without its
 * part keeps the fixture's bytes. With one file (binary config space) the whole input is its
 * bytes. One source, one target per parser: tests/fuzz/CMakeLists.txt gives each its files. */
#include "fuzz_util.h"
#include "rdmakit/tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FILES 8

static char tree[128];
static char files[MAX_FILES][160];
static unsigned nfiles;

/* mkdir -p of the directory above path (the tree's own directories stay as they are). */
static void make_parents(const char *path)
{
	char dir[320];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = strchr(dir + strlen(tree) + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
}

static void set_up(void)
{
	char list[] = FUZZ_TUNE_FILES;
	char *save = NULL;

	snprintf(tree, sizeof(tree), "%s/root", fuzz_scratch_dir());
	if (copy_tree(FUZZ_FIXTURES "/tune/host", tree) != 0)
		abort(); /* no fixture tree: nothing to audit */
	for (char *f = strtok_r(list, ",", &save); f && nfiles < MAX_FILES;
	     f = strtok_r(NULL, ",", &save))
		snprintf(files[nfiles++], sizeof(files[0]), "%s", f);
}

/* File n gets its part of the input, or the fixture's bytes back when there is none. */
static void write_input(const uint8_t *data, size_t size, unsigned n)
{
	char path[320], original[320];
	const uint8_t *part = data;
	size_t len = size;

	snprintf(path, sizeof(path), "%s/%s", tree, files[n]);
	if (nfiles == 1 || fuzz_part(data, size, n, &part, &len)) {
		make_parents(path);
		if (fuzz_write_file(path, part, len) != 0)
			abort();
		return;
	}
	snprintf(original, sizeof(original), FUZZ_FIXTURES "/tune/host/%s", files[n]);
	if (copy_file(original, path) != 0)
		remove(path); /* a file the fixture does not have */
}

static void audit(const char *profile)
{
	struct rk_tune_options options = {.root = tree, .profile = rk_tune_profile_find(profile)};
	struct rk_tune_audit audit = {0};
	struct rk_tune_plan plan = {0};

	rk_tune_audit_host(&options, &audit, &plan);
	rk_tune_audit_free(&audit);
	rk_tune_plan_free(&plan);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_quiet_log();
	if (!tree[0])
		set_up();
	for (unsigned n = 0; n < nfiles; n++)
		write_input(data, size, n);
	audit("latency");
	audit("throughput");
	return 0;
}
