/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric, SM, tune and probe mode: the core's watch engine sweeps and queries every
 * fabric-interval, audits every tune-interval and probes every probe-interval in threads of its
 * own; the refresh thread takes what it saw and builds the MIB's SM and fabric tables, the port
 * table's probe columns and the findings from it. */
#ifndef AK_FABRIC_H
#define AK_FABRIC_H

#include "ak_config.h"
#include "ak_snapshot.h"
#include "ak_tune.h"

#include "rdmakit/watch.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct ak_fabric_watch {
	bool ports, sm;			/* what is watched; neither: fabric mode is off */
	bool audit;			/* with ports: the fabric is audited (read at start) */
	atomic_bool tune;		/* the host's tuning is audited too (a reload changes it) */
	atomic_bool probe;		/* the loopback probe runs too (a reload changes it) */
	struct rk_watch *watch;		/* also when nothing is (tune mode may start at a reload) */
	struct rk_watch_snapshot *snap; /* the last one taken (held), NULL before */
	struct rk_watch_events events[RK_WATCH_JOBS]; /* of the last take */
	unsigned long built;			      /* passes when the tables were built */
	bool polled;				      /* at least one pass answered */
};

/** Set up fabric, SM, tune and probe mode from the config (the node name map is loaded here);
 * -errno. */
int ak_fabric_open(struct ak_fabric_watch *watch, const struct ak_config *config);

/** The modes served (enum ak_mode): host, and those of the watch. */
unsigned ak_fabric_modes(const struct ak_fabric_watch *watch);

/** The engine's first pass, now in this thread (with the privileges that open the port). */
void ak_fabric_run_once(struct ak_fabric_watch *watch);

/** Start the engine's thread (after the fork into a daemon); -errno. */
int ak_fabric_start(struct ak_fabric_watch *watch);

/** Apply the intervals of a reloaded config (fabric-interval, probe-interval, tune-interval) to
 * the running engine, from the start of each job's last pass. */
void ak_fabric_update(struct ak_fabric_watch *watch, const struct ak_config *config);

/** Apply a reloaded config's tune mode, root and profile: the next audit starts now (tune off:
 * the last audit's findings clear); -errno (the old audit goes on). */
int ak_fabric_retune(struct ak_fabric_watch *watch, const struct ak_config *config);

/** Apply a reloaded config's expect: the fabric is checked against that plan (or none) from the
 * next sweep on; -ENOMEM (the plan stays as it was). */
int ak_fabric_replan(struct ak_fabric_watch *watch, const struct ak_config *config);

/** Apply a reloaded config's probe on or off: the next round starts now (off: its outcomes and
 * findings clear); -errno (the probe stays as it was). */
int ak_fabric_reprobe(struct ak_fabric_watch *watch, const struct ak_config *config);

/** Take the engine's latest snapshot and events; true when a sweep or SM query answered since
 * the last take (the SM and fabric tables are to be built again). */
bool ak_fabric_poll(struct ak_fabric_watch *watch);

/** Add the SM and fabric tables to a snapshot (started_at: the subagent's start, monotonic
 * seconds, the origin of the counters' discontinuity times); -ENOMEM. */
int ak_build_fabric(const struct ak_fabric_watch *watch, double started_at,
		    struct ak_snapshot *snapshot);

/** Stop the engine (within seconds, whatever it waits on) and release what was taken. */
void ak_fabric_close(struct ak_fabric_watch *watch);

#endif
