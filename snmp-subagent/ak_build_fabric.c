/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The SM and fabric tables, keyed on GUIDs so that rows keep their index. */
#include "ak_columns.h"
#include "ak_fabric.h"

#include "rdmakit/catalog.h"
#include "rdmakit/facts.h"
#include "rdmakit/sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A GUID as an index (8 sub-identifiers, most significant octet first) or as octets. */
static void guid_octets(uint64_t guid, unsigned char *out)
{
	for (int i = 0; i < 8; i++)
		out[i] = (unsigned char)(guid >> (56 - 8 * i));
}

static size_t guid_index(uint64_t guid, unsigned port, bool with_port, uint32_t *index)
{
	unsigned char octets[8];

	guid_octets(guid, octets);
	for (int i = 0; i < 8; i++)
		index[i] = octets[i];
	index[8] = port;
	return with_port ? 9 : 8;
}

static int set_guid(struct ak_row *row, unsigned column, uint64_t guid)
{
	unsigned char octets[8];

	guid_octets(guid, octets);
	return ak_row_set_octets(row, column, octets, sizeof(octets));
}

/* The one row (index 0) of a group of scalars. */
static struct ak_row *scalar_row(struct ak_table *table)
{
	uint32_t zero = 0;

	return ak_table_add_row(table, &zero, 1);
}

/* The SM facts (rk_sm_fact_values), and the master's GUID. */
static int add_master(struct ak_table *table, const struct rk_sm_status *status)
{
	const struct rk_sm *master = rk_sm_master(status);
	double values[RK_FACT_COUNT];
	size_t nfacts;
	const struct rk_fact *facts = rk_facts_all(&nfacts);
	struct ak_row *row = scalar_row(table);

	if (!row)
		return -ENOMEM;
	rk_sm_fact_values(status, values);
	for (size_t i = 0; i < nfacts; i++) {
		enum ak_cell_type type = facts[i].id == RK_FACT_SM_MASTER_STATE ? AK_CELL_INTEGER
					 : facts[i].id == RK_FACT_SM_MASTER_ACTIVITY
					     ? AK_CELL_COUNTER32
					     : AK_CELL_UNSIGNED;

		if (facts[i].scope == RK_SCOPE_SM && !isnan(values[facts[i].id]) &&
		    values[facts[i].id] >= 0)
			ak_row_set_number(row, facts[i].column, type,
					  (uint64_t)values[facts[i].id]);
	}
	return master ? set_guid(row, AK_SM_MASTER_GUID, master->guid) : 0;
}

/* The fabric facts (rk_fabric_fact_values): counts, and durations in milliseconds. */
static int add_summary(struct ak_table *table, const struct rk_watch_snapshot *m)
{
	double values[RK_FACT_COUNT];
	size_t nfacts;
	const struct rk_fact *facts = rk_facts_all(&nfacts);
	struct ak_row *row = scalar_row(table);

	if (!row)
		return -ENOMEM;
	rk_fabric_fact_values(m->fabric, &m->sweep, m->sweep.seconds, values);
	for (size_t i = 0; i < nfacts; i++) {
		double value = values[facts[i].id];
		bool seconds =
		    strcmp(facts[i].unit, "s") == 0 || strcmp(facts[i].unit, "seconds") == 0;

		if (facts[i].scope == RK_SCOPE_FABRIC && !isnan(value) && value >= 0)
			ak_row_set_number(row, facts[i].column, AK_CELL_UNSIGNED,
					  (uint64_t)llround(seconds ? value * 1000 : value));
	}
	return 0;
}

static int add_sms(struct ak_table *table, const struct rk_sm_status *status)
{
	for (size_t i = 0; i < status->count; i++) {
		const struct rk_sm *sm = &status->sms[i];
		uint32_t index[9];
		struct ak_row *row =
		    ak_table_add_row(table, index, guid_index(sm->guid, 0, false, index));

		if (!row || ak_row_set_string(row, AK_SM_NAME, sm->name) != 0)
			return -ENOMEM;
		ak_row_set_number(row, AK_SM_LID, AK_CELL_UNSIGNED, sm->lid);
		ak_row_set_number(row, AK_SM_PRIORITY, AK_CELL_UNSIGNED, (uint64_t)sm->priority);
		ak_row_set_number(row, AK_SM_STATE, AK_CELL_INTEGER, sm->state);
		ak_row_set_number(row, AK_SM_ACTIVITY, AK_CELL_COUNTER32, sm->activity_count);
		ak_row_set_number(row, AK_SM_ANSWERS, AK_CELL_INTEGER,
				  sm->status == 0 ? AK_TRUE : AK_FALSE);
	}
	return 0;
}

