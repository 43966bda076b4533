/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Apply, roll back, history and verify on top of the journal. */
#include "journal.h"

#include "rdmakit/log.h"
#include "rootfs.h"
#include "tune_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *rk_tune_journal_state_name(enum rk_tune_journal_state state)
{
	switch (state) {
	case RK_TUNE_APPLIED:
		return "applied";
	case RK_TUNE_INCOMPLETE:
		return "incomplete";
	case RK_TUNE_ROLLED_BACK:
		return "rolled back";
	default:
		return "damaged";
	}
}

static const char *field(const struct jrecord *r, size_t i)
{
	return i < r->nfields ? r->fields[i] : "";
}

static void hash_text(const char *bytes, size_t len, char *out)
{
	snprintf(out, 17, "%016" PRIx64, journal_hash(JOURNAL_HASH_SEED, bytes, len));
}

/* An exclusive lock on the journal directory for the time of an apply or rollback. */
static int lock_journals(const char *root, int *fd)
{
	char dir[] = RK_TUNE_JOURNAL_DIR;

	for (char *p = dir; *p; p++)
		if (*p == '/') {
			*p = '\0';
			rootfs_mkdir(root, dir, 0755);
			*p = '/';
		}
	rootfs_mkdir(root, dir, 0700);
	*fd = rootfs_open(root, RK_TUNE_JOURNAL_DIR "/.lock", O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
	if (*fd < 0) {
		rk_log(RK_LOG_ERR,
		       "tune: cannot lock the journals: /" RK_TUNE_JOURNAL_DIR
		       "/.lock under %s: %s",
		       root, strerror(-*fd));
		return *fd;
	}
	if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
		close(*fd);
		rk_log(RK_LOG_ERR, "tune: another apply or rollback is running under %s", root);
		return -EBUSY;
	}
	return 0;
}

static int need_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	rk_log(RK_LOG_ERR, "tune: %s needs root", what);
	return -EPERM;
}

/* Write a value to a /proc or /sys file under root (never created, never through a link);
 * -errno as the kernel answers. */
static int write_live(const char *root, const char *relpath, const char *value, size_t len)
{
	int fd = rootfs_open(root, relpath, O_WRONLY | O_TRUNC | O_NOFOLLOW, 0);
	ssize_t n;
	int err = 0;

	if (fd == -ELOOP)
		tune_refuse_link(root, relpath);
	if (fd < 0)
		return fd;
	n = write(fd, value, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) != 0 && !err)
		err = -errno;
	return err;
}

struct applying {
	struct journal j;
	const char *root;
	struct rk_tune_result *result;
};

static int record_failure(struct applying *a, const char *n, const char *path, int err)
{
	char text[300];
	const char *fields[] = {"fail", n, text};
	const char *why = err == -ELOOP ? "a symbolic link, refused" : strerror(-err);

	snprintf(text, sizeof(text), "%s: %s", path, why);
	rk_log(RK_LOG_ERR, "tune: /%s: %s", path, why);
	a->result->failed++;
	return journal_append(&a->j, fields, 3);
}

/* Create the missing directories above relpath, each journaled first; a link to nothing inside
 * the root where one belongs is refused (-ELOOP, logged) before anything is journaled. */
static int make_parents(struct applying *a, const char *relpath)
{
	char rel[256];
	struct stat st;
	int err = 0;

	snprintf(rel, sizeof(rel), "%s", relpath);
	for (char *p = strchr(rel, '/'); p && !err; p = strchr(p + 1, '/')) {
		const char *fields[] = {"mkdir", rel};

		*p = '\0';
		if (rootfs_stat(a->root, rel, &st) == 0) {
			*p = '/';
			continue;
		}
		if (rootfs_lstat(a->root, rel, &st) == 0 && S_ISLNK(st.st_mode)) {
			rk_log(RK_LOG_ERR,
			       "tune: /%s under %s is a symbolic link to nothing inside the root: "
			       "refused",
			       rel, a->root);
			return -ELOOP;
		}
		err = journal_append(&a->j, fields, 2);
		if (!err)
			err = rootfs_mkdir(a->root, rel, 0755);
		journal_step();
		*p = '/';
	}
	return err;
}

