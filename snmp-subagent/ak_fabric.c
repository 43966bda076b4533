/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric, SM, tune and probe mode: the core's watch engine, and its tables. */
#include "ak_fabric.h"

#include "ak_oid.h"

#include <string.h>

/* Below the AgentX thread: a pass (and the discovery helper it starts) yields the CPU. */
#define AK_WATCH_NICE 10

static void settings_of(const struct ak_config *config, struct rk_watch_settings *settings)
{
	rk_watch_settings_set(settings, config->ca, config->ca_port, config->window,
			      config->timeout_ms, config->node_name_map);
	settings->rediscover_s = config->rediscover;
	settings->unreachable_hold_s = config->unreachable_hold;
	settings->helper_deadline = config->discovery_deadline;
	settings->interval_s = config->fabric_interval;
	settings->sweep = config->fabric;
	settings->plan_path = config->plan;
	settings->sm = config->sm;
	settings->routes = config->routes;
	settings->routes_interval_s = config->routes_interval;
	settings->audit = config->audit;
	settings->audit_interval_s = config->audit_interval;
	settings->audit_partitions = config->audit_partitions;
	settings->congestion = config->congestion;
	settings->events = config->events;
	settings->flap = config->flap;
	settings->elect = true; /* one active watcher per subnet (fabric-role) */
	settings->role = config->role;
	settings->priority = config->priority;
	settings->lease_s = config->lease;
	settings->nice = AK_WATCH_NICE;
	settings->probe = config->probe.enabled;
	settings->probe_interval_s = config->probe.interval;
	settings->sysfs_root = config->sysfs_root;
	ak_tune_settings(config, settings);
}

int ak_fabric_open(struct ak_fabric_watch *watch, const struct ak_config *config)
{
	struct rk_watch_settings settings;

	memset(watch, 0, sizeof(*watch));
	watch->ports = config->fabric;
	watch->audit = config->fabric && config->audit;
	watch->sm = config->sm;
	watch->tune = config->tune;
	watch->probe = config->probe.enabled;
	settings_of(config, &settings);
	return rk_watch_new(&settings, &watch->watch);
}

unsigned ak_fabric_modes(const struct ak_fabric_watch *watch)
{
	return AK_MODE_HOST | (watch->ports ? AK_MODE_FABRIC : 0u) | (watch->sm ? AK_MODE_SM : 0u) |
	       (watch->tune ? AK_MODE_TUNE : 0u) | (watch->probe ? AK_MODE_PROBE : 0u) |
	       (watch->audit ? AK_MODE_AUDIT : 0u);
}

void ak_fabric_run_once(struct ak_fabric_watch *watch)
{
	rk_watch_run_once(watch->watch);
}

int ak_fabric_start(struct ak_fabric_watch *watch)
{
	return rk_watch_start(watch->watch);
}

void ak_fabric_update(struct ak_fabric_watch *watch, const struct ak_config *config)
{
	rk_watch_set_interval(watch->watch, RK_WATCH_SWEEP, config->fabric_interval);
	rk_watch_set_interval(watch->watch, RK_WATCH_PROBE, config->probe.interval);
	rk_watch_set_interval(watch->watch, RK_WATCH_TUNE, config->tune_interval);
}

int ak_fabric_retune(struct ak_fabric_watch *watch, const struct ak_config *config)
{
	int err =
	    rk_watch_set_tune(watch->watch, config->tune, config->tune_root, config->tune_profile);

	if (!err)
		watch->tune = config->tune;
	return err;
}

int ak_fabric_replan(struct ak_fabric_watch *watch, const struct ak_config *config)
{
	return rk_watch_set_plan(watch->watch, config->plan);
}

int ak_fabric_reprobe(struct ak_fabric_watch *watch, const struct ak_config *config)
{
	int err = rk_watch_set_probe(watch->watch, config->probe.enabled);

	if (!err)
		watch->probe = config->probe.enabled;
	return err;
}

static unsigned long passes_of(const struct rk_watch_snapshot *snap)
{
	return snap ? snap->passes[RK_WATCH_SWEEP] + snap->passes[RK_WATCH_SM] +
			  snap->election_changes
		    : 0;
}

bool ak_fabric_poll(struct ak_fabric_watch *watch)
{
	struct rk_watch_snapshot *snap = NULL;

	for (int j = 0; j < RK_WATCH_JOBS; j++) {
		rk_watch_release(snap); /* the same one again, with the next job's events */
		snap = rk_watch_take(watch->watch, (enum rk_watch_job)j, &watch->events[j]);
	}
	rk_watch_release(watch->snap);
	watch->snap = snap;
	if (passes_of(snap) == watch->built)
		return false;
	watch->built = passes_of(snap);
	watch->polled = true;
	return true;
}

void ak_fabric_close(struct ak_fabric_watch *watch)
{
	rk_watch_release(watch->snap);
	watch->snap = NULL;
	for (int j = 0; j < RK_WATCH_JOBS; j++)
		rk_watch_events_free(&watch->events[j]);
	rk_watch_stop(watch->watch);
	watch->watch = NULL;
}
