/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit status: this host's devices and ports, ibstat-like. */
#include "cli.h"
#include "host_out.h"

#include <stddef.h>
#include <stdio.h>

static const char status_usage[] =
    "Usage: rdmakit status [-v|--counters] [--sysfs-root DIR] [--json] [DEVICE[:PORT]]\n"
    "\n"
    "Every RDMA device and port of this host, as ibstat shows them, with the PCI\n"
    "function behind each device (address, NUMA node, PCIe link, SR-IOV VFs); on the\n"
    "live host (no --sysfs-root), each port's MTUs, GID table and P_Keys from verbs.\n"
    "Per port, the error counters that are not zero, if any (all counters: --counters\n"
    "or rdmakit counters).\n"
    "\n";

struct status_args {
	struct cli_common common;
	struct port_filter filter;
	bool counters;
};

#define FIELD(name) offsetof(struct status_args, name)

static const struct cli_option status_options[] = {
    {.name = "counters",
     .letter = 'v',
     .store = cli_store_flag,
     .field = FIELD(counters),
     .help = "every counter of each device and port too",
     .label = "-v, --counters"},
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
	struct printer printer;
	struct rk_host *host;
	int status;

	if (!cli_parse(&status_command, argc, argv, &args, NULL, &status))
		return status;
	host = cli_open_filtered_host(&args.common, &args.filter);
	if (!host)
		return EXIT_TROUBLE;
	/* verbs adds MTUs and GID tables on the live host (not on a --sysfs-root tree) */
	print_start(&printer, stdout, print_json_format(args.common.json, false));
	print_status(&printer, host, &args.filter, !args.common.sysfs_root, args.counters);
	print_end(&printer);
	rk_host_close(host);
	return 0;
}
