/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_sm.h"

#include "cd_fabric_values.h"
#include "cd_findings.h"
#include "cd_submit.h"

#include <math.h>

struct cd_sm {
	struct cd_mon *mon;
	struct cd_retry retry;
	bool have_master; /* master holds the last master seen */
	struct rk_sm master;
	struct cd_seen seen;
};

int cd_sm_start(struct cd_mon *mon, struct cd_sm **out)
{
	struct cd_sm *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->mon = mon;
	s->seen.plugin = CD_SM_PLUGIN;
	*out = s;
	return 0;
}

void cd_sm_stop(struct cd_sm *s)
{
	if (!s)
		return;
	cd_seen_free(&s->seen);
	free(s);
}

static void describe(const struct rk_sm *sm, char *buf, size_t size)
{
	char guid[24];

	rk_format_guid(sm->guid, guid, sizeof(guid));
	snprintf(buf, size, "%s (LID %u, GUID %s, priority %d)", sm->name[0] ? sm->name : "unnamed",
		 sm->lid, guid, sm->priority);
}

/* Log the first master, and notify when another SM becomes master. */
static void follow_master(struct cd_sm *s, const struct rk_sm_status *status)
{
	const struct rk_sm *master = rk_sm_master(status);
	const struct cd_about about = {CD_SM_PLUGIN, "", "gauge", "master_lid"};
	char now[192], was[192];

	if (!master)
		return;
	describe(master, now, sizeof(now));
	if (!s->have_master) {
		cd_log(LOG_INFO, "master SM: %s", now);
	} else if (master->guid != s->master.guid) {
		describe(&s->master, was, sizeof(was));
		cd_log(LOG_WARNING, "the master SM changed: now %s, was %s", now, was);
		if (s->mon->config->notifications)
			cd_notify_about(NOTIF_WARNING, &about, NULL,
					"the master SM changed: now %s, was %s", now, was);
	}
	s->master = *master;
	s->have_master = true;
}

/* Log each SM that stopped answering, or answers again, since the last query. */
static void follow_answers(const struct rk_sm_status *prev, const struct rk_sm_status *now)
{
	for (size_t i = 0; i < now->count; i++) {
		const struct rk_sm *sm = &now->sms[i], *before = rk_sm_find(prev, sm->lid);

		if (sm->status && (!before || before->status == 0))
			cd_log(LOG_WARNING, "the SM at LID %u does not answer SMInfo: %s", sm->lid,
			       strerror(-sm->status));
		else if (!sm->status && before && before->status)
			cd_log(LOG_INFO, "the SM at LID %u answers SMInfo again", sm->lid);
	}
}

static void send_facts(const struct rk_sm_status *status, cdtime_t now)
{
	const struct cd_fact *facts = cd_sm_fact_list();
	double values[CD_SM_FACTS];
	struct cd_batch batch;

	cd_sm_facts(status, values);
	cd_batch_begin_plugin(&batch, CD_SM_PLUGIN, "", now);
	for (size_t i = 0; i < CD_SM_FACTS; i++) {
		if (isnan(values[i]))
			continue;
		if (strcmp(facts[i].type, "derive") == 0)
			batch.values[0].derive = (derive_t)values[i];
		else
			batch.values[0].gauge = values[i];
		cd_batch_submit(&batch, facts[i].type, facts[i].type_instance, 1);
	}
}

/* SM findings are about the whole subnet: no plugin instance. */
static void no_instance(const struct rk_finding *finding, char *buf, size_t size, void *ctx)
{
	(void)finding;
	(void)ctx;
	if (size)
		buf[0] = '\0';
}

static void report_findings(struct cd_sm *s)
{
	const struct rk_monitor *m = &s->mon->monitor;
	struct rk_findings findings = {0};

	if (rk_health_check_sm(&m->prev_sm, &m->sm, &findings) == 0)
		cd_findings_report(&s->seen, &findings, s->mon->config->notifications, no_instance,
				   NULL);
	else
		cd_log(LOG_ERR, "out of memory: SM findings not reported");
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
			follow_answers(&m->prev_sm, &m->sm);
			follow_master(s, &m->sm);
			send_facts(&m->sm, now);
			report_findings(s);
		}
	}
	pthread_mutex_unlock(&s->mon->lock);
	return 0;
}
