/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric and SM findings as collectd reports them: raised, and cleared. */
#include "cd_findings.h"

#include "cd_submit.h"

static const int log_levels[] = {
    [RK_SEVERITY_OK] = LOG_INFO,
    [RK_SEVERITY_WARNING] = LOG_WARNING,
    [RK_SEVERITY_CRITICAL] = LOG_ERR,
};

static const int notif_severities[] = {
    [RK_SEVERITY_OK] = NOTIF_OKAY,
    [RK_SEVERITY_WARNING] = NOTIF_WARNING,
    [RK_SEVERITY_CRITICAL] = NOTIF_FAILURE,
};

static void report_raised(const struct cd_about *about, const struct rk_event *event, bool notify)
{
	const struct rk_finding *f = &event->finding;
	const char *const meta[] = {"code",   f->code,	 "subject", f->subject,
				    "remedy", f->remedy, NULL};

	cd_log(log_levels[f->severity], "%s %s: %s; %s", f->code, f->subject, f->message,
	       f->remedy);
	if (notify && f->severity != RK_SEVERITY_OK)
		cd_notify_about(notif_severities[f->severity], about, meta, "%s", event->message);
}

static void report_cleared(const struct cd_about *about, const struct rk_event *event, bool notify)
{
	const struct rk_finding *f = &event->finding;
	const char *const meta[] = {"code", f->code, "subject", f->subject, NULL};

	cd_log(LOG_INFO, "%s %s: cleared", f->code, f->subject);
	if (notify && f->severity != RK_SEVERITY_OK)
		cd_notify_about(NOTIF_OKAY, about, meta, "%s", event->message);
}

void cd_findings_report(const char *plugin, const char *instance, const struct rk_event *event,
			bool notify)
{
	const struct cd_about about = {plugin, instance, "", event->finding.code};

	if (event->cleared)
		report_cleared(&about, event, notify);
	else
		report_raised(&about, event, notify);
}
