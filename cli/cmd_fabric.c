/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cli.h"
#include "fabric_out.h"
#include "json_out.h"

#include <getopt.h>
#include <stdio.h>

static const char fabric_usage[] =
    "Usage: rdmakit fabric [--links | --degraded] [--json] [-C CA] [-P PORT]\n"
    "                      [--node-name-map FILE] [--timeout MS]\n"
    "\n"
    "Discovers the InfiniBand fabric from this node (switches, CAs, routers, their\n"
    "ports and the links between them) and flags degraded links: slower or narrower\n"
    "than the best both ends enable, or than most links between the same models.\n"
    "\n"
    "  --links                list every link\n"
    "  --degraded             list only degraded links\n"
    "  --json                 {\"nodes\": [...], \"links\": [...]}\n" CLI_MAD_HELP
    "  --help                 this text\n";

static const struct option fabric_options[] = {
    {"links", no_argument, NULL, OPT_LINKS},
    {"degraded", no_argument, NULL, OPT_DEGRADED},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, OPT_HELP},
    CLI_MAD_LONG_OPTIONS,
    {NULL, 0, NULL, 0},
};

struct fabric_args {
	struct cli_common common;
	struct cli_mad mad;
	enum link_selection links;
};

static int parse_fabric_args(int argc, char **argv, struct fabric_args *args)
{
	int opt, handled;

	while ((opt = getopt_long(argc, argv, CLI_MAD_SHORT_OPTIONS, fabric_options, NULL)) != -1) {
		if (opt == OPT_HELP) {
			fputs(fabric_usage, stdout);
			return 0;
		} else if (opt == OPT_LINKS) {
			args->links = LINKS_ALL;
		} else if (opt == OPT_DEGRADED) {
			args->links = LINKS_DEGRADED;
		} else if ((handled = cli_mad_option(&args->mad, opt, optarg)) != 0) {
			if (handled < 0)
				return EXIT_TROUBLE;
		} else if (!cli_common_option(&args->common, opt, optarg)) {
			return cli_usage_error("fabric", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage_error("fabric", "unexpected argument \"%s\"", argv[optind]);
	return -1; /* go on */
}

int cmd_fabric(int argc, char **argv)
{
	struct fabric_args args = {0};
	struct rk_monitor_options options;
	struct rk_name_map *names;
	struct rk_fabric *fabric;
	int status = parse_fabric_args(argc, argv, &args);

	if (status >= 0)
		return status;
	if (!cli_load_name_map(&args.mad, &names))
		return EXIT_TROUBLE;
	cli_monitor_options(&args.mad, names, false, &options);
	if (rk_fabric_discover(&options.fabric, &fabric) != 0) {
		rk_name_map_free(names);
		return EXIT_TROUBLE;
	}
	if (args.common.json)
		json_print(json_fabric(fabric, args.links), true);
	else
		text_fabric(stdout, fabric, args.links);
	rk_fabric_free(fabric);
	rk_name_map_free(names);
	return 0;
}
