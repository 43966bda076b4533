/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Apply, roll back, history and verify on top of the journal. */
#include "journal.h"
#include "rdmakit/file.h"

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
	case RK_TUNE_EMPTY:
		return "empty";
	case RK_TUNE_PARTLY_ROLLED_BACK:
		return "partly rolled back";
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

/* Why a change failed, in words: a link rdmakit does not write through, or the errno. */
static const char *refusal(int err)
{
	return err == -ELOOP ? "a symbolic link, refused" : strerror(-err);
}

static int record_failure(struct applying *a, const char *n, const char *path, int err,
			  const char *op)
{
	char text[300];
	const char *fields[] = {"fail", n, text};

	snprintf(text, sizeof(text), "%s: %s", path, refusal(err));
	rk_log(RK_LOG_ERR, "tune: /%s: %s (%s)", path, refusal(err), op);
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
		if (!err && (err = rootfs_mkdir(a->root, rel, 0755)) != 0)
			rk_log(RK_LOG_ERR, "tune: /%s under %s: mkdir: %s", rel, a->root,
			       strerror(-err));
		journal_step();
		*p = '/';
	}
	return err;
}

/* "uid:gid" of the file at relpath, for rollback to give it back ("" when unknown). */
static void owner_text(const char *root, const char *relpath, char *out, size_t size)
{
	struct stat st;

	out[0] = '\0';
	if (rootfs_lstat(root, relpath, &st) == 0)
		snprintf(out, size, "%u:%u", (unsigned)st.st_uid, (unsigned)st.st_gid);
}

static int apply_file(struct applying *a, const struct rk_tune_change *c, const char *n)
{
	char backup[RK_PATH_SIZE], mode[16], new_mode[16], len[24], new_len[24], hash[17],
	    new_hash[17], owner[48] = "";
	char *bytes = NULL;
	size_t size = 0;
	mode_t current_mode = 0;
	int err = tune_slurp_target(a->root, c->path, &bytes, &size, &current_mode);
	bool existed = err == 0;
	const char *fields[] = {"file",	 n,	   c->path, existed ? "1" : "0",
				mode,	 len,	   hash,    new_mode,
				new_len, new_hash, owner};

	if (err && err != -ENOENT)
		return record_failure(a, n, c->path, err, "reading it");
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
	if (existed)
		owner_text(a->root, c->path, owner, sizeof(owner));
	err = make_parents(a, c->path);
	if (err == -ELOOP) {
		free(bytes);
		return record_failure(a, n, c->path, err, "making its directory");
	}
	if (!err && existed) {
		err = tune_write_atomic(a->root, backup, bytes, size, 0600);
		journal_step();
	}
	free(bytes);
	if (!err)
		err = journal_append(&a->j, fields, 11);
	if (err)
		return err;
	err = tune_write_atomic(a->root, c->path, c->wanted, c->wanted_len, c->wanted_mode);
	journal_step();
	if (err)
		return record_failure(a, n, c->path, err, "writing the new file");
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
		return record_failure(a, n, c->path, err, "reading its value");
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
		return record_failure(a, n, c->path, err, "writing the new value");
	a->result->done++;
	return 0;
}

/* The newest journal that is neither rolled back nor empty, or "" when there is none. */
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
		if (!err && j.info.state != RK_TUNE_ROLLED_BACK && j.info.state != RK_TUNE_EMPTY) {
			snprintf(id, size, "%s", ids[i]);
			*state = j.info.state;
			snprintf(problem, psize, "%s", j.info.problem);
		}
		journal_free(&j);
	}
	rk_names_free(ids, count);
	return err;
}

/* Remove the temporary journals a failed create left, and the empty ones (an apply that
 * stopped before its first record reached the disk, under an older rdmakit or after a power
 * loss): they changed nothing. *removed: the last empty one. */
