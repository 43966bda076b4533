/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The one way a command watches the fabric: the name map and the monitor opened, the samples
 * taken (what each asks and when), both closed again. */
#ifndef RDMAKIT_CLI_FABRIC_SESSION_H
#define RDMAKIT_CLI_FABRIC_SESSION_H

#include "cli.h"

/* What one sample of the fabric reads, in this order. */
enum cli_sample {
	CLI_SAMPLE_DISCOVER = 1u << 0, /* a discovery now (the one before kept for comparisons) */
	CLI_SAMPLE_SWEEP = 1u << 1,    /* every port's counters (rediscovering first when due) */
	CLI_SAMPLE_SM = 1u << 2,       /* every SM's SMInfo (rediscovering first when due) */
};

/* A command's open view of the fabric. */
struct cli_fabric {
	struct rk_fabric_cache monitor;
	const struct rk_name_map *names; /* --node-name-map, or NULL */
	rk_sweep_progress_fn progress;	 /* told each sweep's progress (NULL: nothing) */
	void *progress_ctx;
};

/* A command's run on the fabric. */
struct cli_fabric_run {
	const struct cli_mad *mad;
	bool watching; /* more than one sample: discovery in the helper, the last whole view kept */
	void (*set_options)(struct rk_fabric_cache_options *options, const void *ctx); /* or NULL */
	int (*run)(struct cli_fabric *fabric, const void *ctx); /* exit status */
	const void *ctx;
};

/** Open the name map and the monitor, run, close both: the run's exit status, or EXIT_TROUBLE
 * when the name map cannot be read. */
int cli_with_fabric(const struct cli_fabric_run *run);

/** One sample: what (enum cli_sample bits) in the order of the enum; 0 or -errno. */
int cli_fabric_sample(struct cli_fabric *fabric, unsigned what);

/** Sleep interval seconds, then cli_fabric_sample. */
int cli_fabric_sample_after(struct cli_fabric *fabric, double interval, unsigned what);

#endif
