/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The fabric audit, as ibdiagnet checks a fabric after a change window: on what a discovery
 * read, identities (node descriptions, LIDs against their LMC) and ports the SM left half way
 * up; on what the audit reads itself, GUIDs that answer on two paths, P_Key tables against a
 * partitions.conf and SL-to-VL maps against the VLs each port runs. Each finding names its
 * subject by node and GUID (and LID), once per cause. */
#ifndef RDMAKIT_AUDIT_H
#define RDMAKIT_AUDIT_H

#include "rdmakit/fabric.h"
#include "rdmakit/findings.h"
#include "rdmakit/mad.h"
#include "rdmakit/tune_opensm.h"

#define RK_UNICAST_LID_MAX 0xbfff /* LIDs above are multicast (IBA 4.1.3) */

/** The identity and port checks of the audit on fabric: DUPLICATE_NODE_DESC (ok: legal, but
 * names are ambiguous), LID_UNASSIGNED, LID_DUPLICATE, LID_OUTSIDE_LMC, PORT_STUCK_INIT and
 * PORT_STUCK_ARMED (one finding a node, with its ports and the directed route to it from the
 * local port). Appended to findings; 0 or -ENOMEM. */
int rk_audit_fabric(const struct rk_fabric *fabric, struct rk_findings *findings);

/* P_Key table entries read of a port (8 blocks; ConnectX adapters have 128). */
#define RK_AUDIT_MAX_PKEYS 256

/* The tables the audit read of one port. status: 0 read, -errno, or 1 not asked. */
struct rk_audit_port {
	int node, port; /* the fabric's node index and port number (the output port of a switch) */
	int in_port;	/* a switch's SL-to-VL map: the input port of the one read; 0 on a CA */
	int pkey_status, sl2vl_status;
	uint16_t pkeys[RK_AUDIT_MAX_PKEYS]; /* as read, 0 entries kept (CA ports, and switch
					     * ports to a CA) */
	size_t npkeys;
	uint8_t vl_of_sl[16];
};

/* What answered behind a switch port that links up but that the discovery did not take. */
struct rk_audit_twin {
	int node, port; /* the switch and its port */
	int status;	/* 0: NodeInfo answered */
	uint64_t node_guid, port_guid;
};

/* What the audit reads beyond the discovery. */
struct rk_audit_reads {
	struct rk_audit_port *ports;
	size_t nports;
	struct rk_audit_twin *twins;
	size_t ntwins;
	struct rk_mad_stats stats;
	double seconds;
};

/** Read, by directed routes from the local port: NodeInfo behind every switch port that links
 * up to a node the discovery did not take, the SL-to-VL map of every ACTIVE port (a switch's
 * output ports from one input port each), and with pkeys every ACTIVE CA port's P_Key table
 * and that of every switch port to a CA that can enforce partitions.
 * 0, or the -errno of the port or -ENOMEM; a port's failed read is its status. */
int rk_audit_read(struct rk_mad_port *port, const struct rk_fabric *fabric,
		  const struct rk_mad_options *options, bool pkeys, struct rk_audit_reads *out);

/** Free what rk_audit_read read. */
void rk_audit_reads_free(struct rk_audit_reads *reads);

/* What the table checks compare with. */
struct rk_audit_context {
	const struct rk_partitions *partitions; /* NULL: no P_Key check */
	uint64_t sm_port_guid;			/* the partitions' SELF */
	uint16_t sls_in_use; /* bit n: traffic uses SL n (SL 0, the SM's, the partitions') */
};

/** The checks on what rk_audit_read read: DUPLICATE_GUID (a GUID that answers behind a second
 * port), the partitions' PARTITION_MISSING, PARTITION_DEFAULT_MISSING, PARTITION_UNEXPECTED and
 * PARTITION_MEMBERSHIP, PARTITION_SWITCH_PORT (a switch port set up for partitions that lacks
 * a P_Key of the CA behind it), and SL_TO_VL_INVALID (an SL in
 * use mapped to VL15 or past the VLs the port runs: an SL no traffic uses may map anywhere). 0 or
 * -ENOMEM. */
int rk_audit_tables(const struct rk_fabric *fabric, const struct rk_audit_reads *reads,
		    const struct rk_audit_context *context, struct rk_findings *findings);

/** The whole audit of a discovered fabric: rk_audit_fabric, then rk_audit_read through port
 * (P_Key tables when partitions is given) and rk_audit_tables, SELF being the port of the
 * local port's SM LID, the SLs in use SL 0, the SM's and the partitions' sl= flags; stats (may be
 * NULL) gets the MADs it took. 0 or -errno. */
int rk_audit_run(struct rk_mad_port *port, const struct rk_fabric *fabric,
		 const struct rk_mad_options *options, const struct rk_partitions *partitions,
		 struct rk_findings *findings, struct rk_mad_stats *stats);

#endif
