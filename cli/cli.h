/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The rdmakit command line: subcommands and what they share. */
#ifndef RDMAKIT_CLI_H
#define RDMAKIT_CLI_H

#include "options.h"
#include "rdmakit/fabric.h"
#include "rdmakit/fabric_cache.h"
#include "rdmakit/findings.h"
#include "rdmakit/host.h"

#include <stdbool.h>

/* Exit codes; doctor also uses 1 (warning) and 2 (critical), as Nagios-style checks do. */
#define EXIT_TROUBLE 3
/* The command needs privileges this user lacks (root, or access to the umad device). */
#define EXIT_NEEDS_ROOT 4
/* sweep: part of the fabric was not read (the ports are listed under failed and unreached). */
#define EXIT_PARTIAL 5

/* Options every report takes. */
struct cli_common {
	const char *sysfs_root;
	bool json;
};

/* Options of every command that talks to the fabric over MADs. */
struct cli_mad {
	const char *ca;		   /* -C */
	unsigned port;		   /* -P (0: the first active) */
	unsigned timeout_ms;	   /* --timeout */
	unsigned window;	   /* --window */
	const char *node_name_map; /* --node-name-map */
};

/* The options of struct cli_mad, for a command with .mad set. */
extern const struct cli_option cli_mad_options[];

/** rdmakit status: every device and port, ibstat-like. */
int cmd_status(int argc, char **argv);

/** rdmakit counters: counters, and rates when sampled more than once. */
int cmd_counters(int argc, char **argv);

/** rdmakit doctor: findings, most severe first; exit 0/1/2 by the worst. */
int cmd_doctor(int argc, char **argv);

/** Load --node-name-map if given (*map stays NULL otherwise); false when it cannot be read. */
bool cli_load_name_map(const struct cli_mad *mad, struct rk_name_map **map);

/** Fill monitor options from the MAD options (names may be NULL); a command that keeps
 * watching (an --interval) discovers through the helper. */
void cli_monitor_options(const struct cli_mad *mad, const struct rk_name_map *names, bool watching,
			 struct rk_fabric_cache_options *options);

/** rdmakit sm: the master SM and its standbys. */
int cmd_sm(int argc, char **argv);

/** rdmakit audit: the fabric's identities and half-up ports (rdmakit/audit.h). */
int cmd_audit(int argc, char **argv);

/** rdmakit sweep: counters of every port of the fabric. */
int cmd_sweep(int argc, char **argv);

/** rdmakit route: check, trace and dump the switches' unicast forwarding tables. */
int cmd_route(int argc, char **argv);

/** rdmakit tune: audit, plan, apply, rollback, history, verify. */
int cmd_tune(int argc, char **argv);
/** rdmakit probe: a loopback RC probe that moves data through one port. */
int cmd_probe(int argc, char **argv);

/** rdmakit bench: bandwidth and latency over rdma_cm, server and client. */
int cmd_bench(int argc, char **argv);

/** rdmakit events: the fabric's events from the SA, as they come. */
int cmd_events(int argc, char **argv);

/** rdmakit fabric: nodes and links of the fabric, degraded links flagged. */
int cmd_fabric(int argc, char **argv);

/** Open the host under the common options' root and take a first sample; NULL on failure. */
struct rk_host *cli_open_host(const struct cli_common *common);

struct port_filter;

/** cli_open_host when the host has the device (and port) the filter names; else prints why
 * and returns NULL. */
struct rk_host *cli_open_filtered_host(const struct cli_common *common,
				       const struct port_filter *filter);

/** Sleep for seconds (interrupted sleeps resume). */
void cli_sleep(double seconds);

/** The exit code for a core error: EXIT_NEEDS_ROOT for -EACCES and -EPERM, else EXIT_TROUBLE. */
int cli_exit_for(int err);

/** Nagios-style exit code of findings: 0 none above ok, 1 warnings, 2 critical. */
int cli_exit_for_findings(const struct rk_findings *findings);

/** Compare the fabric with the plan in path (rdmakit fabric --expect, doctor --expect) into
 * findings, with PLAN_LINES_SKIPPED when lines of it could not be read; 0 or -errno. */
int cli_expect_plan(const char *path, const struct rk_fabric *fabric,
		    const struct rk_name_map *names, struct rk_findings *findings);

/** Print a usage error and the hint to use --help; returns EXIT_TROUBLE. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
