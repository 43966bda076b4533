/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The journal: one line per record, "HASH TYPE FIELD...", fields percent-encoded, each HASH the
 * FNV-1a of the previous record's hash and this record, so an edit anywhere breaks the chain; a
 * head file (count and last hash, replaced atomically after each record) catches a journal cut
 * at a record boundary; backups carry their length and hash in their record. */
#include "journal.h"
#include "rdmakit/file.h"

#include "rdmakit/log.h"
#include "rootfs.h"
#include "tune_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ZERO_HASH "0000000000000000"

#ifdef RDMAKIT_TEST_HOOKS
void journal_step(void)
{
	static long steps;
	const char *env = getenv("RDMAKIT_TUNE_STOP_AFTER");

	if (env && ++steps >= strtol(env, NULL, 10))
		raise(SIGKILL); /* the crash test's "kill -9 here" */
}
#endif

uint64_t journal_hash(uint64_t hash, const void *bytes, size_t len)
{
	const unsigned char *p = bytes;

	for (size_t i = 0; i < len; i++) {
		hash ^= p[i];
		hash *= 0x100000001b3ULL;
	}
	return hash;
}

static void encode(const char *in, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)in; *p && o + 4 < size; p++) {
		if (*p <= ' ' || *p >= 0x7f || *p == '%') {
			out[o++] = '%';
			out[o++] = hex[*p >> 4];
			out[o++] = hex[*p & 15];
		} else {
			out[o++] = (char)*p;
		}
	}
	if (o == 0 && o + 1 < size)
		out[o++] = '-'; /* an empty field */
	out[o] = '\0';
}

static void decode(char *s)
{
	char *o = s;

	if (strcmp(s, "-") == 0) {
		s[0] = '\0';
		return;
	}
	for (char *p = s; *p; p++) {
		unsigned v;

		if (*p == '%' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2]) &&
		    sscanf(p + 1, "%2x", &v) == 1) {
			*o++ = (char)v;
			p += 2;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
}

void journal_backup_path(const struct journal *j, const char *n, char *buf, size_t size)
{
	snprintf(buf, size, "%s/backup-%s", j->dir, n);
}

static int push_record(struct journal *j, char *line)
{
	struct jrecord *r;
	char *save = NULL;

	if (j->count == j->capacity) {
		size_t grown = j->capacity ? j->capacity * 2 : 32;
		struct jrecord *bigger = realloc(j->records, grown * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		j->records = bigger;
		j->capacity = grown;
	}
	r = &j->records[j->count];
	r->nfields = 0;
	r->restored = false;
	for (char *t = strtok_r(line, " ", &save); t && r->nfields < JOURNAL_MAX_FIELDS;
	     t = strtok_r(NULL, " ", &save)) {
		r->fields[r->nfields] = strdup(t);
		if (!r->fields[r->nfields])
			return -ENOMEM;
		decode(r->fields[r->nfields++]);
	}
	j->count++;
	return 0;
}

static void damaged(struct journal *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void damaged(struct journal *j, const char *fmt, ...)
{
	va_list args;

	j->info.state = RK_TUNE_DAMAGED;
	va_start(args, fmt);
	vsnprintf(j->info.problem, sizeof(j->info.problem), fmt, args);
	va_end(args);
}

/* Split, check every record's hash against the chain, and keep the records. */
static int parse_lines(struct journal *j, char *data, size_t len)
{
	uint64_t hash;
	char prev[17] = ZERO_HASH, *p = data, *end = data + len;
	int err = 0;

	while (p < end && !err && j->info.state != RK_TUNE_DAMAGED) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), mine[17];

		if (!nl) {
			j->torn = true; /* a record cut short by a crash, or the rest cut off */
			break;
		}
		*nl = '\0';
		hash = journal_hash(journal_hash(JOURNAL_HASH_SEED, prev, 16), p + 17,
				    strlen(p) > 17 ? strlen(p) - 17 : 0);
		snprintf(mine, sizeof(mine), "%016" PRIx64, hash);
		if (strlen(p) < 18 || strncmp(p, mine, 16) != 0 || p[16] != ' ') {
			damaged(j, "record %zu does not match its checksum (edited?)",
				j->count + 1);
			break;
		}
		memcpy(prev, mine, sizeof(prev));
		err = push_record(j, p + 17);
		if (!err)
			memcpy(j->records[j->count - 1].hash, mine, sizeof(mine));
		p = nl + 1;
		j->valid_len = (size_t)(p - data);
	}
	memcpy(j->last_hash, prev, sizeof(prev));
	return err;
}

