/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The rdmakit command line: subcommands and what they share. */
#ifndef RDMAKIT_CLI_H
#define RDMAKIT_CLI_H

#include "rdmakit/fabric.h"
#include "rdmakit/host.h"
#include "rdmakit/monitor.h"

#include <stdbool.h>

/* Which ports a report covers: every one, one device, or one device's port. */
struct port_filter {
	const char *device; /* NULL: all */
	bool one_port;	    /* false: all ports of the device */
	unsigned port;
};

/* Exit codes; doctor also uses 1 (warning) and 2 (critical), as Nagios-style checks do. */
#define EXIT_TROUBLE 3

/* Options every report takes. */
struct cli_common {
	const char *sysfs_root;
	bool json;
};

/* Long option ids shared by the subcommands (short options use their letter). */
enum {
	OPT_SYSFS_ROOT = 256,
	OPT_JSON,
	OPT_HELP,
	OPT_INTERVAL,
	OPT_COUNT,
	OPT_EXPECT_RATE,
	OPT_NODE_NAME_MAP,
	OPT_TIMEOUT,
	OPT_WINDOW,
	OPT_LINKS,
	OPT_DEGRADED,
	OPT_ERRORS_ONLY,
	OPT_RESET,
	OPT_FABRIC,
	OPT_REDISCOVER,
};

/* Options of every command that talks to the fabric over MADs. */
struct cli_mad {
	const char *ca;		   /* -C */
	int port;		   /* -P */
	unsigned timeout_ms;	   /* --timeout */
	unsigned window;	   /* --window */
	const char *node_name_map; /* --node-name-map */
};

/* getopt_long entries for struct cli_mad (spliced into each fabric command's table). */
#define CLI_MAD_LONG_OPTIONS                                                                       \
	{"node-name-map", required_argument, NULL, OPT_NODE_NAME_MAP},                             \
	    {"timeout", required_argument, NULL, OPT_TIMEOUT},                                     \
	    {"window", required_argument, NULL, OPT_WINDOW}, {"Ca", required_argument, NULL, 'C'}, \
	{                                                                                          \
		"Port", required_argument, NULL, 'P'                                               \
	}
#define CLI_MAD_SHORT_OPTIONS "C:P:"
#define CLI_MAD_HELP                                                                               \
	"  -C CA, -P PORT         local CA and port to send MADs from (default: the first)\n"      \
	"  --node-name-map FILE   friendly names (ib-node-name-map format)\n"                      \
	"  --timeout MS           per-MAD timeout (default 200)\n"                                 \
	"  --window N             MADs in flight at once (default 32)\n"

/** rdmakit status: every device and port, ibstat-like. */
int cmd_status(int argc, char **argv);

/** rdmakit counters: counters, and rates when sampled more than once. */
int cmd_counters(int argc, char **argv);

/** rdmakit doctor: findings, most severe first; exit 0/1/2 by the worst. */
int cmd_doctor(int argc, char **argv);

/** Handle --sysfs-root and --json; true when opt was one of them. */
bool cli_common_option(struct cli_common *common, int opt, const char *arg);

/** Handle -C, -P, --timeout, --window and --node-name-map; 1 handled, 0 not, -1 bad value. */
int cli_mad_option(struct cli_mad *mad, int opt, const char *arg);

/** Load --node-name-map if given (*map stays NULL otherwise); false when it cannot be read. */
bool cli_load_name_map(const struct cli_mad *mad, struct rk_name_map **map);

/** Fill monitor options from the MAD options (names may be NULL); a command that keeps
 * watching (an --interval) discovers through the helper. */
void cli_monitor_options(const struct cli_mad *mad, const struct rk_name_map *names, bool watching,
			 struct rk_monitor_options *options);

/** rdmakit sm: the master SM and its standbys. */
int cmd_sm(int argc, char **argv);

/** rdmakit sweep: counters of every port of the fabric. */
int cmd_sweep(int argc, char **argv);

/** rdmakit tune: audit, plan, apply, rollback, history, verify. */
int cmd_tune(int argc, char **argv);

/** rdmakit fabric: nodes and links of the fabric, degraded links flagged. */
int cmd_fabric(int argc, char **argv);

/** Parse a number of seconds (0 to a day); prints the error and returns false when bad. */
bool cli_parse_seconds(const char *option, const char *text, double *out);

/** Parse a positive whole number up to max; prints the error and returns false when bad. */
bool cli_parse_count(const char *option, const char *text, unsigned long max, unsigned long *out);

/** Parse a positive decimal number; prints the error and returns false when bad. */
bool cli_parse_positive(const char *option, const char *text, double *out);

/** Parse "DEV" or "DEV:PORT"; prints the error and returns false when bad. */
bool cli_parse_port_filter(const char *text, struct port_filter *filter);

/** Open the host under the common options' root and take a first sample; NULL on failure. */
struct rk_host *cli_open_host(const struct cli_common *common);

/** True when the filter names a device (and port) the host has; else prints why. */
bool cli_filter_exists(struct rk_host *host, const struct port_filter *filter);

/** Sleep for seconds (interrupted sleeps resume). */
void cli_sleep(double seconds);

/** Print a usage error and the hint to use --help; returns EXIT_TROUBLE. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
