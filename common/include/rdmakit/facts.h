/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The table of every value a front end exports that is not a counter of the catalog: the port
 * and device facts of a host, the fabric and SM facts and summaries, the fabric's nodes and
 * ports, a swept port's transmit wait and the bandwidth its link lost to it; and the rx/tx
 * counter pairs. Each fact says how every front end shows it: collectd's type and type
 * instance, the MIB column (fixed in the table, never derived from its order), SNMP syntax and
 * scale, the CLI's JSON key, text label and unit. Front
 * ends loop over the table; none of them names a fact's column, type instance or key itself
 * (unit_fact_literals checks). A new fact is its id below and its row in facts.c (with a reader
 * when the snapshot has no field for it yet); its MIB object (and the PMA counters' of the
 * catalog) is written into mibs/RDMAKIT-MIB.txt by build/tests/rdmakit_mibgen --write
 * mibs/RDMAKIT-MIB.txt (the test mib_generated fails until it is); its row of
 * collectd-plugin/README.md, when collectd gets it, by tests/collectd/write_reference.py
 * --write (collectd_reference). */
#ifndef RDMAKIT_FACTS_H
#define RDMAKIT_FACTS_H

#include "rdmakit/catalog.h"
#include "rdmakit/findings.h"
#include "rdmakit/host.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"

#include <stddef.h>

/* What a fact describes: each scope is one MIB table (port, device) or group of scalars. */
enum rk_fact_scope {
	RK_SCOPE_PORT,		 /* a port of the host: columns from RK_COLUMN_FIRST */
	RK_SCOPE_DEVICE,	 /* a device of the host: columns from RK_COLUMN_FIRST */
	RK_SCOPE_FABRIC,	 /* the fabric seen over MADs: scalars from 1 */
	RK_SCOPE_SM,		 /* the subnet managers: scalars from 1 */
	RK_SCOPE_SM_ENTRY,	 /* one SM that was queried: columns from RK_COLUMN_FIRST */
	RK_SCOPE_FABRIC_NODE,	 /* a node of the fabric: columns from 2 (the GUID is the index) */
	RK_SCOPE_FABRIC_PORT,	 /* a port of a fabric node: columns from 2 (GUID, port number) */
	RK_SCOPE_FABRIC_COUNTER, /* a swept port's values beside the catalog's counters: columns
				  * the catalog's PMA counters do not take */
};

/* Every fact, to look one up or index an array of values by it; a scope's facts in the order
 * the CLI shows them (status --json). */
