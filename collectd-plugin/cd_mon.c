/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The plugin's watch engine, shared by the fabric, SM, tune and probe reads. */
#include "cd_mon.h"

#include "cd_probe.h"

/* FabricInterval 0 is collectd's Interval. */
static double fabric_interval(const struct cd_fabric_config *fabric)
{
	return fabric->interval > 0 ? fabric->interval : CDTIME_T_TO_DOUBLE(plugin_get_interval());
}

cdtime_t cd_mon_read_interval(const struct cd_config *config)
{
	double every = fabric_interval(&config->fabric) / CD_MON_READS_PER_PASS;

	/* with events, what they change is published at once: read it within a second */
	if (config->fabric.events && config->fabric.ports && every > CD_MON_EVENTS_READ_S)
		every = CD_MON_EVENTS_READ_S;
	return DOUBLE_TO_CDTIME_T(every);
}

cdtime_t cd_mon_pass_interval(const struct cd_config *config)
{
	return DOUBLE_TO_CDTIME_T(fabric_interval(&config->fabric));
}

static void settings_of(const struct cd_fabric_config *fabric, struct rk_watch_settings *settings)
{
	rk_watch_settings_set(settings, fabric->ca, fabric->ca_port, fabric->window,
			      fabric->timeout_ms, fabric->name_map);
	settings->rediscover_s = fabric->rediscover;
	settings->unreachable_hold_s = fabric->unreachable_hold;
	settings->helper_deadline = fabric->discovery_deadline;
	settings->interval_s = fabric_interval(fabric);
	settings->sweep = fabric->ports;
	settings->plan_path = fabric->plan;
	settings->sm = fabric->sm;
	settings->routes = fabric->routes;
	settings->routes_interval_s = fabric->routes_s;
	settings->audit = fabric->audit;
	settings->audit_interval_s = fabric->audit_s;
	settings->audit_partitions = fabric->partitions;
	settings->congestion = fabric->congestion;
	settings->events = fabric->events;
	settings->flap = fabric->flap;
	settings->elect = true; /* one active watcher per subnet (FabricRole) */
	settings->role = fabric->role;
	settings->priority = fabric->priority;
	settings->lease_s = fabric->lease;
	settings->watcher_name = hostname_g; /* collectd's Hostname */
}

static void tune_settings_of(const struct cd_tune_config *tune, struct rk_watch_settings *settings)
{
	settings->tune = tune->enabled;
	settings->tune_interval_s = tune->interval;
	settings->tune_root = tune->root;
	settings->tune_profile = tune->profile;
}

static void probe_settings_of(const struct cd_config *config, struct rk_watch_settings *settings)
{
	settings->probe = config->probe.enabled;
	settings->probe_interval_s = config->probe.interval;
	settings->sysfs_root = config->sysfs_root;
	settings->probe_choose = cd_probe_choose;
	settings->probe_arg = config;
}

int cd_mon_start(const struct cd_config *config, struct rk_watch **out)
{
	struct rk_watch_settings settings;
	int err;

	*out = NULL;
	settings_of(&config->fabric, &settings);
	tune_settings_of(&config->tune, &settings);
	probe_settings_of(config, &settings);
	err = rk_watch_new(&settings, out);
	if (!err)
		err = rk_watch_start(*out);
	if (err && *out) {
		rk_watch_stop(*out);
		*out = NULL;
	}
	return err;
}

void cd_mon_stop(struct rk_watch *watch)
{
	rk_watch_stop(watch);
}
