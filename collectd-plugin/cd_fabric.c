/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric mode: every port's swept counters and the fabric's findings. */
#include "cd_fabric.h"

#include "cd_fabric_values.h"
#include "cd_findings.h"
#include "cd_mon.h"
#include "cd_names.h"
#include "cd_submit.h"

#include <math.h>

struct cd_fabric {
	struct rk_watch *watch;
	const struct cd_config *config;
	struct cd_fabric_item items[RK_SWEEP_COUNTERS];
	size_t nitems;
	cd_node_name *names;	       /* per node of the current topology */
	unsigned discoveries;	       /* the snapshot's count when names were built */
	unsigned long sent;	       /* the sweeps sent so far */
	cdtime_t role_sent_at;	       /* a standby's watcher_active value was last sent */
	struct rk_watch_events events; /* of the last read */
};

int cd_fabric_start(struct rk_watch *watch, const struct cd_config *config, struct cd_fabric **out)
{
	struct cd_fabric *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->watch = watch;
	f->config = config;
	f->nitems = cd_fabric_items(f->items);
	*out = f;
	return 0;
}

void cd_fabric_stop(struct cd_fabric *f)
{
	if (!f)
		return;
	rk_watch_events_free(&f->events);
	free(f->names);
	free(f);
}

static void log_discovery(const struct rk_fabric *fabric, const struct rk_sweep_readings *sweep)
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
static int follow_topology(struct cd_fabric *f, const struct rk_watch_snapshot *snap)
{
	cd_node_name *names;
	size_t lost;

	if (f->names && f->discoveries == snap->discoveries)
		return 0;
	names = calloc(snap->fabric->nnodes ? snap->fabric->nnodes : 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	lost = cd_node_names(snap->fabric, snap->names, names);
	if (lost)
		cd_log(LOG_WARNING,
		       "NodeNameMap: %zu nodes share a name with another node: their "
		       "values use their GUIDs",
		       lost);
	free(f->names);
	f->names = names;
	f->discoveries = snap->discoveries;
	log_discovery(snap->fabric, &snap->sweep);
	return 0;
}

/* "NODE-PORT" of a swept port. */
static void port_instance(const struct cd_fabric *f, int node, int port, char *buf, size_t size)
{
	snprintf(buf, size, "%s-%d", f->names[node], port);
}

/* The plugin instance of a finding's node and port ("" for the whole fabric): the same for its
 * raise and its clear, whether or not the node is in the topology at the time. */
static void finding_instance(const struct cd_fabric *f, const struct rk_watch_snapshot *snap,
			     const struct rk_finding *finding, char *buf, size_t size)
{
	bool named = snap && snap->fabric && f->names && f->discoveries == snap->discoveries;
	int node = named ? rk_fabric_find_node(snap->fabric, finding->node_guid) : -1;
	cd_node_name name;

	buf[0] = '\0';
	if (!finding->node_guid)
		return;
	if (node >= 0)
		snprintf(name, sizeof(name), "%s", f->names[node]);
	else
		cd_node_name_of(snap ? snap->names : NULL, finding->node_guid, name);
	snprintf(buf, size, "%s-%d", name, finding->port);
}

static bool usable(const struct rk_sweep_reading *p, const struct cd_fabric_item *item)
{
	return p->state[item->counter[0]] == RK_VALUE_OK &&
	       (item->counter[1] < 0 || p->state[item->counter[1]] == RK_VALUE_OK);
}

/* Error counters are sent from the first sweep that sees them count. */
static bool wanted(const struct cd_fabric *f, const struct rk_sweep_reading *p,
		   const struct cd_fabric_item *item)
{
	switch (item->rule) {
	case CD_SEND_ALWAYS:
		return true;
	case CD_SEND_PACKETS:
		return f->config->fabric.packets;
	default:
		return p->counted >> item->counter[0] & 1;
	}
}

/* The port's facts beside its counters (its transmit wait), those it knows. */
static void send_reading_facts(struct cd_batch *batch, const struct rk_sweep_reading *p)
{
	size_t count;
	const struct cd_fact *facts = cd_fact_list(RK_SCOPE_FABRIC_COUNTER, &count);
	const struct rk_fact_subject subject = {.reading = p};

	for (size_t i = 0; i < count; i++) {
		double value = rk_fact_number(rk_fact(facts[i].fact), &subject);

		if (value < 0)
			continue;
		batch->values[0].gauge = value;
		cd_batch_submit(batch, facts[i].type, facts[i].type_instance, 1);
	}
}

static void send_port(struct cd_fabric *f, const struct rk_sweep_reading *p, cdtime_t now)
{
	struct cd_batch batch;
	char instance[DATA_MAX_NAME_LEN];

	if (p->status != 0)
		return;
	port_instance(f, p->node, p->port, instance, sizeof(instance));
	cd_batch_begin_plugin(&batch, CD_FABRIC_PLUGIN, instance, now,
			      cd_mon_pass_interval(f->config));
	for (size_t k = 0; k < f->nitems; k++) {
		const struct cd_fabric_item *item = &f->items[k];
		size_t n = item->counter[1] < 0 ? 1 : 2;

		if (!wanted(f, p, item) || !usable(p, item))
			continue;
		for (size_t d = 0; d < n; d++)
			batch.values[d].derive = (derive_t)p->value[item->counter[d]];
		cd_batch_submit(&batch, item->slot.type, item->slot.type_instance, n);
	}
	send_reading_facts(&batch, p);
}

static void send_facts(const struct cd_fabric *f, const struct rk_watch_snapshot *snap,
		       cdtime_t now)
{
	size_t count;
	const struct cd_fact *facts = cd_fact_list(RK_SCOPE_FABRIC, &count);
	double values[RK_FACT_COUNT];
	struct cd_batch batch;

	rk_fabric_readings_fact_values(snap->fabric, &snap->sweep, snap->sweep_seconds, values);
	rk_route_fact_values(snap->routes_checked ? &snap->routes : NULL, values);
	rk_watch_fact_values(snap, values);
	cd_batch_begin_plugin(&batch, CD_FABRIC_PLUGIN, "", now, cd_mon_pass_interval(f->config));
	for (size_t i = 0; i < count; i++) {
		if (isnan(values[facts[i].fact]) || facts[i].fact == RK_FACT_FABRIC_WATCHER_ACTIVE)
			continue; /* the route facts before a route check; the role: send_role */
		batch.values[0].gauge = values[facts[i].fact];
		cd_batch_submit(&batch, facts[i].type, facts[i].type_instance, 1);
	}
}

/* Each event of the sweeps since the last read, under the port it is about. */
static void report_events(const struct cd_fabric *f, const struct rk_watch_snapshot *snap)
{
	char instance[DATA_MAX_NAME_LEN];

	for (size_t i = 0; i < f->events.list.count; i++) {
		const struct rk_event *event = &f->events.list.items[i];

		finding_instance(f, snap, &event->finding, instance, sizeof(instance));
		cd_findings_report(CD_FABRIC_PLUGIN, instance, event, f->config->notifications);
	}
}

/* The values of a sweep not sent yet. */
static void send_sweep(struct cd_fabric *f, const struct rk_watch_snapshot *snap)
{
	cdtime_t now = cdtime();

	if (snap->passes[RK_WATCH_SWEEP] == f->sent || !snap->fabric ||
	    follow_topology(f, snap) != 0)
		return;
	f->sent = snap->passes[RK_WATCH_SWEEP];
	for (size_t i = 0; i < snap->sweep.count; i++)
		send_port(f, &snap->sweep.ports[i], now);
	send_facts(f, snap, now);
}

/* Whether this watcher is the active one (watcher_active), once an interval, under collectd's
 * Hostname: a fact of this node, which FabricHost would otherwise make one series fed by every
 * watcher of the subnet. A standby sends nothing else; an active one that has no fabric (no
 * port) sends nothing at all. */
static void send_role(struct cd_fabric *f, const struct rk_watch_snapshot *snap, cdtime_t now)
{
	size_t count;
	const struct cd_fact *facts = cd_fact_list(RK_SCOPE_FABRIC, &count);
	double values[RK_FACT_COUNT];
	struct cd_batch batch;

	if (!snap->elects || (!snap->standby && !snap->fabric) ||
	    now - f->role_sent_at < cd_mon_pass_interval(f->config))
		return;
	rk_watch_fact_values(snap, values);
	if (isnan(values[RK_FACT_FABRIC_WATCHER_ACTIVE]))
		return; /* no role decided yet */
	f->role_sent_at = now;
	cd_batch_begin_plugin(&batch, CD_FABRIC_PLUGIN, "", now, cd_mon_pass_interval(f->config));
	cd_batch_own_host(&batch);
	for (size_t i = 0; i < count; i++) {
		if (facts[i].fact != RK_FACT_FABRIC_WATCHER_ACTIVE)
			continue;
		batch.values[0].gauge = values[facts[i].fact];
		cd_batch_submit(&batch, facts[i].type, facts[i].type_instance, 1);
	}
}

int cd_fabric_read(struct cd_fabric *f)
{
	struct rk_watch_snapshot *snap = rk_watch_take(f->watch, RK_WATCH_SWEEP, &f->events);

	if (snap)
		send_sweep(f, snap);
	if (snap)
		send_role(f, snap, cdtime());
	report_events(f, snap);
	rk_watch_release(snap);
	return 0;
}
