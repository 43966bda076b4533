/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The fabric as a Graphviz graph, for an admin to look at (rdmakit fabric --dot). */
#ifndef RDMAKIT_CLI_FABRIC_DOT_H
#define RDMAKIT_CLI_FABRIC_DOT_H

#include "rdmakit/congestion.h"
#include "rdmakit/fabric.h"
#include "rdmakit/health.h"

#include <stdio.h>

/* What links are coloured by: the wait of each of the sweep's ports over its last interval,
 * waits[i] that of sweep->ports[i] (rk_port_wait_of). */
struct dot_congestion {
	const struct rk_sweep *sweep;
	const struct rk_port_wait *waits;
};

/** An undirected graph: switches (boxes), CAs (ellipses) and routers (diamonds) by name,
 * links labelled with width and speed, degraded ones red with the reason. With the previous
 * discovery and the fabric findings between the two (rk_health_check_fabric; both may be
 * NULL), each PORT_WENT_DOWN port's old link is dashed, to a dashed node when its peer is
 * gone from the fabric. With congestion (or NULL), each link is coloured by the more congested
 * of its two ends (green, gold at half the threshold, orange over it) and labelled with its
 * wait. */
void dot_fabric(FILE *out, const struct rk_fabric *fabric, const struct rk_fabric *prev,
		const struct rk_findings *findings, const struct dot_congestion *congestion);

#endif
