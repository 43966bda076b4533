/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Text and JSON views of a discovered fabric, its SMs and its counter sweeps. */
#ifndef RDMAKIT_CLI_FABRIC_OUT_H
#define RDMAKIT_CLI_FABRIC_OUT_H

#include "rdmakit/fabric.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

/* Which links a fabric report lists. */
enum link_selection {
	LINKS_NONE,
	LINKS_ALL,
	LINKS_DEGRADED,
};

/** {"nodes": [...], "links": [...]} for fabric --json. */
json_object *json_fabric(const struct rk_fabric *fabric, enum link_selection links);

/** A summary line, the nodes, and the selected links, for people. */
void text_fabric(FILE *out, const struct rk_fabric *fabric, enum link_selection links);

/** {"sms": [...], "local_lid", "local_sm_lid"} for sm --json. */
json_object *json_sm(const struct rk_sm_status *sm);

/** A table of the SMs, master first. */
void text_sm(FILE *out, const struct rk_sm_status *sm);

/** One line {"ports": [...], "failed": [...], ...} for sweep --json, a port at a time. */
void print_json_sweep(FILE *out, const struct rk_fabric *fabric, const struct rk_sweep *sweep,
		      bool errors_only);

/** One line per port with its counters (errors only: ports with error counts). */
void text_sweep(FILE *out, const struct rk_fabric *fabric, const struct rk_sweep *sweep,
		bool errors_only);

#endif
