/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The host's pass: a rescan when due, the refresh, the health rules, and the events since the
 * last pass, tracked as the engine's jobs track theirs. */
#include "watch_internal.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct rk_watch_host {
	struct watch_job job;
	double rescan_s;
	double last_rescan; /* monotonic seconds */
};

int rk_watch_host_new(double rescan_s, struct rk_watch_host **out)
{
	struct rk_watch_host *watch = calloc(1, sizeof(*watch));

	if (!watch || rk_event_tracker_new(&watch->job.tracker) != 0) {
		free(watch);
		return -ENOMEM;
	}
	watch->job.enabled = true;
	watch->job.what = "host";
	watch->rescan_s = rescan_s;
	watch->last_rescan = rk_monotonic_seconds(); /* opening the host looked */
	*out = watch;
	return 0;
}

void rk_watch_host_free(struct rk_watch_host *watch)
{
	if (!watch)
		return;
	rk_event_tracker_free(watch->job.tracker);
	rk_watch_events_free(&watch->job.found);
	rk_watch_events_free(&watch->job.pending);
	free(watch);
}

/* Look for new devices when the period is over, and for vanished ones at every pass. */
static int rescan_when_due(struct rk_watch_host *watch, struct rk_host *host)
{
	double now = rk_monotonic_seconds();
	bool vanished = false;

	for (size_t i = 0; i < host->ndevices && !vanished; i++)
		vanished = host->devices[i].vanished;
	if (!vanished && watch->rescan_s > 0 && now - watch->last_rescan < watch->rescan_s)
		return 0;
	watch->last_rescan = now;
	return rk_host_rescan(host);
}

static int read_host(struct rk_watch_host *watch, struct rk_host *host)
{
	int err = rescan_when_due(watch, host);
	int refreshed = rk_host_refresh(host); /* the devices it has, also when the rescan failed */

	err = err ? err : refreshed;
	if (err)
		rk_log(RK_LOG_ERR, "reading the host failed: %s", strerror(-err));
	return err;
}

static void check(const struct rk_host *host, const struct rk_health_options *health,
		  struct rk_findings *findings)
{
	rk_findings_free(findings);
	if (rk_health_check_host(host, health, findings) != 0)
		rk_log(RK_LOG_ERR, "checking the host's health ran out of memory");
	rk_findings_sort(findings);
}

int rk_watch_host_pass(struct rk_watch_host *watch, struct rk_host *host,
		       const struct rk_health_options *health, struct rk_findings *findings,
		       struct rk_watch_events *events)
{
	struct rk_event_views views = {.host = host, .host_findings = health ? findings : NULL};
	int err = read_host(watch, host);

	if (health)
		check(host, health, findings);
	if (!err) {
		watch_job_track(&watch->job, &views);
		watch_job_hand_over(&watch->job);
	}
	watch_job_take(&watch->job, events);
	return err;
}
