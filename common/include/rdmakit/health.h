/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Rules that turn what the core read into findings: what is wrong and what to do. */
#ifndef RDMAKIT_HEALTH_H
#define RDMAKIT_HEALTH_H

#include "rdmakit/fabric.h"
#include "rdmakit/fabric_cache.h"
#include "rdmakit/findings.h"
#include "rdmakit/host.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"

struct rk_health_options {
	double expect_rate_gbps; /* ports below this are flagged; 0 = no expectation */
};

/* Congestion: xmit_wait ticks per 4-byte word sent between two samples. */
#define RK_CONGESTION_WARNING_RATIO  0.1
#define RK_CONGESTION_CRITICAL_RATIO 1.0
/* Fewer wait ticks than this between two samples are noise. */
#define RK_CONGESTION_MIN_TICKS 1000

/** Apply every host rule to a refreshed host and append the findings. */
int rk_health_check_host(const struct rk_host *host, const struct rk_health_options *options,
			 struct rk_findings *findings);

/** SM rules: no master, several masters, no standby, master hung (prev may be NULL). */
int rk_health_check_sm(const struct rk_sm_status *prev, const struct rk_sm_status *sm,
		       struct rk_findings *findings);

/** Fabric rules: degraded links, ends that disagree, ports that went down since prev. */
int rk_health_check_fabric(const struct rk_fabric *prev, const struct rk_fabric *fabric,
			   struct rk_findings *findings);

/** Sweep rules: error counters rising, saturated counters, ports that did not answer. */
int rk_health_check_sweep(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
			  struct rk_findings *findings);

/** Every fabric rule over what a monitor saw (its links against the view before, congestion,
 * its sweep's counters): the one composition the daemons' engine and doctor --fabric share. */
int rk_health_check_monitor(const struct rk_fabric_cache *monitor, struct rk_findings *findings);

#endif
