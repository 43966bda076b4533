/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The refresh thread: reads the host, builds snapshots, tracks the core's events. */
#include "ak_refresh.h"

#include "rdmakit/array.h"
#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define AK_REFRESH_NICE 10

/* The events that become traps (rdmakitNotifications). */
static bool is_trap(const struct rk_event *event)
{
	return event->is_finding || event->kind == RK_EVENT_PORT_STATE ||
	       event->kind == RK_EVENT_SM_MASTER_CHANGED;
}

static bool clears_finding(const struct rk_event *event)
{
	return event->is_finding && event->cleared;
}

/* The watch's changes after the host's events; what it found at its first pass is no trap. */
static void append_changes(struct rk_event_list *events, const struct rk_watch_events *batch)
{
	for (size_t i = batch->at_start; i < batch->list.count; i++) {
		struct rk_event *items = rk_array_room(events->items, &events->capacity,
						       events->count, sizeof(*items), 16);

		if (!items) {
			rk_log(RK_LOG_ERR, "tracking fabric events ran out of memory");
			return;
		}
		events->items = items;
		events->items[events->count++] = batch->list.items[i];
	}
}

/* The findings summary counts every finding event of a batch, the first pass's too. */
static void count_events(struct ak_build_state *state, const struct rk_watch_events *batch)
{
	for (size_t i = 0; i < batch->list.count; i++)
		ak_build_count_event(state, &batch->list.items[i]);
}

/* The changes of the host's pass, then the fabric's, the SMs' and the tune audit's the watch
 * engine tracked. */
static void collect_events(struct ak_refresher *refresher)
{
	rk_event_list_clear(&refresher->events);
	append_changes(&refresher->events, &refresher->host_events);
	count_events(&refresher->build, &refresher->host_events);
	for (int j = 0; j < RK_WATCH_JOBS; j++) {
		append_changes(&refresher->events, &refresher->fabric->events[j]);
		count_events(&refresher->build, &refresher->fabric->events[j]);
	}
}

/* The host device and port a finding is about: its subject is the device ("mlx5_0") or one
 * of its ports ("mlx5_0:1"); else no device, and the fabric port it names, if any. */
static void locate_finding(const struct rk_finding *finding, struct ak_trap *trap)
{
	snprintf(trap->device, sizeof(trap->device), "%s", finding->device);
	trap->port = finding->port > 0 ? (unsigned)finding->port : 0;
}

/* A trap for an event, with the indexes of its objects; false when it is not one. */
static bool trap_of(struct ak_refresher *refresher, const struct rk_event *event,
		    struct ak_trap *trap)
{
	if (!is_trap(event))
		return false;
	memset(trap, 0, sizeof(*trap));
	trap->event = *event;
	trap->cleared = clears_finding(event);
	if (event->is_finding) {
		trap->finding_index = ak_build_finding_index(&refresher->build, &event->finding);
		locate_finding(&event->finding, trap);
	} else {
		snprintf(trap->device, sizeof(trap->device), "%s", event->device);
		trap->port = event->on_port ? event->port : 0;
	}
	for (size_t d = 0; d < refresher->host->ndevices; d++)
		if (strcmp(refresher->host->devices[d].name, event->device) == 0) {
			trap->device_index =
			    ak_index_map_device(&refresher->build.indexes, event->device);
			ak_parse_hex_bytes(refresher->host->devices[d].node_guid, trap->node_guid,
					   sizeof(trap->node_guid));
			snprintf(trap->node_guid_text, sizeof(trap->node_guid_text), "%s",
				 refresher->host->devices[d].node_guid);
		}
	return true;
}

/* Cleared findings take their row index from before the build, raised ones from after. */
static void post_traps(struct ak_refresher *refresher, bool cleared)
{
	struct ak_trap trap;

	for (size_t i = 0; i < refresher->events.count; i++) {
		const struct rk_event *event = &refresher->events.items[i];

		if (clears_finding(event) == cleared && trap_of(refresher, event, &trap))
			ak_mailbox_post_trap(refresher->box, &trap);
	}
}

