/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric and SM mode: the core's monitor swept every fabric-interval by the refresh thread,
 * and the MIB's SM and fabric tables built from what it saw. */
#ifndef AK_FABRIC_H
#define AK_FABRIC_H

#include "ak_config.h"
#include "ak_snapshot.h"

#include "rdmakit/health.h"
#include "rdmakit/monitor.h"

#include <stdbool.h>
#include <stdint.h>

struct ak_fabric_watch {
	bool ports, sm; /* what is watched; neither: fabric mode is off */
	double interval, next_at;
	struct rk_name_map *names;
	struct rk_monitor monitor;
	struct rk_findings fabric_findings, sm_findings; /* of the last poll */
	bool polled;					 /* at least one poll answered */
	uint32_t swept_at, duration_ms, errors;
};

/** Set up fabric and SM mode from the config (the node name map is loaded here); -errno. */
int ak_fabric_open(struct ak_fabric_watch *watch, const struct ak_config *config);

/** Sweep and query the SMs when due; true when it did (its findings are new). */
bool ak_fabric_poll(struct ak_fabric_watch *watch);

/** Add the SM and fabric tables to a snapshot; -ENOMEM. */
int ak_build_fabric(const struct ak_fabric_watch *watch, struct ak_snapshot *snapshot);

/** Release the monitor, the name map and the findings. */
void ak_fabric_close(struct ak_fabric_watch *watch);

#endif
