/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_values.h"

#include <pthread.h>
#include <string.h>

/* The collectd types of the core's rx/tx counter pairs (rk_counter_pairs). */
static const struct cd_pair_type {
	const char *pair, *type, *type_instance;
} pair_types[] = {
    {"data", "if_octets", ""},
    {"packets", "if_packets", ""},
    {"unicast_packets", "if_packets", "unicast"},
    {"multicast_packets", "if_packets", "multicast"},
};

/* The core's port facts sent as gauges, and their collectd type instances. */
static const struct cd_port_fact {
	enum rk_fact_id fact;
	const char *type_instance;
} port_facts[] = {
    {RK_FACT_PORT_STATE, "state"},	  {RK_FACT_PORT_PHYS_STATE, "phys_state"},
    {RK_FACT_PORT_RATE, "rate"},	  {RK_FACT_PORT_LID, "lid"},
    {RK_FACT_PORT_SM_LID, "sm_lid"},	  {RK_FACT_PORT_SM_SL, "sm_sl"},
    {RK_FACT_PORT_LMC, "lid_mask_count"}, {RK_FACT_PORT_CAP_MASK, "cap_mask"},
};

#define PORT_GAUGES (sizeof(port_facts) / sizeof(port_facts[0]))

static struct cd_port_gauge gauges[PORT_GAUGES];
static pthread_once_t gauges_once = PTHREAD_ONCE_INIT;

const char *cd_pair_type(const struct rk_counter_pair *pair, const char **type_instance)
{
	for (size_t i = 0; i < sizeof(pair_types) / sizeof(pair_types[0]); i++) {
		if (strcmp(pair->name, pair_types[i].pair) == 0) {
			*type_instance = pair_types[i].type_instance;
			return pair_types[i].type;
		}
	}
	return NULL;
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

static void build_gauges(void)
{
	for (size_t i = 0; i < PORT_GAUGES; i++) {
		gauges[i].fact = rk_fact(port_facts[i].fact);
		gauges[i].type_instance = port_facts[i].type_instance;
		gauges[i].value = gauges[i].fact->port_number;
	}
}

const struct cd_port_gauge *cd_port_gauges(size_t *count)
{
	pthread_once(&gauges_once, build_gauges);
	*count = PORT_GAUGES;
	return gauges;
}
