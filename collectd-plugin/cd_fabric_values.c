/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_fabric_values.h"

#include <math.h>
#include <string.h>

/* Data counters every sweep; other pairs are packet counts; singles once they count. */
static enum cd_fabric_rule rule_for(const struct cd_slot *slot)
{
	if (strcmp(slot->type, "if_octets") == 0)
		return CD_SEND_ALWAYS;
	return slot->partner ? CD_SEND_PACKETS : CD_SEND_NONZERO;
}

size_t cd_fabric_items(struct cd_fabric_item items[RK_SWEEP_COUNTERS])
{
	size_t count, n = 0;
	const struct rk_metric *pma = rk_catalog_pma(&count);

	for (size_t c = 0; c < count && c < RK_SWEEP_COUNTERS; c++) {
		struct cd_fabric_item *item = &items[n];

		cd_slot_for(&pma[c], pma[c].name, &item->slot);
		if (item->slot.partner && item->slot.ds != 0)
			continue; /* the tx half travels with its rx half */
		item->counter[0] = (int)c;
		item->counter[1] =
		    item->slot.partner ? rk_catalog_pma_index(item->slot.partner) : -1;
		item->rule = rule_for(&item->slot);
		n++;
	}
	return n;
}

#define SWEEP  "every sweep"
#define QUERY  "every query"
#define MASTER "when the master answers"

static const struct cd_fact fabric_facts[CD_FABRIC_FACTS] = {
    [CD_FABRIC_NODES] = {"count", "nodes", "value", "nodes", SWEEP,
			 "Nodes found by the last discovery (switches, CAs, routers)"},
    [CD_FABRIC_SWITCHES] = {"count", "switches", "value", "nodes", SWEEP, "Switches found"},
    [CD_FABRIC_CAS] = {"count", "cas", "value", "nodes", SWEEP, "Channel adapters (HCAs) found"},
    [CD_FABRIC_LINKS] = {"count", "links", "value", "links", SWEEP, "Links between two ports"},
    [CD_FABRIC_DEGRADED_LINKS] = {"count", "degraded_links", "value", "links", SWEEP,
				  "Links below the speed or width both ends enable, or below most "
				  "links between the same models"},
    [CD_FABRIC_SWEPT_PORTS] = {"count", "swept_ports", "value", "ports", SWEEP,
			       "Ports whose counters the sweep asks for (every switch port, CA "
			       "ports with a LID)"},
    [CD_FABRIC_UNANSWERED_PORTS] = {"count", "unanswered_ports", "value", "ports", SWEEP,
				    "Swept ports that did not answer"},
    [CD_FABRIC_SWEEP_SECONDS] = {"duration", "sweep", "seconds", "seconds", SWEEP,
				 "Time of the last sweep as the plugin sees it, rediscovery "
				 "included when there was one"},
    [CD_FABRIC_DISCOVERY_SECONDS] = {"duration", "discovery", "seconds", "seconds", SWEEP,
				     "Time the last discovery of the topology took"},
};

static const struct cd_fact sm_facts[CD_SM_FACTS] = {
    [CD_SM_MASTER_LID] = {"gauge", "master_lid", "value", "LID", MASTER, "LID of the master SM"},
    [CD_SM_MASTER_PRIORITY] = {"gauge", "master_priority", "value", "priority", MASTER,
			       "SMInfo priority of the master SM (0-15)"},
    [CD_SM_MASTER_STATE] = {"gauge", "master_state", "value", "state", MASTER,
			    "SMInfo state of the master SM: 3 MASTER (when no SM claims MASTER, "
			    "the state of the SM the local port points at: 0 NOT_ACTIVE, "
			    "1 DISCOVERING, 2 STANDBY)"},
    [CD_SM_MASTER_ACTIVITY] = {"derive", "master_activity_count", "value", "MADs", MASTER,
			       "SMInfo ActCount of the master SM (OpenSM: the SMPs it has sent); "
			       "it stops rising when the SM hangs"},
    [CD_SM_ANSWERED] = {"count", "sms", "value", "SMs", QUERY, "SMs that answered SMInfo"},
    [CD_SM_MASTERS] = {"count", "masters", "value", "SMs", QUERY,
		       "SMs in MASTER state (1 in a healthy subnet)"},
    [CD_SM_STANDBYS] = {"count", "standbys", "value", "SMs", QUERY,
			"SMs in STANDBY state, ready to take over"},
};

const struct cd_fact *cd_fabric_fact_list(void)
{
	return fabric_facts;
}

const struct cd_fact *cd_sm_fact_list(void)
{
	return sm_facts;
}

void cd_fabric_facts(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
		     double sweep_seconds, double values[CD_FABRIC_FACTS])
{
	double degraded = 0, switches = 0, cas = 0;

	for (size_t i = 0; i < fabric->nnodes; i++) {
		switches += fabric->nodes[i].type == RK_NODE_SWITCH;
		cas += fabric->nodes[i].type == RK_NODE_CA;
	}
	for (size_t i = 0; i < fabric->nlinks; i++)
		degraded += rk_link_degraded(&fabric->links[i]);
	values[CD_FABRIC_NODES] = (double)fabric->nnodes;
	values[CD_FABRIC_SWITCHES] = switches;
	values[CD_FABRIC_CAS] = cas;
	values[CD_FABRIC_LINKS] = (double)fabric->nlinks;
	values[CD_FABRIC_DEGRADED_LINKS] = degraded;
	values[CD_FABRIC_SWEPT_PORTS] = (double)sweep->count;
	values[CD_FABRIC_UNANSWERED_PORTS] = (double)sweep->failed;
	values[CD_FABRIC_SWEEP_SECONDS] = sweep_seconds;
	values[CD_FABRIC_DISCOVERY_SECONDS] = fabric->discovery_seconds;
}

/* The SM the master_* values describe. */
static const struct rk_sm *values_master(const struct rk_sm_status *sm)
{
	const struct rk_sm *master = rk_sm_master(sm);

	if (!master)
		master = rk_sm_find(sm, sm->local_sm_lid);
	return master && master->status == 0 ? master : NULL;
}

void cd_sm_facts(const struct rk_sm_status *sm, double values[CD_SM_FACTS])
{
	const struct rk_sm *master = values_master(sm);
	double answered = 0, masters = 0, standbys = 0;

	for (size_t i = 0; i < sm->count; i++) {
		if (sm->sms[i].status != 0)
			continue;
		answered++;
		masters += sm->sms[i].state == RK_SM_MASTER;
		standbys += sm->sms[i].state == RK_SM_STANDBY;
	}
	values[CD_SM_MASTER_LID] = master ? master->lid : NAN;
	values[CD_SM_MASTER_PRIORITY] = master ? master->priority : NAN;
	values[CD_SM_MASTER_STATE] = master ? master->state : NAN;
	values[CD_SM_MASTER_ACTIVITY] = master ? master->activity_count : NAN;
	values[CD_SM_ANSWERED] = answered;
	values[CD_SM_MASTERS] = masters;
	values[CD_SM_STANDBYS] = standbys;
}
