/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit route: check, trace and dump the switches' unicast forwarding tables. */
#include "cli.h"
#include "fabric_session.h"
#include "route_out.h"

#include "rdmakit/clock.h"
#include "rdmakit/route.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char route_usage[] =
    "Usage: rdmakit route check [--json] [--show N]\n"
    "       rdmakit route trace SRC DST [--json]\n"
    "       rdmakit route dump [SWITCH] [--json]\n"
    "                  [-C CA] [-P PORT] [--node-name-map FILE] [--timeout MS] [--window N]\n"
    "\n"
    "Discovers the fabric, then reads every switch's unicast LinearForwardingTable\n"
    "(directed route, many SMPs in flight). check follows the route from every\n"
    "switch to every LID of a CA port or a switch and reports holes (no out port),\n"
    "loops, dead ends (a port that is down or leads elsewhere), routes through\n"
    "degraded links, routes longer than the shortest path, and switches whose CA\n"
    "LIDs are spread unevenly over their up-links; one finding per switch (or link)\n"
    "and kind, with a count and sample destinations. trace follows one route hop by\n"
    "hop, like ibtracert; dump prints the tables, like ibroute. SRC, DST and SWITCH\n"
    "are LIDs, node or port GUIDs (0x...) or names (node name map, else description).\n"
    "\n";

static const char route_epilogue[] =
    "\n"
    "Exit status: check 0 sound, 1 warnings, 2 critical; trace 0 when the route reaches\n"
    "its destination, 2 when not; 3 could not run.\n";

struct route_args {
	struct cli_common common;
	struct cli_mad mad;
	const char *action;
	const char *operands[2];
	size_t noperands;
	unsigned long show;
};

static bool store_operand(const struct cli_option *option, const char *arg, void *field)
{
	struct route_args *args = (struct route_args *)((char *)field - option->field);

	args->operands[args->noperands++] = arg;
	return true;
}

#define FIELD(name) offsetof(struct route_args, name)

static const struct cli_option route_options[] = {
    CLI_OPTION("show", "N", cli_store_count, FIELD(show), 0,
	       "check: list the N switches of worst balance (default 5)"),
    CLI_FLAG("json", FIELD(common.json),
	     "check: {\"summary\", \"balance\", \"findings\"}; trace:\n"
	     "{\"hops\": [...]}, each with its out_port; dump: {\"switches\"}"),
    {0},
};

static const struct cli_option route_operand =
    CLI_OPTION(NULL, "ARG", store_operand, FIELD(operands), 0, NULL);

static const struct cli_command route_command = {
    .name = "route",
    .usage = route_usage,
    .options = route_options,
    .mad = true,
    .operand = &route_operand,
    .max_operands = 2,
    .column = 25,
    .epilogue = route_epilogue,
};

static size_t operands_of(const char *action)
{
	return strcmp(action, "trace") == 0 ? 2 : strcmp(action, "dump") == 0 ? 1 : 0;
}

/* The action word, then the options and operands after it; false: exit with *status. */
static bool parse_route_args(int argc, char **argv, struct route_args *args, int *status)
{
	args->show = 5;
	if (argc >= 2 && strcmp(argv[1], "--help") == 0)
		return cli_parse(&route_command, argc, argv, args, &args->mad, status);
	*status = EXIT_TROUBLE;
	if (argc < 2 || (strcmp(argv[1], "check") != 0 && strcmp(argv[1], "trace") != 0 &&
			 strcmp(argv[1], "dump") != 0)) {
		cli_usage_error("route", "expected check, trace or dump");
		return false;
	}
	args->action = argv[1];
	optind = 2;
	if (!cli_parse(&route_command, argc, argv, args, &args->mad, status))
		return false;
	*status = EXIT_TROUBLE;
	if (strcmp(args->action, "trace") == 0 && args->noperands != 2)
		cli_usage_error("route", "trace takes SRC and DST");
	else if (args->noperands > operands_of(args->action))
		cli_usage_error("route", "too many arguments for %s", args->action);
	else
		return true;
	return false;
}

