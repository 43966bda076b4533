/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* One active fabric watcher per subnet (rdmakit/election.h): the fabric lane's election turns,
 * the role they give, and what a change of role does to the fabric jobs. */
#include "watch_internal.h"

#include "rdmakit/clock.h"
#include "rdmakit/limits.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define SETTLE_MAX_S 5.0 /* rk_watch_run_once waits this long at most for a role */
/* The record's deletion at a stop: one try, answered at once by a live SA; long enough that a
 * slow one answers before the port closes (under ibsim a late answer crashes its shim). */
#define RESIGN_TIMEOUT_MS 1000

void watch_role_setup(struct rk_watch *watch)
{
	const struct rk_watch_settings *s = &watch->settings;
	char host[RK_WATCHER_NAME_MAX] = "";

	watch->elects = s->elect && (s->sweep || s->sm);
	if (!watch->elects)
		return;
	if (s->watcher_name)
		snprintf(host, sizeof(host), "%s", s->watcher_name);
	else if (gethostname(host, sizeof(host) - 1) != 0)
		snprintf(host, sizeof(host), "unknown");
	rk_election_init(&watch->election, s->role, s->priority,
			 s->lease_s > 0 ? s->lease_s : RK_WATCHER_LEASE_DEFAULT_S, host);
}

bool watch_fabric_active(const struct rk_watch *watch)
{
	return !watch->elects || watch->election.active;
}

/* Standby now: what the fabric jobs showed goes (their findings clear, once), and the
 * topology with it; only the election's findings stay. */
static void step_down(struct rk_watch *watch)
{
	bool passed[RK_WATCH_JOBS] = {[RK_WATCH_SWEEP] = true, [RK_WATCH_SM] = true};
	struct watch_job *sm = &watch->jobs[RK_WATCH_SM];
	struct rk_event_views views = {.sm_findings = &sm->findings};

	rk_fabric_cache_forget(&watch->monitor);
	rk_findings_free(&watch->sweep_findings);
	rk_link_history_free(&watch->links);
	watch->traps.count = 0;
	rk_findings_free(&sm->findings);
	if (sm->primed)
		watch_job_track(sm, &views);
	watch->events_changed = true;
	watch_events_publish(watch, passed);
}

/* The role changed: active, the next pass is now; standby, the fabric is let go. */
static void role_changed(struct rk_watch *watch)
{
	struct watch_lane *lane = &watch->lanes[WATCH_LANE_FABRIC];

	if (!watch->election.active) {
		step_down(watch);
		return;
	}
	pthread_mutex_lock(&watch->lock);
	lane->next_at = rk_monotonic_seconds();
	pthread_cond_broadcast(&watch->wake);
	pthread_mutex_unlock(&watch->lock);
}

void watch_role_turn(struct rk_watch *watch)
{
	struct rk_election *e = &watch->election;
	bool was = e->active;
	uint64_t holder = e->holder_guid;
	struct rk_mad_queue *queue = NULL;
	int err;

	if (!watch->elects || rk_election_wait(e) > 0)
		return;
	if (!watch->monitor.port && e->active && e->announced)
		return; /* the jobs open it again, backing off (they say why it fails) */
	err = rk_fabric_cache_queue(&watch->monitor, &queue);
	if (err && err != -ECANCELED) {
		/* no port (said by the monitor): the jobs fail and say so, as without elections */
		rk_election_alone(e);
		err = 0;
	} else if (!err) {
		err = rk_election_turn(e, queue, watch->monitor.port);
	}
	if (!err && queue)
		err = rk_mad_queue_run(queue, 0);
	if (err) {
		e->in_flight = false;
		e->next_at = rk_monotonic_seconds() + 1;
		if (err != -ECANCELED && err != watch->election_err)
			rk_log(RK_LOG_ERR, "fabric watcher: the election failed: %s; trying again",
			       strerror(-err));
	}
	watch->election_err = err;
	if (e->active != was || e->holder_guid != holder)
		watch->election_changes++;
	if (e->active != was)
		role_changed(watch);
	else if (e->holder_guid != holder)
		watch->events_changed = true; /* another watcher is the one shown */
}

void watch_role_settle(struct rk_watch *watch)
{
	double until = rk_monotonic_seconds() + SETTLE_MAX_S;
	struct rk_election *e = &watch->election;

	while (watch->elects && !e->active && !e->holder[0] && rk_monotonic_seconds() < until &&
	       !rk_cancel_raised(&watch->cancel)) {
		double wait = rk_election_wait(e);

		if (wait > 0)
			usleep((useconds_t)((wait < 0.1 ? wait : 0.1) * 1e6));
		watch_role_turn(watch);
	}
}

int watch_role_findings(const struct rk_watch *watch, struct rk_findings *findings)
{
	return watch->elects ? rk_election_findings(&watch->election, findings) : 0;
}

void watch_role_resign(struct rk_watch *watch)
{
	struct rk_mad_options once = watch->monitor.options.mad;
	struct rk_mad_queue *queue;

	if (!watch->elects || !watch->monitor.port)
		return;
	once.cancel = NULL; /* the engine's is raised by now */
	once.timeout_ms = RESIGN_TIMEOUT_MS;
	once.retries = 0;
	if (rk_mad_queue_open(watch->monitor.port, &once, &queue) != 0)
		return;
	if (rk_election_resign(&watch->election, queue) == 0)
		rk_mad_queue_run(queue, 0);
	rk_mad_queue_close(queue);
}