/* The fabric's, the SMs', the tune audit's and the probe's findings of the watch's last passes. */
static void watch_findings(const struct ak_fabric_watch *fabric, const struct rk_findings *out[4])
{
	static const struct rk_findings none;

	out[0] = fabric->snap ? &fabric->snap->fabric_findings : &none;
	out[1] = fabric->snap ? &fabric->snap->sm_findings : &none;
	out[2] = fabric->snap ? &fabric->snap->tune_findings : &none;
	out[3] = fabric->snap ? &fabric->snap->probe_findings : &none;
}

/* Every finding now active: the host's, the fabric's, the SMs', the last tune audit's and the
 * last round of probes'. */
static int all_findings(const struct rk_findings *host, const struct ak_refresher *refresher,
			struct rk_findings *out)
{
	const struct rk_findings *parts[5] = {host};
	int err = 0;

	watch_findings(refresher->fabric, &parts[1]);
	for (size_t p = 0; p < 5 && !err; p++)
		err = rk_findings_append_all(out, parts[p]);
	rk_findings_sort(out);
	return err;
}

/* The SM and fabric tables, built again only after a sweep. */
static int build_fabric_part(struct ak_refresher *refresher)
{
	struct ak_snapshot *part = ak_snapshot_new();
	int err =
	    part ? ak_build_fabric(refresher->fabric, refresher->build.started_at, part) : -ENOMEM;

	if (!err && ak_snapshot_seal(part) > 0)
		rk_log(RK_LOG_WARNING, "fabric rows with the same GUID and port were dropped");
	if (err) {
		ak_snapshot_free(part);
		return err;
	}
	ak_snapshot_free(refresher->fabric_part);
	refresher->fabric_part = part;
	return 0;
}

static int build(struct ak_refresher *refresher, const struct rk_findings *findings,
		 const struct ak_refresh_stats *stats, bool polled, struct ak_snapshot **out)
{
	static const struct rk_watch_probes none;
	const struct rk_watch_snapshot *snap = refresher->fabric->snap;
	struct rk_findings all = {0};
	int err = all_findings(findings, refresher, &all);

	if (!err && polled)
		err = build_fabric_part(refresher);
	if (!err)
		err = ak_build_host(&refresher->build, refresher->host, &all, stats, out);
	if (!err)
		err = ak_probe_fill(snap ? &snap->probes : &none, &(*out)->tables[AK_T_PORT]);
	if (!err && ak_snapshot_seal(*out) > 0)
		rk_log(RK_LOG_WARNING, "rows with the same index were dropped");
	if (!err && refresher->fabric_part)
		(*out)->fabric = ak_snapshot_hold(refresher->fabric_part);
	if (err && *out) {
		ak_snapshot_free(*out);
		*out = NULL;
	}
	rk_findings_free(&all);
	return err;
}

/* When and how long the watch's last pass was, and how many failed. */
static void fabric_stats(const struct ak_fabric_watch *fabric, struct ak_refresh_stats *stats)
{
	const struct rk_watch_snapshot *snap = fabric->snap;

	stats->fabric = fabric->ports || fabric->sm;
	stats->modes = ak_fabric_modes(fabric);
	if (!snap)
		return;
	stats->fabric_swept_at = (uint32_t)snap->passed_at;
	stats->fabric_duration_ms = (uint32_t)lround(snap->pass_seconds * 1000);
	stats->fabric_errors = snap->failures;
}

static void refresh_once(struct ak_refresher *refresher)
{
	struct rk_health_options health;
	struct rk_findings findings = {0};
	struct ak_refresh_stats stats = {0};
	struct ak_snapshot *snapshot = NULL;
	double started = rk_monotonic_seconds();
	bool polled;
	int err;

	ak_mailbox_free_retired(refresher->box);
	pthread_mutex_lock(&refresher->lock);
	health = refresher->health;
	pthread_mutex_unlock(&refresher->lock);
	if (rk_watch_host_pass(refresher->host_watch, refresher->host, &health, &findings,
			       &refresher->host_events) != 0)
		refresher->errors++;
	stats.refreshed_at = (uint32_t)time(NULL);
	stats.duration_ms = (uint32_t)lround((rk_monotonic_seconds() - started) * 1000);
	stats.errors = refresher->errors;
	polled = ak_fabric_poll(refresher->fabric);
	fabric_stats(refresher->fabric, &stats);
	collect_events(refresher);
	post_traps(refresher, true);
	err = build(refresher, &findings, &stats, polled, &snapshot);
	if (err)
		rk_log(RK_LOG_ERR, "building a snapshot failed: %s", strerror(-err));
	else
		ak_mailbox_post_snapshot(refresher->box, snapshot);
	post_traps(refresher, false);
	rk_findings_free(&findings);
}

