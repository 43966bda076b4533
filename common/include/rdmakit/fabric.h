/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The InfiniBand fabric seen over MADs: nodes, ports, links, and links below their capability. */
#ifndef RDMAKIT_FABRIC_H
#define RDMAKIT_FABRIC_H

#include "rdmakit/link.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rk_node_type {
	RK_NODE_CA = 1,
	RK_NODE_SWITCH = 2,
	RK_NODE_ROUTER = 3,
};

/* A port's PortInfo PartitionEnforcement bits: it drops packets whose P_Key its table lacks. */
#define RK_PKEY_ENFORCE_INBOUND	 1
#define RK_PKEY_ENFORCE_OUTBOUND 2

struct rk_fabric_port {
	int num; /* 0 for a switch's management port */
	bool present;
	uint64_t guid;
	uint16_t lid; /* base LID (a switch's ports share port 0's) */
	uint8_t lmc;
	int state;	/* 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE */
	int phys_state; /* 2 Polling, 3 Disabled, 5 LinkUp, ... */
	uint32_t cap_mask;
	uint8_t
	    oper_vls; /* PortInfo OperVLs: 1 VL0, 2 VL0-1, 3 VL0-3, 4 VL0-7, 5 VL0-14; 0 unknown */
	uint8_t pkey_enforcement; /* PortInfo PartitionEnforcement: RK_PKEY_ENFORCE_* bits */
	int active_width;	  /* lanes: 1, 2, 4, 8, 12; 0 when down */
	rk_width_set enabled_widths, supported_widths;
	enum rk_speed active_speed;
	rk_speed_set enabled_speeds, supported_speeds;
	int remote_node; /* index into rk_fabric.nodes, or -1 */
	int remote_port;
};

/* Whether a node's PMA has an optional attribute: not known yet, it has, it has not. */
enum rk_pm_support {
	RK_PM_UNKNOWN,
	RK_PM_SUPPORTED,
	RK_PM_UNSUPPORTED,
};

/* A node's name: a cleaned description (RK_TEXT_CLEAN_MAX) and " (0xGUID)". */
#define RK_FABRIC_NAME_MAX 280

struct rk_fabric_node {
	uint64_t guid;
	enum rk_node_type type;
	char description[65];
	char name[RK_FABRIC_NAME_MAX]; /* from the node name map, else the description, made safe
					* (rk_text_clean) and, when empty or shared, followed by the
					* GUID */
	uint16_t lid; /* a switch's port 0 LID, or a CA's first port's: 0 when none is unicast */
	uint32_t vendor_id, device_id;
	uint16_t partition_cap; /* NodeInfo PartitionCap: P_Key table entries of a CA's port */
	uint16_t partition_enforce_cap; /* SwitchInfo PartitionEnforcementCap: entries of a
					 * switch's external ports (0: it enforces none) */
	uint16_t mcast_fdb_cap;		/* SwitchInfo MulticastFDBCap: MLIDs its table holds */
	uint16_t mcast_fdb_top; /* SwitchInfo MulticastFDBTop when port 0 says the switch keeps
				 * it (IsMulticastFDBTopSupported), else 0 */
	int nports;
	struct rk_fabric_port *ports; /* [0..nports]; absent ones have present == false */
	bool is_sm;		      /* some port advertises IsSM */
	bool pm_known;		      /* pm_cap_mask has been read (by a counter sweep) */
	uint16_t pm_cap_mask;	      /* PerfMgt ClassPortInfo CapabilityMask */
	uint32_t pm_cap_mask2;	      /* and its CapabilityMask2 */
	uint16_t pm_tick;   /* PortSamplesControl Tick + 1: symbol times per PortXmitWait tick, 0
			     * when the node did not say (asked with pm_cap_mask) */
	uint8_t pm_vl_wait; /* enum rk_pm_support of PortVLXmitWaitCounters: PortSamplesControl's
			     * OptionMask says, else the node's first answer to it */
};

struct rk_fabric_link {
	int node_a, port_a, node_b, port_b; /* node_a < node_b, or same node and port_a < port_b */
	int width;			    /* active lanes at end a */
	enum rk_speed speed;		    /* active speed at end a */
	bool ends_disagree;		    /* the two ends report different width or speed */
	bool below_enabled;    /* slower or narrower than the best both ends have enabled */
	bool below_peers;      /* slower or narrower than most links between the same models */
	bool unused_supported; /* both ends support more than they enabled (informational) */
};

struct rk_fabric {
	struct rk_fabric_node *nodes;
	size_t nnodes;
	struct rk_fabric_link *links;
	size_t nlinks;
	int local_node; /* the node discovery started from */
	double discovery_seconds;
};

/* Friendly names for GUIDs, in the ib-node-name-map format ("0xGUID "name"" per line). */
struct rk_name_map;
struct rk_cancel;

