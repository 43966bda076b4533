/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric mode: every port's counters, swept over MADs, and the fabric's findings. */
#ifndef RDMAKIT_CD_FABRIC_H
#define RDMAKIT_CD_FABRIC_H

#include "cd_mon.h"

/* The fabric mode's state between reads. */
struct cd_fabric;

/** Set the fabric mode up on the shared monitor (the first read discovers the fabric). */
int cd_fabric_start(struct cd_mon *mon, struct cd_fabric **out);

/** One read: sweep (rediscovering when due), dispatch values, report findings. */
int cd_fabric_read(struct cd_fabric *fabric);

/** Free the fabric mode's state (the monitor is the caller's). */
void cd_fabric_stop(struct cd_fabric *fabric);

#endif
