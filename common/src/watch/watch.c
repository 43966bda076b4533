/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The watch engine: its settings, its jobs and lanes set up, what it publishes and hands out. */
#include "watch_internal.h"

#include "rdmakit/clock.h"
#include "rdmakit/limits.h"
#include "rdmakit/log.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <time.h>

void rk_watch_settings_defaults(struct rk_watch_settings *settings)
{
	memset(settings, 0, sizeof(*settings));
	settings->interval_s = 10;
	settings->tune_interval_s = RK_TUNE_INTERVAL_DEFAULT_S;
	settings->probe_interval_s = RK_PROBE_INTERVAL_DEFAULT_S;
	settings->rediscover_s = RK_REDISCOVER_DEFAULT_S;
	settings->unreachable_hold_s = RK_UNREACHABLE_HOLD_DEFAULT_S;
	settings->routes_interval_s = RK_ROUTES_INTERVAL_DEFAULT_S;
	settings->audit_interval_s = RK_AUDIT_INTERVAL_DEFAULT_S;
	rk_flap_settings_defaults(&settings->flap);
	settings->lease_s = RK_WATCHER_LEASE_DEFAULT_S;
}

void rk_watch_settings_set(struct rk_watch_settings *settings, const char *ca, int port,
			   unsigned window, unsigned timeout_ms, const char *name_map)
{
	rk_watch_settings_defaults(settings);
	settings->ca = ca;
	settings->ca_port = port;
	settings->window = window;
	settings->timeout_ms = timeout_ms;
	settings->name_map = name_map;
}

/* Seconds since the epoch, as collectd stamps values. */
static double wall_seconds(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (double)now.tv_sec + now.tv_nsec / 1e9;
}

static void monitor_options(const struct rk_watch *watch, struct rk_fabric_cache_options *options)
{
	const struct rk_watch_settings *s = &watch->settings;

	rk_fabric_cache_options_set(options, s->ca, s->ca_port, s->window, s->timeout_ms,
				    watch->names);
	options->rediscover_seconds = s->rediscover_s;
	options->unreachable_hold_seconds = s->unreachable_hold_s;
	options->discover_in_helper = true; /* a daemon: no discovery leak may build up */
	options->fabric.helper_deadline_s = s->helper_deadline;
	options->fabric.cancel = &watch->cancel;
	options->mad.cancel = &watch->cancel;
	options->congestion = s->congestion;
}

static int init_sync(struct rk_watch *watch)
{
	int err = rk_monotonic_sync_init(&watch->lock, &watch->wake);

	if (!err && (err = -pthread_mutex_init(&watch->publishing, NULL)) != 0) {
		pthread_cond_destroy(&watch->wake);
		pthread_mutex_destroy(&watch->lock);
	}
	return err;
}

static int init_jobs(struct rk_watch *watch)
{
	static const char *const what[RK_WATCH_JOBS] = {"fabric sweep", "SM query", "tune audit",
							"loopback probe"};
	const struct rk_watch_settings *s = &watch->settings;
	const bool enabled[RK_WATCH_JOBS] = {s->sweep, s->sm, s->tune, s->probe};
	int err = 0;

	for (int j = 0; j < RK_WATCH_JOBS && !err; j++) {
		watch->jobs[j].enabled = enabled[j];
		watch->jobs[j].backs_off = j == RK_WATCH_SWEEP || j == RK_WATCH_SM;
		watch->jobs[j].what = what[j];
		err = rk_event_tracker_new(&watch->jobs[j].tracker);
	}
	return err;
}

static void init_lanes(struct rk_watch *watch)
{
	watch->lanes[WATCH_LANE_FABRIC] =
	    (struct watch_lane){.watch = watch,
				.first = RK_WATCH_SWEEP,
				.last = RK_WATCH_SM,
				.interval = watch->settings.interval_s};
	watch->lanes[WATCH_LANE_TUNE] =
	    (struct watch_lane){.watch = watch,
				.first = RK_WATCH_TUNE,
				.last = RK_WATCH_TUNE,
				.interval = watch->settings.tune_interval_s};
	watch->lanes[WATCH_LANE_PROBE] =
	    (struct watch_lane){.watch = watch,
				.first = RK_WATCH_PROBE,
				.last = RK_WATCH_PROBE,
				.interval = watch->settings.probe_interval_s};
}

void watch_free(struct rk_watch *watch, bool synced)
{
	if (synced) {
		pthread_cond_destroy(&watch->wake);
		pthread_mutex_destroy(&watch->lock);
		pthread_mutex_destroy(&watch->publishing);
	}
	for (int j = 0; j < RK_WATCH_JOBS; j++) {
		rk_event_tracker_free(watch->jobs[j].tracker);
		rk_watch_events_free(&watch->jobs[j].pending);
		rk_watch_events_free(&watch->jobs[j].found);
		rk_findings_free(&watch->jobs[j].findings);
	}
	rk_watch_release(watch->latest);
	rk_findings_free(&watch->route_findings);
	rk_findings_free(&watch->audit_findings);
	rk_findings_free(&watch->sweep_findings);
	rk_link_history_free(&watch->links);
	rk_fabric_cache_close(&watch->monitor);
	rk_host_close(watch->probe_host);
	free(watch->probes.items);
	rk_name_map_free(watch->names);
	watch_plan_forget(&watch->plan);
	rk_cancel_destroy(&watch->cancel);
	free((char *)watch->settings.ca);
	free((char *)watch->settings.name_map);
	free((char *)watch->settings.plan_path);
	free((char *)watch->settings.audit_partitions);
	free((char *)watch->settings.tune_root);
	free((char *)watch->settings.sysfs_root);
	free(watch);
}

