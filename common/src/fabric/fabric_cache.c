/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/fabric_cache.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <string.h>

void rk_fabric_cache_options_set(struct rk_fabric_cache_options *options, const char *ca, int port,
				 unsigned window, unsigned timeout_ms,
				 const struct rk_name_map *names)
{
	memset(options, 0, sizeof(*options));
	options->fabric.ca = ca;
	options->fabric.port = port;
	options->fabric.timeout_ms = timeout_ms;
	options->fabric.names = names;
	rk_mad_options_defaults(&options->mad);
	if (window)
		options->mad.window = window;
	if (timeout_ms)
		options->mad.timeout_ms = timeout_ms;
}

void rk_fabric_cache_init(struct rk_fabric_cache *monitor,
			  const struct rk_fabric_cache_options *options)
{
	memset(monitor, 0, sizeof(*monitor));
	monitor->options = *options;
	monitor->sweep.errors_only = options->errors_only;
	monitor->sweep.vl_wait = options->vl_wait;
}

/* The follower (unsubscribing) goes with the port it listens on. */
static void close_port(struct rk_fabric_cache *monitor)
{
	rk_follower_close(monitor->follower);
	monitor->follower = NULL;
	rk_mad_queue_close(monitor->queue);
	monitor->queue = NULL;
	rk_mad_port_close(monitor->port);
	monitor->port = NULL;
}

static int open_port(struct rk_fabric_cache *monitor)
{
	if (monitor->port)
		return 0;
	return rk_mad_port_open(monitor->options.fabric.ca, monitor->options.fabric.port,
				&monitor->port);
}

/* Whether a fresh discovery may replace the current view: it misses nothing that may still
 * be there (rk_unseen_update), or what it misses was missed long enough. */
static bool view_adoptable(struct rk_fabric_cache *monitor, const struct rk_fabric *fresh)
{
	size_t held = 0;

	if (!monitor->fabric || monitor->options.unreachable_hold_seconds <= 0)
		return true;
	if (rk_unseen_update(&monitor->unseen, monitor->fabric, fresh, rk_monotonic_seconds(),
			     monitor->options.unreachable_hold_seconds, &held) != 0)
		return true; /* out of memory: take what was seen */
	if (held == 0 && monitor->view_kept)
		rk_log(RK_LOG_INFO, "the fabric answers whole again%s",
		       monitor->unseen.count ? "; nodes or links unseen too long are dropped" : "");
	else if (held && !monitor->view_kept)
		rk_log(RK_LOG_WARNING,
		       "a rediscovery missed %zu nodes or links whose neighbours still see them up "
		       "(lost MADs?): they are unreachable now, and the last whole view is kept "
		       "(for %.0f s at most)",
		       held, monitor->options.unreachable_hold_seconds);
	monitor->view_kept = held > 0;
	return held == 0;
}

/* With events: a copy of the new topology for the follower's reads to update (the topology
 * itself is shared, unchanged, with the snapshots of the front ends). */
static int copy_for_events(struct rk_fabric_cache *monitor)
{
	struct rk_fabric *copy = NULL;
	int err;

	if (!monitor->options.events)
		return 0;
	err = rk_fabric_copy(monitor->fabric, &copy);
	if (err)
		return err;
	rk_fabric_free(monitor->events_fabric);
	monitor->events_fabric = copy;
	if (monitor->follower)
		rk_follower_set_fabric(monitor->follower, copy);
	return 0;
}

/* A fresh discovery into *fabric (in the helper when the options say so). */
static int discover(struct rk_fabric_cache *monitor, struct rk_fabric **fabric)
{
	if (!monitor->options.discover_in_helper)
		close_port(monitor); /* libibnetdisc opens its own umad port in this process */
	return monitor->options.discover_in_helper
		   ? rk_fabric_discover_isolated(&monitor->options.fabric, fabric)
		   : rk_fabric_discover(&monitor->options.fabric, fabric);
}

/* Take a fresh discovery as the view, unless it misses what may still be there. */
static int adopt(struct rk_fabric_cache *monitor, struct rk_fabric *fabric)
{
	int err;

	monitor->discovered_at = rk_monotonic_seconds();
	if (!view_adoptable(monitor, fabric)) {
		rk_fabric_free(fabric);
		monitor->partial_views++;
		return open_port(monitor);
	}
	rk_fabric_free(monitor->prev_fabric);
	monitor->prev_fabric = monitor->fabric;
	monitor->fabric = fabric;
	monitor->sm_stale = false;
	monitor->discoveries++;
	err = rk_sweep_prepare(&monitor->sweep, fabric);
	if (!err)
		err = copy_for_events(monitor);
	return err ? err : open_port(monitor);
}

int rk_fabric_cache_discover(struct rk_fabric_cache *monitor)
{
	struct rk_fabric *fabric;
	int err = discover(monitor, &fabric);

	return err ? err : adopt(monitor, fabric);
}

/* Discover again before a sweep or an SM query. When that fails with a view at hand (a helper
 * that hung past its deadline, a discovery cut short), the view is kept and read: what its
 * ports answer, or that they do not, is still the news. Said once, and once when it works. */
static int rediscover(struct rk_fabric_cache *monitor)
{
	struct rk_fabric *fabric;
	int err = discover(monitor, &fabric);

	if (!err) {
		if (monitor->discovery_failing)
			rk_log(RK_LOG_INFO, "fabric discovery works again");
		monitor->discovery_failing = false;
		return adopt(monitor, fabric);
	}
	if (err == -ECANCELED || !monitor->fabric)
		return err;
	if (!monitor->discovery_failing)
		rk_log(RK_LOG_WARNING,
		       "fabric discovery failed (%s): reading the last view (%zu nodes) until it "
		       "works again",
		       strerror(-err), monitor->fabric->nnodes);
	monitor->discovery_failing = true;
	return open_port(monitor);
}

