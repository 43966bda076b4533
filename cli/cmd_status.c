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

#define FIELD(name) offsetof(struct status_args, name)

static const struct cli_option status_options[] = {
    CLI_OPTION("sysfs-root", "DIR", cli_store_text, FIELD(common.sysfs_root), 0,
	       "read DIR instead of /sys (e.g. a fixture tree)"),
    CLI_FLAG("json", FIELD(common.json),
	     "one JSON object: {\"devices\": [...]}, counters included"),
    {0},
};

static const struct cli_option status_operand =
    CLI_OPTION(NULL, "DEVICE[:PORT]", cli_store_port_filter, FIELD(filter), 0, NULL);

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
	host = cli_open_filtered_host(&args.common, &args.filter);
	if (!host)
		return EXIT_TROUBLE;
	if (args.common.json)
		json_print(json_status(host, &args.filter), true);
	else
		text_status(stdout, host, &args.filter);
	rk_host_close(host);
	return 0;
}
