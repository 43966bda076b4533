/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Applying a plan with a journal and byte-for-byte backups, rolling it back, history, verify. */
#ifndef RDMAKIT_TUNE_JOURNAL_H
#define RDMAKIT_TUNE_JOURNAL_H

#include "rdmakit/tune.h"

#include <stddef.h>

/* Where journals live under the root. */
#define RK_TUNE_JOURNAL_DIR "var/lib/rdmakit/tune"

enum rk_tune_journal_state {
	RK_TUNE_APPLIED,     /* every change made (some may have been rejected) */
	RK_TUNE_INCOMPLETE,  /* the apply stopped before its end: roll it back */
	RK_TUNE_ROLLED_BACK, /* restored */
	RK_TUNE_DAMAGED,     /* truncated or edited: refused */
	RK_TUNE_EMPTY,	     /* no record reached the disk (a crash): nothing changed, removed */
	RK_TUNE_PARTLY_ROLLED_BACK, /* a rollback left items tuned: roll back again */
};

/* One journal as history lists it. */
struct rk_tune_history_entry {
	char id[16];
	char label[96];
	long long started; /* seconds since the epoch */
	size_t changes, failed;
	enum rk_tune_journal_state state;
	char problem[200]; /* why it is damaged, empty, or which items are still tuned */
};

/* What apply or rollback did. */
struct rk_tune_result {
	char id[16]; /* "" when apply had nothing to change */
	size_t done, failed;
};

/** Make a plan's changes under root, journaling and backing up each before it is made; needs
 * root (-EPERM); refuses while an apply is interrupted or damaged (-EBUSY). */
int rk_tune_apply(const char *root, const char *label, const struct rk_tune_plan *plan,
		  struct rk_tune_result *result);

/** Restore every file byte for byte and every live value of journal id (NULL: the last one not
 * rolled back), recording each item restored, so a rollback that failed on some is retried by
 * the next; a damaged journal is refused (-EBADMSG) and nothing changes; an empty one is
 * removed; an id that is not there is -ENOENT. */
int rk_tune_rollback(const char *root, const char *id, struct rk_tune_result *result);

/** Every journal under root, oldest first (free *entries). */
int rk_tune_history(const char *root, struct rk_tune_history_entry **entries, size_t *count);

/** Compare the live system with journal id (NULL: the last applied); drift as findings, and
 * after a partial rollback the items still tuned (TUNE_STILL_TUNED). */
int rk_tune_verify(const char *root, const char *id, struct rk_tune_audit *audit);

/** "applied", "incomplete", "rolled back", "damaged", "empty" or "partly rolled back". */
const char *rk_tune_journal_state_name(enum rk_tune_journal_state state);

#endif