static char *copy_text(const char *text, bool *lost)
{
	char *copy = text ? strdup(text) : NULL;

	*lost = *lost || (text && !copy);
	return copy;
}

/* The settings, with copies of their strings: a thread left behind never reads the caller's. */
static int copy_settings(const struct rk_watch_settings *settings, struct rk_watch *watch)
{
	bool lost = false;

	watch->settings = *settings;
	watch->settings.ca = copy_text(settings->ca, &lost);
	watch->settings.name_map = copy_text(settings->name_map, &lost);
	watch->settings.plan_path = copy_text(settings->plan_path, &lost);
	watch->settings.audit_partitions = copy_text(settings->audit_partitions, &lost);
	watch->settings.tune_root =
	    copy_text(settings->tune_root ? settings->tune_root : "/", &lost);
	watch->settings.sysfs_root =
	    copy_text(settings->sysfs_root ? settings->sysfs_root : "/sys", &lost);
	return lost ? -ENOMEM : 0;
}

int rk_watch_new(const struct rk_watch_settings *settings, struct rk_watch **out)
{
	struct rk_watch *watch = calloc(1, sizeof(*watch));
	struct rk_fabric_cache_options options;
	int err;

	if (!watch)
		return -ENOMEM;
	watch->cancel.fds[0] = watch->cancel.fds[1] = -1;
	err = copy_settings(settings, watch);
	if (!err && settings->name_map)
		err = rk_name_map_load(settings->name_map, &watch->names);
	if (!err && settings->probe)
		err = rk_host_open(watch->settings.sysfs_root, &watch->probe_host);
	if (!err)
		err = rk_cancel_init(&watch->cancel);
	if (!err)
		err = init_jobs(watch);
	if (!err)
		err = init_sync(watch);
	if (err) {
		watch_free(watch, false);
		return err;
	}
	init_lanes(watch);
	monitor_options(watch, &options);
	watch_events_setup(watch, &options);
	watch_role_setup(watch);
	watch->settings.watcher_name = NULL; /* the caller's: copied into the election */
	rk_fabric_cache_init(&watch->monitor, &options);
	*out = watch;
	return 0;
}

/* Give back to the system the pages freed since the last publish (a snapshot let go, a pass's
 * buffers): glibc keeps what a thread frees in that thread's arena, and after a large free raises
 * its trim threshold, so without this the daemon keeps every pass's high-water mark. */
static void return_freed_memory(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

/* The one before is let go; events are handed over with the snapshot that holds their cause,
 * also when there is no new snapshot (out of memory). */
void watch_publish(struct rk_watch *watch, const bool passed[], double seconds)
{
	struct rk_watch_snapshot *snap, *before;

	pthread_mutex_lock(&watch->publishing); /* nobody else replaces latest meanwhile */
	pthread_mutex_lock(&watch->lock);
	before = watch->latest;
	pthread_mutex_unlock(&watch->lock);
	snap = watch_snapshot(watch, passed, before);
	if (!snap)
		rk_log(RK_LOG_ERR, "out of memory: the fabric's snapshot is not updated");
	if (snap && !watch->findings_only && (passed[RK_WATCH_SWEEP] || passed[RK_WATCH_SM])) {
		snap->passed_at = time(NULL);
		snap->pass_seconds = seconds;
	}
	if (snap && passed[RK_WATCH_PROBE])
		snap->probed_at = wall_seconds();
	if (snap)
		snap->failures = atomic_load(&watch->failures);
	pthread_mutex_lock(&watch->lock);
	for (int j = 0; j < RK_WATCH_JOBS; j++)
		if (passed[j])
			watch_job_hand_over(&watch->jobs[j]);
	watch->latest = snap ? snap : before;
	pthread_mutex_unlock(&watch->lock);
	pthread_mutex_unlock(&watch->publishing);
	if (snap)
		rk_watch_release(before);
	return_freed_memory();
}

struct rk_watch_snapshot *rk_watch_take(struct rk_watch *watch, enum rk_watch_job job,
					struct rk_watch_events *events)
{
	struct rk_watch_snapshot *snap;

	pthread_mutex_lock(&watch->lock);
	snap = watch->latest;
	if (snap)
		atomic_fetch_add(&snap->refs, 1);
	watch_job_take(&watch->jobs[job], events);
	pthread_mutex_unlock(&watch->lock);
	return snap;
}

void rk_watch_events_clear(struct rk_watch_events *events)
{
	rk_event_list_clear(&events->list);
	events->at_start = 0;
}

void rk_watch_events_free(struct rk_watch_events *events)
{
	rk_event_list_free(&events->list);
	events->at_start = 0;
}
