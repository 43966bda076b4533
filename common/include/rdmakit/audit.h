/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The fabric audit, as ibdiagnet checks a fabric after a change window: on what a discovery
 * read, identities (node descriptions, LIDs against their LMC) and ports the SM left half way
 * up; on what the audit reads itself, GUIDs that answer on two paths, P_Key tables against a
 * partitions.conf, SL-to-VL maps against the VLs each port runs, and the switches' multicast
 * tables against the SA's groups. Each finding names its subject by node and GUID (and LID),
 * once per cause. */
#ifndef RDMAKIT_AUDIT_H
#define RDMAKIT_AUDIT_H

#include "rdmakit/fabric.h"
#include "rdmakit/findings.h"
#include "rdmakit/mad.h"
#include "rdmakit/tune_opensm.h"

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

#define RK_MLID_FIRST	       0xc000 /* the first multicast LID (IBA 4.1.3) */
#define RK_MFT_MLIDS_PER_BLOCK 32     /* MulticastForwardingTable: MLIDs a block, */
#define RK_MFT_PORTS_PER_MASK  16     /* ... ports a mask (a block's position) */

/* One switch's multicast forwarding table as read: the port masks of MLID RK_MLID_FIRST + i are
 * masks[i * words .. i * words + words - 1], word w holding ports 16w .. 16w + 15. */
struct rk_audit_mft {
	int node;
	int status;	 /* 0 read, else the -errno of its first block that failed */
	unsigned blocks; /* blocks of 32 MLIDs read */
	unsigned words;	 /* 16-port masks an entry has */
	uint16_t *masks;
};

/** Whether table t sends the packets of MLID RK_MLID_FIRST + mlid_index out of port p (false
 * past what was read). */
bool rk_audit_mft_forwards(const struct rk_audit_mft *t, size_t mlid_index, int p);

/* Whether a CA port is a member of a group, as the SA answered. */
enum rk_audit_membership {
	RK_MEMBER_UNKNOWN, /* not asked, or the query failed */
	RK_MEMBER_NONE,	   /* not a member */
	RK_MEMBER_FULL,	   /* a full member: it receives the group's packets */
	RK_MEMBER_OTHER,   /* a member in another join state (send-only, non-member) */
};

/* The switches' multicast tables and the SA's members of each MLID they forward. */
struct rk_audit_mcast {
	struct rk_audit_mft *mfts; /* every switch with a multicast table */
	size_t nmfts;
	uint16_t *mlids; /* the MLIDs some switch forwards, in order */
	size_t nmlids;
	size_t nasked; /* the first ones asked about (RK_AUDIT_MCAST_QUERIES_MAX), checked */
	int *ca_ports; /* node and port of each ACTIVE CA port: pairs */
	size_t nca_ports;
	uint8_t
	    *membership; /* enum rk_audit_membership of CA port c in MLID g: [g * nca_ports + c] */
	uint8_t *mgids;	 /* MLID g's MGID at [16 * g], from a member's record (zero: none) */
	int sa_status;	 /* 0, or the -errno of the first member query that failed */
};

/** Read, by directed routes from the local port, every switch's multicast forwarding table (to
 * its MulticastFDBTop, or block by block to the first block of 32 MLIDs no switch forwards),
 * then ask the SA (LID sa_lid) which ACTIVE CA ports are members of each MLID forwarded (as
 * many MLIDs as RK_AUDIT_MCAST_QUERIES_MAX allows):
 * MCMemberRecord Gets keyed on MLID and PortGID (one record each, as the SA answers any
 * requester, and as the simulator answers), full members first, other join states for the
 * ports a table leads to. 0, or -errno of the port or -ENOMEM; failed reads are statuses. */
int rk_audit_mcast_read(struct rk_mad_port *port, const struct rk_fabric *fabric,
			const struct rk_mad_options *options, uint16_t sa_lid,
			struct rk_audit_mcast *out);

/** Free what rk_audit_mcast_read read. */
void rk_audit_mcast_free(struct rk_audit_mcast *mcast);

/** The multicast checks, per MLID with a full member: MULTICAST_MEMBER_UNREACHED (a full
 * member no packet of another member reaches through the tables) and MULTICAST_STRAY_ENTRY
 * (an entry that leads to a down port, a CA that is no member, or a switch that forwards
 * nothing of the group). Nothing when a table or a member query failed: *checked says so.
 * 0 or -ENOMEM. */
int rk_audit_mcast_check(const struct rk_fabric *fabric, const struct rk_audit_mcast *mcast,
			 struct rk_findings *findings, bool *checked);

/* What an audit read and checked, beside its findings. */
struct rk_audit_summary {
	size_t mcast_tables;	/* switches' multicast tables read */
	size_t mcast_unread;	/* ... that could not be read */
	size_t mcast_groups;	/* MLIDs some switch forwards */
	size_t mcast_unchecked; /* ... past the query budget, not checked */
	size_t mcast_members;	/* full members the SA named in them */
	bool mcast_checked;	/* the multicast checks ran (every table and query answered) */
};

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
 * local port's SM LID, the SLs in use SL 0, the SM's and the partitions' sl= flags; then the
 * multicast reads and checks. summary (may be NULL) gets what it read. 0 or -errno. */
int rk_audit_run(struct rk_mad_port *port, const struct rk_fabric *fabric,
		 const struct rk_mad_options *options, const struct rk_partitions *partitions,
		 struct rk_findings *findings, struct rk_audit_summary *summary);

#endif
