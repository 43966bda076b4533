/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* SM mode: the subnet managers' status, the master's changes and the SM findings. */
#include "cd_sm.h"

#include "cd_fabric_values.h"
#include "cd_findings.h"
#include "cd_mon.h"
#include "cd_submit.h"

#include <math.h>

struct cd_sm {
	struct rk_watch *watch;
	const struct cd_config *config;
	unsigned long sent;	       /* the SM queries sent so far */
	struct rk_watch_events events; /* of the last read */
};

int cd_sm_start(struct rk_watch *watch, const struct cd_config *config, struct cd_sm **out)
{
	struct cd_sm *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->watch = watch;
	s->config = config;
	*out = s;
	return 0;
}

void cd_sm_stop(struct cd_sm *s)
{
	if (!s)
		return;
	rk_watch_events_free(&s->events);
	free(s);
}

static void send_facts(const struct rk_sm_status *status, cdtime_t now, cdtime_t interval)
{
	size_t count;
	const struct cd_fact *facts = cd_fact_list(RK_SCOPE_SM, &count);
	double values[RK_FACT_COUNT];
	struct cd_batch batch;

	rk_sm_fact_values(status, values);
	cd_batch_begin_plugin(&batch, CD_SM_PLUGIN, "", now, interval);
	for (size_t i = 0; i < count; i++) {
		double value = values[facts[i].fact];

		if (isnan(value))
			continue;
		if (strcmp(facts[i].type, "derive") == 0)
			batch.values[0].derive = (derive_t)value;
		else
			batch.values[0].gauge = value;
		cd_batch_submit(&batch, facts[i].type, facts[i].type_instance, 1);
	}
}

/* SM findings are about the whole subnet: no plugin instance. */
static void report_event(const struct cd_sm *s, const struct rk_event *event)
{
	const struct rk_fact *master = rk_fact(RK_FACT_SM_MASTER_LID);
	const struct cd_about about = {CD_SM_PLUGIN, "", master->cd_type, master->cd_instance};
	bool notify = s->config->notifications;

	if (event->is_finding)
		cd_findings_report(CD_SM_PLUGIN, "", event, notify);
	else if (event->kind == RK_EVENT_SM_SILENT || event->kind == RK_EVENT_SM_MASTER_CHANGED)
		cd_log(LOG_WARNING, "%s", event->message);
	else
		cd_log(LOG_INFO, "%s", event->message);
	if (notify && event->kind == RK_EVENT_SM_MASTER_CHANGED)
		cd_notify_about(NOTIF_WARNING, &about, NULL, "%s", event->message);
}

int cd_sm_read(struct cd_sm *s)
{
	struct rk_watch_snapshot *snap = rk_watch_take(s->watch, RK_WATCH_SM, &s->events);

	if (snap && snap->passes[RK_WATCH_SM] != s->sent) {
		s->sent = snap->passes[RK_WATCH_SM];
		send_facts(&snap->sm, cdtime(), cd_mon_pass_interval(s->config));
	}
	for (size_t i = 0; i < s->events.list.count; i++)
		report_event(s, &s->events.list.items[i]);
	rk_watch_release(snap);
	return 0;
}
