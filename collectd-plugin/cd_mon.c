/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_mon.h"

#include "cd_submit.h"

static void monitor_options(const struct cd_fabric_config *fabric, const struct rk_name_map *names,
			    struct rk_monitor_options *options)
{
	rk_monitor_options_set(options, fabric->ca, fabric->ca_port, fabric->window,
			       fabric->timeout_ms, names);
	options->rediscover_seconds = fabric->rediscover;
	options->discover_in_helper = true; /* a daemon: no leak may build up */
}

int cd_mon_start(const struct cd_config *config, struct cd_mon **out)
{
	struct cd_mon *mon = calloc(1, sizeof(*mon));
	struct rk_monitor_options options;
	int err;

	if (!mon)
		return -ENOMEM;
	if (config->fabric.name_map) {
		err = rk_name_map_load(config->fabric.name_map, &mon->names);
		if (err) {
			free(mon);
			return err;
		}
	}
	err = rk_event_tracker_new(&mon->tracker);
	if (!err)
		err = -pthread_mutex_init(&mon->lock, NULL);
	if (err) {
		rk_event_tracker_free(mon->tracker);
		rk_name_map_free(mon->names);
		free(mon);
		return err;
	}
	mon->config = config;
	monitor_options(&config->fabric, mon->names, &options);
	rk_monitor_init(&mon->monitor, &options);
	*out = mon;
	return 0;
}

bool cd_retry_skip(struct cd_retry *retry)
{
	if (retry->skip == 0)
		return false;
	retry->skip--;
	return true;
}

void cd_retry_outcome(struct cd_retry *retry, int err, const char *what)
{
	if (err && !retry->wait)
		cd_log(LOG_ERR,
		       "%s failed: %s; trying again after 1, 2, 4, ... intervals (at most %u)",
		       what, strerror(-err), CD_RETRY_MAX);
	else if (!err && retry->wait)
		cd_log(LOG_INFO, "%s works again", what);
	if (!err)
		retry->wait = 0;
	else
		retry->wait = retry->wait ? retry->wait * 2 : 1;
	if (retry->wait > CD_RETRY_MAX)
		retry->wait = CD_RETRY_MAX;
	retry->skip = retry->wait;
}

void cd_mon_events(struct cd_mon *mon, const struct rk_event_views *views,
		   void (*report)(const struct rk_event *event, void *ctx), void *ctx)
{
	rk_event_list_clear(&mon->events);
	if (rk_events_track(mon->tracker, views, &mon->events) != 0)
		cd_log(LOG_ERR, "out of memory: fabric and SM events not reported");
	for (size_t i = 0; i < mon->events.count; i++)
		report(&mon->events.items[i], ctx);
}

void cd_mon_stop(struct cd_mon *mon)
{
	if (!mon)
		return;
	rk_event_tracker_free(mon->tracker);
	rk_event_list_free(&mon->events);
	rk_monitor_close(&mon->monitor);
	rk_name_map_free(mon->names);
	pthread_mutex_destroy(&mon->lock);
	free(mon);
}