/* Resolve an operand to a node and LID; false after saying why. */
static bool resolve(const struct rk_fabric *fabric, const char *text, int *node, uint16_t *lid)
{
	if (rk_route_resolve(fabric, text, node, lid) == 0)
		return true;
	fprintf(stderr, "rdmakit route: \"%s\" names no node or LID of the fabric\n", text);
	return false;
}

static int run_check(const struct route_args *args, const struct rk_fabric *fabric,
		     const struct rk_routes *routes)
{
	struct rk_findings findings = {0};
	struct rk_route_check check;
	struct printer printer;
	double start = rk_monotonic_seconds();
	int status = EXIT_TROUBLE;

	if (rk_route_check(fabric, routes, &check, &findings) == 0) {
		double seconds = rk_monotonic_seconds() - start;

		rk_findings_sort(&findings);
		status = cli_exit_for_findings(&findings);
		print_start(&printer, stdout, print_json_format(args->common.json, false));
		print_route_check(&printer, fabric, routes, &check, &findings, seconds, args->show);
		print_end(&printer);
		rk_route_check_free(&check);
	}
	rk_findings_free(&findings);
	return status;
}

static int run_trace(const struct route_args *args, const struct rk_fabric *fabric,
		     const struct rk_routes *routes)
{
	struct rk_route_path path;
	struct printer printer;
	uint16_t src_lid, dst_lid;
	int src, dst;

	if (!resolve(fabric, args->operands[0], &src, &src_lid) ||
	    !resolve(fabric, args->operands[1], &dst, &dst_lid))
		return EXIT_TROUBLE;
	rk_route_follow(fabric, routes, src, dst_lid, &path);
	print_start(&printer, stdout, print_json_format(args->common.json, false));
	print_route_trace(&printer, fabric, &path, dst_lid);
	print_end(&printer);
	return path.end == RK_ROUTE_REACHES ? 0 : 2;
}

static int run_dump(const struct route_args *args, const struct rk_fabric *fabric,
		    const struct rk_routes *routes)
{
	struct printer printer;
	uint16_t lid;
	int node = -1;

	if (args->noperands && !resolve(fabric, args->operands[0], &node, &lid))
		return EXIT_TROUBLE;
	if (node >= 0 && fabric->nodes[node].type != RK_NODE_SWITCH) {
		fprintf(stderr, "rdmakit route: %s is not a switch\n", fabric->nodes[node].name);
		return EXIT_TROUBLE;
	}
	print_start(&printer, stdout, print_json_format(args->common.json, false));
	print_route_dump(&printer, fabric, routes, node);
	print_end(&printer);
	return 0;
}

static int run_action(struct cli_fabric *fabric, const void *ctx)
{
	const struct route_args *args = ctx;
	struct rk_fabric_cache *monitor = &fabric->monitor;
	struct rk_routes routes;
	int status, err = cli_fabric_sample(fabric, CLI_SAMPLE_DISCOVER);

	if (!err)
		err =
		    rk_routes_read(monitor->port, monitor->fabric, &monitor->options.mad, &routes);
	if (err)
		return cli_exit_for(err);
	if (strcmp(args->action, "check") == 0)
		status = run_check(args, monitor->fabric, &routes);
	else if (strcmp(args->action, "trace") == 0)
		status = run_trace(args, monitor->fabric, &routes);
	else
		status = run_dump(args, monitor->fabric, &routes);
	rk_routes_free(&routes);
	return status;
}

int cmd_route(int argc, char **argv)
{
	struct route_args args = {0};
	int status;

	if (!parse_route_args(argc, argv, &args, &status))
		return status;
	return cli_with_fabric(
	    &(struct cli_fabric_run){.mad = &args.mad, .run = run_action, .ctx = &args});
}
