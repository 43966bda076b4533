/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The loopback probe in the subagent: every probe-interval the refresh thread probes each
 * ACTIVE port; the port table's probe columns and the findings table show the outcomes. */
#ifndef AK_PROBE_H
#define AK_PROBE_H

#include "ak_snapshot.h"

#include "rdmakit/health.h"
#include "rdmakit/host.h"
#include "rdmakit/verbs.h"

#include <stdbool.h>
#include <stddef.h>

/* rdmakitPortProbeStatus */
enum ak_probe_status {
	AK_PROBE_NOT_RUN = 1,
	AK_PROBE_PASSED,
	AK_PROBE_FAILED,
};

/* The settings "probe" and "probe-interval" (ak_config.c: off, RK_PROBE_INTERVAL_DEFAULT_S). */
struct ak_probe_config {
	bool enabled;
	double interval; /* seconds */
};

/* The outcomes of the last round of probes, kept by the refresh thread alone. */
struct ak_probe {
	struct ak_probe_config config;
	double last_round; /* monotonic seconds; 0: none yet */
	struct rk_probe_outcome *outcomes;
	size_t count;
};

/** When enabled and a round is due, probe every ACTIVE port of host; -ENOMEM. */
int ak_probe_poll(struct ak_probe *probe, const struct rk_host *host);

/** Append the last round's findings (PROBE_PASSED, PROBE_FAILED, PROBE_NOT_RUN); -ENOMEM. */
int ak_probe_findings(const struct ak_probe *probe, struct rk_findings *findings);

/** Set the probe columns of the port table's rows (index: device number, port) of host. */
int ak_probe_fill(const struct ak_probe *probe, const struct rk_host *host, struct ak_table *ports);

/** Free the outcomes. */
void ak_probe_free(struct ak_probe *probe);

#endif