static int discard_empty(const char *root, char *removed, size_t size)
{
	char **ids;
	size_t count;
	int err = journal_remove_leftovers(root);

	removed[0] = '\0';
	if (err)
		return err;
	err = journal_list(root, &ids, &count);
	for (size_t i = 0; !err && i < count; i++) {
		struct journal j;

		err = journal_load(root, ids[i], &j);
		if (!err && j.info.state == RK_TUNE_EMPTY) {
			rk_log(
			    RK_LOG_WARNING,
			    "tune: journal %s is empty (an apply stopped before its first record "
			    "reached the disk): nothing was changed by it; removing it",
			    ids[i]);
			err = journal_discard(&j);
			if (!err)
				snprintf(removed, size, "%s", ids[i]);
		}
		journal_free(&j);
	}
	rk_names_free(ids, count);
	return err;
}

/* An interrupted, partly rolled back or damaged journal must be dealt with before anything else
 * is applied, so a tuned value is never taken for an original. */
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
	else if (state == RK_TUNE_PARTLY_ROLLED_BACK)
		rk_log(RK_LOG_ERR, "tune: the rollback of %s did not restore everything (%s)", id,
		       problem);
	else
		rk_log(RK_LOG_ERR, "tune: journal %s is damaged (%s): nothing is applied over it",
		       id, problem);
	return -EBUSY;
}

static int run_plan(struct applying *a, const struct rk_tune_plan *plan)
{
	char n[24], done[24], failed[24];
	const char *end[] = {"end", done, failed};
	int err = 0;

	for (size_t i = 0; i < plan->count && !err; i++) {
		snprintf(n, sizeof(n), "%zu", i + 1);
		err = plan->items[i].kind == RK_TUNE_FILE ? apply_file(a, &plan->items[i], n)
							  : apply_live(a, &plan->items[i], n);
	}
	if (err)
		return err;
	snprintf(done, sizeof(done), "%zu", a->result->done);
	snprintf(failed, sizeof(failed), "%zu", a->result->failed);
	return journal_append(&a->j, end, 3);
}

/* That apply stopped before changing anything (id: its journal, removed; NULL: none made). */
static void log_unchanged(int err, const char *id)
{
	rk_log(RK_LOG_ERR,
	       "tune: apply stopped: %s; nothing was changed%s%s%s: mend the cause and run "
	       "rdmakit tune apply again",
	       strerror(-err), id ? " (its journal " : "", id ? id : "", id ? " removed)" : "");
}

/* After apply stopped: what it changed and the command that undoes it; or that it changed
 * nothing, its journal then removed (a journal that could not be is said: rollback closes it). */
static void report_stop(struct applying *a, int err)
{
	char changed[1024];

	if (journal_name_unrestored(&a->j, changed, sizeof(changed)))
		rk_log(RK_LOG_ERR,
		       "tune: apply %s stopped: %s; it had changed%s: run rdmakit tune rollback to "
		       "undo that, then apply again once the cause is mended",
		       a->j.id, strerror(-err), changed);
	else if (!a->result->id[0])
		log_unchanged(err, NULL);
	else if (journal_discard(&a->j) == 0) {
		log_unchanged(err, a->j.id);
		a->result->id[0] = '\0';
	} else
		rk_log(RK_LOG_ERR,
		       "tune: apply %s stopped: %s; nothing was changed, but its journal could not "
		       "be removed: rdmakit tune rollback closes it",
		       a->j.id, strerror(-err));
}

/* Journal and apply the plan; after a stop, say what was changed. */
static int apply_plan(struct applying *a, const char *label, const struct rk_tune_plan *plan)
{
	int err = journal_create(a->root, label, plan->count, &a->j);

	if (!err) {
		snprintf(a->result->id, sizeof(a->result->id), "%s", a->j.id);
		err = run_plan(a, plan);
	}
	if (err)
		report_stop(a, err);
	journal_free(&a->j);
	return err;
}

/* What apply and rollback check first: root, a usable --root, the journals' lock; then the
 * empty journals a crash may have left are removed. */
static int begin_change(const char *what, const char *root, struct rk_tune_result *result,
			int *lock, char *removed, size_t size)
{
	int err = need_root(what);

	*result = (struct rk_tune_result){0};
	if (!err)
		err = rk_tune_check_root(root);
	if (!err)
		err = lock_journals(root, lock);
	if (!err && (err = discard_empty(root, removed, size)) != 0)
		close(*lock);
	return err;
}

