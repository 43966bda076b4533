/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* This host's devices, ports, counters and findings, through the one writer (print.h). */
#ifndef RDMAKIT_CLI_HOST_OUT_H
#define RDMAKIT_CLI_HOST_OUT_H

#include "port_filter.h"
#include "print.h"
#include "rdmakit/findings.h"
#include "rdmakit/host.h"

#include <stdbool.h>

/** {"devices": [...]} with every fact, counters included, and (verbs) each port's MTUs, GID
 * table and P_Keys (status); the text has the counters only when asked, else a line of each
 * port's error counters that are not zero. */
void print_status(struct printer *p, const struct rk_host *host, const struct port_filter *filter,
		  bool verbs, bool counters);

/** {"interval": s, "devices": [...]} with counters and per-second rates (counters). */
void print_counters(struct printer *p, const struct rk_host *host,
		    const struct port_filter *filter);

/** Open a finding's object with its severity and code (a line's start in text). */
void print_finding_start(struct printer *p, const struct rk_finding *f);

/** A finding's message and remedy (remedy_fmt: its text), and close its object. */
void print_finding_end(struct printer *p, const struct rk_finding *f, const char *remedy_fmt);

/** A "findings" member: [{severity, code, subject, message, remedy}, ...]. */
void print_findings_array(struct printer *p, const struct rk_findings *findings);

/** {"findings": [...], "worst"} with the summary line (doctor). */
void print_findings(struct printer *p, const struct rk_findings *findings);

/** The summary line of findings ("warning: 0 critical, 2 warning, 1 ok"), and "worst". */
void print_findings_summary(struct printer *p, const struct rk_findings *findings);

#endif
