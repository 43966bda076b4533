/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Every switch's linear forwarding table, and whether the routes it makes are sound and
 * balanced: each (switch, destination LID) route followed to its end and classified. */
#ifndef RDMAKIT_ROUTE_H
#define RDMAKIT_ROUTE_H

#include "rdmakit/fabric.h"
#include "rdmakit/findings.h"
#include "rdmakit/mad.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RK_ROUTE_BLOCK	  64  /* LIDs per LinearForwardingTable block */
#define RK_ROUTE_NO_PORT  255 /* an LFT entry that routes the LID nowhere */
#define RK_ROUTE_MAX_HOPS 64  /* a route longer than this is taken for a loop */
#define RK_ROUTE_SAMPLES  3   /* sample destinations kept per finding */

/* One switch's unicast table as read. */
struct rk_route_table {
	int node;	/* index into the fabric's nodes (a switch) */
	int status;	/* 0 read; -ETIMEDOUT, -EIO (a MAD failed), -ERANGE (top past the unicast
			   range), -ENOENT (no path to it) */
	uint16_t top;	/* LinearFDBTop: the last LID it routes */
	uint8_t *ports; /* [0..top]: the out port of each LID (RK_ROUTE_NO_PORT: none) */
};

/* The tables of every switch of a fabric (tables[i] for the i-th switch in node order). */
struct rk_routes {
	struct rk_route_table *tables;
	size_t count;
	int *table_of; /* [nnodes]: index into tables of a switch node, else -1 */
	size_t nnodes;
	size_t *port_base; /* [nnodes]: where a node's ports start in link_at */
	int *link_at;	   /* [port_base[n] + p]: the link at node n's port p, or -1 */
	size_t nlink_at;   /* entries of link_at */
	double seconds;	   /* wall time of the read */
	struct rk_mad_stats stats;
};

/* How a route ends. */
enum rk_route_end {
	RK_ROUTE_REACHES,
	RK_ROUTE_HOLE,	   /* an entry of 255, or a LID past the switch's LinearFDBTop */
	RK_ROUTE_LOOP,	   /* a switch seen twice */
	RK_ROUTE_DEAD_END, /* out through a port that is down, absent, or leads to another node */
	RK_ROUTE_UNKNOWN,  /* through a switch whose table could not be read */
};

/* One hop of a followed route: leaving node by out_port (0: delivered to the switch itself). */
struct rk_route_hop {
	int node;
	int out_port;
	int link; /* index into the fabric's links of the link taken, or -1 */
};

/* A route followed from a node to a LID. */
struct rk_route_path {
	enum rk_route_end end;
	struct rk_route_hop hops[RK_ROUTE_MAX_HOPS + 1];
	size_t nhops;	   /* hops[] filled: the last is where the route ends */
	int end_node;	   /* where it ended (the destination's node when it reaches) */
	bool degraded;	   /* through a degraded link (rk_link_degraded) */
	int degraded_link; /* the first such link, or -1 */
};

/* Up-link load of one switch: CA destination LIDs per up-link (a port to a switch ranked
 * further from the CAs: rank = hops to the nearest CA). */
struct rk_route_balance {
	int node;
	int rank;
	size_t uplinks;
	size_t min, max; /* CA LIDs on the least and the most used up-link */
	double cv;	 /* coefficient of variation of the up-links' counts (0: even) */
	bool unbalanced; /* max > min + 1, check_lft_balance's criterion */
};

/* What a check found. */
struct rk_route_summary {
	size_t switches, tables_read, destinations, routes;
	size_t reached, holes, loops, dead_ends, degraded, longer, unknown;
	unsigned max_hops;
	size_t unbalanced_switches;
	double worst_cv; /* the worst switch's coefficient of variation */
	int worst_node;	 /* that switch, or -1 */
};

/* A check's result: the summary and each switch's balance (rank order, worst first). */
struct rk_route_check {
	struct rk_route_summary summary;
	struct rk_route_balance *balance;
	size_t nbalance;
};