enum rk_fact_id {
	RK_FACT_PORT_STATE,
	RK_FACT_PORT_STATE_NAME,
	RK_FACT_PORT_PHYS_STATE,
	RK_FACT_PORT_PHYS_STATE_NAME,
	RK_FACT_PORT_RATE,
	RK_FACT_PORT_WIDTH,
	RK_FACT_PORT_SPEED,
	RK_FACT_PORT_LINK_LAYER,
	RK_FACT_PORT_LID,
	RK_FACT_PORT_SM_LID,
	RK_FACT_PORT_SM_SL,
	RK_FACT_PORT_LMC,
	RK_FACT_PORT_CAP_MASK,
	RK_FACT_PORT_GID0,
	RK_FACT_PORT_NETDEV,
	RK_FACT_PORT_GUID,
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
	RK_FACT_DEVICE_PCI_VENDOR,
	RK_FACT_DEVICE_PCI_DEVICE,
	RK_FACT_DEVICE_NUMA_NODE,
	RK_FACT_DEVICE_PCIE_SPEED,
	RK_FACT_DEVICE_PCIE_MAX_SPEED,
	RK_FACT_DEVICE_PCIE_WIDTH,
	RK_FACT_DEVICE_PCIE_MAX_WIDTH,
	RK_FACT_DEVICE_SRIOV_NUMVFS,
	RK_FACT_DEVICE_SRIOV_TOTALVFS,
	RK_FACT_DEVICE_NODE_GUID_TEXT,
	RK_FACT_DEVICE_SYS_IMAGE_GUID_TEXT,
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
	RK_FACT_FABRIC_ROUTES, /* the last route check's (rk_route_fact_values) */
	RK_FACT_FABRIC_ROUTE_HOLES,
	RK_FACT_FABRIC_ROUTE_LOOPS,
	RK_FACT_FABRIC_ROUTE_DEAD_ENDS,
	RK_FACT_FABRIC_ROUTE_MAX_HOPS,
	RK_FACT_FABRIC_ROUTES_UNBALANCED,
	RK_FACT_FABRIC_WATCHER_ACTIVE,
	RK_FACT_FABRIC_ACTIVE_WATCHER,
	RK_FACT_FABRIC_AUDIT_CRITICAL,
	RK_FACT_FABRIC_AUDIT_WARNING,
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
	RK_FACT_SM_ENTRY_GUID_TEXT,
	RK_FACT_COUNT, /* the facts above: a host's, the fabric summary's and the SMs' */
	RK_FACT_NODE_TYPE = RK_FACT_COUNT,
	RK_FACT_NODE_DESCRIPTION,
	RK_FACT_NODE_NAME,
	RK_FACT_NODE_LID,
	RK_FACT_NODE_PORTS,
	RK_FACT_NODE_GUID_TEXT,
	RK_FACT_FABRIC_PORT_STATE,
	RK_FACT_FABRIC_PORT_PHYS_STATE,
	RK_FACT_FABRIC_PORT_WIDTH,
	RK_FACT_FABRIC_PORT_SPEED,
	RK_FACT_FABRIC_PORT_PEER_GUID,
	RK_FACT_FABRIC_PORT_PEER_PORT,
	RK_FACT_FABRIC_PORT_DEGRADED,
	RK_FACT_FABRIC_PORT_DEGRADED_REASON,
	RK_FACT_FABRIC_PORT_PEER_GUID_TEXT,
	RK_FACT_FABRIC_PORT_FLAPPING,
	RK_FACT_FABRIC_PORT_NAME,
	RK_FACT_FABRIC_COUNTER_XMIT_WAIT,
	RK_FACT_FABRIC_COUNTER_LOST_BANDWIDTH,
	RK_FACT_TABLE_SIZE, /* every fact, the fabric's nodes and ports included */
};

/* The SNMP syntax a fact is served with (RK_SNMP_NONE: not served). */
enum rk_snmp_syntax {
	RK_SNMP_NONE,
	RK_SNMP_GAUGE,	   /* Gauge32 / Unsigned32: the number times snmp_scale, rounded */
	RK_SNMP_INTEGER,   /* INTEGER: an enumeration, or a signed number */
	RK_SNMP_COUNTER32, /* Counter32 */
	RK_SNMP_TEXT,	   /* DisplayString: the text as it is */
	RK_SNMP_GID,   /* OCTET STRING (SIZE(16)): the text's hex digits; none when unreadable */
	RK_SNMP_TRUTH, /* TruthValue: true (1) when the number is not 0, else false (2) */
	RK_SNMP_NAMED, /* INTEGER: the MIB enumeration's number of the text (snmp_code) */
};

/* When SNMP serves a numeric fact. */
enum rk_snmp_when {
	RK_SNMP_KNOWN,	  /* when the number is known (not negative, not NAN) */
	RK_SNMP_POSITIVE, /* when above 0: 0 means unknown (states, types, PCIe speeds) */
	RK_SNMP_ALWAYS,	  /* always, a negative number as it is (an INTEGER's -1) */
	RK_SNMP_OR_ZERO,  /* always, 0 when unknown */
};

/* The front ends, for rk_fact_served(). */
enum rk_front_end {
	RK_FRONT_COLLECTD,
	RK_FRONT_SNMP,
	RK_FRONT_CLI, /* the JSON documents (the text output shows what the JSON has) */
};

