/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_fabric.h"

#include "cd_fabric_values.h"
#include "cd_findings.h"
#include "cd_names.h"
#include "cd_submit.h"

/* What was sent of one swept port (same order as the monitor's sweep ports). */
struct cd_swept {
	uint64_t node_guid;
	uint8_t port;
	uint32_t live; /* bit c: counter c has counted, so it is sent (CD_SEND_NONZERO) */
};

struct cd_fabric {
	struct cd_mon *mon;
	struct cd_fabric_item items[RK_SWEEP_COUNTERS];
	size_t nitems;
	cd_node_name *names; /* per node of the current topology */
	struct cd_swept *swept;
	size_t nswept;
	unsigned discoveries; /* the monitor's count when names and swept were built */
	struct cd_retry retry;
	struct cd_seen seen;
};

int cd_fabric_start(struct cd_mon *mon, struct cd_fabric **out)
{
	struct cd_fabric *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->mon = mon;
	f->nitems = cd_fabric_items(f->items);
	f->seen.plugin = CD_FABRIC_PLUGIN;
	*out = f;
	return 0;
}

void cd_fabric_stop(struct cd_fabric *f)
{
	if (!f)
		return;
	free(f->names);
	free(f->swept);
	cd_seen_free(&f->seen);
	free(f);
}

static int compare_swept(uint64_t guid_a, uint8_t port_a, uint64_t guid_b, uint8_t port_b)
{
	if (guid_a != guid_b)
		return guid_a < guid_b ? -1 : 1;
	return (int)port_a - (int)port_b;
}

/* A new port list after a discovery; ports known before keep their live counters (both lists
 * are sorted by node GUID and port). */
static struct cd_swept *carry_swept(const struct cd_swept *old, size_t nold,
				    const struct rk_sweep *sweep)
{
	struct cd_swept *swept = calloc(sweep->count ? sweep->count : 1, sizeof(*swept));
	size_t j = 0;

	for (size_t i = 0; swept && i < sweep->count; i++) {
		const struct rk_sweep_port *p = &sweep->ports[i];

		while (j < nold &&
		       compare_swept(old[j].node_guid, old[j].port, p->node_guid, p->port) < 0)
			j++;
		swept[i] = (struct cd_swept){p->node_guid, p->port, 0};
		if (j < nold &&
		    compare_swept(old[j].node_guid, old[j].port, p->node_guid, p->port) == 0)
			swept[i].live = old[j].live;
	}
	return swept;
}

static void log_discovery(const struct rk_fabric *fabric, const struct rk_sweep *sweep)
{
	double facts[CD_FABRIC_FACTS];

	cd_fabric_facts(fabric, sweep, 0, facts);
	cd_log(LOG_INFO,
	       "fabric discovered in %.3f s: %.0f nodes (%.0f switches, %.0f CAs), %.0f links "
	       "(%.0f degraded), %zu ports to sweep",
	       fabric->discovery_seconds, facts[CD_FABRIC_NODES], facts[CD_FABRIC_SWITCHES],
	       facts[CD_FABRIC_CAS], facts[CD_FABRIC_LINKS], facts[CD_FABRIC_DEGRADED_LINKS],
	       sweep->count);
}

/* After a (re)discovery: name the nodes and follow the new port list. */
static int follow_topology(struct cd_fabric *f)
{
	const struct rk_monitor *m = &f->mon->monitor;
	cd_node_name *names;
	struct cd_swept *swept;
	size_t lost;

	if (f->discoveries == m->discoveries)
		return 0;
	names = calloc(m->fabric->nnodes ? m->fabric->nnodes : 1, sizeof(*names));
	swept = names ? carry_swept(f->swept, f->nswept, &m->sweep) : NULL;
	if (!swept) {
		free(names);
		return -ENOMEM;
	}
	lost = cd_node_names(m->fabric, f->mon->names, names);
	if (lost)
		cd_log(LOG_WARNING,
		       "NodeNameMap: %zu nodes share a name with another node: their "
		       "values use their GUIDs",
		       lost);
	free(f->names);
	free(f->swept);
	f->names = names;
	f->swept = swept;
	f->nswept = m->sweep.count;
	f->discoveries = m->discoveries;
	log_discovery(m->fabric, &m->sweep);
	return 0;
}

/* "NODE-PORT" of a swept port. */
static void port_instance(const struct cd_fabric *f, int node, int port, char *buf, size_t size)
{
	snprintf(buf, size, "%s-%d", f->names[node], port);
}

static void finding_instance(const struct rk_finding *finding, char *buf, size_t size, void *ctx)
{
	const struct cd_fabric *f = ctx;
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

static derive_t value_of(const struct rk_sweep_port *p, int c)
{
	size_t count;

	return (derive_t)(p->raw[c] * rk_catalog_pma(&count)[c].scale);
}

/* A counter seen non-zero for the first time is sent from then on. */
static bool goes_live(const struct rk_sweep_port *p, struct cd_swept *swept, int c)
{
	if (p->raw[c] == 0 || p->state[c] == RK_VALUE_UNAVAILABLE)
		return false;
	swept->live |= UINT32_C(1) << c;
	return true;
}

static bool wanted(const struct cd_fabric *f, const struct rk_sweep_port *p, struct cd_swept *swept,
		   const struct cd_fabric_item *item)
{
	switch (item->rule) {
	case CD_SEND_ALWAYS:
		return true;
	case CD_SEND_PACKETS:
		return f->mon->config->fabric.packets;
	default:
		return (swept->live >> item->counter[0] & 1) ||
		       goes_live(p, swept, item->counter[0]);
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

		if (!wanted(f, p, &f->swept[i], item) || !usable(p, item))
			continue;
		for (size_t d = 0; d < n; d++)
			batch.values[d].derive = value_of(p, item->counter[d]);
		cd_batch_submit(&batch, item->slot.type, item->slot.type_instance, n);
	}
}

static void send_facts(const struct rk_monitor *m, double seconds, cdtime_t now)
{
	const struct cd_fact *facts = cd_fabric_fact_list();
	double values[CD_FABRIC_FACTS];
	struct cd_batch batch;

	cd_fabric_facts(m->fabric, &m->sweep, seconds, values);
	cd_batch_begin_plugin(&batch, CD_FABRIC_PLUGIN, "", now);
	for (size_t i = 0; i < CD_FABRIC_FACTS; i++) {
		batch.values[0].gauge = values[i];
		cd_batch_submit(&batch, facts[i].type, facts[i].type_instance, 1);
	}
}

static void report_findings(struct cd_fabric *f)
{
	const struct rk_monitor *m = &f->mon->monitor;
	struct rk_findings findings = {0};
	int err = rk_health_check_fabric(m->prev_fabric, m->fabric, &findings);

	if (!err)
		err = rk_health_check_sweep(m->fabric, &m->sweep, &findings);
	if (err)
		cd_log(LOG_ERR, "out of memory: fabric findings not reported");
	else
		cd_findings_report(&f->seen, &findings, f->mon->config->notifications,
				   finding_instance, f);
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
		for (size_t i = 0; i < f->nswept; i++)
			send_port(f, i, now);
		send_facts(&f->mon->monitor, seconds, now);
		report_findings(f);
	}
	pthread_mutex_unlock(&f->mon->lock);
	return 0;
}
