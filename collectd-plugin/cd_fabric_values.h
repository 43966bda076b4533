/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* How fabric sweeps and SM status map onto collectd's standard types (types.db). */
#ifndef RDMAKIT_CD_FABRIC_VALUES_H
#define RDMAKIT_CD_FABRIC_VALUES_H

#include "cd_values.h"

#include "rdmakit/fabric.h"
#include "rdmakit/facts.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"

#include <stdbool.h>
#include <stddef.h>

#define CD_FABRIC_PLUGIN "rdma_fabric"
#define CD_SM_PLUGIN	 "rdma_sm"

/* When a fabric port's value list is sent. */
enum cd_fabric_rule {
	CD_SEND_ALWAYS,	 /* every sweep: the data counters */
	CD_SEND_PACKETS, /* every sweep with FabricPackets true: the packet counters */
	CD_SEND_NONZERO, /* from the first sweep that finds it non-zero: every other counter */
};

/* One value list of a fabric port: a counter, or the rx and tx counters of a pair. */
struct cd_fabric_item {
	struct cd_slot slot; /* type, type instance (ds: the first counter's) */
	int counter[2];	     /* indexes into rk_catalog_pma(); counter[1] -1 for a single */
	enum cd_fabric_rule rule;
};

/* A fact of the core sent as one number under a standard type (all from the table of facts). */
struct cd_fact {
	enum rk_fact_id fact; /* unit and help come from the core's table */
	const char *type;     /* the fact's cd_type: "count", "duration", "gauge" or "derive" */
	const char *type_instance; /* the fact's cd_instance */
	const char *ds_name;	   /* the type's data source: "value" or "seconds" */
	const char *when;	   /* when it is sent, for the reference table */
};

/** The value lists of a fabric port, pairs once (at their rx counter); returns how many. */
size_t cd_fabric_items(struct cd_fabric_item items[RK_SWEEP_COUNTERS]);

/** The values the plugin sends of a scope (RK_SCOPE_FABRIC or _SM); *count receives how many. */
const struct cd_fact *cd_fact_list(enum rk_fact_scope scope, size_t *count);

#endif
