/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "ak_oid.h"

#include "ak_columns.h"

#include "rdmakit/catalog.h"

#include <stdlib.h>

static struct ak_table_def defs[AK_T_COUNT] = {
    {AK_T_AGENT, "rdmakitAgent", {1, 1}, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9}, 9, {0}},
    {AK_T_DEVICE, "rdmakitDeviceEntry", {1, 2, 1, 1}, 4, {AK_DEVICE_NAME}, 1, {0}},
    {AK_T_PORT,
     "rdmakitPortEntry",
     {1, 2, 2, 1},
     4,
     {AK_PORT_WORST_SEVERITY, AK_PORT_WORST_FINDING, AK_PORT_PROBE_STATUS, AK_PORT_PROBE_RTT,
      AK_PORT_PROBE_FAILURE},
     5,
     {0}},
    {AK_T_PORT_COUNTER,
     "rdmakitPortCounterEntry",
     {1, 2, 3, 1},
     4,
     {AK_PC_DISCONTINUITY, AK_PC_SATURATED, AK_PC_UNAVAILABLE},
     3,
     {0}},
    {AK_T_DRIVER_COUNTER, "rdmakitDriverCounterEntry", {1, 2, 4, 1}, 4, {3, 4, 5}, 3, {0}},
    {AK_T_FINDING, "rdmakitFindingEntry", {1, 3, 1, 1}, 4, {2, 3, 4, 5, 6, 7}, 6, {0}},
    {AK_T_SM_MASTER, "rdmakitSmScalars", {1, 4, 1}, 3, {AK_SM_MASTER_GUID}, 1, {0}},
    {AK_T_SM, "rdmakitSmEntry", {1, 4, 2, 1}, 4, {0}, 0, {0}},
    {AK_T_FABRIC_SUMMARY, "rdmakitFabricSummary", {1, 5, 4}, 3, {0}, 0, {0}},
    {AK_T_FABRIC_NODE, "rdmakitFabricNodeEntry", {1, 5, 1, 1}, 4, {2, 3, 4, 5, 6}, 5, {0}},
    {AK_T_FABRIC_PORT, "rdmakitFabricPortEntry", {1, 5, 2, 1}, 4, {2, 3, 4, 5, 6, 7, 8, 9}, 8, {0}},
    {AK_T_FABRIC_COUNTER,
     "rdmakitFabricCounterEntry",
     {1, 5, 3, 1},
     4,
     {AK_PC_SATURATED, AK_PC_UNAVAILABLE},
     2,
     {0}},
};

/* The facts each table serves, by scope; the SM entry's GUID is the index, not a column. */
static enum ak_table_id table_of(const struct rk_fact *fact)
{
	switch (fact->scope) {
	case RK_SCOPE_PORT:
		return AK_T_PORT;
	case RK_SCOPE_DEVICE:
		return AK_T_DEVICE;
	case RK_SCOPE_FABRIC:
		return AK_T_FABRIC_SUMMARY;
	case RK_SCOPE_SM:
		return AK_T_SM_MASTER;
	case RK_SCOPE_SM_ENTRY:
		return fact->id == RK_FACT_SM_ENTRY_GUID ? AK_T_COUNT : AK_T_SM;
	}
	return AK_T_COUNT;
}

/* The facts the MIB leaves out: the text twins of numbered states and types (an NMS gets the
 * number and a value map), and what no poller needs from SNMP. */
static bool served(enum rk_fact_id id)
{
	switch (id) {
	case RK_FACT_PORT_STATE_NAME:
	case RK_FACT_PORT_PHYS_STATE_NAME:
	case RK_FACT_PORT_CAP_MASK:
	case RK_FACT_DEVICE_NODE_TYPE_NAME:
	case RK_FACT_DEVICE_VANISHED: /* a vanished device has no row */
	case RK_FACT_SM_ENTRY_STATE_NAME:
		return false;
	default:
		return true;
	}
}

static void add_column(struct ak_table_def *def, unsigned column)
{
	if (def->ncolumns < AK_COLUMNS_MAX && column < AK_COLUMN_LIMIT)
		def->columns[def->ncolumns++] = column;
}

static int ascending(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

void ak_table_defs_init(void)
{
	size_t nfacts, npma;
	const struct rk_fact *facts = rk_facts_all(&nfacts);
	const struct rk_metric *pma = rk_catalog_pma(&npma);

	for (size_t i = 0; i < nfacts; i++)
		if (served(facts[i].id) && table_of(&facts[i]) != AK_T_COUNT)
			add_column(&defs[table_of(&facts[i])], facts[i].column);
	for (size_t i = 0; i < npma; i++) {
		add_column(&defs[AK_T_PORT_COUNTER], pma[i].column);
		add_column(&defs[AK_T_FABRIC_COUNTER], pma[i].column);
	}
	for (int t = 0; t < AK_T_COUNT; t++) {
		struct ak_table_def *def = &defs[t];

		qsort(def->columns, def->ncolumns, sizeof(def->columns[0]), ascending);
		for (size_t c = 0; c < def->ncolumns; c++)
			def->slot[def->columns[c]] = (unsigned char)(c + 1);
	}
}

const struct ak_table_def *ak_table_defs(size_t *count)
{
	*count = AK_T_COUNT;
	return defs;
}

const struct ak_table_def *ak_table_def(enum ak_table_id id)
{
	return &defs[id];
}
