/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The fabric as designed: a plan of nodes and links, read from rdmakit's own line format, from
 * ibnetdiscover's topology text, from an NDT (UFM's network design topology CSV) or from an
 * LLNL ibfabricconf.xml, written in rdmakit's format, and compared with the live fabric into
 * findings (LINK_MISSING, LINK_MISWIRED, NODE_REPLACED, ...). */
#ifndef RDMAKIT_PLAN_H
#define RDMAKIT_PLAN_H

#include "rdmakit/fabric.h"
#include "rdmakit/findings.h"
#include "rdmakit/log.h"

#include <stdio.h>

/* Bounds on what a plan file may hold (a larger one is refused with a message). */
#define RK_PLAN_MAX_NODES 65536
#define RK_PLAN_MAX_LINKS 262144
#define RK_PLAN_MAX_PORT  254
#define RK_PLAN_MAX_LINE  1024

struct rk_plan_node {
	uint64_t guid;
	enum rk_node_type type; /* 0 when the plan does not say */
	int nports;		/* 0 when the plan does not say */
	char name[96];		/* the plan's name (or description) for the node, may be "" */
};

struct rk_plan_link {
	uint64_t guid_a, guid_b; /* (guid_a, port_a) < (guid_b, port_b) */
	int port_a, port_b;
	int width;	     /* planned lanes, 0: any */
	enum rk_speed speed; /* planned speed, RK_SPEED_NONE: any */
	unsigned line;	     /* where the plan file has it (0 for a live fabric's link) */
};

/* The links of a plan that names its nodes (common/src/fabric/plan_internal.h). */
struct rk_plan_named;

struct rk_plan {
	struct rk_plan_node *nodes; /* sorted by GUID, unique */
	size_t nnodes, node_cap;
	struct rk_plan_link *links; /* sorted by (guid_a, port_a), every end in one link only */
	size_t nlinks, link_cap;
	struct rk_plan_named *named; /* an NDT's or ibfabricconf's links, by node name (the nodes
				      * and links above then empty): placed on GUIDs when the
				      * plan is compared; NULL for a plan by GUID */
};

/** The live fabric as a plan (names from its nodes); 0 or -ENOMEM. */
int rk_plan_from_fabric(const struct rk_fabric *fabric, struct rk_plan **out);

/** Read a plan from in (a seekable stream: its start is read twice) in rdmakit's format or
 * ibnetdiscover's (one file may mix them), an NDT or an ibfabricconf.xml: told apart by the
 * content, else by origin's extension (.csv or .ndt, .xml). Each bad line (XML: element) is
 * logged as ORIGIN:LINE: reason and skipped, *errors counts them (may be NULL). 0, -ENOMEM,
 * -E2BIG when the bounds above are passed, -EBADMSG (logged) for XML that is not well-formed,
 * or the stream's -errno. */
int rk_plan_parse(FILE *in, const char *origin, struct rk_plan **out, unsigned *errors);

/** rk_plan_parse on the file at path; -errno (logged) when it cannot be opened. */
int rk_plan_load(const char *path, struct rk_plan **out, unsigned *errors);

/** Write a plan in rdmakit's format (sorted, so two plans diff line by line); 0 or -EIO. */
int rk_plan_write(FILE *out, const struct rk_plan *plan);

/** Write the plan to path atomically (a temporary file renamed over it), never over
 * anything but a regular file (-EEXIST); 0 or -errno, logged. */
int rk_plan_save(const char *path, const struct rk_plan *plan);

/** How many links the plan gives by node name (an NDT or ibfabricconf; 0 for a plan by GUID). */
size_t rk_plan_named_links(const struct rk_plan *plan);

/** Index of the plan's node with this GUID, or -1. */
int rk_plan_find_node(const struct rk_plan *plan, uint64_t guid);

/** Compare a live plan (rk_plan_from_fabric) with the designed one into findings; names,
 * when given, name the nodes before either plan's names. 0 or -ENOMEM. */
int rk_plan_diff(const struct rk_plan *live, const struct rk_plan *plan,
		 const struct rk_name_map *names, struct rk_findings *out);

/** rk_plan_diff of the live fabric against plan. The nodes of a plan that names them are
 * first placed on GUIDs: a name the node name map gives exactly one GUID is that node, else
 * the one live node whose description is the name (or, for an NVIDIA switch described
 * "MF0;NAME:MODEL/Un", whose NAME is), names compared without regard to case; each link that
 * cannot be placed (a name unknown or given to several nodes, a port above the node's port
 * count, a port two links claim) is logged at level as ORIGIN:LINE: reason and counted in
 * *unplaced. 0, -ENOMEM, or -E2BIG (logged) when the placed plan is too large. */
int rk_plan_compare(const struct rk_fabric *fabric, const struct rk_plan *plan,
		    const struct rk_name_map *names, enum rk_log_level level, unsigned *unplaced,
		    struct rk_findings *out);

/** The PLAN_LINES_SKIPPED finding of a plan read from path with skipped bad lines (none when
 * skipped is 0); 0 or -ENOMEM. */
int rk_plan_skipped_finding(const char *path, unsigned skipped, struct rk_findings *out);

/** Free a plan. */
void rk_plan_free(struct rk_plan *plan);

#endif