static int apply_file(struct applying *a, const struct rk_tune_change *c, const char *n)
{
	char backup[4200], mode[16], new_mode[16], len[24], new_len[24], hash[17], new_hash[17];
	char *bytes = NULL;
	size_t size = 0;
	mode_t current_mode = 0;
	int err = tune_slurp_target(a->root, c->path, &bytes, &size, &current_mode);
	bool existed = err == 0;
	const char *fields[] = {"file",	  n,	   c->path, existed ? "1" : "0", mode, len, hash,
				new_mode, new_len, new_hash};

	if (err && err != -ENOENT)
		return record_failure(a, n, c->path, err);
	if (existed && size == c->wanted_len && memcmp(bytes, c->wanted, size) == 0 &&
	    current_mode == c->wanted_mode) {
		free(bytes);
		return 0; /* already so: nothing to record */
	}
	snprintf(mode, sizeof(mode), "%o", (unsigned)current_mode);
	snprintf(new_mode, sizeof(new_mode), "%o", c->wanted_mode);
	snprintf(len, sizeof(len), "%zu", size);
	snprintf(new_len, sizeof(new_len), "%zu", c->wanted_len);
	hash_text(bytes ? bytes : "", size, hash);
	hash_text(c->wanted, c->wanted_len, new_hash);
	journal_backup_path(&a->j, n, backup, sizeof(backup));
	err = make_parents(a, c->path);
	if (err == -ELOOP) {
		free(bytes);
		return record_failure(a, n, c->path, err);
	}
	if (!err && existed) {
		err = tune_write_atomic(a->root, backup, bytes, size, 0600);
		journal_step();
	}
	free(bytes);
	if (!err)
		err = journal_append(&a->j, fields, 10);
	if (err)
		return err;
	err = tune_write_atomic(a->root, c->path, c->wanted, c->wanted_len, c->wanted_mode);
	journal_step();
	if (err)
		return record_failure(a, n, c->path, err);
	a->result->done++;
	return 0;
}

static bool live_value_is(const char *raw, const char *wanted)
{
	char line[256], value[256], want[256];

	snprintf(line, sizeof(line), "%.*s", (int)strcspn(raw, "\n"), raw);
	tune_selected(line, value, sizeof(value));
	snprintf(want, sizeof(want), "%.*s", (int)strcspn(wanted, "\n"), wanted);
	return strcmp(value, want) == 0;
}

static int apply_live(struct applying *a, const struct rk_tune_change *c, const char *n)
{
	char *raw = NULL;
	size_t size = 0;
	int err = tune_slurp_target(a->root, c->path, &raw, &size, NULL);

	if (!err && size > JOURNAL_MAX_VALUE)
		err = -EFBIG; /* a /proc or /sys value, not a file: it must fit a record */
	if (err) {
		free(raw);
		return record_failure(a, n, c->path, err);
	}
	if (live_value_is(raw, c->wanted)) {
		free(raw);
		return 0;
	}
	{
		const char *fields[] = {"live", n, c->path, raw, c->wanted};

		err = journal_append(&a->j, fields, 5);
	}
	free(raw);
	if (err)
		return err;
	err = write_live(a->root, c->path, c->wanted, c->wanted_len);
	journal_step();
	if (err)
		return record_failure(a, n, c->path, err);
	a->result->done++;
	return 0;
}

/* The newest journal that is not rolled back, or "" when there is none. */
static int last_open_journal(const char *root, char *id, size_t size,
			     enum rk_tune_journal_state *state, char *problem, size_t psize)
{
	char **ids;
	size_t count;
	int err = journal_list(root, &ids, &count);

