/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The process's one rk_monitor, shared by the fabric and SM reads. */
#ifndef RDMAKIT_CD_MON_H
#define RDMAKIT_CD_MON_H

#include "cd_config.h"

#include "rdmakit/events.h"
#include "rdmakit/monitor.h"

#include <pthread.h>
#include <stdbool.h>

/* One umad port per process: both reads use this monitor, one at a time (collectd may run them
 * in two read threads at once), and it closes its port while libibnetdisc discovers. */
struct cd_mon {
	pthread_mutex_t lock; /* held for a whole fabric or SM read */
	struct rk_monitor monitor;
	struct rk_name_map *names; /* NodeNameMap, or NULL */
	const struct cd_config *config;
	struct rk_event_tracker *tracker; /* what changed in the fabric and SM views */
	struct rk_event_list events;	  /* of the last read */
};

/** Load the NodeNameMap and set the monitor up (nothing is sent yet); config must outlive it. */
int cd_mon_start(const struct cd_config *config, struct cd_mon **out);

/* A read that fails is tried again after 1, 2, 4, ... intervals, at most CD_RETRY_MAX. */
#define CD_RETRY_MAX 16
struct cd_retry {
	unsigned wait; /* intervals to wait after the last failure; 0 while reads work */
	unsigned skip; /* intervals still to skip */
};

/** True when this interval's read is to be skipped, backing off after failures. */
bool cd_retry_skip(struct cd_retry *retry);

/** Back off after a failure (logged when it starts, not at every try); log the recovery. */
void cd_retry_outcome(struct cd_retry *retry, int err, const char *what);

/** Track views (the lock held) and hand each event of the read to report. */
void cd_mon_events(struct cd_mon *mon, const struct rk_event_views *views,
		   void (*report)(const struct rk_event *event, void *ctx), void *ctx);

/** Close the MAD port and free the topology, the samples and the name map. */
void cd_mon_stop(struct cd_mon *mon);

#endif