struct rk_fabric_options {
	const char *ca; /* NULL: libibumad's default */
	int port;	/* 0: default */
	unsigned timeout_ms;
	unsigned max_smps; /* SMPs in flight during discovery */
	const struct rk_name_map *names;
	unsigned
	    helper_deadline_s;		/* rk_fabric_discover_isolated stops its helper after this
					   long without a whole answer (0: RK_HELPER_DEADLINE_DEFAULT_S) */
	const struct rk_cancel *cancel; /* raised: rk_fabric_discover_isolated kills and reaps
					   its helper and returns -ECANCELED (NULL: never) */
};

/* Room for a port's label: its node's name and "[port]". */
#define RK_FABRIC_PORT_LABEL_MAX (RK_FABRIC_NAME_MAX + 8)

/** "name[port]": port p of node n, as findings, traces and tables name a fabric port. */
void rk_fabric_port_label(const struct rk_fabric *fabric, size_t n, int p, char *out, size_t size);

/** Discover the fabric through the local port (libibnetdisc) and classify its links. */
int rk_fabric_discover(const struct rk_fabric_options *options, struct rk_fabric **out);

/** Like rk_fabric_discover, in the rdmakit-discover helper process (libibnetdisc before
 * rdma-core 49.1 leaks memory at every discovery, which must not build up in a daemon); the
 * helper's log lines are logged here. Without the helper, discovers in this process. */
int rk_fabric_discover_isolated(const struct rk_fabric_options *options, struct rk_fabric **out);

/** The helper's side: discover, then write log lines, the result and the fabric to fd. */
int rk_fabric_discover_serve(const struct rk_fabric_options *options, int fd);

/** Write a fabric to fd in this build's binary format (for rk_fabric_read); 0 or -errno. */
int rk_fabric_write(int fd, const struct rk_fabric *fabric);

/** Read a fabric written by rk_fabric_write; -ENODATA when the stream ends early, -EPROTO
 * when it is not one. */
int rk_fabric_read(int fd, struct rk_fabric **out);

/** Name every node from the map, or by its description where the map has none; names are
 * cleaned (rk_text_clean), and a description that is empty or that several nodes share
 * gets the node's GUID. */
void rk_fabric_name_nodes(struct rk_fabric *fabric, const struct rk_name_map *names);

/** Free a fabric. */
void rk_fabric_free(struct rk_fabric *fabric);

/** *out: a deep copy of fabric (nodes, their ports, links), freed by rk_fabric_free; 0 or
 * -ENOMEM. */
int rk_fabric_copy(const struct rk_fabric *fabric, struct rk_fabric **out);

/** Whether port p (1..nports) of node is physically linked up but discovery did not reach
 * the node behind it (its MADs were lost, or it does not answer): part of the fabric unread. */
bool rk_fabric_port_unreached(const struct rk_fabric_node *node, int p);

/** Index of the node with this GUID, or -1. */
int rk_fabric_find_node(const struct rk_fabric *fabric, uint64_t guid);

/** Port p's data rate in Gb/s as discovered: its lanes times a lane's rate after line
 * encoding (0: down, or no such port). */
double rk_fabric_port_data_gbps(const struct rk_fabric_node *node, int p);

/** Mark links slower than both ends enable or than most links between the same models. */
void rk_fabric_classify_links(struct rk_fabric *fabric);

/** A degraded link: slower or narrower than both ends enable, or than most of its peers. */
bool rk_link_degraded(const struct rk_fabric_link *link);

/* The fabric's nodes by type, its links and its degraded links. */
struct rk_fabric_summary {
	size_t nodes, switches, cas, routers, links, degraded_links;
};

/** Count a fabric's nodes by type, its links and its degraded links (rk_link_degraded). */
void rk_fabric_summarize(const struct rk_fabric *fabric, struct rk_fabric_summary *out);

/** Load a node name map; errors name the file and line. */
int rk_name_map_load(const char *path, struct rk_name_map **out);

/** The name for guid, or NULL. */
const char *rk_name_map_lookup(const struct rk_name_map *map, uint64_t guid);

/** How many GUIDs the map gives name (compared without regard to case); *guid is the last of
 * them when there is any. */
size_t rk_name_map_find(const struct rk_name_map *map, const char *name, uint64_t *guid);

/** Free a node name map. */
void rk_name_map_free(struct rk_name_map *map);

/** A GUID as rdmakit prints it everywhere: "0x0002c90300000001". */
void rk_format_guid(uint64_t guid, char *buf, size_t size);

/** A GUID as the kernel writes one in sysfs (node_guid) and operators read it in tables:
 * "0002:c903:0000:0001". */
void rk_format_guid_groups(uint64_t guid, char *buf, size_t size);

/** "switch", "ca", "router" or "unknown". */
const char *rk_node_type_name(enum rk_node_type type);

#endif
