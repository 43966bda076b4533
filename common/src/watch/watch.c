/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The watch engine: its thread, its passes, what it publishes, and a stop that never hangs. */
#include "watch_internal.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

void rk_watch_settings_defaults(struct rk_watch_settings *settings)
{
	memset(settings, 0, sizeof(*settings));
	settings->interval_s = 10;
	settings->rediscover_s = RK_REDISCOVER_DEFAULT_S;
}

static void monitor_options(const struct rk_watch *watch, struct rk_monitor_options *options)
{
	const struct rk_watch_settings *s = &watch->settings;

	rk_monitor_options_set(options, s->ca, s->ca_port, s->window, s->timeout_ms, watch->names);
	options->rediscover_seconds = s->rediscover_s;
	options->discover_in_helper = true; /* a daemon: no discovery leak may build up */
	options->fabric.helper_deadline_s = s->helper_deadline;
	options->fabric.cancel = &watch->cancel;
	options->mad.cancel = &watch->cancel;
}

static int init_sync(struct rk_watch *watch)
{
	pthread_condattr_t attr;
	int err = pthread_condattr_init(&attr);

	if (err)
		return -err;
	err = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(&watch->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (err)
		return -err;
	err = pthread_mutex_init(&watch->lock, NULL);
	if (err)
		pthread_cond_destroy(&watch->wake);
	return -err;
}

static int init_jobs(struct rk_watch *watch)
{
	static const char *const what[RK_WATCH_JOBS] = {"fabric sweep", "SM query"};
	const bool enabled[RK_WATCH_JOBS] = {watch->settings.sweep, watch->settings.sm};
	int err = 0;

	for (int j = 0; j < RK_WATCH_JOBS && !err; j++) {
		watch->jobs[j].enabled = enabled[j];
		watch->jobs[j].what = what[j];
		err = rk_event_tracker_new(&watch->jobs[j].tracker);
	}
	return err;
}

/* What rk_watch_new set up, undone (also when it stopped half way). */
static void watch_free(struct rk_watch *watch)
{
	for (int j = 0; j < RK_WATCH_JOBS; j++) {
		rk_event_tracker_free(watch->jobs[j].tracker);
		rk_watch_events_free(&watch->jobs[j].pending);
		rk_watch_events_free(&watch->jobs[j].found);
		rk_findings_free(&watch->jobs[j].findings);
	}
	rk_watch_release(watch->latest);
	rk_monitor_close(&watch->monitor);
	rk_name_map_free(watch->names);
	rk_cancel_destroy(&watch->cancel);
	free((char *)watch->settings.ca);
	free((char *)watch->settings.name_map);
	free(watch);
}

/* The settings, with copies of their strings: a thread left behind never reads the caller's. */
static int copy_settings(const struct rk_watch_settings *settings, struct rk_watch *watch)
{
	watch->settings = *settings;
	watch->settings.ca = settings->ca ? strdup(settings->ca) : NULL;
	watch->settings.name_map = settings->name_map ? strdup(settings->name_map) : NULL;
	if ((settings->ca && !watch->settings.ca) ||
	    (settings->name_map && !watch->settings.name_map))
		return -ENOMEM;
	return 0;
}

int rk_watch_new(const struct rk_watch_settings *settings, struct rk_watch **out)
{
	struct rk_watch *watch = calloc(1, sizeof(*watch));
	struct rk_monitor_options options;
	int err;

	if (!watch)
		return -ENOMEM;
	watch->cancel.fds[0] = watch->cancel.fds[1] = -1;
	err = copy_settings(settings, watch);
	if (!err && settings->name_map)
		err = rk_name_map_load(settings->name_map, &watch->names);
	if (!err)
		err = rk_cancel_init(&watch->cancel);
	if (!err)
		err = init_jobs(watch);
	if (!err)
		err = init_sync(watch);
	if (err) {
		watch_free(watch);
		return err;
	}
	monitor_options(watch, &options);
	rk_monitor_init(&watch->monitor, &options);
	*out = watch;
	return 0;
}

/* One job's turn in a pass: true when it ran and worked. */
static bool run_job(struct rk_watch *watch, enum rk_watch_job job)
{
	static int (*const runs[RK_WATCH_JOBS])(struct rk_watch *) = {watch_sweep, watch_query_sm};
	struct watch_job *j = &watch->jobs[job];
	int err;

	if (!j->enabled || watch_job_skip(j))
		return false;
	err = runs[job](watch);
	if (err == -ECANCELED || rk_cancel_raised(&watch->cancel))
		return false; /* stopping: not a failure */
	watch_job_outcome(j, err);
	if (err)
		watch->failures++;
	return err == 0;
}

/* The one before is let go; events are handed over with the snapshot that holds their cause,
 * also when there is no new snapshot (out of memory). */
void watch_publish(struct rk_watch *watch, const bool passed[], double seconds)
{
	struct rk_watch_snapshot *snap, *before;

	pthread_mutex_lock(&watch->lock);
	before = watch->latest;
	pthread_mutex_unlock(&watch->lock); /* only this thread replaces it */
	snap = watch_snapshot(watch, passed, before);
	if (!snap)
		rk_log(RK_LOG_ERR, "out of memory: the fabric's snapshot is not updated");
	if (snap && (passed[RK_WATCH_SWEEP] || passed[RK_WATCH_SM])) {
		snap->passed_at = time(NULL);
		snap->pass_seconds = seconds;
	}
	if (snap)
		snap->failures = watch->failures;
	pthread_mutex_lock(&watch->lock);
	for (int j = 0; j < RK_WATCH_JOBS; j++)
		watch_job_hand_over(&watch->jobs[j]);
	watch->latest = snap ? snap : before;
	pthread_mutex_unlock(&watch->lock);
	if (snap)
		rk_watch_release(before);
}

/* Every job once, then what they saw published. */
static void run_pass(struct rk_watch *watch)
{
	double started = rk_monotonic_seconds();
	bool passed[RK_WATCH_JOBS];

	for (int j = 0; j < RK_WATCH_JOBS; j++)
		passed[j] = run_job(watch, (enum rk_watch_job)j);
	if (!rk_cancel_raised(&watch->cancel))
		watch_publish(watch, passed, rk_monotonic_seconds() - started);
}

void rk_watch_run_once(struct rk_watch *watch)
{
	watch->next_at = rk_monotonic_seconds() + watch->settings.interval_s;
	run_pass(watch);
}

/* Sleep until the next pass is due, or until told to stop; false when stopping. */
static bool wait_until_due(struct rk_watch *watch)
{
	struct timespec until;
	bool stop;

	pthread_mutex_lock(&watch->lock);
	until.tv_sec = (time_t)watch->next_at;
	until.tv_nsec = (long)((watch->next_at - (double)until.tv_sec) * 1e9);
	while (!watch->stop &&
	       pthread_cond_timedwait(&watch->wake, &watch->lock, &until) != ETIMEDOUT)
		;
	stop = watch->stop;
	pthread_mutex_unlock(&watch->lock);
	return !stop;
}

static void *run(void *arg)
{
	struct rk_watch *watch = arg;

	/* Linux takes a thread's ID for a per-thread nice value. */
	if (watch->settings.nice &&
	    setpriority(PRIO_PROCESS, (id_t)gettid(), watch->settings.nice) != 0)
		rk_log(RK_LOG_INFO, "the watch thread keeps its priority: %s", strerror(errno));
	while (wait_until_due(watch)) {
		watch->next_at = rk_monotonic_seconds() + watch->settings.interval_s;
		run_pass(watch);
	}
	pthread_mutex_lock(&watch->lock);
	watch->ended = true;
	pthread_cond_broadcast(&watch->wake);
	pthread_mutex_unlock(&watch->lock);
	return NULL;
}

int rk_watch_start(struct rk_watch *watch)
{
	int err;

	if (watch->next_at == 0)
		watch->next_at = rk_monotonic_seconds();
	err = pthread_create(&watch->thread, NULL, run, watch);
	if (err)
		return -err;
	watch->running = true;
	return 0;
}

struct rk_watch_snapshot *rk_watch_take(struct rk_watch *watch, enum rk_watch_job job,
					struct rk_watch_events *events)
{
	struct rk_watch_events *pending = &watch->jobs[job].pending;
	struct rk_watch_events mine;
	struct rk_watch_snapshot *snap;

	rk_watch_events_clear(events);
	pthread_mutex_lock(&watch->lock);
	snap = watch->latest;
	if (snap)
		atomic_fetch_add(&snap->refs, 1);
	mine = *pending; /* the queue's storage is the taker's now, and the other way round */
	*pending = *events;
	*events = mine;
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

/* Tell the thread to stop and wait for it, at most RK_WATCH_STOP_GRACE_S; true when it ended. */
static bool end_thread(struct rk_watch *watch)
{
	double until = rk_monotonic_seconds() + RK_WATCH_STOP_GRACE_S;
	struct timespec ts = {.tv_sec = (time_t)until,
			      .tv_nsec = (long)((until - (double)(time_t)until) * 1e9)};
	bool ended;

	rk_cancel_raise(&watch->cancel);
	pthread_mutex_lock(&watch->lock);
	watch->stop = true;
	pthread_cond_broadcast(&watch->wake);
	while (!watch->ended &&
	       pthread_cond_timedwait(&watch->wake, &watch->lock, &ts) != ETIMEDOUT)
		;
	ended = watch->ended;
	pthread_mutex_unlock(&watch->lock);
	return ended;
}

void rk_watch_stop(struct rk_watch *watch)
{
	if (!watch)
		return;
	if (watch->running && !end_thread(watch)) {
		/* Blocked in a call no descriptor wakes (a umad write to a peer that stopped
		 * reading): the engine is left to it, and ends with the process. */
		rk_log(RK_LOG_WARNING, "the watch thread did not stop within %.1f s: left behind",
		       RK_WATCH_STOP_GRACE_S);
		pthread_detach(watch->thread);
		return;
	}
	if (watch->running)
		pthread_join(watch->thread, NULL);
	pthread_cond_destroy(&watch->wake);
	pthread_mutex_destroy(&watch->lock);
	watch_free(watch);
}
