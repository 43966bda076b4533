/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cli.h"
#include "json_out.h"
#include "text_out.h"

#include <stddef.h>
#include <stdio.h>

static const char status_usage[] =
    "Usage: rdmakit status [--sysfs-root DIR] [--json] [DEVICE[:PORT]]\n"
    "\n"
    "Every RDMA device and port of this host, as ibstat shows them, with the PCI\n"
    "function behind each device (address, NUMA node, PCIe link, SR-IOV VFs).\n"
    "\n";

struct status_args {
	struct cli_common common;
	struct port_filter filter;
};

static const struct cli_option status_options[] = {
    {.name = "sysfs-root",
     .arg = "DIR",
     .store = cli_store_text,
     .field = offsetof(struct status_args, common.sysfs_root),
     .help = "read DIR instead of /sys (e.g. a fixture tree)"},
    {.name = "json",
     .store = cli_store_flag,
     .field = offsetof(struct status_args, common.json),
     .help = "one JSON object: {\"devices\": [...]}, counters included"},
    {0},
};

static const struct cli_option status_operand = {.arg = "DEVICE[:PORT]",
						 .store = cli_store_port_filter,
						 .field = offsetof(struct status_args, filter)};

static const struct cli_command status_command = {
    .name = "status",
    .usage = status_usage,
    .options = status_options,
    .operand = &status_operand,
    .column = 20,
};

int cmd_status(int argc, char **argv)
{
	struct status_args args = {0};
	struct rk_host *host;
	int status;

	if (!cli_parse(&status_command, argc, argv, &args, NULL, &status))
		return status;
	host = cli_open_host(&args.common);
	if (!host)
		return EXIT_TROUBLE;
	if (!cli_filter_exists(host, &args.filter)) {
		rk_host_close(host);
		return EXIT_TROUBLE;
	}
	if (args.common.json)
		json_print(json_status(host, &args.filter), true);
	else
		text_status(stdout, host, &args.filter);
	rk_host_close(host);
	return 0;
}
