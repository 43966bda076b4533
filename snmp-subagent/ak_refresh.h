/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The refresh thread: reads the host every interval, builds a snapshot, tracks the core's
 * events, and posts both to the AgentX thread. It never calls net-snmp. */
#ifndef AK_REFRESH_H
#define AK_REFRESH_H

#include "ak_build.h"
#include "ak_fabric.h"
#include "ak_mailbox.h"
#include "ak_probe.h"

#include "rdmakit/events.h"
#include "rdmakit/health.h"
#include "rdmakit/host.h"
#include "rdmakit/watch.h"

#include <pthread.h>
#include <stdbool.h>

struct ak_refresher {
	struct ak_mailbox *box;
	struct rk_host *host;
	struct ak_fabric_watch *fabric; /* fabric, SM and tune mode, or nothing to watch */
	struct ak_build_state build;
	struct ak_snapshot *fabric_part; /* the SM and fabric tables of the last sweep */
	struct rk_watch_host
	    *host_watch; /* the core's host pass: rescan, refresh, health, events */
	struct rk_watch_events host_events; /* of its last pass; its at_start ones are no traps */
	struct rk_event_list events;	    /* the traps' events of the last refresh */
	uint32_t errors;
	pthread_t thread;
	bool running;
	pthread_mutex_t lock; /* guards what follows */
	pthread_cond_t wake;
	bool stop;
	bool wake_now; /* stopping, or fabric events changed the findings: refresh now */
	double interval;
	struct rk_health_options health;
};

/** Set up and refresh once now, with the privileges needed to open sysfs and the umad port,
 * after the watch engine's first passes (the first probe round too when probe is enabled), so
 * the first request has data; the index map is kept in state_dir (NULL: in memory); -errno. */
int ak_refresher_init(struct ak_refresher *refresher, struct ak_mailbox *box, struct rk_host *host,
		      struct ak_fabric_watch *fabric, double interval,
		      const struct rk_health_options *health, const char *state_dir);

/** Start refreshing every interval in a thread of its own; -errno. */
int ak_refresher_start(struct ak_refresher *refresher);

/** Change the interval and health options (SIGHUP); the next refresh uses them. */
void ak_refresher_update(struct ak_refresher *refresher, double interval,
			 const struct rk_health_options *health);

/** Stop the thread and free what it kept (the host stays the caller's). */
void ak_refresher_stop(struct ak_refresher *refresher);

#endif
