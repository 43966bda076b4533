/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The loopback probe in the subagent: every probe-interval the watch engine probes each ACTIVE
 * port; the port table's probe columns and the findings table show the outcomes. */
#ifndef AK_PROBE_H
#define AK_PROBE_H

#include "ak_snapshot.h"

#include "rdmakit/host.h"
#include "rdmakit/watch.h"

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

/** Set the probe columns of the port table's rows (index: device number, port; the device
 * named by the row's rdmakitPortDeviceName) from the watch engine's last round of probes. */
int ak_probe_fill(const struct rk_watch_probes *probes, struct ak_table *ports);

#endif
