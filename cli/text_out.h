/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Aligned text for people, from the same snapshots as the JSON. */
#ifndef RDMAKIT_CLI_TEXT_OUT_H
#define RDMAKIT_CLI_TEXT_OUT_H

#include "json_out.h"

#include <stdio.h>

/** ibstat-like listing of devices, ports and PCI facts. */
void text_status(FILE *out, const struct rk_host *host, const struct port_filter *filter);

/** One table per port: counter, value, unit, rate per second when known, and flags. */
void text_counters(FILE *out, const struct rk_host *host, const struct port_filter *filter);

/** Findings, most severe first, each with its remedy, and a summary line. */
void text_findings(FILE *out, const struct rk_findings *findings);

#endif
