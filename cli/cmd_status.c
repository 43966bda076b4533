/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cli.h"
#include "json_out.h"
#include "text_out.h"
#include "verbs_out.h"

#include <getopt.h>
#include <stdio.h>

static const char status_usage[] =
    "Usage: rdmakit status [--sysfs-root DIR] [--json] [DEVICE[:PORT]]\n"
    "\n"
    "Every RDMA device and port of this host, as ibstat shows them, with the PCI\n"
    "function behind each device (address, NUMA node, PCIe link, SR-IOV VFs); on the\n"
    "live host (no --sysfs-root), each port's MTUs, GID table and P_Keys from verbs.\n"
    "\n"
    "  --sysfs-root DIR  read DIR instead of /sys (e.g. a fixture tree)\n"
    "  --json            one JSON object: {\"devices\": [...]}, counters included\n"
    "  --help            this text\n";

static const struct option status_options[] = {
    {"sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

/* Verbs adds MTUs and GID tables on the live host (not on a --sysfs-root tree). */
static void print_status_json(const struct rk_host *host, const struct port_filter *filter,
			      const struct cli_common *common)
{
	json_object *doc = json_status(host, filter);

	if (!common->sysfs_root)
		json_status_add_verbs(doc, filter);
	json_print(doc, true);
}

static void print_status_text(const struct rk_host *host, const struct port_filter *filter,
			      const struct cli_common *common)
{
	text_status(stdout, host, filter);
	if (!common->sysfs_root)
		text_status_verbs(stdout, host, filter);
}

int cmd_status(int argc, char **argv)
{
	struct cli_common common = {0};
	struct port_filter filter = {0};
	struct rk_host *host;
	int opt;

	while ((opt = getopt_long(argc, argv, "", status_options, NULL)) != -1) {
		if (opt == OPT_HELP) {
			fputs(status_usage, stdout);
			return 0;
		}
		if (!cli_common_option(&common, opt, optarg))
			return cli_usage_error("status", "unknown option");
	}
	if (argc - optind > 1)
		return cli_usage_error("status", "too many arguments");
	if (optind < argc && !cli_parse_port_filter(argv[optind], &filter))
		return EXIT_TROUBLE;
	host = cli_open_host(&common);
	if (!host)
		return EXIT_TROUBLE;
	if (!cli_filter_exists(host, &filter)) {
		rk_host_close(host);
		return EXIT_TROUBLE;
	}
	if (common.json)
		print_status_json(host, &filter, &common);
	else
		print_status_text(host, &filter, &common);
	rk_host_close(host);
	return 0;
}