int rk_tune_apply(const char *root, const char *label, const struct rk_tune_plan *plan,
		  struct rk_tune_result *result)
{
	struct applying a = {.root = root, .result = result};
	char removed[16];
	int lock, err = begin_change("apply", root, result, &lock, removed, sizeof(removed));

	if (err)
		return err;
	err = check_clean(root);
	if (!err && plan->count)
		err = apply_plan(&a, label, plan);
	else if (err && err != -EBUSY)
		log_unchanged(err, NULL);
	close(lock);
	return err;
}

static int restore_live(const char *root, const struct jrecord *r)
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
		rk_log(RK_LOG_ERR, "tune: rollback: /%s: %s (writing its original value)",
		       field(r, 2), refusal(err));
	return err;
}

/* A live value that reads as it did before apply (whose write may have been refused). */
static bool live_is_original(const char *root, const struct jrecord *r)
{
	char line[256], original[256], *raw = NULL;
	size_t len;
	bool same;

	snprintf(line, sizeof(line), "%.*s", (int)strcspn(field(r, 3), "\n"), field(r, 3));
	tune_selected(line, original, sizeof(original));
	if (tune_slurp_target(root, field(r, 2), &raw, &len, NULL) != 0)
		return false;
	same = live_value_is(raw, original);
	free(raw);
	return same;
}

/* The owner a file record gives its original (field 10, "uid:gid"; older journals: none). */
static const struct tune_owner *recorded_owner(const struct jrecord *r, struct tune_owner *owner)
{
	unsigned uid, gid;

	if (sscanf(field(r, 10), "%u:%u", &uid, &gid) != 2)
		return NULL;
	*owner = (struct tune_owner){.uid = uid, .gid = gid};
	return owner;
}

static int restore_file(const char *root, const struct journal *j, const struct jrecord *r)
{
	struct tune_owner owner;
	char temp[RK_PATH_SIZE], backup[RK_PATH_SIZE], *bytes = NULL;
	const char *op = "removing the temporary file apply left";
	size_t len = 0;
	int err;

	tune_temp_path(field(r, 2), temp, sizeof(temp));
	err = rootfs_unlink(root, temp); /* left by an apply killed mid-write */
	err = err == -ENOENT ? 0 : err;
	if (!err && strcmp(field(r, 3), "1") != 0) {
		op = "removing the file apply created";
		err = rootfs_unlink(root, field(r, 2));
		err = err == -ENOENT ? 0 : err;
		if (err == -ELOOP)
			tune_refuse_link(root, field(r, 2));
	} else if (!err) {
		op = "reading its backup";
		journal_backup_path(j, field(r, 1), backup, sizeof(backup));
		err = tune_slurp(root, backup, &bytes, &len, NULL);
		if (!err)
			op = "writing its backup back";
		if (!err)
			err = tune_write_atomic_owned(root, field(r, 2), bytes, len,
						      strtoul(field(r, 4), NULL, 8),
						      recorded_owner(r, &owner));
		free(bytes);
	}
	if (err)
		rk_log(RK_LOG_ERR, "tune: rollback: /%s: %s (%s)", field(r, 2), refusal(err), op);
	return err;
}

static int restore_dir(const char *root, const struct jrecord *r)
{
	int err = rootfs_rmdir(root, field(r, 1));

	if (err == 0 || err == -ENOENT)
		return 0;
	rk_log(RK_LOG_ERR, "tune: rollback: /%s: %s (removing the directory apply created)",
	       field(r, 1), strerror(-err));
	return err;
}

/* Undo record i (a change, counted, or a directory apply made, counted only if it fails) and
 * record it restored; *still counts what stays tuned, for the next rollback to retry. */
static int undo_record(struct journal *j, size_t i, struct rk_tune_result *result, size_t *still)
{
	const struct jrecord *r = &j->records[i];
	bool dir = strcmp(field(r, 0), "mkdir") == 0, live = strcmp(field(r, 0), "live") == 0;
	char n[24];
	const char *fields[] = {"restored", n};
	int err = dir	 ? restore_dir(j->root, r)
		  : live ? restore_live(j->root, r)
			 : restore_file(j->root, j, r);

	if (err)
		result->failed++;
	else if (!dir)
		result->done++;
	if (err && live && live_is_original(j->root, r))
		rk_log(RK_LOG_WARNING, "tune: rollback: /%s holds its original value", field(r, 2));
	else if (err) {
		(*still)++;
		return 0;
	}
	snprintf(n, sizeof(n), "%zu", i + 1);
	return journal_append(j, fields, 2);
}