/** Read SwitchInfo and every LinearForwardingTable block of every switch of fabric, directed
 * route along the discovered links, many SMPs in flight; a switch that fails keeps its status
 * and the rest are read. 0, or -ENOMEM or the port's error. */
int rk_routes_read(struct rk_mad_port *port, const struct rk_fabric *fabric,
		   const struct rk_mad_options *options, struct rk_routes *out);

/** An empty table set for fabric (every switch with -ENOENT), to fill by hand; 0 or -ENOMEM. */
int rk_routes_init(const struct rk_fabric *fabric, struct rk_routes *out);

/** Give a switch's table top + 1 entries, all RK_ROUTE_NO_PORT; -ERANGE past the unicast
 * range, -ENOMEM. */
int rk_route_table_size(struct rk_route_table *table, unsigned top);

/** Free the tables. */
void rk_routes_free(struct rk_routes *routes);

/** The table of a switch node, or NULL (not a switch, or not read). */
const struct rk_route_table *rk_routes_table(const struct rk_routes *routes, int node);

/** The index of the link at a node's port, or -1. */
int rk_routes_link_at(const struct rk_routes *routes, int node, int port);

/** The node and port that own lid (a switch owns its port 0 LIDs), or -1. */
int rk_route_lid_owner(const struct rk_fabric *fabric, uint16_t lid, int *port);

/* Directed routes from the local port to every node, found once (a BFS over links that are up). */
struct rk_route_tree {
	int *parent, *via; /* per node: the node before it (-1 the start, -2 none), its out port */
	size_t count;
};

/** The directed routes from the local port (its number; 0: any) to every node; 0 or -ENOMEM. */
int rk_route_tree_build(const struct rk_fabric *fabric, int local_port, struct rk_route_tree *out);

/** The tree's route to node into path[1..*hops]; false when there is none or it is too long. */
bool rk_route_tree_path(const struct rk_route_tree *tree, int node, uint8_t *path, uint8_t *hops);

/** Free a tree. */
void rk_route_tree_free(struct rk_route_tree *tree);

/** A directed route from the local port (its number; 0: any) to node over links that are up,
 * into path[1..*hops]; rotate picks another of the shortest ways (0: the one route reads take).
 * 0, -ENOENT (none), -ENOMEM. */
int rk_route_directed(const struct rk_fabric *fabric, int local_port, unsigned rotate, int node,
		      uint8_t *path, uint8_t *hops);

/** The node with that node or port GUID, and in *port the port (0: the node's own GUID); -1. */
int rk_route_guid_owner(const struct rk_fabric *fabric, uint64_t guid, int *port);

/** A node named by a LID ("12", "0xc"), a node or port GUID ("0x0002c90300000001") or a name
 * (the node name map's, else the description): *node, and *lid its LID (the given one, the
 * matched port's, a switch's port 0 LID or a CA's first active port's); 0 or -ENOENT. */
int rk_route_resolve(const struct rk_fabric *fabric, const char *text, int *node, uint16_t *lid);

/** Follow the route to lid from node (a switch, or a CA through its port): every hop. */
void rk_route_follow(const struct rk_fabric *fabric, const struct rk_routes *routes, int node,
		     uint16_t lid, struct rk_route_path *path);

/** Follow every route from every switch to every LID of a CA port or switch, classify each,
 * weigh the up-links, and add the findings (one per switch or link and kind, with a count and
 * sample destinations); 0 or -ENOMEM. */
int rk_route_check(const struct rk_fabric *fabric, const struct rk_routes *routes,
		   struct rk_route_check *out, struct rk_findings *findings);

/** Free a check's balance list. */
void rk_route_check_free(struct rk_route_check *check);

/** "reaches", "hole", "loop", "dead end" or "unknown". */
const char *rk_route_end_name(enum rk_route_end end);

#endif
