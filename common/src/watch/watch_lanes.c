/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The watch engine's threads: each lane runs its jobs at its interval until told to stop, and
 * the stop that returns in time whatever a lane is waiting on. */
#include "watch_internal.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* One job's turn in a pass: true when it ran and worked. */
static bool run_job(struct rk_watch *watch, enum rk_watch_job job)
{
	static int (*const runs[RK_WATCH_JOBS])(struct rk_watch *) = {watch_sweep, watch_query_sm,
								      watch_audit, watch_probe};
	struct watch_job *j = &watch->jobs[job];
	int err;

	if (!watch_job_due(j) || watch_job_skip(j))
		return false;
	if ((job == RK_WATCH_SWEEP || job == RK_WATCH_SM) && !watch_fabric_active(watch))
		return false; /* a standby watcher: another one reads the fabric */
	err = runs[job](watch);
	if (err == -ECANCELED || rk_cancel_raised(&watch->cancel))
		return false; /* stopping: not a failure */
	if (j->backs_off)
		watch_job_outcome(j, err);
	if (err && j->backs_off)
		atomic_fetch_add(&watch->failures, 1);
	return err == 0;
}

bool watch_job_due(const struct watch_job *job)
{
	return job->enabled || job->findings.count > 0;
}

/* Whether one of the lane's jobs is to run. */
static bool lane_due(const struct watch_lane *lane)
{
	bool any = false;

	for (enum rk_watch_job j = lane->first; j <= lane->last; j++)
		any |= watch_job_due(&lane->watch->jobs[j]);
	return any;
}

void watch_lane_pass(struct watch_lane *lane)
{
	struct rk_watch *watch = lane->watch;
	double started = rk_monotonic_seconds();
	bool passed[RK_WATCH_JOBS] = {false};

	if (!lane_due(lane))
		return;
	for (enum rk_watch_job j = lane->first; j <= lane->last; j++)
		passed[j] = run_job(watch, j);
	if (!rk_cancel_raised(&watch->cancel))
		watch_publish(watch, passed, rk_monotonic_seconds() - started);
}

void rk_watch_run_once(struct rk_watch *watch)
{
	watch_role_settle(watch);
	for (int l = 0; l < WATCH_LANES; l++) {
		watch->lanes[l].next_at = rk_monotonic_seconds() + watch->lanes[l].interval;
		watch_lane_pass(&watch->lanes[l]);
	}
}

static struct timespec timespec_of(double seconds)
{
	struct timespec ts = {.tv_sec = (time_t)seconds};

	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	return ts;
}

/* Sleep until the lane's next pass is due (it may move meanwhile: rk_watch_set_interval), or
 * until told to stop; false when stopping. When due, the pass after is set. */
static bool wait_until_due(struct watch_lane *lane)
{
	struct rk_watch *watch = lane->watch;
	bool stop;

	if (lane == &watch->lanes[WATCH_LANE_FABRIC] &&
	    (watch->monitor.options.events || watch->elects))
		return watch_events_wait(lane);
	pthread_mutex_lock(&watch->lock);
	while (!watch->stop && rk_monotonic_seconds() < lane->next_at) {
		struct timespec due = timespec_of(lane->next_at);

		pthread_cond_timedwait(&watch->wake, &watch->lock, &due);
	}
	stop = watch->stop;
	if (!stop)
		lane->next_at = rk_monotonic_seconds() + lane->interval;
	pthread_mutex_unlock(&watch->lock);
	return !stop;
}

static void *run(void *arg)
{
	struct watch_lane *lane = arg;
	struct rk_watch *watch = lane->watch;

	/* Linux takes a thread's ID for a per-thread nice value. */
	if (watch->settings.nice &&
	    setpriority(PRIO_PROCESS, (id_t)gettid(), watch->settings.nice) != 0)
		rk_log(RK_LOG_INFO, "the watch thread keeps its priority: %s", strerror(errno));
	if (lane == &watch->lanes[WATCH_LANE_FABRIC])
		watch_role_settle(watch); /* no pass before the election gives a role */
	while (wait_until_due(lane))
		watch_lane_pass(lane);
	pthread_mutex_lock(&watch->lock);
	lane->ended = true;
	pthread_cond_broadcast(&watch->wake);
	pthread_mutex_unlock(&watch->lock);
	return NULL;
}

void rk_watch_set_interval(struct rk_watch *watch, enum rk_watch_job job, double seconds)
{
	for (int l = 0; l < WATCH_LANES; l++) {
		struct watch_lane *lane = &watch->lanes[l];

		if (job < lane->first || job > lane->last)
			continue;
		pthread_mutex_lock(&watch->lock);
		lane->next_at += seconds - lane->interval;
		lane->interval = seconds;
		pthread_cond_broadcast(&watch->wake);
		pthread_mutex_unlock(&watch->lock);
	}
}

int watch_lane_start(struct watch_lane *lane)
{
	int err;

	if (lane->running || !lane_due(lane))
		return 0;
	if (lane->next_at == 0)
		lane->next_at = rk_monotonic_seconds();
	err = pthread_create(&lane->thread, NULL, run, lane);
	lane->running = err == 0;
	return -err;
}

/* Tell the lanes to stop and wait for them, at most RK_WATCH_STOP_GRACE_S; true when every
 * one that ran has ended. */
static bool end_lanes(struct rk_watch *watch)
{
	double until = rk_monotonic_seconds() + RK_WATCH_STOP_GRACE_S;
	struct timespec ts = {.tv_sec = (time_t)until,
			      .tv_nsec = (long)((until - (double)(time_t)until) * 1e9)};
	bool ended = false;

	rk_cancel_raise(&watch->cancel);
	pthread_mutex_lock(&watch->lock);
	watch->stop = true;
	pthread_cond_broadcast(&watch->wake);
	for (;;) {
		ended = true;
		for (int l = 0; l < WATCH_LANES; l++)
			ended = ended && (!watch->lanes[l].running || watch->lanes[l].ended);
		if (ended || pthread_cond_timedwait(&watch->wake, &watch->lock, &ts) == ETIMEDOUT)
			break;
	}
	pthread_mutex_unlock(&watch->lock);
	return ended;
}

int rk_watch_start(struct rk_watch *watch)
{
	int err = 0;

	for (int l = 0; l < WATCH_LANES && !err; l++)
		err = watch_lane_start(&watch->lanes[l]);
	watch->started = true;
	return err;
}

void rk_watch_stop(struct rk_watch *watch)
{
	if (!watch)
		return;
	if (!end_lanes(watch)) {
		/* A lane blocked in a call no descriptor wakes (a umad write to a peer that stopped
		 * reading): the engine is left to it, and ends with the process. */
		rk_log(RK_LOG_WARNING, "the watch thread did not stop within %.1f s: left behind",
		       RK_WATCH_STOP_GRACE_S);
		for (int l = 0; l < WATCH_LANES; l++)
			if (watch->lanes[l].running)
				pthread_detach(watch->lanes[l].thread);
		return;
	}
	for (int l = 0; l < WATCH_LANES; l++)
		if (watch->lanes[l].running)
			pthread_join(watch->lanes[l].thread, NULL);
	watch_role_resign(watch);
	watch_free(watch, true);
}
