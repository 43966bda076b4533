/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The SM and fabric tables, keyed on GUIDs so that rows keep their index. */
#include "ak_build.h"
#include "ak_columns.h"
#include "ak_fabric.h"

#include "rdmakit/catalog.h"
#include "rdmakit/facts.h"
#include "rdmakit/sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* A GUID as an index: 8 sub-identifiers, most significant octet first (and the port). */
static size_t guid_index(uint64_t guid, unsigned port, bool with_port, uint32_t *index)
{
	for (int i = 0; i < 8; i++)
		index[i] = (uint32_t)(guid >> (56 - 8 * i)) & 0xff;
	index[8] = port;
	return with_port ? 9 : 8;
}

/* The one row (index 0) of a group of scalars. */
static struct ak_row *scalar_row(struct ak_table *table)
{
	uint32_t zero = 0;

	return ak_table_add_row(table, &zero, 1);
}

/* The master's GUID in the kernel's text form (the octets only in the notification). */
static int set_master_guid(struct ak_row *row, uint64_t guid)
{
	char text[RK_FACT_TEXT_MAX];

	rk_format_guid_groups(guid, text, sizeof(text));
	return ak_row_set_string(row, AK_SM_MASTER_GUID_TEXT, text);
}

/* The SM facts (rk_sm_fact_values), and the master's GUID. */
static int add_master(struct ak_table *table, const struct rk_sm_status *status)
{
	const struct rk_sm *master = rk_sm_master(status);
	double values[RK_FACT_COUNT];
	const struct rk_fact_subject subject = {.values = values};
	struct ak_row *row = scalar_row(table);
	int err;

	if (!row)
		return -ENOMEM;
	rk_sm_fact_values(status, values);
	err = ak_row_set_facts(row, RK_SCOPE_SM, &subject);
	return err || !master ? err : set_master_guid(row, master->guid);
}

/* The fabric facts (rk_fabric_fact_values), scaled as the table of facts says. */
static int add_summary(struct ak_table *table, const struct rk_watch_snapshot *m)
{
	double values[RK_FACT_COUNT];
	const struct rk_fact_subject subject = {.values = values,
						.active_watcher = m->active_watcher};
	struct ak_row *row = scalar_row(table);

	if (!row)
		return -ENOMEM;
	for (size_t i = 0; i < RK_FACT_COUNT; i++)
		values[i] = NAN; /* a standby has no fabric: its election's facts only */
	if (m->fabric) {
		rk_fabric_readings_fact_values(m->fabric, &m->sweep, m->sweep.seconds, values);
		rk_route_fact_values(m->routes_checked ? &m->routes : NULL, values);
	}
	rk_watch_fact_values(m, values);
	return ak_row_set_facts(row, RK_SCOPE_FABRIC, &subject);
}

static int add_sms(struct ak_table *table, const struct rk_sm_status *status)
{
	int err = 0;

	for (size_t i = 0; i < status->count && !err; i++) {
		const struct rk_sm *sm = &status->sms[i];
		const struct rk_fact_subject subject = {.sm = sm};
		uint32_t index[9];
		struct ak_row *row =
		    ak_table_add_row(table, index, guid_index(sm->guid, 0, false, index));

		err = row ? ak_row_set_facts(row, RK_SCOPE_SM_ENTRY, &subject) : -ENOMEM;
	}
	return err;
}

static int add_node(struct ak_table *table, const struct rk_fabric_node *node)
{
	uint32_t index[9];
	const struct rk_fact_subject subject = {.node = node};
	struct ak_row *row =
	    ak_table_add_row(table, index, guid_index(node->guid, 0, false, index));

	return row ? ak_row_set_facts(row, RK_SCOPE_FABRIC_NODE, &subject) : -ENOMEM;
}

