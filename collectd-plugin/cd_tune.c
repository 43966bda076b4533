/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tune mode: rdmakit tune's audit every TuneInterval, reported once per change. */
#include "cd_tune.h"

#include "cd_findings.h"
#include "cd_submit.h"

struct cd_tune {
	struct rk_watch *watch;
	const struct cd_config *config;
	struct rk_watch_events events; /* of the last read */
};

int cd_tune_start(struct rk_watch *watch, const struct cd_config *config, struct cd_tune **out)
{
	struct cd_tune *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->watch = watch;
	t->config = config;
	*out = t;
	return 0;
}

cdtime_t cd_tune_read_interval(const struct cd_config *config)
{
	return DOUBLE_TO_CDTIME_T(config->tune.interval / CD_MON_READS_PER_PASS);
}

/* Each finding that appeared or cleared since the last read, once; about the host, so no
 * plugin instance. */
int cd_tune_read(struct cd_tune *t)
{
	rk_watch_release(rk_watch_take(t->watch, RK_WATCH_TUNE, &t->events));
	for (size_t i = 0; i < t->events.list.count; i++)
		if (t->events.list.items[i].is_finding)
			cd_findings_report(CD_TUNE_PLUGIN, "", &t->events.list.items[i],
					   t->config->notifications);
	return 0;
}

void cd_tune_stop(struct cd_tune *t)
{
	if (!t)
		return;
	rk_watch_events_free(&t->events);
	free(t);
}