/* Room for the text of a fact a reader writes (a GUID, a name). */
#define RK_FACT_TEXT_MAX RK_FABRIC_PORT_LABEL_MAX

/* A port of the fabric, with what its facts are read from. */
struct rk_fabric_port_ref {
	const struct rk_fabric *fabric;
	size_t node;			    /* index into fabric->nodes */
	const struct rk_fabric_port *port;  /* a present port of that node */
	const struct rk_findings *findings; /* the fabric's: why a link is degraded, whether it
					     * flaps (or NULL) */
};

/* One fact. Facts of a table (port, device, SM entry, fabric node and port) carry the function
 * that reads them from a snapshot; a text is written to buf (RK_FACT_TEXT_MAX) when it is not
 * in the snapshot as it is shown. */
struct rk_fact {
	enum rk_fact_id id;
	enum rk_fact_scope scope;
	const char *name; /* unique in its scope */
	enum rk_kind kind;
	const char *unit;
	const char *help;
	unsigned column;      /* MIB column (or scalar number), unique in its scope */
	const char *cli_name; /* its key in the CLI's JSON ("pci.numa_node": nested), or NULL; a
			       * fabric node's type and a fabric port's states and speed are shown
			       * by name there */
	double (*port_number)(const struct rk_port *port);	    /* negative when unknown */
	const char *(*port_text)(const struct rk_port *port);	    /* "" when unknown */
	double (*device_number)(const struct rk_device *device);    /* negative when unknown */
	const char *(*device_text)(const struct rk_device *device); /* "" when unknown */
	double (*sm_number)(const struct rk_sm *sm);		    /* negative when unknown */
	const char *(*sm_text)(const struct rk_sm *sm, char *buf);  /* "" when unknown */
	double (*node_number)(const struct rk_fabric_node *node);   /* negative when unknown */
	const char *(*node_text)(const struct rk_fabric_node *node, char *buf); /* "": unknown */
	double (*fabric_port_number)(const struct rk_fabric_port_ref *ref); /* negative: unknown */
	const char *(*fabric_port_text)(const struct rk_fabric_port_ref *ref, char *buf); /* "" */
	double (*reading_number)(const struct rk_sweep_reading *reading); /* negative: unknown */
	/* collectd: the type (types.db) and type instance it is sent as; NULL when not sent */
	const char *cd_type, *cd_instance;
	const char *cd_when; /* when collectd gets it, for the reference table */
	/* SNMP: the syntax, the factor a number is multiplied by, and when it is served */
	enum rk_snmp_syntax snmp_syntax;
	unsigned snmp_scale; /* 1, or 1000 for Mb/s from Gb/s, MT/s from GT/s, ms from s, or 100
			      * for hundredths of a percent */
	enum rk_snmp_when snmp_when;
	unsigned (*snmp_code)(const char *text); /* RK_SNMP_NAMED: its number, 0 when none */
	/* RDMAKIT-MIB's object: its name after "rdmakit" when rk_fact_mib_name cannot derive it
	 * from the fact's, its SYNTAX when snmp_syntax's base type is not it (a textual
	 * convention, a range), its UNITS (or NULL), what its DESCRIPTION says after the help
	 * (or NULL); mib_deprecated: the object stays in the MIB, deprecated, though SNMP no
	 * longer serves the fact */
	const char *mib_name, *mib_syntax, *mib_units, *mib_note;
	bool mib_deprecated;
	/* the CLI's text output: what a person reads before the value, and after it ("" none) */
	const char *label, *text_unit;
};

/* Two PMA counters that front ends carry together: received (rx) and transmitted (tx). */
struct rk_counter_pair {
	const char *name; /* "data", "packets", "unicast_packets", "multicast_packets" */
	const char *rx, *tx;
	const char *cd_type, *cd_instance; /* collectd's type (ds rx and tx) and type instance */
};

