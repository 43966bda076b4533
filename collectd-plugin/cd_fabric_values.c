/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* How fabric sweeps and SM status map onto collectd's standard types (types.db). */
#include "cd_fabric_values.h"

#include <pthread.h>
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

#define CD_FACTS_MAX RK_FACT_TABLE_SIZE

static struct cd_fact facts[CD_FACTS_MAX];
static size_t nfacts;
static pthread_once_t facts_once = PTHREAD_ONCE_INIT;

/* The data source of a collectd type (types.db): "duration" has "seconds", the others "value". */
static const char *ds_of(const char *type)
{
	return strcmp(type, "duration") == 0 ? "seconds" : "value";
}

/* The fabric, SM and swept ports' facts the table of facts gives a collectd type, in its order. */
static void build_facts(void)
{
	for (int id = 0; id < RK_FACT_TABLE_SIZE; id++) {
		const struct rk_fact *f = rk_fact((enum rk_fact_id)id);

		if ((f->scope != RK_SCOPE_FABRIC && f->scope != RK_SCOPE_SM &&
		     f->scope != RK_SCOPE_FABRIC_COUNTER) ||
		    !rk_fact_served(f, RK_FRONT_COLLECTD))
			continue;
		facts[nfacts++] = (struct cd_fact){.fact = f->id,
						   .type = f->cd_type,
						   .type_instance = f->cd_instance,
						   .ds_name = ds_of(f->cd_type),
						   .when = f->cd_when};
	}
}

const struct cd_fact *cd_fact_list(enum rk_fact_scope scope, size_t *count)
{
	size_t first = 0;

	pthread_once(&facts_once, build_facts);
	while (first < nfacts && rk_fact(facts[first].fact)->scope != scope)
		first++;
	*count = 0;
	while (first + *count < nfacts && rk_fact(facts[first + *count].fact)->scope == scope)
		(*count)++;
	return &facts[first];
}
