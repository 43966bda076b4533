/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The probe job: a round of the loopback probe on the ports chosen, from the job's own view of
 * the host, and the findings of their outcomes. */
#include "watch_internal.h"

#include "rdmakit/array.h"
#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int rk_watch_probe_add(struct rk_watch_probes *round, const char *device, unsigned port)
{
	struct rk_probe_outcome *items =
	    rk_array_room(round->items, &round->capacity, round->count, sizeof(*items), 8);

	if (!items)
		return -ENOMEM;
	round->items = items;
	memset(&items[round->count], 0, sizeof(*items));
	snprintf(items[round->count].device, sizeof(items->device), "%s", device);
	items[round->count++].port = port;
	return 0;
}

/* No choice given: every ACTIVE port of a present device. */
static int choose_active(const struct rk_host *host, struct rk_watch_probes *round)
{
	int err = 0;

	for (size_t d = 0; d < host->ndevices && !err; d++) {
		const struct rk_device *dev = &host->devices[d];

		for (unsigned p = 0; p < dev->nports && !err; p++)
			if (rk_probe_wanted(dev, &dev->ports[p]))
				err = rk_watch_probe_add(round, dev->name, dev->ports[p].num);
	}
	return err;
}

static int choose(struct rk_watch *watch)
{
	const struct rk_watch_settings *s = &watch->settings;

	if (rk_host_rescan(watch->probe_host) != 0 || rk_host_refresh(watch->probe_host) != 0)
		rk_log(RK_LOG_WARNING, "probe: reading the ports' states under %s failed",
		       s->sysfs_root);
	watch->probes.count = 0;
	return s->probe_choose ? s->probe_choose(s->probe_arg, watch->probe_host, &watch->probes)
			       : choose_active(watch->probe_host, &watch->probes);
}

int watch_probe(struct rk_watch *watch)
{
	struct watch_job *job = &watch->jobs[RK_WATCH_PROBE];
	const struct rk_event_views views = {.host_findings = &job->findings};
	int err;

	if (!job->enabled) {
		watch->probes.count = 0;
		return watch_job_forget(job);
	}
	err = choose(watch);
	if (err) {
		rk_log(RK_LOG_ERR, "out of memory: no round of probes");
		return err;
	}
	for (size_t i = 0; i < watch->probes.count; i++) {
		struct rk_probe_outcome *outcome = &watch->probes.items[i];
		char device[sizeof(outcome->device)];

		if (rk_cancel_raised(&watch->cancel))
			return -ECANCELED;
		memcpy(device, outcome->device, sizeof(device)); /* the outcome is written anew */
		rk_probe_port(device, outcome->port, RK_PROBE_DAEMON_TIMEOUT_S, outcome);
	}
	rk_findings_free(&job->findings);
	for (size_t i = 0; i < watch->probes.count; i++)
		if (rk_probe_finding(&watch->probes.items[i], &job->findings) != 0)
			rk_log(RK_LOG_ERR, "out of memory: the probe of %s:%u is not reported",
			       watch->probes.items[i].device, watch->probes.items[i].port);
	watch_job_track(job, &views);
	return 0;
}

int rk_watch_set_probe(struct rk_watch *watch, bool on)
{
	struct watch_lane *lane = &watch->lanes[WATCH_LANE_PROBE];
	int err = 0;

	/* No view yet: the lane has never run, nothing else reads it. */
	if (on && !watch->probe_host)
		err = rk_host_open(watch->settings.sysfs_root, &watch->probe_host);
	if (err)
		return err;
	pthread_mutex_lock(&watch->lock);
	watch->settings.probe = on;
	watch->jobs[RK_WATCH_PROBE].enabled = on;
	lane->next_at = rk_monotonic_seconds(); /* the next round (or the clearing) at once */
	pthread_cond_broadcast(&watch->wake);
	pthread_mutex_unlock(&watch->lock);
	return watch->started ? watch_lane_start(lane) : 0;
}
