/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "ak_oid.h"

#include "ak_columns.h"

static const struct ak_table_def defs[] = {
    {AK_T_AGENT, "rdmakitAgent", {1, 1}, 2, 1, AK_AGENT_COLUMNS},
    {AK_T_DEVICE, "rdmakitDeviceEntry", {1, 2, 1, 1}, 4, 2, AK_DEVICE_COLUMNS},
    {AK_T_PORT, "rdmakitPortEntry", {1, 2, 2, 1}, 4, 2, AK_PORT_COLUMNS},
    {AK_T_PORT_COUNTER, "rdmakitPortCounterEntry", {1, 2, 3, 1}, 4, 1, AK_PC_COLUMNS},
    {AK_T_DRIVER_COUNTER, "rdmakitDriverCounterEntry", {1, 2, 4, 1}, 4, 3, AK_DC_COLUMNS},
    {AK_T_FINDING, "rdmakitFindingEntry", {1, 3, 1, 1}, 4, 2, AK_FINDING_COLUMNS},
    {AK_T_SM_MASTER, "rdmakitSmMaster", {1, 4, 1}, 3, 1, AK_SM_MASTER_COLUMNS},
    {AK_T_SM, "rdmakitSmEntry", {1, 4, 2, 1}, 4, 2, AK_SM_COLUMNS},
    {AK_T_FABRIC_NODE, "rdmakitFabricNodeEntry", {1, 5, 1, 1}, 4, 2, AK_FN_COLUMNS},
    {AK_T_FABRIC_PORT, "rdmakitFabricPortEntry", {1, 5, 2, 1}, 4, 2, AK_FP_COLUMNS},
    {AK_T_FABRIC_COUNTER, "rdmakitFabricCounterEntry", {1, 5, 3, 1}, 4, 1, AK_PC_COLUMNS},
};

const struct ak_table_def *ak_table_defs(size_t *count)
{
	*count = sizeof(defs) / sizeof(defs[0]);
	return defs;
}

const struct ak_table_def *ak_table_def(enum ak_table_id id)
{
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (defs[i].id == id)
			return &defs[i];
	return NULL;
}
