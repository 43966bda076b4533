/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The table of every value a front end exports that is not a counter of the catalog: the port
 * and device facts of a host, the fabric and SM facts and summaries; and the rx/tx counter
 * pairs. Each fact has a MIB column, fixed in the table (never derived from its order). */
#ifndef RDMAKIT_FACTS_H
#define RDMAKIT_FACTS_H

#include "rdmakit/catalog.h"
#include "rdmakit/host.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"

#include <stddef.h>

/* What a fact describes: each scope is one MIB table (port, device) or group of scalars. */
enum rk_fact_scope {
	RK_SCOPE_PORT,	   /* a port of the host: columns from RK_COLUMN_FIRST */
	RK_SCOPE_DEVICE,   /* a device of the host: columns from RK_COLUMN_FIRST */
	RK_SCOPE_FABRIC,   /* the fabric seen over MADs: scalars from 1 */
	RK_SCOPE_SM,	   /* the subnet managers: scalars from 1 */
	RK_SCOPE_SM_ENTRY, /* one SM that was queried: columns from RK_COLUMN_FIRST */
};

/* Every fact, to look one up or index an array of values by it. */
enum rk_fact_id {
	RK_FACT_PORT_STATE,
	RK_FACT_PORT_STATE_NAME,
	RK_FACT_PORT_PHYS_STATE,
	RK_FACT_PORT_PHYS_STATE_NAME,
	RK_FACT_PORT_RATE,
	RK_FACT_PORT_WIDTH,
	RK_FACT_PORT_SPEED,
	RK_FACT_PORT_LID,
	RK_FACT_PORT_SM_LID,
	RK_FACT_PORT_SM_SL,
	RK_FACT_PORT_LMC,
	RK_FACT_PORT_CAP_MASK,
	RK_FACT_PORT_LINK_LAYER,
	RK_FACT_PORT_GID0,
	RK_FACT_PORT_NETDEV,
	RK_FACT_DEVICE_NODE_TYPE,
	RK_FACT_DEVICE_NODE_TYPE_NAME,
	RK_FACT_DEVICE_NODE_GUID,
	RK_FACT_DEVICE_SYS_IMAGE_GUID,
	RK_FACT_DEVICE_FW_VER,
	RK_FACT_DEVICE_HCA_TYPE,
	RK_FACT_DEVICE_BOARD_ID,
	RK_FACT_DEVICE_HW_REV,
	RK_FACT_DEVICE_NODE_DESC,
	RK_FACT_DEVICE_NUM_PORTS,
	RK_FACT_DEVICE_VANISHED,
	RK_FACT_DEVICE_PCI_ADDRESS,
	RK_FACT_DEVICE_NUMA_NODE,
	RK_FACT_DEVICE_PCIE_SPEED,
	RK_FACT_DEVICE_PCIE_MAX_SPEED,
	RK_FACT_DEVICE_PCIE_WIDTH,
	RK_FACT_DEVICE_PCIE_MAX_WIDTH,
	RK_FACT_DEVICE_SRIOV_NUMVFS,
	RK_FACT_DEVICE_SRIOV_TOTALVFS,
	RK_FACT_DEVICE_PCI_VENDOR,
	RK_FACT_DEVICE_PCI_DEVICE,
	RK_FACT_FABRIC_NODES,
	RK_FACT_FABRIC_SWITCHES,
	RK_FACT_FABRIC_CAS,
	RK_FACT_FABRIC_ROUTERS,
	RK_FACT_FABRIC_LINKS,
	RK_FACT_FABRIC_DEGRADED_LINKS,
	RK_FACT_FABRIC_SWEPT_PORTS,
	RK_FACT_FABRIC_ANSWERED_PORTS,
	RK_FACT_FABRIC_UNANSWERED_PORTS,
	RK_FACT_FABRIC_SWEEP_SECONDS,
	RK_FACT_FABRIC_DISCOVERY_SECONDS,
	RK_FACT_SM_MASTER_LID,
	RK_FACT_SM_MASTER_PRIORITY,
	RK_FACT_SM_MASTER_STATE,
	RK_FACT_SM_MASTER_ACTIVITY,
	RK_FACT_SM_ANSWERED,
	RK_FACT_SM_MASTERS,
	RK_FACT_SM_STANDBYS,
	RK_FACT_SM_DISCOVERING,
	RK_FACT_SM_NOT_ACTIVE,
	RK_FACT_SM_ENTRY_LID,
	RK_FACT_SM_ENTRY_ANSWERED,
	RK_FACT_SM_ENTRY_GUID,
	RK_FACT_SM_ENTRY_PRIORITY,
	RK_FACT_SM_ENTRY_STATE,
	RK_FACT_SM_ENTRY_STATE_NAME,
	RK_FACT_SM_ENTRY_ACTIVITY,
	RK_FACT_SM_ENTRY_NAME,
	RK_FACT_COUNT,
};

/* Room for the text of an SM entry's fact (a GUID, a name). */
#define RK_FACT_TEXT_MAX 96

/* One fact. Port, device and SM entry facts carry the function that reads them from a
 * snapshot; an SM entry's text is written to buf (RK_FACT_TEXT_MAX) when it is not in the SM. */
struct rk_fact {
	enum rk_fact_id id;
	enum rk_fact_scope scope;
	const char *name; /* unique in its scope; collectd's type instance where it is one */
	enum rk_kind kind;
	const char *unit;
	const char *help;
	unsigned column;      /* MIB column (or scalar number), unique in its scope */
	const char *cli_name; /* its key in the CLI's JSON ("pci.numa_node": nested), or NULL */
	double (*port_number)(const struct rk_port *port);	    /* negative when unknown */
	const char *(*port_text)(const struct rk_port *port);	    /* "" when unknown */
	double (*device_number)(const struct rk_device *device);    /* negative when unknown */
	const char *(*device_text)(const struct rk_device *device); /* "" when unknown */
	double (*sm_number)(const struct rk_sm *sm);		    /* negative when unknown */
	const char *(*sm_text)(const struct rk_sm *sm, char *buf);  /* "" when unknown */
};

/* Two PMA counters that front ends carry together: received (rx) and transmitted (tx). */
struct rk_counter_pair {
	const char *name; /* "data", "packets", "unicast_packets", "multicast_packets" */
	const char *rx, *tx;
};

/** Every fact; *count receives the number of entries (RK_FACT_COUNT). */
const struct rk_fact *rk_facts_all(size_t *count);

/** The fact with this id. */
const struct rk_fact *rk_fact(enum rk_fact_id id);

/** Every rx/tx counter pair; *count receives how many. */
const struct rk_counter_pair *rk_counter_pairs(size_t *count);

/** The pair a PMA counter belongs to (*is_tx set), or NULL when it travels alone. */
const struct rk_counter_pair *rk_counter_pair_of(const char *counter, bool *is_tx);

/** Fill values[] of the fabric facts; sweep (NULL: its facts are NAN) took sweep_seconds as the
 * front end measured it, rediscovery included. */
void rk_fabric_fact_values(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
			   double sweep_seconds, double values[RK_FACT_COUNT]);

/** Fill values[] of the SM facts; the master_* ones are NAN when no SM is described. */
void rk_sm_fact_values(const struct rk_sm_status *status, double values[RK_FACT_COUNT]);

#endif
