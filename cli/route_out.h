/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The routes of a fabric through the one writer (print.h): a check's summary, balance and
 * findings, one traced route hop by hop, and the tables ibroute-like. */
#ifndef RDMAKIT_CLI_ROUTE_OUT_H
#define RDMAKIT_CLI_ROUTE_OUT_H

#include "print.h"
#include "rdmakit/route.h"

/** {"summary": {...}, "balance": [...], "findings": [...], "worst"}: the worst switches'
 * balance (at most shown of them), then the findings. */
void print_route_check(struct printer *p, const struct rk_fabric *fabric,
		       const struct rk_routes *routes, const struct rk_route_check *check,
		       const struct rk_findings *findings, double check_seconds, size_t shown);

/** {"destination_lid", "end", "hop_count", "hops": [...]}: each hop's node, out_port and the
 * out port's state, width and speed, like ibtracert. */
void print_route_trace(struct printer *p, const struct rk_fabric *fabric,
		       const struct rk_route_path *path, uint16_t lid);

/** {"switches": [...]}: each switch's (or node's only) valid entries, LID, out port and the
 * destination's name, like ibroute. */
void print_route_dump(struct printer *p, const struct rk_fabric *fabric,
		      const struct rk_routes *routes, int node);

#endif
