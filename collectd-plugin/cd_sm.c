/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_sm.h"

#include "cd_fabric_values.h"
#include "cd_findings.h"
#include "cd_submit.h"

#include <math.h>

struct cd_sm {
	struct cd_mon *mon;
	struct cd_retry retry;
};

int cd_sm_start(struct cd_mon *mon, struct cd_sm **out)
{
	struct cd_sm *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->mon = mon;
	*out = s;
	return 0;
}

void cd_sm_stop(struct cd_sm *s)
{
	free(s);
}

static void send_facts(const struct rk_sm_status *status, cdtime_t now)
{
	size_t count;
	const struct cd_fact *facts = cd_fact_list(RK_SCOPE_SM, &count);
	double values[RK_FACT_COUNT];
	struct cd_batch batch;

	rk_sm_fact_values(status, values);
	cd_batch_begin_plugin(&batch, CD_SM_PLUGIN, "", now);
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
static void report_event(const struct rk_event *event, void *ctx)
{
	const struct cd_sm *s = ctx;
	const struct rk_fact *master = rk_fact(RK_FACT_SM_MASTER_LID);
	const struct cd_about about = {CD_SM_PLUGIN, "", master->cd_type, master->cd_instance};
	bool notify = s->mon->config->notifications;

	if (event->is_finding)
		cd_findings_report(CD_SM_PLUGIN, "", event, notify);
	else if (event->kind == RK_EVENT_SM_SILENT || event->kind == RK_EVENT_SM_MASTER_CHANGED)
		cd_log(LOG_WARNING, "%s", event->message);
	else
		cd_log(LOG_INFO, "%s", event->message);
	if (notify && event->kind == RK_EVENT_SM_MASTER_CHANGED)
		cd_notify_about(NOTIF_WARNING, &about, NULL, "%s", event->message);
}

static void report_events(struct cd_sm *s)
{
	const struct rk_monitor *m = &s->mon->monitor;
	struct rk_findings findings = {0};
	struct rk_event_views views = {.sm = &m->sm, .sm_findings = &findings};

	if (rk_health_check_sm(&m->prev_sm, &m->sm, &findings) != 0) {
		cd_log(LOG_ERR, "out of memory: SM findings not reported");
		views.sm_findings = NULL;
	}
	cd_mon_events(s->mon, &views, report_event, s);
	rk_findings_free(&findings);
}

int cd_sm_read(struct cd_sm *s)
{
	const struct rk_monitor *m = &s->mon->monitor;
	cdtime_t now = cdtime();
	int err;

	pthread_mutex_lock(&s->mon->lock);
	if (!cd_retry_skip(&s->retry)) {
		err = rk_monitor_query_sm(&s->mon->monitor);
		cd_retry_outcome(&s->retry, err, "SM query");
		if (!err) {
			send_facts(&m->sm, now);
			report_events(s);
		}
	}
	pthread_mutex_unlock(&s->mon->lock);
	return 0;
}
