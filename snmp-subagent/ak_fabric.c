/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "ak_fabric.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

int ak_fabric_open(struct ak_fabric_watch *watch, const struct ak_config *config)
{
	struct rk_monitor_options options;
	int err;

	memset(watch, 0, sizeof(*watch));
	watch->ports = config->fabric;
	watch->sm = config->sm;
	watch->interval = config->fabric_interval;
	if (!watch->ports && !watch->sm)
		return 0;
	if (config->node_name_map) {
		err = rk_name_map_load(config->node_name_map, &watch->names);
		if (err)
			return err;
	}
	rk_monitor_options_set(&options, config->ca, config->ca_port, config->window,
			       config->timeout_ms, watch->names);
	options.rediscover_seconds = config->rediscover;
	options.discover_in_helper = true; /* a daemon: no discovery leak may build up */
	rk_monitor_init(&watch->monitor, &options);
	return 0;
}

static int check(struct ak_fabric_watch *watch)
{
	const struct rk_monitor *m = &watch->monitor;
	int err = 0;

	rk_findings_free(&watch->fabric_findings);
	rk_findings_free(&watch->sm_findings);
	if (watch->ports && m->fabric) {
		err = rk_health_check_fabric(m->prev_fabric, m->fabric, &watch->fabric_findings);
		if (!err)
			err = rk_health_check_sweep(m->fabric, &m->sweep, &watch->fabric_findings);
	}
	if (!err && watch->sm)
		err = rk_health_check_sm(&m->prev_sm, &m->sm, &watch->sm_findings);
	return err;
}

bool ak_fabric_poll(struct ak_fabric_watch *watch)
{
	double started = rk_monotonic_seconds();
	int err = 0;

	if ((!watch->ports && !watch->sm) || started < watch->next_at)
		return false;
	watch->next_at = started + watch->interval;
	if (watch->ports)
		err = rk_monitor_sweep(&watch->monitor, NULL, NULL);
	if (!err && watch->sm)
		err = rk_monitor_query_sm(&watch->monitor);
	if (err) {
		rk_log(RK_LOG_ERR,
		       watch->ports ? "fabric sweep failed: %s" : "fabric SM query failed: %s",
		       strerror(-err));
		watch->errors++;
		return false;
	}
	if (check(watch) != 0)
		rk_log(RK_LOG_ERR, "checking the fabric ran out of memory");
	watch->swept_at = (uint32_t)time(NULL);
	watch->duration_ms = (uint32_t)lround((rk_monotonic_seconds() - started) * 1000);
	watch->polled = true;
	return true;
}

void ak_fabric_close(struct ak_fabric_watch *watch)
{
	if (watch->ports || watch->sm)
		rk_monitor_close(&watch->monitor);
	rk_name_map_free(watch->names);
	rk_findings_free(&watch->fabric_findings);
	rk_findings_free(&watch->sm_findings);
}
