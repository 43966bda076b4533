/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* SM mode: the subnet managers' status, the master's changes and the SM findings. */
#ifndef RDMAKIT_CD_SM_H
#define RDMAKIT_CD_SM_H

#include "cd_mon.h"

/* The SM mode's state between reads. */
struct cd_sm;

/** Set the SM mode up on the shared watch (which queries the SMs); config must outlive it. */
int cd_sm_start(struct rk_watch *watch, const struct cd_config *config, struct cd_sm **out);

/** One read: the watch's last SM query dispatched (once), a new master and findings reported. */
int cd_sm_read(struct cd_sm *sm);

/** Free the SM mode's state (the watch is the caller's). */
void cd_sm_stop(struct cd_sm *sm);

#endif
