/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_fabric.h"

#include "cd_fabric_values.h"
#include "cd_findings.h"
#include "cd_names.h"
#include "cd_submit.h"

struct cd_fabric {
	struct cd_mon *mon;
	struct cd_fabric_item items[RK_SWEEP_COUNTERS];
	size_t nitems;
	cd_node_name *names;  /* per node of the current topology */
	unsigned discoveries; /* the monitor's count when names were built */
	struct cd_retry retry;
};

int cd_fabric_start(struct cd_mon *mon, struct cd_fabric **out)
{
	struct cd_fabric *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->mon = mon;
	f->nitems = cd_fabric_items(f->items);
	*out = f;
	return 0;
}

void cd_fabric_stop(struct cd_fabric *f)
{
	if (!f)
		return;
	free(f->names);
	free(f);
}

static void log_discovery(const struct rk_fabric *fabric, const struct rk_sweep *sweep)
{
	struct rk_fabric_summary summary;

	rk_fabric_summarize(fabric, &summary);
	cd_log(LOG_INFO,
	       "fabric discovered in %.3f s: %zu nodes (%zu switches, %zu CAs), %zu links "
	       "(%zu degraded), %zu ports to sweep",
	       fabric->discovery_seconds, summary.nodes, summary.switches, summary.cas,
	       summary.links, summary.degraded_links, sweep->count);
}

/* After a (re)discovery: name the nodes. */
static int follow_topology(struct cd_fabric *f)
{
	const struct rk_monitor *m = &f->mon->monitor;
	cd_node_name *names;
	size_t lost;

	if (f->discoveries == m->discoveries)
		return 0;
	names = calloc(m->fabric->nnodes ? m->fabric->nnodes : 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	lost = cd_node_names(m->fabric, f->mon->names, names);
	if (lost)
		cd_log(LOG_WARNING,
		       "NodeNameMap: %zu nodes share a name with another node: their "
		       "values use their GUIDs",
		       lost);
	free(f->names);
	f->names = names;
	f->discoveries = m->discoveries;
	log_discovery(m->fabric, &m->sweep);
	return 0;
}

/* "NODE-PORT" of a swept port. */
static void port_instance(const struct cd_fabric *f, int node, int port, char *buf, size_t size)
{
	snprintf(buf, size, "%s-%d", f->names[node], port);
}

/* The plugin instance of a finding's node and port ("" for the whole fabric). */
static void finding_instance(const struct cd_fabric *f, const struct rk_finding *finding, char *buf,
			     size_t size)
{
	int node = finding->node_guid
		       ? rk_fabric_find_node(f->mon->monitor.fabric, finding->node_guid)
		       : -1;

	buf[0] = '\0';
	if (node >= 0)
		port_instance(f, node, finding->port, buf, size);
}

static bool usable(const struct rk_sweep_port *p, const struct cd_fabric_item *item)
{
	return p->state[item->counter[0]] == RK_VALUE_OK &&
	       (item->counter[1] < 0 || p->state[item->counter[1]] == RK_VALUE_OK);
}

/* Error counters are sent from the first sweep that sees them count. */
static bool wanted(const struct cd_fabric *f, const struct rk_sweep_port *p,
		   const struct cd_fabric_item *item)
{
	switch (item->rule) {
	case CD_SEND_ALWAYS:
		return true;
	case CD_SEND_PACKETS:
		return f->mon->config->fabric.packets;
	default:
		return p->counted >> item->counter[0] & 1;
	}
}

static void send_port(struct cd_fabric *f, size_t i, cdtime_t now)
{
	const struct rk_sweep_port *p = &f->mon->monitor.sweep.ports[i];
	struct cd_batch batch;
	char instance[DATA_MAX_NAME_LEN];

	if (p->status != 0)
		return;
	port_instance(f, p->node, p->port, instance, sizeof(instance));
	cd_batch_begin_plugin(&batch, CD_FABRIC_PLUGIN, instance, now);
	for (size_t k = 0; k < f->nitems; k++) {
		const struct cd_fabric_item *item = &f->items[k];
		size_t n = item->counter[1] < 0 ? 1 : 2;

		if (!wanted(f, p, item) || !usable(p, item))
			continue;
		for (size_t d = 0; d < n; d++)
			batch.values[d].derive =
			    (derive_t)rk_sweep_value(p, (size_t)item->counter[d]);
		cd_batch_submit(&batch, item->slot.type, item->slot.type_instance, n);
	}
}

static void send_facts(const struct rk_monitor *m, double seconds, cdtime_t now)
{
	size_t count;
	const struct cd_fact *facts = cd_fact_list(RK_SCOPE_FABRIC, &count);
	double values[RK_FACT_COUNT];
	struct cd_batch batch;

	rk_fabric_fact_values(m->fabric, &m->sweep, seconds, values);
	cd_batch_begin_plugin(&batch, CD_FABRIC_PLUGIN, "", now);
	for (size_t i = 0; i < count; i++) {
		batch.values[0].gauge = values[facts[i].fact];
		cd_batch_submit(&batch, facts[i].type, facts[i].type_instance, 1);
	}
}

static void report_event(const struct rk_event *event, void *ctx)
{
	const struct cd_fabric *f = ctx;
	char instance[DATA_MAX_NAME_LEN];

	finding_instance(f, &event->finding, instance, sizeof(instance));
	cd_findings_report(CD_FABRIC_PLUGIN, instance, event, f->mon->config->notifications);
}

static void report_events(struct cd_fabric *f)
{
	const struct rk_monitor *m = &f->mon->monitor;
	struct rk_findings findings = {0};
	struct rk_event_views views = {.fabric_findings = &findings};
	int err = rk_health_check_fabric(m->prev_fabric, m->fabric, &findings);

	if (!err)
		err = rk_health_check_sweep(m->fabric, &m->sweep, &findings);
	if (err)
		cd_log(LOG_ERR, "out of memory: fabric findings not reported");
	else
		cd_mon_events(f->mon, &views, report_event, f);
	rk_findings_free(&findings);
}

/* Sweep, rediscovering when due, and follow the topology; the seconds it took. */
static int sweep(struct cd_fabric *f, double *seconds)
{
	cdtime_t start = cdtime();
	int err = rk_monitor_sweep(&f->mon->monitor, NULL, NULL);

	*seconds = CDTIME_T_TO_DOUBLE(cdtime() - start);
	if (!err)
		err = follow_topology(f);
	cd_retry_outcome(&f->retry, err, "fabric sweep");
	return err;
}

int cd_fabric_read(struct cd_fabric *f)
{
	cdtime_t now = cdtime();
	double seconds;

	pthread_mutex_lock(&f->mon->lock);
	if (!cd_retry_skip(&f->retry) && sweep(f, &seconds) == 0) {
		for (size_t i = 0; i < f->mon->monitor.sweep.count; i++)
			send_port(f, i, now);
		send_facts(&f->mon->monitor, seconds, now);
		report_events(f);
	}
	pthread_mutex_unlock(&f->mon->lock);
	return 0;
}
