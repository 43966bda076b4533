/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: the tune journal as history, verify and rollback read it
 * (rk_tune_history, rk_tune_verify, rk_tune_rollback) in a root in tmpfs. The first byte picks
 * how the rest is written; form feeds split the rest into the journal, its head and backup 1:
 *   bit 0 clear: the journal and the head are the input's bytes (checksums as they come);
 *   bit 0 set: each line of the journal part is a record's body, sealed here with the right
 *     checksum chain, and the head is written to match, committing (bits 1-2) that many
 *     records fewer; bit 3 drops the last newline (a torn record).
 * Sealed journals reach what comes after the checksums: the records' fields, the backups'
 * checks and the rollback itself, which must stay inside the root whatever the records say. */
#include "fuzz_util.h"
#include "rdmakit/tune_journal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FNV_SEED  0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv(uint64_t hash, const void *bytes, size_t len)
{
	const unsigned char *p = bytes;

	for (size_t i = 0; i < len; i++)
		hash = (hash ^ p[i]) * FNV_PRIME;
	return hash;
}

/* The journal part with each line's hash chained in front, and the head it ends with. */
static void seal(const uint8_t *body, size_t len, unsigned flags, FILE *journal, FILE *head)
{
	char prev[17] = "0000000000000000", committed[17] = "0000000000000000";
	const uint8_t *p = body, *end = body + len;
	size_t count = 0, uncommitted = (flags >> 1) & 3;
	char(*hashes)[17] = calloc(len + 1, sizeof(*hashes));

	if (!hashes)
		abort();
	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		size_t line = (size_t)((nl ? nl : end) - p);
		bool last = !nl || nl + 1 == end;

		snprintf(prev, sizeof(prev), "%016" PRIx64, fnv(fnv(FNV_SEED, prev, 16), p, line));
		fprintf(journal, "%s %.*s%s", prev, (int)line, (const char *)p,
			last && (flags & 8) ? "" : "\n");
		memcpy(hashes[count++], prev, sizeof(prev));
		p += line + (nl ? 1 : 0);
	}
	count = count > uncommitted ? count - uncommitted : 0;
	if (count)
		memcpy(committed, hashes[count - 1], sizeof(committed));
	fprintf(head, "%zu %s\n", count, committed);
	free(hashes);
}

static void write_part(const char *path, const uint8_t *data, size_t size, unsigned n)
{
	const uint8_t *part;
	size_t len;

	if (fuzz_part(data, size, n, &part, &len) && fuzz_write_file(path, part, len) != 0)
		abort();
}

static void write_journal(const char *dir, const uint8_t *data, size_t size)
{
	char path[320], headpath[320];
	const uint8_t *part;
	size_t len;
	FILE *journal, *head;

	snprintf(path, sizeof(path), "%s/journal", dir);
	snprintf(headpath, sizeof(headpath), "%s/head", dir);
	write_part(path, data + 1, size - 1, 0);
	write_part(headpath, data + 1, size - 1, 1);
	if (data[0] & 1) {
		journal = fopen(path, "w");
		head = fopen(headpath, "w");
		if (!journal || !head || !fuzz_part(data + 1, size - 1, 0, &part, &len))
			abort();
		seal(part, len, data[0], journal, head);
		fclose(journal);
		fclose(head);
	}
	snprintf(path, sizeof(path), "%s/backup-1", dir);
	write_part(path, data + 1, size - 1, 2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char root[128], dir[320];
	struct rk_tune_history_entry *entries;
	struct rk_tune_audit audit = {0};
	struct rk_tune_result result;
	size_t count;

	if (size < 1)
		return 0;
	fuzz_quiet_log();
	snprintf(root, sizeof(root), "%s", fuzz_scratch_dir());
	empty_tree(root);
	snprintf(dir, sizeof(dir), "%s/var", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/var/lib", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/var/lib/rdmakit", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/" RK_TUNE_JOURNAL_DIR, root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/" RK_TUNE_JOURNAL_DIR "/0001", root);
	if (mkdir(dir, 0700) != 0)
		abort();
	write_journal(dir, data, size);
	if (rk_tune_history(root, &entries, &count) == 0)
		free(entries);
	rk_tune_verify(root, NULL, &audit);
	rk_tune_audit_free(&audit);
	rk_tune_rollback(root, NULL, &result);
	return 0;
}
