/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The fabric audit of the sweep job: after every discovery and every audit_interval_s, the
 * checks of rdmakit audit (the partitions file read afresh each time); the last audit's
 * findings join the fabric's at every pass, so they are raised and cleared as events like the
 * others. */
#include "watch_internal.h"

#include "rdmakit/audit.h"
#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <string.h>

/* Audit the fabric; the findings replace the last audit's (kept on failure). */
static int run_audit(struct rk_watch *watch)
{
	const struct rk_fabric_cache *m = &watch->monitor;
	const char *path = watch->settings.audit_partitions;
	struct rk_partitions partitions = {0};
	struct rk_findings found = {0};
	int err = path ? rk_partitions_load(path, &partitions, NULL) : 0;

	if (!err)
		err = rk_audit_run(m->port, m->fabric, &m->options.mad, path ? &partitions : NULL,
				   &found, NULL);
	rk_partitions_free(&partitions);
	if (err) {
		rk_findings_free(&found);
		return err;
	}
	rk_findings_free(&watch->audit_findings);
	watch->audit_findings = found;
	watch->audit_critical = watch->audit_warning = 0;
	for (size_t i = 0; i < found.count; i++) {
		watch->audit_critical += found.items[i].severity == RK_SEVERITY_CRITICAL;
		watch->audit_warning += found.items[i].severity == RK_SEVERITY_WARNING;
	}
	watch->audited = true;
	return 0;
}

void watch_fabric_audit(struct rk_watch *watch, struct rk_findings *findings)
{
	double now = rk_monotonic_seconds();
	int err;

	if (!watch->settings.audit || !watch->monitor.fabric || !watch->monitor.port)
		return;
	if (watch_check_due(watch, watch->audit_at, watch->audit_discovery,
			    watch->settings.audit_interval_s, now)) {
		err = run_audit(watch);
		watch->audit_at = now; /* a failed audit waits for the next interval or discovery */
		watch->audit_discovery = watch->monitor.discoveries;
		if (err && err != -ECANCELED)
			rk_log(RK_LOG_WARNING,
			       "fabric audit failed: %s; the last one's findings stay",
			       strerror(-err));
	}
	if (rk_findings_append_all(findings, &watch->audit_findings) != 0)
		rk_log(RK_LOG_ERR, "out of memory: audit findings not reported");
}
