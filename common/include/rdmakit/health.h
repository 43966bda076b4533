/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Rules that turn what the core read into findings: what is wrong and what to do. */
#ifndef RDMAKIT_HEALTH_H
#define RDMAKIT_HEALTH_H

#include "rdmakit/fabric.h"
#include "rdmakit/host.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"

#include <stddef.h>
#include <stdint.h>

enum rk_severity {
	RK_SEVERITY_OK,
	RK_SEVERITY_WARNING,
	RK_SEVERITY_CRITICAL,
};

struct rk_finding {
	enum rk_severity severity;
	char code[32];	    /* stable, e.g. PORT_NO_SM */
	char subject[224];  /* device, device:port, HCA model, node[port] or link */
	char message[320];  /* what is wrong */
	char remedy[256];   /* what to do */
	uint64_t node_guid; /* the fabric node it is about (a link's first end), 0 if none */
	int port;	    /* and the port on that node, 0 if none */
};

struct rk_findings {
	struct rk_finding *items;
	size_t count, capacity;
};

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

/** Append one finding (printf-style message); -ENOMEM when out of memory. */
int rk_findings_add(struct rk_findings *findings, enum rk_severity severity, const char *code,
		    const char *subject, const char *remedy, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/** Set the fabric node and port the finding added last is about. */
void rk_findings_locate(struct rk_findings *findings, uint64_t node_guid, int port);

/** Sort findings most severe first, then by code and subject. */
void rk_findings_sort(struct rk_findings *findings);

/** The most severe finding's severity (RK_SEVERITY_OK when there are none). */
enum rk_severity rk_findings_worst(const struct rk_findings *findings);

/** Free the findings' storage. */
void rk_findings_free(struct rk_findings *findings);

/** "ok", "warning" or "critical". */
const char *rk_severity_name(enum rk_severity severity);

#endif
