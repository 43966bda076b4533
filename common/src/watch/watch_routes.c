/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The route check of the sweep job: after every discovery, every routes_interval_s, and at
 * every pass while routes break (holes, loops, dead ends), every switch's table read and every
 * route checked; the last check's findings join the fabric's at every pass, so they are raised
 * and cleared as events like the others. */
#include "watch_internal.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"
#include "rdmakit/route.h"

#include <errno.h>
#include <string.h>

/* Due on a new topology, after the interval, and at every pass while the last check found
 * routes that do not arrive (the SM's reroute is seen within a pass of its end). */
static bool routes_due(const struct rk_watch *watch, double now)
{
	return watch_check_due(watch, watch->routes_at, watch->routes_discovery,
			       watch->settings.routes_interval_s, now) ||
	       rk_findings_worst(&watch->route_findings) == RK_SEVERITY_CRITICAL;
}

bool watch_check_due(const struct rk_watch *watch, double at, unsigned discovery, double interval,
		     double now)
{
	return at == 0 || watch->monitor.discoveries != discovery || now - at >= interval;
}

/* Read the tables and check them; the findings replace the last check's (kept on failure). */
static int check_routes(struct rk_watch *watch)
{
	const struct rk_fabric_cache *m = &watch->monitor;
	struct rk_findings found = {0};
	struct rk_route_check check;
	struct rk_routes routes;
	int err = rk_routes_read(m->port, m->fabric, &m->options.mad, &routes);

	if (err)
		return err;
	err = rk_route_check(m->fabric, &routes, &check, &found);
	rk_routes_free(&routes);
	if (err) {
		rk_findings_free(&found);
		return err;
	}
	rk_route_check_free(&check);
	rk_findings_free(&watch->route_findings);
	watch->route_findings = found;
	watch->route_summary = check.summary;
	watch->routes_checked = true;
	return 0;
}

void watch_routes(struct rk_watch *watch, struct rk_findings *findings)
{
	double now = rk_monotonic_seconds();
	int err;

	if (!watch->settings.routes || !watch->monitor.fabric || !watch->monitor.port)
		return;
	if (routes_due(watch, now)) {
		err = check_routes(watch);
		watch->routes_at =
		    now; /* a failed check waits for the next interval or discovery */
		watch->routes_discovery = watch->monitor.discoveries;
		if (err && err != -ECANCELED)
			rk_log(RK_LOG_WARNING,
			       "route check failed: %s; the last one's findings stay",
			       strerror(-err));
	}
	if (rk_findings_append_all(findings, &watch->route_findings) != 0)
		rk_log(RK_LOG_ERR, "out of memory: route findings not reported");
}
