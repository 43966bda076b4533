/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* How fabric sweeps and SM status map onto collectd's standard types (types.db). */
#ifndef RDMAKIT_CD_FABRIC_VALUES_H
#define RDMAKIT_CD_FABRIC_VALUES_H

#include "cd_values.h"

#include "rdmakit/fabric.h"
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

/* A fabric-wide or SM value: one number under a standard type. */
struct cd_fact {
	const char *type;	   /* "count", "duration", "gauge" or "derive" */
	const char *type_instance; /* e.g. "nodes", "master_lid" */
	const char *ds_name;	   /* the type's data source: "value" or "seconds" */
	const char *unit;
	const char *when; /* when it is sent, for the reference table */
	const char *help;
};

/* The fabric-wide values, in the order of cd_fabric_facts(). */
enum {
	CD_FABRIC_NODES,
	CD_FABRIC_SWITCHES,
	CD_FABRIC_CAS,
	CD_FABRIC_LINKS,
	CD_FABRIC_DEGRADED_LINKS,
	CD_FABRIC_SWEPT_PORTS,
	CD_FABRIC_UNANSWERED_PORTS,
	CD_FABRIC_SWEEP_SECONDS,
	CD_FABRIC_DISCOVERY_SECONDS,
	CD_FABRIC_FACTS,
};

/* The SM values, in the order of cd_sm_facts(). */
enum {
	CD_SM_MASTER_LID,
	CD_SM_MASTER_PRIORITY,
	CD_SM_MASTER_STATE,
	CD_SM_MASTER_ACTIVITY,
	CD_SM_ANSWERED,
	CD_SM_MASTERS,
	CD_SM_STANDBYS,
	CD_SM_FACTS,
};

/** The value lists of a fabric port, pairs once (at their rx counter); returns how many. */
size_t cd_fabric_items(struct cd_fabric_item items[RK_SWEEP_COUNTERS]);

/** Descriptions of the fabric-wide values (CD_FABRIC_FACTS of them). */
const struct cd_fact *cd_fabric_fact_list(void);

/** Descriptions of the SM values (CD_SM_FACTS of them). */
const struct cd_fact *cd_sm_fact_list(void);

/** Fill the fabric-wide values of a topology and its last sweep (sweep_seconds as measured). */
void cd_fabric_facts(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
		     double sweep_seconds, double values[CD_FABRIC_FACTS]);

/** Fill the SM values; master_* describe the SM in MASTER state, else the local port's SM if
 * it answered, else they are NAN (not sent). */
void cd_sm_facts(const struct rk_sm_status *sm, double values[CD_SM_FACTS]);

#endif
