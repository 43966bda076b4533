/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the plan readers share (plan.c, plan_ndt.c, plan_ibfc.c) and what places a plan that
 * names its nodes on the live fabric (plan_place.c). */
#ifndef RDMAKIT_PLAN_INTERNAL_H
#define RDMAKIT_PLAN_INTERNAL_H

#include "rdmakit/log.h"
#include "rdmakit/plan.h"

#include <stdbool.h>
#include <stdio.h>

/* The longest node name a plan that names its nodes may use (rk_plan_node.name's room). */
#define PLAN_NAME_MAX 95

/* A link of a plan that names its nodes (NDT, ibfabricconf): placed on GUIDs at comparison. */
struct plan_named_link {
	char *name_a, *name_b;
	int port_a, port_b;
	int width;	     /* 0: any */
	enum rk_speed speed; /* RK_SPEED_NONE: any */
	unsigned line;
};

/* The links of such a plan, and where they were read. */
struct rk_plan_named {
	char *origin;
	const char *unit; /* what the file's messages call a part: "line" or "element" */
	struct plan_named_link *links;
	size_t nlinks, link_cap;
};

/* What a parse is building, and where it is in the input. */
struct plan_parser {
	struct rk_plan *plan;
	const char *origin;
	const char *unit;	 /* "line", or "element" for XML */
	enum rk_log_level level; /* of the skipped parts' messages */
	unsigned line, errors;
	int current; /* ibnetdiscover: the node whose port lines follow, -1 before any */
	uint64_t current_guid;
	bool too_big;
};

/** Log ORIGIN:LINE: reason, UNIT skipped at the parser's level and count it. */
void plan_bad(struct plan_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Read one line into buf (size > 1) and count it; a longer one is consumed whole and
 * *too_long set. False at the end of the input. */
bool plan_read_line(struct plan_parser *p, FILE *in, char *buf, size_t size, bool *too_long);

/** Digits of a decimal number up to max at *s (advanced past them); false when none. */
bool plan_parse_int(const char **s, int max, int *value);

/** Add a node to the plan (a full plan sets too_big instead); 0 or -ENOMEM. */
int plan_add_node(struct plan_parser *p, uint64_t guid, enum rk_node_type type, int nports,
		  const char *name);

/** Add a link at the parser's line, its ends ordered (a full plan sets too_big); 0 or
 * -ENOMEM. */
int plan_add_link(struct plan_parser *p, uint64_t ga, int pa, uint64_t gb, int pb, int width,
		  enum rk_speed speed);

/** Add a link between two named nodes at the parser's line (the plan becomes one that names
 * its nodes); 0 or -ENOMEM. */
int plan_add_named_link(struct plan_parser *p, const char *name_a, int port_a, const char *name_b,
			int port_b, int width, enum rk_speed speed);

/** Sort the nodes and drop a GUID given twice (reported when report is set: first kept). */
void plan_finish_nodes(struct plan_parser *p, bool report);

/** Drop links to nodes the plan does not have, the second mention of a link and a port two
 * links claim (the earlier line's kept), each reported; 0 or -ENOMEM. */
int plan_finish_links(struct plan_parser *p);

/** line past a UTF-8 byte order mark when it is the input's first line. */
const char *plan_line_start(const struct plan_parser *p, const char *line);

/** Read an NDT (UFM's network design topology CSV); 0 or -ENOMEM. */
int plan_read_ndt(struct plan_parser *p, FILE *in);

/** Whether line is an NDT header: StartDevice, StartPort, EndDevice and EndPort columns. */
bool plan_ndt_header(const char *line);

/** Read an LLNL ibfabricconf.xml; 0, -ENOMEM, or -EBADMSG (logged) when it is not
 * well-formed XML. */
int plan_read_ibfc(struct plan_parser *p, FILE *in);

/** *out: the plan's named links placed on GUIDs through the node name map, else the live
 * fabric's node descriptions (each link that cannot be is logged at level and counted in
 * *unplaced); 0, -ENOMEM, or -E2BIG when it would have too many nodes. */
int plan_place(const struct rk_plan *plan, const struct rk_fabric *fabric,
	       const struct rk_name_map *names, enum rk_log_level level, struct rk_plan **out,
	       unsigned *unplaced);

#endif