static int add_node(struct ak_table *table, const struct rk_fabric_node *node)
{
	uint32_t index[9];
	struct ak_row *row =
	    ak_table_add_row(table, index, guid_index(node->guid, 0, false, index));
	int err;

	if (!row)
		return -ENOMEM;
	ak_row_set_number(row, AK_FN_TYPE, AK_CELL_INTEGER, node->type);
	ak_row_set_number(row, AK_FN_LID, AK_CELL_UNSIGNED, node->lid);
	ak_row_set_number(row, AK_FN_PORTS, AK_CELL_UNSIGNED, (uint64_t)node->nports);
	err = ak_row_set_string(row, AK_FN_DESCRIPTION, node->description);
	return err ? err : ak_row_set_string(row, AK_FN_NAME, node->name);
}

/* The LINK_DEGRADED finding located at a link's first end, or NULL. */
static const struct rk_finding *degraded_finding(const struct rk_findings *findings, uint64_t guid,
						 int port)
{
	for (size_t i = 0; i < findings->count; i++)
		if (findings->items[i].node_guid == guid && findings->items[i].port == port &&
		    strcmp(findings->items[i].code, "LINK_DEGRADED") == 0)
			return &findings->items[i];
	return NULL;
}

/* The link a port is an end of, or NULL. */
static const struct rk_fabric_link *link_of(const struct rk_fabric *fabric, int node, int port)
{
	for (size_t i = 0; i < fabric->nlinks; i++) {
		const struct rk_fabric_link *l = &fabric->links[i];

		if ((l->node_a == node && l->port_a == port) ||
		    (l->node_b == node && l->port_b == port))
			return l;
	}
	return NULL;
}

static int set_degraded(struct ak_row *row, const struct ak_fabric_watch *watch, int node, int port)
{
	const struct rk_fabric *fabric = watch->snap->fabric;
	const struct rk_fabric_link *link = link_of(fabric, node, port);
	const struct rk_finding *finding = NULL;
	bool degraded = link && rk_link_degraded(link);

	if (degraded)
		finding = degraded_finding(&watch->snap->fabric_findings,
					   fabric->nodes[link->node_a].guid, link->port_a);
	ak_row_set_number(row, AK_FP_DEGRADED, AK_CELL_INTEGER, degraded ? AK_TRUE : AK_FALSE);
	return ak_row_set_string(row, AK_FP_DEGRADED_REASON, finding ? finding->message : "");
}

static int add_port(struct ak_table *table, const struct ak_fabric_watch *watch, int n,
		    const struct rk_fabric_port *port)
{
	const struct rk_fabric *fabric = watch->snap->fabric;
	uint32_t index[9];
	struct ak_row *row = ak_table_add_row(
	    table, index, guid_index(fabric->nodes[n].guid, (unsigned)port->num, true, index));
	int err = 0;

	if (!row)
		return -ENOMEM;
	if (port->state > 0)
		ak_row_set_number(row, AK_FP_STATE, AK_CELL_INTEGER, (uint64_t)port->state);
	if (port->phys_state > 0)
		ak_row_set_number(row, AK_FP_PHYS_STATE, AK_CELL_INTEGER,
				  (uint64_t)port->phys_state);
	ak_row_set_number(row, AK_FP_WIDTH, AK_CELL_UNSIGNED, (uint64_t)port->active_width);
	ak_row_set_number(row, AK_FP_SPEED, AK_CELL_INTEGER, port->active_speed);
	if (port->remote_node >= 0 && (size_t)port->remote_node < fabric->nnodes) {
		ak_row_set_number(row, AK_FP_PEER_PORT, AK_CELL_UNSIGNED,
				  (uint64_t)port->remote_port);
		err = set_guid(row, AK_FP_PEER_GUID, fabric->nodes[port->remote_node].guid);
	}
	return err ? err : set_degraded(row, watch, n, port->num);
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
				err = add_port(&snap->tables[AK_T_FABRIC_PORT], watch, (int)n,
					       &node->ports[p]);
	}
	return err;
}

static int add_counters(struct ak_table *table, const struct rk_sweep_port *p)
{
	size_t npma;
	const struct rk_metric *pma = rk_catalog_pma(&npma);
	unsigned char saturated[3] = {0}, unavailable[3] = {0};
	uint32_t index[9];
	struct ak_row *row =
	    ak_table_add_row(table, index, guid_index(p->node_guid, p->port, true, index));
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
			ak_row_set_number(row, pma[c].column, AK_CELL_COUNTER64,
					  rk_sweep_value(p, c));
	}
	err = ak_row_set_octets(row, AK_PC_SATURATED, saturated, sizeof(saturated));
	return err ? err
		   : ak_row_set_octets(row, AK_PC_UNAVAILABLE, unavailable, sizeof(unavailable));
}

int ak_build_fabric(const struct ak_fabric_watch *watch, struct ak_snapshot *snap)
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
	if (!err && watch->ports && m->fabric)
		err = add_summary(&snap->tables[AK_T_FABRIC_SUMMARY], m);
	for (size_t i = 0; i < m->sweep.count && !err && watch->ports; i++)
		if (m->sweep.ports[i].sampled)
			err = add_counters(&snap->tables[AK_T_FABRIC_COUNTER], &m->sweep.ports[i]);
	return err;
}