	id[0] = '\0';
	for (size_t i = count; !err && i-- > 0 && !id[0];) {
		struct journal j;

		err = journal_load(root, ids[i], &j);
		if (!err && j.info.state != RK_TUNE_ROLLED_BACK) {
			snprintf(id, size, "%s", ids[i]);
			*state = j.info.state;
			snprintf(problem, psize, "%s", j.info.problem);
		}
		journal_free(&j);
	}
	rk_names_free(ids, count);
	return err;
}

/* An interrupted or damaged journal must be dealt with before anything else is applied, so a
 * tuned value is never taken for an original. */
static int check_clean(const char *root)
{
	enum rk_tune_journal_state state = RK_TUNE_APPLIED;
	char id[16], problem[200];
	int err = last_open_journal(root, id, sizeof(id), &state, problem, sizeof(problem));

	if (err || !id[0] || state == RK_TUNE_APPLIED)
		return err;
	if (state == RK_TUNE_INCOMPLETE)
		rk_log(RK_LOG_ERR,
		       "tune: apply %s was interrupted: run rdmakit tune rollback first", id);
	else
		rk_log(RK_LOG_ERR, "tune: journal %s is damaged (%s): nothing is applied over it",
		       id, problem);
	return -EBUSY;
}

static int run_plan(struct applying *a, const char *label, const struct rk_tune_plan *plan)
{
	char when[24], count[24], n[24];
	const char *begin[] = {"begin", a->j.id, label, when, count};
	int err;

	snprintf(when, sizeof(when), "%lld", (long long)time(NULL));
	snprintf(count, sizeof(count), "%zu", plan->count);
	err = journal_append(&a->j, begin, 5);
	for (size_t i = 0; i < plan->count && !err; i++) {
		snprintf(n, sizeof(n), "%zu", i + 1);
		err = plan->items[i].kind == RK_TUNE_FILE ? apply_file(a, &plan->items[i], n)
							  : apply_live(a, &plan->items[i], n);
	}
	if (!err) {
		char done[24], failed[24];
		const char *end[] = {"end", done, failed};

		snprintf(done, sizeof(done), "%zu", a->result->done);
		snprintf(failed, sizeof(failed), "%zu", a->result->failed);
		err = journal_append(&a->j, end, 3);
	}
	return err;
}

/* What apply and rollback check first: root, a usable --root, the journals' lock. */
static int begin_change(const char *what, const char *root, struct rk_tune_result *result,
			int *lock)
{
	int err = need_root(what);

	*result = (struct rk_tune_result){0};
	if (!err)
		err = rk_tune_check_root(root);
	if (!err)
		err = lock_journals(root, lock);
	return err;
}

int rk_tune_apply(const char *root, const char *label, const struct rk_tune_plan *plan,
		  struct rk_tune_result *result)
{
	struct applying a = {.root = root, .result = result};
	int lock, err = begin_change("apply", root, result, &lock);

	if (err)
		return err;
	err = check_clean(root);
	if (!err && plan->count) {
		err = journal_create(root, &a.j);
		if (!err) {
			snprintf(result->id, sizeof(result->id), "%s", a.j.id);
			err = run_plan(&a, label, plan);
		}
		journal_free(&a.j);
	}
	if (err && err != -EBUSY)
		rk_log(RK_LOG_ERR, "tune: apply stopped: %s (roll back with rdmakit tune rollback)",
		       strerror(-err));
	close(lock);
	return err;
}

static bool restore_live(const char *root, const struct jrecord *r)
{
	char line[256], value[272];
	const char *raw = field(r, 3);
	int err = write_live(root, field(r, 2), raw, strlen(raw));

	if (err == -EINVAL) { /* a selector file ("[always] madvise") takes only the choice */
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(raw, "\n"), raw);
		tune_selected(line, value, sizeof(value) - 1);
		strcat(value, "\n");
		err = write_live(root, field(r, 2), value, strlen(value));
	}
	if (err)
		rk_log(RK_LOG_ERR, "tune: rollback: /%s: %s", field(r, 2), strerror(-err));
	return err == 0;
}