/* The head names how many records were committed and the last one's hash. */
static void check_head(struct journal *j)
{
	char path[RK_PATH_SIZE], text[64], hash[17] = "";
	size_t count = 0;

	snprintf(path, sizeof(path), "%s/head", j->dir);
	if (tune_read_text(j->root, path, text, sizeof(text)) < 0 ||
	    sscanf(text, "%zu %16s", &count, hash) != 2) {
		damaged(j, "its head file is missing or unreadable");
	} else if (j->count < count) {
		damaged(j, "the journal is truncated%s: its head committed %zu records",
			j->torn ? " in the middle of a record" : "", count);
	} else if (j->torn && j->count > count) {
		damaged(j, "a record after the last one committed is cut short");
	} else if (j->count > count + 1) {
		damaged(j, "the journal has more records than its head committed (%zu)", count);
	} else if (strcmp(count ? j->records[count - 1].hash : ZERO_HASH, hash) != 0) {
		damaged(j, "the journal does not end where its head says (record %zu)", count);
	}
}

static const char *field(const struct jrecord *r, size_t i)
{
	return i < r->nfields ? r->fields[i] : "";
}

/* A backup must be there with the length and hash its record gives. */
static void check_backup(struct journal *j, const struct jrecord *r)
{
	char path[RK_PATH_SIZE], *data = NULL, mine[17];
	size_t len = 0;

	if (strcmp(field(r, 3), "1") != 0)
		return;
	journal_backup_path(j, field(r, 1), path, sizeof(path));
	if (tune_slurp(j->root, path, &data, &len, NULL) != 0) {
		damaged(j, "backup %s is missing", field(r, 1));
		return;
	}
	snprintf(mine, sizeof(mine), "%016" PRIx64, journal_hash(JOURNAL_HASH_SEED, data, len));
	if (strtoull(field(r, 5), NULL, 10) != len || strcmp(mine, field(r, 6)) != 0)
		damaged(j, "backup %s does not match its record (changed?)", field(r, 1));
	free(data);
}

/* A path a record may name: under the root (no ".." component), not empty. */
static bool inside_root(const char *path)
{
	size_t len = strlen(path);

	if (!path[strspn(path, "/")])
		return false;
	for (const char *p = path; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == path || p[-1] == '/') && (p + 2 == path + len || p[2] == '/'))
			return false;
	return true;
}

static void mark_restored(struct journal *j, size_t i, const char *n);

/* A change names its backup by number and its file by a path under the root; a rollback must
 * never read or write anywhere else, whatever an edited journal says. */
static void check_names(struct journal *j, size_t i, const struct jrecord *r)
{
	const char *type = field(r, 0), *n = field(r, 1);
	bool change = strcmp(type, "file") == 0 || strcmp(type, "live") == 0;
	const char *path = change ? field(r, 2) : field(r, 1);

	if (change && (!n[0] || strspn(n, "0123456789") != strlen(n)))
		damaged(j, "record %zu names backup \"%s\", not a number", i + 1, n);
	else if ((change || strcmp(type, "mkdir") == 0) && !inside_root(path))
		damaged(j, "record %zu names a path outside the root: \"%s\"", i + 1, path);
	else if (strcmp(type, "restored") == 0)
		mark_restored(j, i, n);
}

bool journal_undoable(const struct jrecord *r)
{
	const char *type = field(r, 0);

	return strcmp(type, "file") == 0 || strcmp(type, "live") == 0 || strcmp(type, "mkdir") == 0;
}

