/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit tune's audits, plans, results and history, through the one writer (print.h). */
#ifndef RDMAKIT_CLI_TUNE_OUT_H
#define RDMAKIT_CLI_TUNE_OUT_H

#include "print.h"
#include "rdmakit/tune.h"
#include "rdmakit/tune_journal.h"

#include <stdbool.h>

/** {"root", "profile", "findings": [{severity, code, area, subject, current, recommended,
 * message, remedy}], "worst"} */
void print_tune_audit(struct printer *p, const char *root, const char *profile,
		      const struct rk_tune_audit *audit);

/** {"root", "changes": [{kind, key, path, current, new, mode}]}; text shows a file's lines. */
void print_tune_plan(struct printer *p, const char *root, const struct rk_tune_plan *plan);

/** {"id", "done", "failed"} of an apply, or (rollback) of a rollback. */
void print_tune_result(struct printer *p, const struct rk_tune_result *result, bool rollback);

/** {"journals": [{id, state, label, started, changes, failed, problem}]}, oldest first. */
void print_tune_history(struct printer *p, const struct rk_tune_history_entry *entries,
			size_t count);

#endif
