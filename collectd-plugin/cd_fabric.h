/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric mode: every port's counters, swept over MADs, and the fabric's findings. */
#ifndef RDMAKIT_CD_FABRIC_H
#define RDMAKIT_CD_FABRIC_H

#include "cd_mon.h"

/* The fabric mode's state between reads. */
struct cd_fabric;

/** Set the fabric mode up on the shared watch (which sweeps); config must outlive it. */
int cd_fabric_start(struct rk_watch *watch, const struct cd_config *config, struct cd_fabric **out);

/** One read: the watch's last sweep dispatched (once), its findings' events reported. */
int cd_fabric_read(struct cd_fabric *fabric);

/** Free the fabric mode's state (the watch is the caller's). */
void cd_fabric_stop(struct cd_fabric *fabric);

#endif
