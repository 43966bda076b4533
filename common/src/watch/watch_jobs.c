/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The watch's jobs: a sweep or an SM query on the monitor, the health rules on what it saw,
 * the events since the last pass, and the back-off after failures. */
#include "watch_internal.h"

#include "rdmakit/array.h"
#include "rdmakit/clock.h"
#include "rdmakit/health.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <string.h>

bool watch_job_skip(struct watch_job *job)
{
	if (job->skip == 0)
		return false;
	job->skip--;
	return true;
}

void watch_job_outcome(struct watch_job *job, int err)
{
	if (err && !job->wait)
		rk_log(RK_LOG_ERR,
		       "%s failed: %s; trying again after 1, 2, 4, ... intervals (at most %u)",
		       job->what, strerror(-err), RK_WATCH_RETRY_MAX);
	else if (!err && job->wait)
		rk_log(RK_LOG_INFO, "%s works again", job->what);
	if (!err)
		job->wait = 0;
	else
		job->wait = job->wait ? job->wait * 2 : 1;
	if (job->wait > RK_WATCH_RETRY_MAX)
		job->wait = RK_WATCH_RETRY_MAX;
	job->skip = job->wait;
}

void watch_job_track(struct watch_job *job, const struct rk_event_views *views)
{
	struct rk_event_list *found = &job->found.list;
	size_t before = found->count;
	int err = rk_events_track(job->tracker, views, found);

	if (err) {
		rk_log(RK_LOG_ERR, "tracking the %s's events failed: %s", job->what,
		       strerror(-err));
		found->count = before; /* none of a pass that failed half way */
		return;
	}
	if (!job->primed)
		job->found.at_start += found->count - before;
	job->primed = true;
}

int watch_job_forget(struct watch_job *job)
{
	struct rk_event_views views = {.host_findings = &job->findings};
	size_t count = job->findings.count;

	rk_findings_free(&job->findings);
	watch_job_track(job, &views);
	rk_log(RK_LOG_INFO, "%s turned off: its %zu findings are cleared", job->what, count);
	return 0;
}

void watch_job_hand_over(struct watch_job *job)
{
	struct rk_event_list *pending = &job->pending.list;
	const struct rk_event_list *found = &job->found.list;

	for (size_t i = 0; i < found->count; i++) {
		struct rk_event *items = rk_array_room(pending->items, &pending->capacity,
						       pending->count, sizeof(*items), 16);

		if (!items) {
			rk_log(RK_LOG_ERR, "out of memory: %s events not reported", job->what);
			break;
		}
		pending->items = items;
		pending->items[pending->count++] = found->items[i];
		if (i < job->found.at_start)
			job->pending.at_start++;
	}
	rk_watch_events_clear(&job->found);
}

void watch_job_take(struct watch_job *job, struct rk_watch_events *events)
{
	struct rk_watch_events mine = job->pending;

	rk_watch_events_clear(events);
	job->pending =
	    *events; /* the queue's storage is the taker's now, and the other way round */
	*events = mine;
}

static int check_fabric(struct rk_watch *watch, struct rk_findings *findings)
{
	int err = rk_health_check_monitor(&watch->monitor, findings);

	return err ? err : watch_plan_check(watch, findings);
}

int watch_sweep(struct rk_watch *watch)
{
	struct watch_job *job = &watch->jobs[RK_WATCH_SWEEP];
	double start = rk_monotonic_seconds();
	struct rk_event_views views = {.fabric_findings = &job->findings};
	int err = rk_fabric_cache_sweep(&watch->monitor, NULL, NULL);

	watch->sweep_seconds = rk_monotonic_seconds() - start;
	if (err)
		return err;
	watch_events_swept(watch);
	rk_findings_free(&watch->sweep_findings);
	if (check_fabric(watch, &watch->sweep_findings) != 0) {
		rk_log(RK_LOG_ERR, "out of memory: fabric findings not reported");
		rk_findings_free(&watch->sweep_findings);
		return 0;
	}
	watch_routes(watch, &watch->sweep_findings);
	watch_fabric_audit(watch, &watch->sweep_findings);
	if (watch_fabric_findings(watch, &job->findings) != 0) {
		rk_log(RK_LOG_ERR, "out of memory: fabric findings not reported");
		return 0;
	}
	watch_job_track(job, &views);
	return 0;
}

int watch_query_sm(struct rk_watch *watch)
{
	struct watch_job *job = &watch->jobs[RK_WATCH_SM];
	const struct rk_fabric_cache *m = &watch->monitor;
	struct rk_event_views views = {.sm = &m->sm, .sm_findings = &job->findings};
	int err = rk_fabric_cache_query_sm(&watch->monitor);

	if (err)
		return err;
	rk_findings_free(&job->findings);
	if (rk_health_check_sm(&m->prev_sm, &m->sm, &job->findings) != 0) {
		rk_log(RK_LOG_ERR, "out of memory: SM findings not reported");
		rk_findings_free(&job->findings);
		views.sm_findings = NULL;
	}
	watch_job_track(job, &views);
	return 0;
}