/* A "restored" record names, by its 1-based number, a change or mkdir before it. */
static void mark_restored(struct journal *j, size_t i, const char *n)
{
	unsigned long k = strtoul(n, NULL, 10);

	if (!n[0] || strspn(n, "0123456789") != strlen(n) || k < 2 || k > i ||
	    !journal_undoable(&j->records[k - 1]))
		damaged(j, "record %zu names record \"%s\", not a change before it", i + 1, n);
	else
		j->records[k - 1].restored = true;
}

bool journal_name_unrestored(const struct journal *j, char *out, size_t size)
{
	size_t used = 0, left = 0;

	out[0] = '\0';
	for (size_t i = 1; i < j->count; i++) {
		const struct jrecord *r = &j->records[i];
		const char *path = strcmp(field(r, 0), "mkdir") == 0 ? field(r, 1) : field(r, 2);

		if (!journal_undoable(r) || r->restored)
			continue;
		if (used + strlen(path) + 24 < size)
			used += (size_t)snprintf(out + used, size - used, " /%s", path);
		else
			left++;
	}
	if (left)
		used += (size_t)snprintf(out + used, size - used, " and %zu more", left);
	return used != 0;
}

/* After a partial rollback the problem names the items it did not restore. */
static void name_still_tuned(struct journal *j)
{
	char paths[sizeof(j->info.problem) - 48];

	journal_name_unrestored(j, paths, sizeof(paths));
	snprintf(j->info.problem, sizeof(j->info.problem),
		 "still tuned:%s (rdmakit tune rollback again)", paths);
}

static void summarize(struct journal *j)
{
	const struct jrecord *first = j->count ? &j->records[0] : NULL;

	if (!first || strcmp(field(first, 0), "begin") != 0) {
		if (j->info.state != RK_TUNE_DAMAGED)
			damaged(j, "the journal does not start with its begin record");
		return;
	}
	snprintf(j->info.label, sizeof(j->info.label), "%s", field(first, 2));
	j->info.started = strtoll(field(first, 3), NULL, 10);
	for (size_t i = 1; i < j->count; i++) {
		const struct jrecord *r = &j->records[i];

		if (j->info.state != RK_TUNE_DAMAGED)
			check_names(j, i, r);
		if (strcmp(field(r, 0), "file") == 0 || strcmp(field(r, 0), "live") == 0)
			j->info.changes++;
		else if (strcmp(field(r, 0), "fail") == 0)
			j->info.failed++;
		else if (strcmp(field(r, 0), "end") == 0 && j->info.state == RK_TUNE_INCOMPLETE)
			j->info.state = RK_TUNE_APPLIED;
		else if (strcmp(field(r, 0), "rollback") == 0 && j->info.state != RK_TUNE_DAMAGED)
			j->info.state = strcmp(field(r, 2), "0") == 0 ? RK_TUNE_ROLLED_BACK
								      : RK_TUNE_PARTLY_ROLLED_BACK;
		if (strcmp(field(r, 0), "file") == 0 && j->info.state != RK_TUNE_DAMAGED)
			check_backup(j, r);
	}
	if (j->info.state == RK_TUNE_PARTLY_ROLLED_BACK)
		name_still_tuned(j);
}

/* j->dir is relative to the root, and every file in it is opened inside the root. */
static void set_dir(struct journal *j, const char *root, const char *id)
{
	snprintf(j->root, sizeof(j->root), "%s", root);
	snprintf(j->id, sizeof(j->id), "%s", id);
	snprintf(j->info.id, sizeof(j->info.id), "%s", id);
	snprintf(j->dir, sizeof(j->dir), RK_TUNE_JOURNAL_DIR "/%s", id);
}

/* The directory reldir inside root, for readdir (dot names included); NULL with errno set. */
static DIR *open_dir(const char *root, const char *reldir)
{
	int fd = rootfs_open(root, reldir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
	DIR *d;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d)
		close(fd);
	return d;
}