/* Sleep for the interval, or until fabric events or a stop wake it; false when stopping. */
static bool wait_interval(struct ak_refresher *refresher)
{
	bool stop;

	pthread_mutex_lock(&refresher->lock);
	rk_monotonic_wait(&refresher->wake, &refresher->lock, &refresher->wake_now,
			  rk_monotonic_seconds() + refresher->interval);
	refresher->wake_now = false;
	stop = refresher->stop;
	pthread_mutex_unlock(&refresher->lock);
	return !stop;
}

/* The engine published findings fabric events changed: their traps go now, not at the next
 * refresh. */
static void wake_for_events(void *arg)
{
	struct ak_refresher *refresher = arg;

	pthread_mutex_lock(&refresher->lock);
	refresher->wake_now = true;
	pthread_cond_signal(&refresher->wake);
	pthread_mutex_unlock(&refresher->lock);
}

static void *run(void *arg)
{
	struct ak_refresher *refresher = arg;

	/* Below the AgentX thread: a refresh yields the CPU to requests. Linux takes a thread's
	 * ID for a per-thread nice value. */
	if (setpriority(PRIO_PROCESS, (id_t)gettid(), AK_REFRESH_NICE) != 0)
		rk_log(RK_LOG_INFO, "refresh thread keeps its priority: %s", strerror(errno));

	while (wait_interval(refresher))
		refresh_once(refresher);
	return NULL;
}

int ak_refresher_init(struct ak_refresher *refresher, struct ak_mailbox *box, struct rk_host *host,
		      struct ak_fabric_watch *fabric, double interval,
		      const struct rk_health_options *health, const char *state_dir)
{
	int err;

	memset(refresher, 0, sizeof(*refresher));
	err = ak_index_map_load(&refresher->build.indexes, state_dir);
	if (err)
		return err;
	refresher->box = box;
	refresher->host = host;
	refresher->fabric = fabric;
	refresher->interval = interval;
	refresher->health = *health;
	refresher->build.started_at = rk_monotonic_seconds();
	err = rk_watch_host_new(0, &refresher->host_watch);
	if (err) {
		ak_index_map_free(&refresher->build.indexes);
		return err;
	}
	err = rk_monotonic_sync_init(&refresher->lock, &refresher->wake);
	if (err) {
		rk_watch_host_free(refresher->host_watch);
		ak_index_map_free(&refresher->build.indexes);
		return err;
	}
	ak_fabric_run_once(fabric);
	refresh_once(refresher);
	return 0;
}

int ak_refresher_start(struct ak_refresher *refresher)
{
	int err;

	if (refresher->fabric->watch)
		rk_watch_on_events(refresher->fabric->watch, wake_for_events, refresher);
	err = ak_fabric_start(refresher->fabric);

	if (err)
		return err;
	err = pthread_create(&refresher->thread, NULL, run, refresher);
	if (err)
		return -err;
	refresher->running = true;
	return 0;
}

void ak_refresher_update(struct ak_refresher *refresher, double interval,
			 const struct rk_health_options *health)
{
	pthread_mutex_lock(&refresher->lock);
	refresher->interval = interval;
	refresher->health = *health;
	pthread_mutex_unlock(&refresher->lock);
}

void ak_refresher_stop(struct ak_refresher *refresher)
{
	if (refresher->running) {
		pthread_mutex_lock(&refresher->lock);
		refresher->stop = refresher->wake_now = true;
		pthread_cond_signal(&refresher->wake);
		pthread_mutex_unlock(&refresher->lock);
		pthread_join(refresher->thread, NULL);
		refresher->running = false;
	}
	pthread_cond_destroy(&refresher->wake);
	pthread_mutex_destroy(&refresher->lock);
	rk_watch_host_free(refresher->host_watch);
	rk_watch_events_free(&refresher->host_events);
	rk_event_list_free(&refresher->events);
	ak_build_state_free(&refresher->build);
	ak_snapshot_free(refresher->fabric_part);
	refresher->fabric_part = NULL;
}
