/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The active findings table: a finding keeps its row number while it stays active. */
#include "ak_build.h"

#include "ak_columns.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct ak_active_finding *find_active(const struct ak_build_state *state,
						   const struct rk_finding *finding)
{
	for (size_t i = 0; i < state->nfindings; i++)
		if (rk_finding_key_compare(&state->findings[i].key, finding) == 0)
			return &state->findings[i];
	return NULL;
}

uint32_t ak_build_finding_index(const struct ak_build_state *state,
				const struct rk_finding *finding)
{
	const struct ak_active_finding *active = find_active(state, finding);

	return active ? active->index : 0;
}

void ak_build_count_event(struct ak_build_state *state, const struct rk_event *event)
{
	if (event->is_finding) {
		if (event->cleared)
			state->findings_cleared++;
		else
			state->findings_raised++;
	}
	if (event->is_finding || event->kind == RK_EVENT_FINDING_CHANGED)
		state->findings_changed_at = (uint32_t)time(NULL);
}

/* The numbers of this read's findings: the old ones kept, new ones after the last. */
static int number_findings(struct ak_build_state *state, const struct rk_findings *findings,
			   struct ak_active_finding **out)
{
	struct ak_active_finding *list = calloc(findings->count + 1, sizeof(*list));
	uint32_t now = (uint32_t)time(NULL);

	if (!list)
		return -ENOMEM;
	for (size_t i = 0; i < findings->count; i++) {
		const struct rk_finding *finding = &findings->items[i];
		const struct ak_active_finding *old = find_active(state, finding);

		list[i].key = *finding;
		list[i].index = old ? old->index : ++state->next_finding;
		list[i].raised_at = old ? old->raised_at : now;
		list[i].severity = finding->severity;
	}
	*out = list;
	return 0;
}

/* The finding's node GUID as text (rdmakitFindingNodeGuid), empty when it has none. */
static int set_node_guid(struct ak_row *row, uint64_t guid)
{
	char text[24] = "";

	if (guid)
		rk_format_guid_groups(guid, text, sizeof(text));
	return ak_row_set_string(row, AK_FINDING_NODE_GUID, text);
}

static int add_finding(struct ak_table *table, const struct ak_active_finding *active,
		       const struct rk_finding *finding)
{
	struct ak_row *row = ak_table_add_row(table, &active->index, 1);
	int err;

	if (!row)
		return -ENOMEM;
	ak_row_set_number(row, AK_FINDING_SEVERITY, AK_CELL_INTEGER,
			  (uint64_t)finding->severity + 1);
	ak_row_set_number(row, AK_FINDING_RAISED_AT, AK_CELL_UNSIGNED, active->raised_at);
	ak_row_set_number(row, AK_FINDING_NODE_PORT, AK_CELL_UNSIGNED,
			  finding->node_guid && finding->port > 0 ? (uint64_t)finding->port : 0);
	err = ak_row_set_string(row, AK_FINDING_CODE, finding->code);
	if (!err)
		err = set_node_guid(row, finding->node_guid);
	if (!err)
		err = ak_row_set_string(row, AK_FINDING_SUBJECT, finding->subject);
	if (!err)
		err = ak_row_set_string(row, AK_FINDING_MESSAGE, finding->message);
	return err ? err : ak_row_set_string(row, AK_FINDING_REMEDY, finding->remedy);
}

static uint32_t count_severity(const struct rk_findings *findings, enum rk_severity severity)
{
	uint32_t count = 0;

	for (size_t i = 0; i < findings->count; i++)
		count += findings->items[i].severity == severity;
	return count;
}

/* rdmakitFindingSummary: findings raised and cleared so far, the last change, and the
 * critical and warning findings now active. */
static int add_summary(struct ak_table *table, const struct ak_build_state *state,
		       const struct rk_findings *findings)
{
	uint32_t zero = 0;
	struct ak_row *row = ak_table_add_row(table, &zero, 1);

	if (!row)
		return -ENOMEM;
	ak_row_set_number(row, AK_FINDINGS_RAISED, AK_CELL_COUNTER32, state->findings_raised);
	ak_row_set_number(row, AK_FINDINGS_CLEARED, AK_CELL_COUNTER32, state->findings_cleared);
	ak_row_set_number(row, AK_FINDINGS_LAST_CHANGE, AK_CELL_UNSIGNED,
			  state->findings_changed_at);
	ak_row_set_number(row, AK_FINDINGS_CRITICAL, AK_CELL_UNSIGNED,
			  count_severity(findings, RK_SEVERITY_CRITICAL));
	ak_row_set_number(row, AK_FINDINGS_WARNING, AK_CELL_UNSIGNED,
			  count_severity(findings, RK_SEVERITY_WARNING));
	return 0;
}

int ak_build_findings(struct ak_build_state *state, const struct rk_findings *findings,
		      struct ak_snapshot *snapshot)
{
	struct ak_active_finding *list = NULL;
	int err = number_findings(state, findings, &list);

	for (size_t i = 0; i < findings->count && !err; i++)
		err = add_finding(&snapshot->tables[AK_T_FINDING], &list[i], &findings->items[i]);
	if (!err)
		err = add_summary(&snapshot->tables[AK_T_FINDING_SUMMARY], state, findings);
	if (err) {
		free(list);
		return err;
	}
	free(state->findings);
	state->findings = list;
	state->nfindings = findings->count;
	return 0;
}

void ak_build_state_free(struct ak_build_state *state)
{
	free(state->findings);
	free(state->discontinuities);
	ak_index_map_free(&state->indexes);
	memset(state, 0, sizeof(*state));
}
