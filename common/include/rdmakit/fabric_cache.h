/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The single-threaded fabric cache: topology, rediscovery, counter sweeps, SM status on one umad
 * port. The watch engine (watch.h) wraps it for the daemons; the CLI reads through it
 * (cli/fabric_session.c). */
#ifndef RDMAKIT_FABRIC_CACHE_H
#define RDMAKIT_FABRIC_CACHE_H

#include "rdmakit/congestion.h"
#include "rdmakit/fabric.h"
#include "rdmakit/follow.h"
#include "rdmakit/mad.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"

#include <stdbool.h>

/* Seconds after which a watched topology is rediscovered, unless the front end says otherwise. */
#define RK_REDISCOVER_DEFAULT_S 300

/* A node (port 0) or a link end a rediscovery did not see, and since when. */
struct rk_unseen_entry {
	uint64_t guid;
	int port;
	double since; /* monotonic seconds */
};

struct rk_unseen {
	struct rk_unseen_entry *items;
	size_t count, capacity;
};

/** Compare a fresh discovery with the kept view: note each node and link it lacks that no
 * neighbour's port state says is gone (keeping when each was first missed); *held: how many
 * of those were missed for less than hold_seconds. 0 or -ENOMEM (unseen unchanged). */
int rk_unseen_update(struct rk_unseen *unseen, const struct rk_fabric *kept,
		     const struct rk_fabric *fresh, double now, double hold_seconds, size_t *held);

/** Free what rk_unseen_update kept. */
void rk_unseen_free(struct rk_unseen *unseen);

struct rk_fabric_cache_options {
	struct rk_fabric_options fabric; /* CA, port, node names */
	struct rk_mad_options mad;	 /* from rk_mad_options_defaults(), then changed */
	double rediscover_seconds;	 /* rediscover when the topology is older (0: never) */
	double unreachable_hold_seconds; /* a node or link a rediscovery missed, with no peer
					  * port down, is kept this long (0: dropped at once) */
	bool discover_in_helper; /* for long runs: rk_fabric_discover_isolated, not in-process */
	bool errors_only;	 /* the caller shows only ports with errors: rk_sweep.errors_only */
	bool vl_wait;		 /* the caller shows which VLs wait: rk_sweep.vl_wait */
	struct rk_congestion_options congestion; /* each port's wait after a sweep */
	rk_follow_fn
	    events; /* rk_fabric_cache_follow tells the fabric's events to it (NULL: none) */
	void *events_ctx;
};

/* The current and previous views of one fabric, owned by the front end that watches it. */
struct rk_fabric_cache {
	struct rk_fabric_cache_options options;
	struct rk_fabric *fabric;      /* current topology, NULL before the first discovery */
	struct rk_fabric *prev_fabric; /* the one before, for "went down" rules */
	struct rk_sweep sweep;
	struct rk_sm_status sm, prev_sm;
	struct rk_mad_port *port;	 /* open between discoveries (one umad port per process) */
	struct rk_follower *follower;	 /* on port, once rk_fabric_cache_follow ran */
	struct rk_mad_queue *queue;	 /* on port, for the engine's own few MADs (the election) */
	struct rk_fabric *events_fabric; /* a copy of fabric the follower's reads update */
	double discovered_at;
	bool sm_stale; /* an SM stopped answering: rediscover before the next SM query */
	unsigned discoveries;
	struct rk_unseen unseen; /* what rediscoveries missed while the view was kept */
	unsigned partial_views;	 /* rediscoveries not taken: they missed what still answers */
	bool view_kept;		 /* the last rediscovery was partial: the view is the one before */
	bool discovery_failing;	 /* the last rediscovery failed: the last view is swept */
};

/** Options from a front end's settings; 0 for port, window or timeout means the default. */
void rk_fabric_cache_options_set(struct rk_fabric_cache_options *options, const char *ca, int port,
				 unsigned window, unsigned timeout_ms,
				 const struct rk_name_map *names);

/** Start watching; nothing is sent until the first discovery or sweep. */
void rk_fabric_cache_init(struct rk_fabric_cache *cache,
			  const struct rk_fabric_cache_options *options);

/** Discover the fabric now; the previous topology is kept for comparisons. */
int rk_fabric_cache_discover(struct rk_fabric_cache *cache);

/** Sweep every port's counters, rediscovering first when due or when the last sweep saw changes. */
int rk_fabric_cache_sweep(struct rk_fabric_cache *cache, rk_sweep_progress_fn progress, void *ctx);

/** Query every SM's SMInfo, (re)discovering first when due or when an SM stopped answering at
 * the last query (its port may no longer advertise IsSM); the previous answer is kept. */
int rk_fabric_cache_query_sm(struct rk_fabric_cache *cache);

/** Take the fabric's events for listen_ms (the port opened and subscribed first), telling
 * each to options.events; a trap 128's switch is read into events_fabric. 0 or -errno (the
 * port failed: closed, opened again at the next call). */
int rk_fabric_cache_follow(struct rk_fabric_cache *cache, unsigned listen_ms);

/** The cache's queue for a few MADs of the caller's (the port and the queue opened first);
 * it closes with the port. 0 or -errno. */
int rk_fabric_cache_queue(struct rk_fabric_cache *cache, struct rk_mad_queue **out);

/** Forget the topology, the samples and the SM answers, and stop following events (the port
 * stays open): a watcher that became standby shows nothing of a fabric it no longer reads. */
void rk_fabric_cache_forget(struct rk_fabric_cache *cache);

/** Release the topology, the samples and the MAD port. */
void rk_fabric_cache_close(struct rk_fabric_cache *cache);

#endif