/* Undo, newest first, what no earlier rollback restored, then say how much stays tuned. */
static int undo(struct journal *j, struct rk_tune_result *result)
{
	char when[24], still_text[24];
	const char *fields[] = {"rollback", when, still_text};
	size_t still = 0;
	int err = journal_reopen(j);

	for (size_t i = j->count; !err && i-- > 1;)
		if (journal_undoable(&j->records[i]) && !j->records[i].restored)
			err = undo_record(j, i, result, &still);
	if (err)
		return err;
	snprintf(when, sizeof(when), "%lld", (long long)time(NULL));
	snprintf(still_text, sizeof(still_text), "%zu", still);
	err = journal_append(j, fields, 3);
	if (!err && still)
		rk_log(RK_LOG_ERR,
		       "tune: rollback of %s: %zu item%s still tuned: run rdmakit tune rollback "
		       "again",
		       j->id, still, still == 1 ? "" : "s");
	return err;
}

/* Whether journal id is under root. */
static int journal_exists(const char *root, const char *id, bool *exists)
{
	char **ids;
	size_t count;
	int err = journal_list(root, &ids, &count);

	*exists = false;
	for (size_t i = 0; !err && i < count; i++)
		*exists = *exists || strcmp(ids[i], id) == 0;
	rk_names_free(ids, count);
	return err;
}

static bool rolled_back(const char *root, const char *id)
{
	struct journal j;
	bool done = journal_load(root, id, &j) == 0 && j.info.state == RK_TUNE_ROLLED_BACK;

	journal_free(&j);
	return done;
}

/* Journal id asked for while out is the newest open one: it must be that one. */
static int check_requested(const char *root, const char *id, const char *out)
{
	bool exists;
	int err = journal_exists(root, id, &exists);

	if (err || (exists && strcmp(id, out) == 0))
		return err;
	if (!exists) {
		rk_log(RK_LOG_ERR,
		       "tune: journal %s does not exist under %s (see rdmakit tune history)", id,
		       root);
		return -ENOENT;
	}
	if (!out[0] || strtol(id, NULL, 10) > strtol(out, NULL, 10) || rolled_back(root, id)) {
		rk_log(RK_LOG_ERR, "tune: journal %s is already rolled back", id);
		return -EALREADY;
	}
	rk_log(RK_LOG_ERR, "tune: roll back %s first: it was applied after %s", out, id);
	return -EBUSY;
}

/* Which journal to roll back: id, or the newest open one; 1 when it was an empty journal just
 * removed (nothing else to do). */
static int pick_rollback(const char *root, const char *id, const char *removed, char *out,
			 size_t size)
{
	enum rk_tune_journal_state state;
	char problem[200];
	int err = last_open_journal(root, out, size, &state, problem, sizeof(problem));

	if (!err && removed[0] && (id ? strcmp(id, removed) == 0 : !out[0])) {
		snprintf(out, size, "%s", removed);
		return 1;
	}
	if (err || id)
		return err ? err : check_requested(root, id, out);
	if (!out[0]) {
		rk_log(RK_LOG_ERR, "tune: nothing to roll back under %s", root);
		return -ENOENT;
	}
	return 0;
}