static bool restore_file(const char *root, const struct journal *j, const struct jrecord *r)
{
	char temp[4200], backup[4200], *bytes = NULL;
	size_t len = 0;
	int err;

	tune_temp_path(field(r, 2), temp, sizeof(temp));
	rootfs_unlink(root, temp); /* left by an apply killed mid-write */
	if (strcmp(field(r, 3), "1") != 0) {
		err = rootfs_unlink(root, field(r, 2));
		err = err == -ENOENT ? 0 : err;
		if (err == -ELOOP)
			tune_refuse_link(root, field(r, 2));
	} else {
		journal_backup_path(j, field(r, 1), backup, sizeof(backup));
		err = tune_slurp(root, backup, &bytes, &len, NULL);
		if (!err)
			err = tune_write_atomic(root, field(r, 2), bytes, len,
						strtoul(field(r, 4), NULL, 8));
		free(bytes);
	}
	if (err)
		rk_log(RK_LOG_ERR, "tune: rollback: /%s: %s", field(r, 2), strerror(-err));
	return err == 0;
}

static bool restore_dir(const char *root, const struct jrecord *r)
{
	int err = rootfs_rmdir(root, field(r, 1));

	if (err == 0 || err == -ENOENT)
		return true;
	rk_log(RK_LOG_ERR, "tune: rollback: /%s: %s", field(r, 1), strerror(-err));
	return false;
}

/* Undo one record: a change (counted), or a directory apply made (counted only if it fails). */
static void undo_record(const struct journal *j, const struct jrecord *r,
			struct rk_tune_result *result)
{
	const char *type = field(r, 0);
	bool ok = true;

	if (strcmp(type, "live") == 0)
		ok = restore_live(j->root, r);
	else if (strcmp(type, "file") == 0)
		ok = restore_file(j->root, j, r);
	else if (strcmp(type, "mkdir") == 0)
		ok = restore_dir(j->root, r);
	if (!ok)
		result->failed++;
	else if (strcmp(type, "live") == 0 || strcmp(type, "file") == 0)
		result->done++;
}

static int undo(struct journal *j, struct rk_tune_result *result)
{
	char when[24], failed[24], path[4200];
	const char *fields[] = {"rollback", when, failed};

	for (size_t i = j->count; i-- > 1;)
		undo_record(j, &j->records[i], result);
	snprintf(when, sizeof(when), "%lld", (long long)time(NULL));
	snprintf(failed, sizeof(failed), "%zu", result->failed);
	snprintf(path, sizeof(path), "%s/journal", j->dir);
	j->fd = rootfs_open(j->root, path, O_WRONLY | O_APPEND | O_NOFOLLOW, 0);
	if (j->fd < 0)
		return j->fd;
	if (j->torn && ftruncate(j->fd, (off_t)j->valid_len) != 0) /* drop a torn append */
		return -errno;
	return journal_append(j, fields, 3);
}

/* Which journal to roll back: id, or the newest one not rolled back. */
static int pick_rollback(const char *root, const char *id, char *out, size_t size)
{
	enum rk_tune_journal_state state;
	char problem[200];
	int err = last_open_journal(root, out, size, &state, problem, sizeof(problem));

	if (err)
		return err;
	if (!out[0]) {
		rk_log(RK_LOG_ERR, "tune: nothing to roll back under %s", root);
		return -ENOENT;
	}
	if (id && strcmp(id, out) != 0) {
		rk_log(RK_LOG_ERR, "tune: roll back %s first: it was applied after %s", out, id);
		return -EBUSY;
	}
	return 0;
}

int rk_tune_rollback(const char *root, const char *id, struct rk_tune_result *result)
{
	struct journal j = {.fd = -1};
	int lock, err = begin_change("rollback", root, result, &lock);

	if (err)
		return err;
	err = pick_rollback(root, id, result->id, sizeof(result->id));
	if (!err)
		err = journal_load(root, result->id, &j);
	if (!err && j.info.state == RK_TUNE_DAMAGED) {
		rk_log(RK_LOG_ERR, "tune: journal %s is damaged: %s; nothing was changed", j.id,
		       j.info.problem);
		err = -EBADMSG;
	}
	if (!err)
		err = undo(&j, result);
	journal_free(&j);
	close(lock);
	return err;
}

