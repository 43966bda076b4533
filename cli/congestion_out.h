/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The most congested ports of a fabric, through the one writer (print.h): rdmakit sweep --top. */
#ifndef RDMAKIT_CLI_CONGESTION_OUT_H
#define RDMAKIT_CLI_CONGESTION_OUT_H

#include "print.h"
#include "rdmakit/congestion.h"

/* What sweep --top shows of one interval. */
struct congestion_view {
	const struct rk_fabric *fabric;
	const struct rk_sweep *sweep;
	const struct rk_port_wait *ranked; /* rk_congestion_rank's */
	size_t count, top;		   /* top 0: every ranked port */
	const struct rk_congestion_options *options;
	const struct rk_findings *findings; /* rk_health_check_congestion's */
};

/** {"interval", "threshold", "ranked": [...], "measured", "seconds", "mads", "findings": [...]}:
 * the first top of the ranked ports, each with its node and port, its peer, its wait, the
 * bandwidth lost to it, data rate, link and the VLs that waited; the last sweep's time and
 * MADs; then the PORT_CONGESTED findings. */
void print_congestion(struct printer *p, const struct congestion_view *view);

#endif
