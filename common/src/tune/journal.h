/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The journal's file format: checksummed records, a head, backups (see journal.c). */
#ifndef RDMAKIT_TUNE_JOURNAL_INTERNAL_H
#define RDMAKIT_TUNE_JOURNAL_INTERNAL_H

#include "rdmakit/file.h"
#include "rdmakit/tune_journal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOURNAL_MAX_FIELDS 12
/* Longest field a record holds (a live value; files go to backups). */
#define JOURNAL_MAX_VALUE 4000

/* One record: its type and decoded fields. */
struct jrecord {
	char *fields[JOURNAL_MAX_FIELDS]; /* fields[0] is the type */
	size_t nfields;
	char hash[17];
	bool restored; /* a change or mkdir a later "restored" record names */
};

/* A journal directory, loaded and checked, or being written. */
struct journal {
	char root[PATH_MAX];
	char dir[PATH_MAX]; /* RK_TUNE_JOURNAL_DIR/<id>, relative to root */
	char id[16];
	struct jrecord *records;
	size_t count, capacity;
	char last_hash[17];
	int fd;		  /* the journal file while writing, else -1 */
	size_t valid_len; /* bytes of whole records */
	bool torn;	  /* a last record without its newline follows them */
	struct rk_tune_history_entry info;
};

/** Load journal id under root and check its checksums, head and backups (info.state tells). */
int journal_load(const char *root, const char *id, struct journal *j);

/** Create journal <next id> under root with its begin record (label, planned changes): built
 * under a temporary name and renamed into place once durable, so no crash leaves it empty;
 * after an error there is none (a temporary one left, the next apply or rollback removes). */
int journal_create(const char *root, const char *label, size_t planned, struct journal *j);

/** Open a loaded journal for appending (a torn last record cut off first). */
int journal_reopen(struct journal *j);

/** Remove the temporary journal directories a create that failed or was killed left. */
int journal_remove_leftovers(const char *root);

/** Remove an empty journal's directory (RK_TUNE_EMPTY: no record, nothing changed). */
int journal_discard(const struct journal *j);

/** Append a record (fields[0] is the type), fsync it, then update the head atomically. */
int journal_append(struct journal *j, const char *const *fields, size_t nfields);

/** A record rollback undoes: a file or live change, or a directory apply made. */
bool journal_undoable(const struct jrecord *r);

/** out: " /path /path and N more", the journal's changes (directories made included) that no
 * rollback restored; false when there is none. */
bool journal_name_unrestored(const struct journal *j, char *out, size_t size);

/** Free a loaded or created journal. */
void journal_free(struct journal *j);

/** Sorted journal ids under root; free with rk_names_free. */
int journal_list(const char *root, char ***ids, size_t *count);

/** Path of backup n of journal j. */
void journal_backup_path(const struct journal *j, const char *n, char *buf, size_t size);

/** 64-bit FNV-1a of bytes, continuing from hash. */
uint64_t journal_hash(uint64_t hash, const void *bytes, size_t len);

/** FNV-1a's starting value. */
#define JOURNAL_HASH_SEED 0xcbf29ce484222325ULL

#ifdef RDMAKIT_TEST_HOOKS
/** Count a write for the crash test (RDMAKIT_TUNE_STOP_AFTER=N: SIGKILL after N writes). */
void journal_step(void);
#else
static inline void journal_step(void)
{
}
#endif

#endif