static bool period_elapsed(const struct rk_fabric_cache *monitor)
{
	double period = monitor->options.rediscover_seconds;

	return period > 0 && rk_monotonic_seconds() - monitor->discovered_at >= period;
}

static bool rediscovery_due(const struct rk_fabric_cache *monitor)
{
	return !monitor->fabric || monitor->sweep.topology_stale || period_elapsed(monitor);
}

/* The umad port itself failed (an HCA reset or a driver reload: the kernel answers EIO,
 * EPIPE or ENODEV on that descriptor for good): close it, so the next sweep or query opens
 * the port afresh instead of failing on the dead one forever. */
static int drop_failed_port(struct rk_fabric_cache *monitor, int err)
{
	if (monitor->port && (err == -EIO || err == -EPIPE || err == -ENODEV || err == -ENXIO)) {
		rk_log(RK_LOG_WARNING,
		       "the umad port failed (%s): closed; the next sweep or SM query opens it "
		       "again",
		       strerror(-err));
		close_port(monitor);
	}
	return err;
}

int rk_fabric_cache_sweep(struct rk_fabric_cache *monitor, rk_sweep_progress_fn progress, void *ctx)
{
	int err = 0;

	if (rediscovery_due(monitor)) {
		if (monitor->sweep.topology_stale)
			rk_log(RK_LOG_INFO, "the fabric changed (ports stopped answering or came "
					    "up): rediscovering it");
		err = rediscover(monitor);
	}
	if (!err)
		err = open_port(monitor);
	if (!err)
		err = rk_sweep_run(monitor->port, monitor->fabric, &monitor->sweep,
				   &monitor->options.mad, progress, ctx);
	if (!err)
		rk_congestion_update(&monitor->sweep, monitor->fabric,
				     &monitor->options.congestion);
	return drop_failed_port(monitor, err);
}

/* An SM that answered last time and no longer does may have stopped (its port drops IsSM). */
static bool an_sm_stopped(const struct rk_sm_status *before, const struct rk_sm_status *now)
{
	for (size_t i = 0; i < now->count; i++)
		if (rk_sm_answer_change(before, &now->sms[i]) == RK_SM_STOPPED_ANSWERING)
			return true;
	return false;
}

int rk_fabric_cache_query_sm(struct rk_fabric_cache *monitor)
{
	struct rk_sm_status status;
	bool due = !monitor->fabric || monitor->sm_stale || period_elapsed(monitor);
	int err = due ? rediscover(monitor) : open_port(monitor);

	if (!err)
		err = rk_sm_query(monitor->port, monitor->fabric, &monitor->options.mad, &status);
	if (err)
		return drop_failed_port(monitor, err);
	monitor->sm_stale = an_sm_stopped(&monitor->sm, &status);
	rk_sm_status_free(&monitor->prev_sm);
	monitor->prev_sm = monitor->sm;
	monitor->sm = status;
	return 0;
}

int rk_fabric_cache_follow(struct rk_fabric_cache *monitor, unsigned listen_ms)
{
	int err = open_port(monitor);

	if (!err && !monitor->follower) {
		err = rk_follower_open(monitor->port, &monitor->options.mad, monitor->events_fabric,
				       monitor->options.events, monitor->options.events_ctx,
				       &monitor->follower);
		if (err == -EBUSY)
			err = 0; /* the follower says so (EVENTS_UNAVAILABLE) */
	}
	if (!err)
		err = rk_follower_turn(monitor->follower, listen_ms);
	return drop_failed_port(monitor, err);
}

int rk_fabric_cache_queue(struct rk_fabric_cache *monitor, struct rk_mad_queue **out)
{
	int err = open_port(monitor);

	if (!err && !monitor->queue)
		err = rk_mad_queue_open(monitor->port, &monitor->options.mad, &monitor->queue);
	*out = monitor->queue;
	return drop_failed_port(monitor, err);
}

void rk_fabric_cache_forget(struct rk_fabric_cache *monitor)
{
	rk_follower_close(monitor->follower);
	monitor->follower = NULL;
	rk_fabric_free(monitor->fabric);
	rk_fabric_free(monitor->prev_fabric);
	rk_fabric_free(monitor->events_fabric);
	monitor->fabric = monitor->prev_fabric = monitor->events_fabric = NULL;
	rk_sweep_free(&monitor->sweep);
	monitor->sweep.errors_only = monitor->options.errors_only;
	monitor->sweep.vl_wait = monitor->options.vl_wait;
	rk_sm_status_free(&monitor->sm);
	rk_sm_status_free(&monitor->prev_sm);
	rk_unseen_free(&monitor->unseen);
}

void rk_fabric_cache_close(struct rk_fabric_cache *monitor)
{
	close_port(monitor);
	rk_fabric_free(monitor->events_fabric);
	rk_fabric_free(monitor->fabric);
	rk_fabric_free(monitor->prev_fabric);
	rk_sweep_free(&monitor->sweep);
	rk_sm_status_free(&monitor->sm);
	rk_sm_status_free(&monitor->prev_sm);
	rk_unseen_free(&monitor->unseen);
	memset(monitor, 0, sizeof(*monitor));
}
