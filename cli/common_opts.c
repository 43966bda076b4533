/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the subcommands share: the sysfs root, the MAD options, the name map, exit codes. */
#include "cli.h"
#include "port_filter.h"

#include "rdmakit/limits.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct rk_host *cli_open_host(const struct cli_common *common)
{
	struct rk_host *host;
	int err = rk_host_open(common->sysfs_root ? common->sysfs_root : "/sys", &host);

	if (err) {
		fprintf(stderr, "rdmakit: cannot read RDMA devices under %s: %s\n",
			common->sysfs_root ? common->sysfs_root : "/sys", strerror(-err));
		return NULL;
	}
	rk_host_refresh(host);
	return host;
}

struct rk_host *cli_open_filtered_host(const struct cli_common *common,
				       const struct port_filter *filter)
{
	struct rk_host *host = cli_open_host(common);

	if (host && !cli_filter_exists(host, filter)) {
		rk_host_close(host);
		return NULL;
	}
	return host;
}

void cli_sleep(double seconds)
{
	struct timespec left = {.tv_sec = (time_t)seconds,
				.tv_nsec = (long)((seconds - floor(seconds)) * 1e9)};

	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
}

int cli_exit_for(int err)
{
	return err == -EACCES || err == -EPERM ? EXIT_NEEDS_ROOT : EXIT_TROUBLE;
}

int cli_exit_for_findings(const struct rk_findings *findings)
{
	enum rk_severity worst = rk_findings_worst(findings);

	return worst == RK_SEVERITY_CRITICAL ? 2 : worst == RK_SEVERITY_WARNING ? 1 : 0;
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "rdmakit %s: ", command);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fprintf(stderr, "\nTry 'rdmakit %s --help'.\n", command);
	return EXIT_TROUBLE;
}

#define MAD_FIELD(name) offsetof(struct cli_mad, name)

const struct cli_option cli_mad_options[] = {
    {.name = "Ca",
     .letter = 'C',
     .arg = "CA",
     .store = cli_store_text,
     .field = MAD_FIELD(ca),
     .help = "local CA and port to send MADs from (default: the first)",
     .label = "-C CA, -P PORT"},
    {.name = "Port", /* told with -C */
     .letter = 'P',
     .arg = "PORT",
     .store = cli_store_unsigned_setting,
     .field = MAD_FIELD(port),
     .value = RK_SETTING_CA_PORT},
    CLI_OPTION("node-name-map", "FILE", cli_store_text, MAD_FIELD(node_name_map), 0,
	       "friendly names (ib-node-name-map format)"),
    CLI_OPTION("timeout", "MS", cli_store_unsigned_setting, MAD_FIELD(timeout_ms),
	       RK_SETTING_TIMEOUT_MS,
	       "per-MAD timeout (default " RK_STRINGIFY(RK_MAD_DEFAULT_TIMEOUT_MS) ")"),
    CLI_OPTION("window", "N", cli_store_unsigned_setting, MAD_FIELD(window), RK_SETTING_WINDOW,
	       "MADs in flight at once (default " RK_STRINGIFY(RK_MAD_DEFAULT_WINDOW) ")"),
    {0},
};

bool cli_load_name_map(const struct cli_mad *mad, struct rk_name_map **map)
{
	*map = NULL;
	return !mad->node_name_map || rk_name_map_load(mad->node_name_map, map) == 0;
}

void cli_monitor_options(const struct cli_mad *mad, const struct rk_name_map *names, bool watching,
			 struct rk_fabric_cache_options *options)
{
	rk_fabric_cache_options_set(options, mad->ca, (int)mad->port, mad->window, mad->timeout_ms,
				    names);
	options->discover_in_helper = watching;
	options->unreachable_hold_seconds = watching ? RK_UNREACHABLE_HOLD_DEFAULT_S : 0;
}
