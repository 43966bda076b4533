/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_fabric_values.h"

#include <string.h>

/* Data counters every sweep; other pairs are packet counts; singles once they count. */
static enum cd_fabric_rule rule_for(const struct cd_slot *slot)
{
	if (strcmp(slot->type, "if_octets") == 0)
		return CD_SEND_ALWAYS;
	return slot->partner ? CD_SEND_PACKETS : CD_SEND_NONZERO;
}

size_t cd_fabric_items(struct cd_fabric_item items[RK_SWEEP_COUNTERS])
{
	size_t count, n = 0;
	const struct rk_metric *pma = rk_catalog_pma(&count);

	for (size_t c = 0; c < count && c < RK_SWEEP_COUNTERS; c++) {
		struct cd_fabric_item *item = &items[n];

		cd_slot_for(&pma[c], pma[c].name, &item->slot);
		if (item->slot.partner && item->slot.ds != 0)
			continue; /* the tx half travels with its rx half */
		item->counter[0] = (int)c;
		item->counter[1] =
		    item->slot.partner ? rk_catalog_pma_index(item->slot.partner) : -1;
		item->rule = rule_for(&item->slot);
		n++;
	}
	return n;
}

#define SWEEP  "every sweep"
#define QUERY  "every query"
#define MASTER "when the master answers"

/* The fabric's values, then the SM's. */
static const struct cd_fact facts[] = {
    {RK_FACT_FABRIC_NODES, "count", "nodes", "value", SWEEP},
    {RK_FACT_FABRIC_SWITCHES, "count", "switches", "value", SWEEP},
    {RK_FACT_FABRIC_CAS, "count", "cas", "value", SWEEP},
    {RK_FACT_FABRIC_LINKS, "count", "links", "value", SWEEP},
    {RK_FACT_FABRIC_DEGRADED_LINKS, "count", "degraded_links", "value", SWEEP},
    {RK_FACT_FABRIC_SWEPT_PORTS, "count", "swept_ports", "value", SWEEP},
    {RK_FACT_FABRIC_UNANSWERED_PORTS, "count", "unanswered_ports", "value", SWEEP},
    {RK_FACT_FABRIC_SWEEP_SECONDS, "duration", "sweep", "seconds", SWEEP},
    {RK_FACT_FABRIC_DISCOVERY_SECONDS, "duration", "discovery", "seconds", SWEEP},
    {RK_FACT_SM_MASTER_LID, "gauge", "master_lid", "value", MASTER},
    {RK_FACT_SM_MASTER_PRIORITY, "gauge", "master_priority", "value", MASTER},
    {RK_FACT_SM_MASTER_STATE, "gauge", "master_state", "value", MASTER},
    {RK_FACT_SM_MASTER_ACTIVITY, "derive", "master_activity_count", "value", MASTER},
    {RK_FACT_SM_ANSWERED, "count", "sms", "value", QUERY},
    {RK_FACT_SM_MASTERS, "count", "masters", "value", QUERY},
    {RK_FACT_SM_STANDBYS, "count", "standbys", "value", QUERY},
};

const struct cd_fact *cd_fact_list(enum rk_fact_scope scope, size_t *count)
{
	size_t first = 0, n = sizeof(facts) / sizeof(facts[0]);

	while (first < n && rk_fact(facts[first].fact)->scope != scope)
		first++;
	*count = 0;
	while (first + *count < n && rk_fact(facts[first + *count].fact)->scope == scope)
		(*count)++;
	return &facts[first];
}