/** The scope's name: "port", "device", "fabric", "sm", "sm_entry", "fabric_node",
 * "fabric_port" or "fabric_counter" ("?" out of range). */
const char *rk_fact_scope_name(enum rk_fact_scope scope);

/** Every fact of a host, the fabric summary and the SMs, the ones a values[RK_FACT_COUNT]
 * array holds; *count receives the number of entries (RK_FACT_COUNT). */
const struct rk_fact *rk_facts_all(size_t *count);

/** Every fact of the fabric's nodes and ports, and of a swept port beside its counters (ids
 * from RK_FACT_COUNT); *count receives how many. */
const struct rk_fact *rk_facts_topology(size_t *count);

/** Whether a front end shows a fact (collectd: it has a type; SNMP: a syntax; CLI: a key). */
bool rk_fact_served(const struct rk_fact *fact, enum rk_front_end front_end);

/** Whether RDMAKIT-MIB has an object for the fact (served, or deprecated). */
bool rk_fact_in_mib(const struct rk_fact *fact);

/** The name of the fact's object in RDMAKIT-MIB ("rdmakitPortState"), written to buf: the
 * scope's prefix and the fact's name in camel case, or the row's mib_name. */
const char *rk_fact_mib_name(const struct rk_fact *fact, char *buf, size_t size);

/** The fact with this id (any id below RK_FACT_TABLE_SIZE). */
const struct rk_fact *rk_fact(enum rk_fact_id id);

/* What a fact is read from: the member its scope needs (the others may be NULL). */
struct rk_fact_subject {
	const struct rk_port *port;
	const struct rk_device *device;
	const struct rk_sm *sm;
	const struct rk_fabric_node *node;
	const struct rk_fabric_port_ref *fabric_port;
	const struct rk_sweep_reading *reading; /* a swept port's (RK_SCOPE_FABRIC_COUNTER) */
	const double *values;	    /* fabric and SM facts: from rk_fabric/sm_fact_values() */
	const char *active_watcher; /* the fabric's text scalar: the active watcher's name */
};

/** A numeric fact of a subject: negative (or NAN) when unknown. */
double rk_fact_number(const struct rk_fact *fact, const struct rk_fact_subject *subject);

/** A text fact of a subject ("" when unknown), written to buf when it is not stored as such. */
const char *rk_fact_text(const struct rk_fact *fact, const struct rk_fact_subject *subject,
			 char buf[RK_FACT_TEXT_MAX]);

/** Every rx/tx counter pair; *count receives how many. */
const struct rk_counter_pair *rk_counter_pairs(size_t *count);

/** The pair a PMA counter belongs to (*is_tx set), or NULL when it travels alone. */
const struct rk_counter_pair *rk_counter_pair_of(const char *counter, bool *is_tx);

/** Fill values[] of the fabric facts; sweep (NULL: its facts are NAN) took sweep_seconds as the
 * front end measured it, rediscovery included. */
void rk_fabric_fact_values(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
			   double sweep_seconds, double values[RK_FACT_COUNT]);

struct rk_route_summary;

/** The route facts of a route check's summary (NULL: not checked, every one NAN); the fabric
 * facts' functions leave them NAN. */
void rk_route_fact_values(const struct rk_route_summary *routes, double values[RK_FACT_COUNT]);

/** rk_fabric_fact_values from what a snapshot keeps of the sweep (NULL: its facts are NAN). */
void rk_fabric_readings_fact_values(const struct rk_fabric *fabric,
				    const struct rk_sweep_readings *sweep, double sweep_seconds,
				    double values[RK_FACT_COUNT]);

/** Fill values[] of the SM facts; the master_* ones are NAN when no SM is described. */
void rk_sm_fact_values(const struct rk_sm_status *status, double values[RK_FACT_COUNT]);

#endif