int rk_tune_rollback(const char *root, const char *id, struct rk_tune_result *result)
{
	struct journal j = {.fd = -1};
	char removed[16];
	int lock, err = begin_change("rollback", root, result, &lock, removed, sizeof(removed));

	if (err)
		return err;
	err = pick_rollback(root, id, removed, result->id, sizeof(result->id));
	if (!err)
		err = journal_load(root, result->id, &j);
	if (!err && j.info.state == RK_TUNE_DAMAGED) {
		rk_log(RK_LOG_ERR, "tune: journal %s is damaged: %s; nothing was changed", j.id,
		       j.info.problem);
		err = -EBADMSG;
	}
	if (!err && (err = undo(&j, result)) != 0)
		rk_log(RK_LOG_ERR,
		       "tune: rollback of %s stopped: %s; what it restored is recorded: run "
		       "rdmakit tune rollback again",
		       j.id, strerror(-err));
	journal_free(&j);
	close(lock);
	return err > 0 ? 0 : err;
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

/* An item a partial rollback left as apply set it. */
static int still_tuned(struct rk_tune_audit *audit, const char *root, const char *id,
		       const struct jrecord *r)
{
	bool dir = strcmp(field(r, 0), "mkdir") == 0, live = strcmp(field(r, 0), "live") == 0;
	const char *path = dir ? field(r, 1) : field(r, 2);
	char subject[300], current[128] = "as apply set it", original[128], *raw = NULL;
	size_t len;

	snprintf(subject, sizeof(subject), "/%s", path);
	snprintf(original, sizeof(original), "%s",
		 dir				 ? "no directory"
		 : strcmp(field(r, 3), "1") == 0 ? "the file before apply"
						 : "no file");
	if (live) {
		snprintf(original, sizeof(original), "%.*s", (int)strcspn(field(r, 3), "\n"),
			 field(r, 3));
		if (tune_slurp_target(root, path, &raw, &len, NULL) == 0)
			snprintf(current, sizeof(current), "%.*s", (int)strcspn(raw, "\n"), raw);
		free(raw);
	}
	return rk_tune_report(audit, RK_SEVERITY_WARNING, "TUNE_STILL_TUNED", "journal", subject,
			      current, original, "rdmakit tune rollback again",
			      "/%s is still as apply %s set it: its rollback did not restore it",
			      path, id);
}

/* The journal verify reads: id (which must be there), or the newest open one. */
static int pick_verify(const char *root, const char *id, char *out, size_t size)
{
	enum rk_tune_journal_state state = RK_TUNE_APPLIED;
	char problem[200];
	bool exists = false;
	int err = id ? journal_exists(root, id, &exists)
		     : last_open_journal(root, out, size, &state, problem, sizeof(problem));

	if (err)
		return err;
	if (id && !exists) {
		rk_log(RK_LOG_ERR,
		       "tune: journal %s does not exist under %s (see rdmakit tune history)", id,
		       root);
		return -ENOENT;
	}
	if (id)
		snprintf(out, size, "%s", id);
	else if (!out[0]) {
		rk_log(RK_LOG_ERR, "tune: nothing applied under %s to verify", root);
		return -ENOENT;
	}
	return 0;
}

/* Each record's finding: drift from what apply set, or what a partial rollback left. */
static int verify_records(const char *root, const struct journal *j, struct rk_tune_audit *audit)
{
	bool partly = j->info.state == RK_TUNE_PARTLY_ROLLED_BACK;
	int err = 0;

	for (size_t i = 1; !err && i < j->count; i++) {
		const struct jrecord *r = &j->records[i];

		if (partly && journal_undoable(r) && !r->restored)
			err = still_tuned(audit, root, j->id, r);
		else if (partly)
			continue;
		else if (strcmp(field(r, 0), "live") == 0)
			err = verify_live(root, j->id, r, audit);
		else if (strcmp(field(r, 0), "file") == 0)
			err = verify_file(root, j->id, r, audit);
	}
	return err;
}

int rk_tune_verify(const char *root, const char *id, struct rk_tune_audit *audit)
{
	char picked[16];
	struct journal j;
	int err = rk_tune_check_root(root);

	if (!err)
		err = pick_verify(root, id, picked, sizeof(picked));
	if (err)
		return err;
	err = journal_load(root, picked, &j);
	if (!err && j.info.state != RK_TUNE_APPLIED && j.info.state != RK_TUNE_PARTLY_ROLLED_BACK) {
		rk_log(RK_LOG_ERR, "tune: journal %s is %s%s%s", j.id,
		       rk_tune_journal_state_name(j.info.state), j.info.problem[0] ? ": " : "",
		       j.info.problem);
		err = -EBADMSG;
	}
	if (!err)
		err = verify_records(root, &j, audit);
	journal_free(&j);
	return err;
}
