/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A discovered fabric, its SMs and its counter sweeps, through the one writer (print.h). */
#ifndef RDMAKIT_CLI_FABRIC_OUT_H
#define RDMAKIT_CLI_FABRIC_OUT_H

#include "print.h"
#include "rdmakit/fabric.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"

#include <stdbool.h>

/* Which links a fabric report lists. */
enum link_selection {
	LINKS_NONE,
	LINKS_ALL,
	LINKS_DEGRADED,
};

/** {"nodes": [...], "links": [...], "discovery_seconds"}; the text lists the nodes and their
 * ports (LINKS_NONE, the JSON then has every link) or the selected links, and a summary. */
void print_fabric(struct printer *p, const struct rk_fabric *fabric, enum link_selection links);

/** The members "sms": [...], "local_lid", "local_sm_lid" of an open object (a table in text). */
void print_sm(struct printer *p, const struct rk_sm_status *sm);

/* Which ports and counters a sweep lists: the JSON has every counter of each port listed. */
enum sweep_selection {
	SWEEP_ALL,    /* every port; in text every counter */
	SWEEP_ERRORS, /* the ports with error counts; in text their non-zero error counters */
	SWEEP_ERRORS_AND_DATA, /* the same ports; in text the other counters too */
};

/** {"ports": [...], "failed": [...], "unreached": [...], "ports_swept", ...}: a port a line in
 * text, the ports and counters of selection; returns how many ports were not read (failed,
 * and links up to nodes discovery did not reach). */
size_t print_sweep(struct printer *p, const struct rk_fabric *fabric, const struct rk_sweep *sweep,
		   enum sweep_selection selection);

/** The sweep's MAD statistics {"mads": {"sent", ...}}, in text " (N MADs: N answered, ...)"
 * and the end of the line. */
void print_mad_stats(struct printer *p, const struct rk_mad_stats *stats);

#endif
