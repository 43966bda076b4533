/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* How the core's counters and port facts map onto collectd's standard types (types.db). */
#ifndef RDMAKIT_CD_VALUES_H
#define RDMAKIT_CD_VALUES_H

#include "rdmakit/catalog.h"
#include "rdmakit/facts.h"
#include "rdmakit/host.h"

#include <stddef.h>

/* Where one counter file's value goes. */
struct cd_slot {
	const char *type;	   /* "if_octets", "if_packets", "derive" or "gauge" */
	const char *type_instance; /* "" for none, else e.g. the counter's file name */
	unsigned ds;		   /* data source index: 0 (rx, or value), 1 (tx) */
	const char *ds_name;	   /* "rx", "tx" or "value" */
	const char *partner;	   /* the other file of an rx/tx pair, else NULL */
};

/* A port fact of the core dispatched as a gauge (the facts with a collectd type). */
struct cd_port_gauge {
	const char *type_instance;		     /* the fact's cd_instance */
	double (*value)(const struct rk_port *port); /* the core's reader: negative when unknown */
	const struct rk_fact *fact;		     /* unit, help, ... */
};

/** The slot of the counter file name whose catalog entry is metric. */
void cd_slot_for(const struct rk_metric *metric, const char *name, struct cd_slot *slot);

/** The collectd type of a core counter pair ("if_octets", "if_packets"), or NULL. */
const char *cd_pair_type(const struct rk_counter_pair *pair, const char **type_instance);

/** Every port gauge the plugin dispatches; *count receives their number. */
const struct cd_port_gauge *cd_port_gauges(size_t *count);

#endif