/* Only what journal_create writes before its first record: a journal file, a head, its temp. */
static bool holds_only_journal_files(const char *root, const char *dir)
{
	DIR *d = open_dir(root, dir);
	struct dirent *e;
	bool only = d != NULL;

	while (only && (e = readdir(d)) != NULL)
		only = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		       strcmp(e->d_name, "head") == 0 || strcmp(e->d_name, "journal") == 0 ||
		       strcmp(e->d_name, ".head.rdmakit-tmp") == 0;
	if (d)
		closedir(d);
	return only;
}

/* No whole record, no head that committed one, nothing else in the directory: an apply that
 * stopped (a crash, or an older rdmakit) before its begin record reached the disk. */
static bool never_started(const struct journal *j)
{
	char path[RK_PATH_SIZE], text[64];
	struct stat st;
	size_t count = 0;
	ssize_t n;

	if (j->count != 0 || j->info.state == RK_TUNE_DAMAGED)
		return false;
	snprintf(path, sizeof(path), "%s/head", j->dir);
	if (rootfs_lstat(j->root, path, &st) == 0) {
		n = tune_read_text(j->root, path, text, sizeof(text));
		if (n >= 0 && sscanf(text, "%zu", &count) == 1 && count != 0)
			return false;
	}
	return holds_only_journal_files(j->root, j->dir);
}

int journal_load(const char *root, const char *id, struct journal *j)
{
	char path[RK_PATH_SIZE], *data = NULL;
	size_t len = 0;
	bool missing;
	int err;

	*j = (struct journal){.fd = -1};
	set_dir(j, root, id);
	j->info.state = RK_TUNE_INCOMPLETE;
	snprintf(path, sizeof(path), "%s/journal", j->dir);
	err = tune_slurp(j->root, path, &data, &len, NULL);
	missing = err == -ENOENT;
	if (err && !missing) {
		damaged(j, "its journal file cannot be read");
		return err;
	}
	err = missing ? 0 : parse_lines(j, data, len);
	free(data);
	if (!err && never_started(j)) {
		j->info.state = RK_TUNE_EMPTY;
		snprintf(j->info.problem, sizeof(j->info.problem),
			 "an apply stopped before its first record reached the disk: nothing was "
			 "changed by it (the next apply or rollback removes it)");
		return 0;
	}
	if (missing) {
		damaged(j, "its journal file cannot be read");
		return 0;
	}
	if (!err && j->info.state != RK_TUNE_DAMAGED)
		check_head(j);
	if (!err && j->info.state != RK_TUNE_DAMAGED)
		summarize(j);
	return err;
}

/* Say which file (relative to root) and which operation failed, and pass the error on. */
static int op_failed(int err, const char *root, const char *relpath, const char *op)
{
	rk_log(RK_LOG_ERR, "tune: /%s under %s: %s: %s", relpath, root, op, strerror(-err));
	return err;
}

static int write_head(struct journal *j)
{
	char path[RK_PATH_SIZE], text[64];
	int n = snprintf(text, sizeof(text), "%zu %s\n", j->count, j->last_hash);

	snprintf(path, sizeof(path), "%s/head", j->dir);
	return tune_write_atomic(j->root, path, text, (size_t)n, 0600);
}

/* Make relpath and the directories above it inside root (those already there are kept). */
static int mkdir_p(const char *root, const char *relpath, mode_t mode)
{
	char copy[RK_PATH_SIZE];
	int err = 0;

	snprintf(copy, sizeof(copy), "%s", relpath);
	for (char *p = strchr(copy, '/'); p && !err; p = strchr(p + 1, '/')) {
		*p = '\0';
		err = rootfs_mkdir(root, copy, mode);
		err = err == -EEXIST ? 0 : err;
		*p = '/';
	}
	err = err ? err : rootfs_mkdir(root, copy, mode);
	return err && err != -EEXIST ? op_failed(err, root, copy, "mkdir") : 0;
}