int rk_tune_history(const char *root, struct rk_tune_history_entry **entries, size_t *count)
{
	char **ids;
	size_t n;
	int err = rk_tune_check_root(root);

	*entries = NULL;
	*count = 0;
	if (!err)
		err = journal_list(root, &ids, &n);
	if (err)
		return err;
	*entries = calloc(n ? n : 1, sizeof(**entries));
	for (size_t i = 0; *entries && i < n && !err; i++) {
		struct journal j;

		err = journal_load(root, ids[i], &j);
		(*entries)[(*count)++] = j.info;
		journal_free(&j);
	}
	rk_names_free(ids, n);
	return *entries ? err : -ENOMEM;
}

static int drift(struct rk_tune_audit *audit, const char *id, const char *path, const char *current,
		 const char *applied)
{
	char subject[300];

	char wanted[128];

	snprintf(subject, sizeof(subject), "/%s", path);
	snprintf(wanted, sizeof(wanted), "%.*s", (int)strcspn(applied, "\n"), applied);
	return rk_tune_report(audit, RK_SEVERITY_WARNING, "TUNE_DRIFT", "journal", subject, current,
			      wanted, "rdmakit tune apply again, or find what changed it",
			      "/%s drifted from what apply %s set", path, id);
}

static int verify_live(const char *root, const char *id, const struct jrecord *r,
		       struct rk_tune_audit *audit)
{
	char line[128], *raw = NULL;
	size_t len;
	int err = tune_slurp_target(root, field(r, 2), &raw, &len, NULL);

	if (err)
		return drift(audit, id, field(r, 2), strerror(-err), field(r, 4));
	if (!live_value_is(raw, field(r, 4))) {
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(raw, "\n"), raw);
		err = drift(audit, id, field(r, 2), line, field(r, 4));
	}
	free(raw);
	return err;
}

static int verify_file(const char *root, const char *id, const struct jrecord *r,
		       struct rk_tune_audit *audit)
{
	char hash[17], *bytes = NULL;
	size_t len = 0;
	mode_t mode = 0;
	int err = tune_slurp_target(root, field(r, 2), &bytes, &len, &mode);

	if (err)
		return drift(audit, id, field(r, 2), strerror(-err), "the file apply wrote");
	hash_text(bytes, len, hash);
	free(bytes);
	if (strcmp(hash, field(r, 9)) != 0 || len != strtoull(field(r, 8), NULL, 10) ||
	    mode != strtoul(field(r, 7), NULL, 8))
		return drift(audit, id, field(r, 2), "changed", "the file apply wrote");
	return 0;
}

int rk_tune_verify(const char *root, const char *id, struct rk_tune_audit *audit)
{
	enum rk_tune_journal_state state = RK_TUNE_APPLIED;
	char picked[16], problem[200];
	struct journal j;
	int err = rk_tune_check_root(root);

	if (!err && !id)
		err = last_open_journal(root, picked, sizeof(picked), &state, problem,
					sizeof(problem));
	if (err)
		return err;
	if (!id && !picked[0]) {
		rk_log(RK_LOG_ERR, "tune: nothing applied under %s to verify", root);
		return -ENOENT;
	}
	err = journal_load(root, id ? id : picked, &j);
	if (!err && j.info.state != RK_TUNE_APPLIED) {
		rk_log(RK_LOG_ERR, "tune: journal %s is %s%s%s", j.id,
		       rk_tune_journal_state_name(j.info.state), j.info.problem[0] ? ": " : "",
		       j.info.problem);
		err = -EBADMSG;
	}
	for (size_t i = 1; !err && i < j.count; i++) {
		const struct jrecord *r = &j.records[i];

		if (strcmp(field(r, 0), "live") == 0)
			err = verify_live(root, j.id, r, audit);
		else if (strcmp(field(r, 0), "file") == 0)
			err = verify_file(root, j.id, r, audit);
	}
	journal_free(&j);
	return err;
}
