/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Text and JSON of rdmakit tune: audits, plans, results and history. */
#ifndef RDMAKIT_CLI_TUNE_OUT_H
#define RDMAKIT_CLI_TUNE_OUT_H

#include "rdmakit/tune.h"
#include "rdmakit/tune_journal.h"

#include <json-c/json.h>
#include <stdio.h>

/** {"root", "profile", "findings": [{severity, code, area, subject, current, recommended,
 * message, remedy}], "worst"} */
json_object *json_tune_audit(const char *root, const char *profile,
			     const struct rk_tune_audit *audit);

/** Findings grouped by area, each with current → recommended, why and how. */
void text_tune_audit(FILE *out, const struct rk_tune_audit *audit);

/** {"root", "changes": [{kind, key, path, current, new, mode}]} */
json_object *json_tune_plan(const char *root, const struct rk_tune_plan *plan);

/** Every change: path, key, current → new (files line by line). */
void text_tune_plan(FILE *out, const struct rk_tune_plan *plan);

/** {"id", "done", "failed"} of an apply or a rollback. */
json_object *json_tune_result(const struct rk_tune_result *result);

/** {"journals": [{id, state, label, started, changes, failed, problem}]} */
json_object *json_tune_history(const struct rk_tune_history_entry *entries, size_t count);

/** One line per journal, oldest first. */
void text_tune_history(FILE *out, const struct rk_tune_history_entry *entries, size_t count);

#endif