static int next_id(const char *root, char *id, size_t size)
{
	char **ids;
	size_t count;
	long last = 0;
	int err = journal_list(root, &ids, &count);

	if (err)
		return err;
	for (size_t i = 0; i < count; i++)
		if (strtol(ids[i], NULL, 10) > last)
			last = strtol(ids[i], NULL, 10);
	rk_names_free(ids, count);
	if (last >= 99999999)
		return -EOVERFLOW;
	snprintf(id, size, "%04u", (unsigned)(last + 1));
	return 0;
}

/* Remove a journal directory inside root and the files in it (it holds no subdirectory). */
static int remove_dir(const char *root, const char *dir)
{
	DIR *d = open_dir(root, dir);
	struct dirent *e;
	int err = 0;

	if (!d)
		return errno == ENOENT ? 0 : op_failed(-errno, root, dir, "open");
	while (!err && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) != 0 && errno != ENOENT)
			err = op_failed(-errno, root, dir, "unlink of a file in it");
	}
	closedir(d);
	if (!err && (err = rootfs_rmdir(root, dir)) != 0 && err != -ENOENT)
		return op_failed(err, root, dir, "rmdir");
	err = tune_fsync_dir_of(root, dir);
	return err ? op_failed(err, root, RK_TUNE_JOURNAL_DIR, "fsync") : 0;
}

/* Temporary journal directories ("ID.new") are left by a create that failed or was killed. */
int journal_remove_leftovers(const char *root)
{
	char **names, path[RK_PATH_SIZE];
	size_t count;
	int err = rootfs_list(root, RK_TUNE_JOURNAL_DIR, &names, &count);

	if (err)
		return err == -ENOENT ? 0 : op_failed(err, root, RK_TUNE_JOURNAL_DIR, "list");
	for (size_t i = 0; i < count && !err; i++) {
		size_t len = strlen(names[i]);

		if (len < 5 || strcmp(names[i] + len - 4, ".new") != 0)
			continue;
		snprintf(path, sizeof(path), RK_TUNE_JOURNAL_DIR "/%s", names[i]);
		err = remove_dir(root, path);
	}
	rk_names_free(names, count);
	return err;
}

/* Encode, write and fsync one record, then keep it; the head is not updated. */
static int write_record(struct journal *j, const char *const *fields, size_t nfields)
{
	char *line = malloc(17 + nfields * (3 * JOURNAL_MAX_VALUE + 8) + 2), hash[17],
	     path[RK_PATH_SIZE];
	size_t used = 17;
	int err;

	if (!line)
		return -ENOMEM;
	for (size_t i = 0; i < nfields; i++) {
		if (i)
			line[used++] = ' ';
		if (strlen(fields[i]) > JOURNAL_MAX_VALUE) {
			free(line);
			return -EFBIG;
		}
		encode(fields[i], line + used, 3 * JOURNAL_MAX_VALUE + 8);
		used += strlen(line + used);
	}
	snprintf(
	    hash, sizeof(hash), "%016" PRIx64,
	    journal_hash(journal_hash(JOURNAL_HASH_SEED, j->last_hash, 16), line + 17, used - 17));
	memcpy(line, hash, 16);
	line[16] = ' ';
	line[used++] = '\n';
	snprintf(path, sizeof(path), "%s/journal", j->dir);
	err = tune_write_all(j->fd, line, used);
	if (err)
		op_failed(err, j->root, path, "write");
	if (!err && fsync(j->fd) != 0)
		err = op_failed(-errno, j->root, path, "fsync");
	if (!err) {
		line[used - 1] = '\0';
		err = push_record(j, line + 17);
		memcpy(j->last_hash, hash, sizeof(hash));
		if (!err)
			memcpy(j->records[j->count - 1].hash, hash, sizeof(hash));
	}
	free(line);
	return err;
}