static int add_port(struct ak_table *table, const struct ak_fabric_watch *watch, size_t n,
		    const struct rk_fabric_port *port)
{
	const struct rk_fabric *fabric = watch->snap->fabric;
	const struct rk_fabric_port_ref ref = {fabric, n, port, &watch->snap->fabric_findings};
	const struct rk_fact_subject subject = {.fabric_port = &ref};
	uint32_t index[9];
	struct ak_row *row = ak_table_add_row(
	    table, index, guid_index(fabric->nodes[n].guid, (unsigned)port->num, true, index));

	return row ? ak_row_set_facts(row, RK_SCOPE_FABRIC_PORT, &subject) : -ENOMEM;
}

static int add_topology(struct ak_snapshot *snap, const struct ak_fabric_watch *watch)
{
	const struct rk_fabric *fabric = watch->snap->fabric;
	int err = 0;

	for (size_t n = 0; n < fabric->nnodes && !err; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];

		err = add_node(&snap->tables[AK_T_FABRIC_NODE], node);
		for (int p = 0; p <= node->nports && !err; p++)
			if (node->ports[p].present)
				err = add_port(&snap->tables[AK_T_FABRIC_PORT], watch, n,
					       &node->ports[p]);
	}
	return err;
}

/* The subagent's uptime in hundredths when the port's counters last went back, 0 if never
 * since it started. */
static uint32_t discontinuity_ticks(const struct rk_sweep_reading *p, double started_at)
{
	return p->went_back_at > started_at ? (uint32_t)((p->went_back_at - started_at) * 100) : 0;
}

static int add_counters(struct ak_table *table, const struct rk_sweep_reading *p, double started_at)
{
	size_t npma;
	const struct rk_metric *pma = rk_catalog_pma(&npma);
	unsigned char saturated[3] = {0}, unavailable[3] = {0};
	uint32_t index[9];
	struct ak_row *row =
	    ak_table_add_row(table, index, guid_index(p->node_guid, p->port, true, index));
	const struct rk_fact_subject subject = {.reading = p};
	int err;

	if (!row)
		return -ENOMEM;
	for (size_t c = 0; c < npma && c < RK_SWEEP_COUNTERS; c++) {
		unsigned char bit = (unsigned char)(0x80 >> (c % 8));

		if (p->status != 0 || p->state[c] == RK_VALUE_UNAVAILABLE)
			unavailable[c / 8] |= bit;
		else if (p->state[c] == RK_VALUE_SATURATED)
			saturated[c / 8] |= bit;
		else
			ak_row_set_number(row, pma[c].column, AK_CELL_COUNTER64, p->value[c]);
	}
	ak_row_set_number(row, AK_PC_DISCONTINUITY, AK_CELL_TIMETICKS,
			  discontinuity_ticks(p, started_at));
	err = ak_row_set_facts(row, RK_SCOPE_FABRIC_COUNTER, &subject);
	if (!err)
		err = ak_row_set_octets(row, AK_PC_SATURATED, saturated, sizeof(saturated));
	return err ? err
		   : ak_row_set_octets(row, AK_PC_UNAVAILABLE, unavailable, sizeof(unavailable));
}

int ak_build_fabric(const struct ak_fabric_watch *watch, double started_at,
		    struct ak_snapshot *snap)
{
	const struct rk_watch_snapshot *m = watch->snap;
	int err = 0;

	if (!watch->polled || !m)
		return 0;
	if (watch->sm) {
		err = add_master(&snap->tables[AK_T_SM_MASTER], &m->sm);
		if (!err)
			err = add_sms(&snap->tables[AK_T_SM], &m->sm);
	}
	if (!err && watch->ports && m->fabric)
		err = add_topology(snap, watch);
	if (!err && watch->ports && (m->fabric || m->elects))
		err = add_summary(&snap->tables[AK_T_FABRIC_SUMMARY], m);
	for (size_t i = 0; i < m->sweep.count && !err && watch->ports; i++)
		if (m->sweep.ports[i].sampled)
			err = add_counters(&snap->tables[AK_T_FABRIC_COUNTER], &m->sweep.ports[i],
					   started_at);
	return err;
}
