/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cli.h"
#include "fabric_out.h"
#include "json_out.h"

#include <stddef.h>
#include <stdio.h>

static const char fabric_usage[] =
    "Usage: rdmakit fabric [--links | --degraded] [--json] [-C CA] [-P PORT]\n"
    "                      [--node-name-map FILE] [--timeout MS]\n"
    "\n"
    "Discovers the InfiniBand fabric from this node (switches, CAs, routers, their\n"
    "ports and the links between them) and flags degraded links: slower or narrower\n"
    "than the best both ends enable, or than most links between the same models.\n"
    "\n";

struct fabric_args {
	struct cli_common common;
	struct cli_mad mad;
	int links; /* enum link_selection */
};

#define FIELD(name) offsetof(struct fabric_args, name)

static const struct cli_option fabric_options[] = {
    {.name = "links",
     .store = cli_store_choice,
     .field = FIELD(links),
     .value = LINKS_ALL,
     .help = "list every link"},
    {.name = "degraded",
     .store = cli_store_choice,
     .field = FIELD(links),
     .value = LINKS_DEGRADED,
     .help = "list only degraded links"},
    {.name = "json",
     .store = cli_store_flag,
     .field = FIELD(common.json),
     .help = "{\"nodes\": [...], \"links\": [...]}"},
    {0},
};

static const struct cli_command fabric_command = {
    .name = "fabric",
    .usage = fabric_usage,
    .options = fabric_options,
    .mad = true,
    .column = 25,
};

int cmd_fabric(int argc, char **argv)
{
	struct fabric_args args = {0};
	struct rk_monitor_options options;
	struct rk_name_map *names;
	struct rk_fabric *fabric;
	int status;

	if (!cli_parse(&fabric_command, argc, argv, &args, &args.mad, &status))
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
