/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* How the core's counters and port facts map onto collectd's standard types (types.db). */
#include "cd_values.h"

#include <pthread.h>

static struct cd_port_gauge gauges[RK_FACT_COUNT];
static size_t ngauges;
static pthread_once_t gauges_once = PTHREAD_ONCE_INIT;

const char *cd_pair_type(const struct rk_counter_pair *pair, const char **type_instance)
{
	*type_instance = pair->cd_instance;
	return pair->cd_type;
}

/* The pair a PMA counter travels in, with its collectd type; false when it travels alone. */
static bool pair_slot(const char *name, struct cd_slot *slot)
{
	bool is_tx = false;
	const struct rk_counter_pair *pair = rk_counter_pair_of(name, &is_tx);

	if (!pair || !(slot->type = cd_pair_type(pair, &slot->type_instance)))
		return false;
	slot->ds = is_tx;
	slot->ds_name = is_tx ? "tx" : "rx";
	slot->partner = is_tx ? pair->rx : pair->tx;
	return true;
}

void cd_slot_for(const struct rk_metric *metric, const char *name, struct cd_slot *slot)
{
	if (metric->source == RK_SRC_PORT_COUNTERS && pair_slot(name, slot))
		return;
	slot->type = metric->kind == RK_KIND_GAUGE ? "gauge" : "derive";
	slot->type_instance = name;
	slot->ds = 0;
	slot->ds_name = "value";
	slot->partner = NULL;
}

/* The port facts the table of facts gives a collectd type. */
static void build_gauges(void)
{
	size_t count;
	const struct rk_fact *facts = rk_facts_all(&count);

	for (size_t i = 0; i < count; i++) {
		if (facts[i].scope != RK_SCOPE_PORT ||
		    !rk_fact_served(&facts[i], RK_FRONT_COLLECTD))
			continue;
		gauges[ngauges].fact = &facts[i];
		gauges[ngauges].type_instance = facts[i].cd_instance;
		gauges[ngauges].value = facts[i].port_number;
		ngauges++;
	}
}

const struct cd_port_gauge *cd_port_gauges(size_t *count)
{
	pthread_once(&gauges_once, build_gauges);
	*count = ngauges;
	return gauges;
}
