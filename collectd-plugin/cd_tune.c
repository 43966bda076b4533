/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_tune.h"

#include "cd_findings.h"
#include "cd_submit.h"

struct cd_tune {
	const struct cd_config *config;
	struct rk_event_tracker *tracker; /* the findings of the last audit */
	struct rk_event_list events;
};

int cd_tune_start(const struct cd_config *config, struct cd_tune **out)
{
	struct cd_tune *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->config = config;
	if (rk_event_tracker_new(&t->tracker) != 0) {
		free(t);
		return -ENOMEM;
	}
	*out = t;
	return 0;
}

/* Each finding that appeared or cleared since the last audit, once; about the host, so no
 * plugin instance. */
static void report(struct cd_tune *t, const struct rk_findings *findings)
{
	const struct rk_event_views views = {.host_findings = findings};

	rk_event_list_clear(&t->events);
	if (rk_events_track(t->tracker, &views, &t->events) != 0) {
		cd_log(LOG_ERR, "out of memory: tune findings not reported");
		return;
	}
	for (size_t i = 0; i < t->events.count; i++)
		if (t->events.items[i].is_finding)
			cd_findings_report(CD_TUNE_PLUGIN, "", &t->events.items[i],
					   t->config->notifications);
}

int cd_tune_read(struct cd_tune *t)
{
	const struct cd_tune_config *tune = &t->config->tune;
	struct rk_tune_options options = {.root = tune->root ? tune->root : "/",
					  .profile = tune->profile};
	struct rk_tune_audit audit = {0};
	int err = rk_tune_audit_host(&options, &audit, NULL);

	if (err)
		cd_log(LOG_ERR, "tune audit of %s failed: %s", options.root, strerror(-err));
	else
		report(t, &audit.findings);
	rk_tune_audit_free(&audit);
	return err ? -1 : 0;
}

void cd_tune_stop(struct cd_tune *t)
{
	if (!t)
		return;
	rk_event_list_free(&t->events);
	rk_event_tracker_free(t->tracker);
	free(t);
}
