/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_values.h"

#include <string.h>

/* Counter files that travel as the rx and tx halves of one standard type. */
static const struct cd_pair {
	const char *rx, *tx, *type, *type_instance;
} pairs[] = {
    {"port_rcv_data", "port_xmit_data", "if_octets", ""},
    {"port_rcv_packets", "port_xmit_packets", "if_packets", ""},
    {"unicast_rcv_packets", "unicast_xmit_packets", "if_packets", "unicast"},
    {"multicast_rcv_packets", "multicast_xmit_packets", "if_packets", "multicast"},
};

static const struct cd_pair *find_pair(const char *name, unsigned *ds)
{
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (strcmp(name, pairs[i].rx) == 0) {
			*ds = 0;
			return &pairs[i];
		}
		if (strcmp(name, pairs[i].tx) == 0) {
			*ds = 1;
			return &pairs[i];
		}
	}
	return NULL;
}

void cd_slot_for(const struct rk_metric *metric, const char *name, struct cd_slot *slot)
{
	const struct cd_pair *pair = NULL;
	unsigned ds = 0;

	if (metric->source == RK_SRC_PORT_COUNTERS)
		pair = find_pair(name, &ds);
	if (pair) {
		slot->type = pair->type;
		slot->type_instance = pair->type_instance;
		slot->ds = ds;
		slot->ds_name = ds ? "tx" : "rx";
		slot->partner = ds ? pair->rx : pair->tx;
		return;
	}
	slot->type = metric->kind == RK_KIND_GAUGE ? "gauge" : "derive";
	slot->type_instance = name;
	slot->ds = 0;
	slot->ds_name = "value";
	slot->partner = NULL;
}

static double port_state(const struct rk_port *port)
{
	return port->state;
}

static double port_phys_state(const struct rk_port *port)
{
	return port->phys_state;
}

static double port_rate(const struct rk_port *port)
{
	return port->rate_gbps;
}

static double port_lid(const struct rk_port *port)
{
	return (double)port->lid;
}

static double port_sm_lid(const struct rk_port *port)
{
	return (double)port->sm_lid;
}

static double port_sm_sl(const struct rk_port *port)
{
	return port->sm_sl;
}

static double port_lmc(const struct rk_port *port)
{
	return port->lmc;
}

static double port_cap_mask(const struct rk_port *port)
{
	return (double)port->cap_mask;
}

static const struct cd_port_gauge gauges[] = {
    {"state", "state", "Logical port state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER",
     port_state},
    {"phys_state", "state",
     "Physical port state: 1 Sleep, 2 Polling, 3 Disabled, 4 Training, 5 LinkUp, "
     "6 LinkErrorRecovery, 7 PhyTest",
     port_phys_state},
    {"rate", "Gb/s", "Link rate: lanes times lane speed", port_rate},
    {"lid", "LID", "Base LID of the port (0 on RoCE)", port_lid},
    {"sm_lid", "LID", "LID of the master subnet manager (0 on RoCE)", port_sm_lid},
    {"sm_sl", "SL", "Service level for talking to the subnet manager", port_sm_sl},
    {"lid_mask_count", "bits", "LMC: low LID bits masked for multipath", port_lmc},
    {"cap_mask", "bitmask", "PortInfo CapabilityMask", port_cap_mask},
};

const struct cd_port_gauge *cd_port_gauges(size_t *count)
{
	*count = sizeof(gauges) / sizeof(gauges[0]);
	return gauges;
}
