#include "rdmakit/monitor.h"

#include "clock.h"
#include "rdmakit/log.h"

#include <string.h>

void rk_monitor_init(struct rk_monitor *monitor, const struct rk_monitor_options *options)
{
	memset(monitor, 0, sizeof(*monitor));
	monitor->options = *options;
}

/* libibnetdisc opens its own umad port: ours must be closed while it runs. */
static void close_port(struct rk_monitor *monitor)
{
	rk_mad_port_close(monitor->port);
	monitor->port = NULL;
}

static int open_port(struct rk_monitor *monitor)
{
	if (monitor->port)
		return 0;
	return rk_mad_port_open(monitor->options.fabric.ca, monitor->options.fabric.port,
				&monitor->port);
}

int rk_monitor_discover(struct rk_monitor *monitor)
{
	struct rk_fabric *fabric;
	int err;

	close_port(monitor);
	err = rk_fabric_discover(&monitor->options.fabric, &fabric);
	if (err)
		return err;
	rk_fabric_free(monitor->prev_fabric);
	monitor->prev_fabric = monitor->fabric;
	monitor->fabric = fabric;
	monitor->discovered_at = rk_monotonic_seconds();
	monitor->discoveries++;
	err = rk_sweep_prepare(&monitor->sweep, fabric);
	return err ? err : open_port(monitor);
}

static bool rediscovery_due(const struct rk_monitor *monitor)
{
	double period = monitor->options.rediscover_seconds;

	if (!monitor->fabric || monitor->sweep.topology_stale)
		return true;
	return period > 0 && rk_monotonic_seconds() - monitor->discovered_at >= period;
}

int rk_monitor_sweep(struct rk_monitor *monitor, rk_sweep_progress_fn progress, void *ctx)
{
	int err = 0;

	if (rediscovery_due(monitor)) {
		if (monitor->sweep.topology_stale)
			rk_log(RK_LOG_INFO, "the fabric changed (ports stopped answering or came "
					    "up): rediscovering it");
		err = rk_monitor_discover(monitor);
	}
	if (!err)
		err = open_port(monitor);
	if (!err)
		err = rk_sweep_run(monitor->port, monitor->fabric, &monitor->sweep,
				   &monitor->options.mad, progress, ctx);
	return err;
}

int rk_monitor_query_sm(struct rk_monitor *monitor)
{
	struct rk_sm_status status;
	int err = monitor->fabric ? open_port(monitor) : rk_monitor_discover(monitor);

	if (!err)
		err = rk_sm_query(monitor->port, monitor->fabric, &monitor->options.mad, &status);
	if (err)
		return err;
	rk_sm_status_free(&monitor->prev_sm);
	monitor->prev_sm = monitor->sm;
	monitor->sm = status;
	return 0;
}

void rk_monitor_close(struct rk_monitor *monitor)
{
	close_port(monitor);
	rk_fabric_free(monitor->fabric);
	rk_fabric_free(monitor->prev_fabric);
	rk_sweep_free(&monitor->sweep);
	rk_sm_status_free(&monitor->sm);
	rk_sm_status_free(&monitor->prev_sm);
	memset(monitor, 0, sizeof(*monitor));
}
