/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Where RDMAKIT-MIB's objects sit: the root, each table and its columns. */
#include "ak_oid.h"

#include "ak_columns.h"

#include "rdmakit/catalog.h"

#include <stdio.h>
#include <stdlib.h>

static struct ak_table_def defs[AK_T_COUNT] = {
    {AK_T_AGENT, "rdmakitAgent", {1, 1}, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 10, {0}},
    {AK_T_DEVICE, "rdmakitDeviceEntry", {1, 2, 1, 1}, 4, {AK_DEVICE_NAME}, 1, {0}},
    {AK_T_PORT,
     "rdmakitPortEntry",
     {1, 2, 2, 1},
     4,
     {AK_PORT_WORST_SEVERITY, AK_PORT_WORST_FINDING, AK_PORT_PROBE_STATUS, AK_PORT_PROBE_RTT,
      AK_PORT_PROBE_FAILURE, AK_PORT_DEVICE_NAME},
     6,
     {0}},
    {AK_T_PORT_COUNTER,
     "rdmakitPortCounterEntry",
     {1, 2, 3, 1},
     4,
     {AK_PC_DISCONTINUITY, AK_PC_SATURATED, AK_PC_UNAVAILABLE},
     3,
     {0}},
    {AK_T_DRIVER_COUNTER, "rdmakitDriverCounterEntry", {1, 2, 4, 1}, 4, {3, 4, 5, 6, 7}, 5, {0}},
    {AK_T_FINDING, "rdmakitFindingEntry", {1, 3, 1, 1}, 4, {2, 3, 4, 5, 6, 7, 8, 9}, 8, {0}},
    {AK_T_FINDING_SUMMARY, "rdmakitFindingSummary", {1, 3, 2}, 3, {1, 2, 3, 4, 5}, 5, {0}},
    {AK_T_SM_MASTER, "rdmakitSmScalars", {1, 4, 1}, 3, {AK_SM_MASTER_GUID_TEXT}, 1, {0}},
    {AK_T_SM, "rdmakitSmEntry", {1, 4, 2, 1}, 4, {0}, 0, {0}},
    {AK_T_FABRIC_SUMMARY, "rdmakitFabricSummary", {1, 5, 4}, 3, {0}, 0, {0}},
    {AK_T_FABRIC_NODE, "rdmakitFabricNodeEntry", {1, 5, 1, 1}, 4, {0}, 0, {0}},
    {AK_T_FABRIC_PORT, "rdmakitFabricPortEntry", {1, 5, 2, 1}, 4, {0}, 0, {0}},
    {AK_T_FABRIC_COUNTER,
     "rdmakitFabricCounterEntry",
     {1, 5, 3, 1},
     4,
     {AK_PC_DISCONTINUITY, AK_PC_SATURATED, AK_PC_UNAVAILABLE},
     3,
     {0}},
};

/* The table that serves the facts of a scope (the facts say which of them it serves). */
static enum ak_table_id table_of(enum rk_fact_scope scope)
{
	switch (scope) {
	case RK_SCOPE_PORT:
		return AK_T_PORT;
	case RK_SCOPE_DEVICE:
		return AK_T_DEVICE;
	case RK_SCOPE_FABRIC:
		return AK_T_FABRIC_SUMMARY;
	case RK_SCOPE_SM:
		return AK_T_SM_MASTER;
	case RK_SCOPE_SM_ENTRY:
		return AK_T_SM;
	case RK_SCOPE_FABRIC_NODE:
		return AK_T_FABRIC_NODE;
	case RK_SCOPE_FABRIC_PORT:
		return AK_T_FABRIC_PORT;
	case RK_SCOPE_FABRIC_COUNTER:
		return AK_T_FABRIC_COUNTER;
	}
	return AK_T_COUNT;
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
	size_t npma;
	const struct rk_metric *pma = rk_catalog_pma(&npma);

	for (int id = 0; id < RK_FACT_TABLE_SIZE; id++) {
		const struct rk_fact *fact = rk_fact((enum rk_fact_id)id);

		if (rk_fact_served(fact, RK_FRONT_SNMP) && table_of(fact->scope) != AK_T_COUNT)
			add_column(&defs[table_of(fact->scope)], fact->column);
	}
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

unsigned ak_table_mode(enum ak_table_id id)
{
	switch (id) {
	case AK_T_SM_MASTER:
	case AK_T_SM:
		return AK_MODE_SM;
	case AK_T_FABRIC_SUMMARY:
	case AK_T_FABRIC_NODE:
	case AK_T_FABRIC_PORT:
	case AK_T_FABRIC_COUNTER:
		return AK_MODE_FABRIC;
	default:
		return AK_MODE_HOST;
	}
}

/* The modes' names, in the order of their bits. */
static const char *const mode_names[] = {"host", "fabric", "sm", "tune", "probe", "audit"};

void ak_modes_text(unsigned modes, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++)
		if (modes & (1u << i) && used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? "," : "",
						 mode_names[i]);
}