/* The journal's first record and head, in the temporary directory j->dir. */
static int write_first(struct journal *j, const char *const *begin, size_t nfields)
{
	char path[RK_PATH_SIZE];
	int err = rootfs_mkdir(j->root, j->dir, 0700);

	if (err)
		return op_failed(err, j->root, j->dir, "mkdir");
	snprintf(path, sizeof(path), "%s/journal", j->dir);
	j->fd =
	    rootfs_open(j->root, path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW, 0600);
	if (j->fd < 0)
		return op_failed(j->fd, j->root, path, "create");
	memcpy(j->last_hash, ZERO_HASH, sizeof(j->last_hash));
	j->info.state = RK_TUNE_INCOMPLETE;
	err = write_record(j, begin, nfields);
	return err ? err : write_head(j);
}

int journal_create(const char *root, const char *label, size_t planned, struct journal *j)
{
	char id[16], final[PATH_MAX], when[24], count[24];
	const char *begin[] = {"begin", id, label, when, count};
	int err;

	*j = (struct journal){.fd = -1};
	err = mkdir_p(root, RK_TUNE_JOURNAL_DIR, 0700);
	if (!err)
		err = next_id(root, id, sizeof(id));
	if (err)
		return err;
	snprintf(when, sizeof(when), "%lld", (long long)time(NULL));
	snprintf(count, sizeof(count), "%zu", planned);
	set_dir(j, root, id);
	snprintf(final, sizeof(final), "%s", j->dir);
	snprintf(j->dir, sizeof(j->dir), RK_TUNE_JOURNAL_DIR "/%s.new", id);
	err = write_first(j, begin, 5);
	if (!err && (err = rootfs_rename(root, j->dir, final)) != 0)
		op_failed(err, root, final, "rename into place");
	if (err) {
		remove_dir(root, j->dir); /* what is left, the next apply or rollback removes */
		return err;
	}
	snprintf(j->dir, sizeof(j->dir), "%s", final);
	err = tune_fsync_dir_of(root, final);
	journal_step();
	if (err) { /* not durable: gone, as after any other failed create (nothing was changed) */
		op_failed(err, root, RK_TUNE_JOURNAL_DIR, "fsync");
		remove_dir(root, final);
	}
	return err;
}

int journal_append(struct journal *j, const char *const *fields, size_t nfields)
{
	int err = write_record(j, fields, nfields);

	journal_step();
	if (!err)
		err = write_head(j);
	journal_step();
	return err;
}

int journal_reopen(struct journal *j)
{
	char path[RK_PATH_SIZE];

	snprintf(path, sizeof(path), "%s/journal", j->dir);
	j->fd = rootfs_open(j->root, path, O_WRONLY | O_APPEND | O_NOFOLLOW, 0);
	if (j->fd < 0)
		return op_failed(j->fd, j->root, path, "open");
	if (j->torn && ftruncate(j->fd, (off_t)j->valid_len) != 0) /* drop a torn append */
		return op_failed(-errno, j->root, path, "truncate of its torn last record");
	j->torn = false;
	return 0;
}

int journal_discard(const struct journal *j)
{
	return remove_dir(j->root, j->dir);
}

void journal_free(struct journal *j)
{
	for (size_t i = 0; i < j->count; i++)
		for (size_t f = 0; f < j->records[i].nfields; f++)
			free(j->records[i].fields[f]);
	free(j->records);
	if (j->fd >= 0)
		close(j->fd);
	j->records = NULL;
	j->count = j->capacity = 0;
	j->fd = -1;
}

int journal_list(const char *root, char ***ids, size_t *count)
{
	char **names;
	size_t n, kept = 0;
	int err = rootfs_list(root, RK_TUNE_JOURNAL_DIR, &names, &n);

	*ids = NULL;
	*count = 0;
	if (err == -ENOENT)
		return 0;
	if (err == -EACCES || err == -EPERM)
		rk_log(RK_LOG_ERR,
		       "tune: the journals in %s/" RK_TUNE_JOURNAL_DIR " cannot be read (%s): they "
		       "are root's, so history and verify need root there",
		       strcmp(root, "/") == 0 ? "" : root, strerror(-err));
	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		if (strspn(names[i], "0123456789") == strlen(names[i]) && names[i][0])
			names[kept++] = names[i];
		else
			free(names[i]);
	}
	*ids = names;
	*count = kept;
	return 0;
}
