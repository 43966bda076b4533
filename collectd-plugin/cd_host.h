/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Host mode: this host's ports and counters, read from sysfs by the core at every interval. */
#ifndef RDMAKIT_CD_HOST_H
#define RDMAKIT_CD_HOST_H

#include "cd_config.h"

/* The host mode's state between reads. */
struct cd_host;

/** Open the host under config's SysfsRoot and plan what to send; config must outlive it. */
int cd_host_start(const struct cd_config *config, struct cd_host **out);

/** One read: rescan when due, refresh, dispatch values and notifications. */
int cd_host_read(struct cd_host *host);

/** Close the host and free the plans. */
void cd_host_stop(struct cd_host *host);

#endif
