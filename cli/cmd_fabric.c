/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit fabric: discover the fabric and list its nodes, links or degraded links. */
#include "cli.h"
#include "fabric_dot.h"
#include "fabric_out.h"
#include "fabric_session.h"
#include "host_out.h"
#include "rdmakit/plan.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static const char fabric_usage[] =
    "Usage: rdmakit fabric [--links | --degraded | --dot [--congestion S]]\n"
    "                      [--interval S] [--json]\n"
    "                      [--save FILE | --expect FILE]\n"
    "                      [-C CA] [-P PORT] [--node-name-map FILE] [--timeout MS]\n"
    "\n"
    "Discovers the InfiniBand fabric from this node (switches, CAs, routers, their\n"
    "ports and the links between them) and flags degraded links: slower or narrower\n"
    "than the best both ends enable, or than most links between the same models.\n"
    "With --save, writes the fabric as a plan; with --expect, compares the fabric\n"
    "with a plan (rdmakit's, an ibnetdiscover output, an NDT CSV or an\n"
    "ibfabricconf.xml, whose node names are found in the node name map or the\n"
    "node descriptions) and prints the findings:\n"
    "links missing, unexpected, miswired or below the plan, nodes missing, new or\n"
    "replaced.\n"
    "\n";

static const char fabric_epilogue[] =
    "\n"
    "Exit status with --expect: 0 as planned, 1 warnings, 2 critical, 3 could not\n"
    "check.\n";

struct fabric_args {
	struct cli_common common;
	struct cli_mad mad;
	int links; /* enum link_selection */
	bool dot;
	double interval, congestion;
	const char *save, *expect;
};

#define FIELD(name) offsetof(struct fabric_args, name)

static const struct cli_option fabric_options[] = {
    CLI_OPTION("links", NULL, cli_store_choice, FIELD(links), LINKS_ALL, "list every link"),
    CLI_OPTION("degraded", NULL, cli_store_choice, FIELD(links), LINKS_DEGRADED,
	       "list only degraded links"),
    CLI_FLAG("dot", FIELD(dot),
	     "the topology as a Graphviz graph (dot -Tsvg draws it):\n"
	     "switches and CAs by name, links with width and speed,\n"
	     "degraded links red with the reason; links whose ports\n"
	     "went down between two discoveries dashed (that takes\n"
	     "--interval)"),
    CLI_OPTION("congestion", "S", cli_store_positive, FIELD(congestion), 0,
	       "with --dot: sweep twice, S seconds apart, and colour\n"
	       "each link by its more congested end (green, gold from\n"
	       "half the threshold, orange over it, as sweep ranks them)"),
    CLI_OPTION("interval", "S", cli_store_setting, FIELD(interval), RK_SETTING_INTERVAL_S,
	       "discover twice, S seconds apart, and show the second\n"
	       "discovery (default 0: once)"),
    CLI_OPTION("save", "FILE", cli_store_text, FIELD(save), 0,
	       "write the fabric as a plan to FILE (rdmakit's format,\n"
	       "replaced atomically; never over a non-regular file)"),
    CLI_OPTION("expect", "FILE", cli_store_text, FIELD(expect), 0,
	       "compare the fabric with the plan in FILE and print the\n"
	       "findings (exit status as doctor's)"),
    CLI_FLAG("json", FIELD(common.json),
	     "{\"nodes\": [...], \"links\": [...]}; with --expect,\n"
	     "{\"findings\": [...]}"),
    {0},
};

static const struct cli_command fabric_command = {
    .name = "fabric",
    .usage = fabric_usage,
    .options = fabric_options,
    .mad = true,
    .column = 25,
    .epilogue = fabric_epilogue,
};

/* Options that cannot go together; false after the usage error. */
static bool check_combination(const struct fabric_args *args, int *status)
{
	*status = EXIT_TROUBLE;
	if (args->dot && args->common.json)
		cli_usage_error("fabric", "--dot and --json: choose one");
	else if (args->congestion > 0 && (!args->dot || args->interval > 0))
		cli_usage_error("fabric",
				"--congestion colours --dot: give --dot, drop --interval");
	else if (args->dot && args->links != LINKS_NONE)
		cli_usage_error("fabric", "--dot draws every link: drop --links and --degraded");
	else if ((args->save || args->expect) && (args->dot || args->links != LINKS_NONE))
		cli_usage_error("fabric",
				"--save and --expect: drop --dot, --links and --degraded");
	else if (args->save && (args->expect || args->common.json))
		cli_usage_error("fabric", "--save writes a file: drop --expect and --json");
	else
		return true;
	return false;
}

static int print_dot(const struct rk_fabric *prev, const struct rk_fabric *fabric)
{
	struct rk_findings findings = {0};
	int err = prev ? rk_health_check_fabric(prev, fabric, &findings) : 0;

	if (!err)
		dot_fabric(stdout, fabric, prev, &findings, NULL);
	rk_findings_free(&findings);
	return err;
}

int cli_expect_plan(const char *path, const struct rk_fabric *fabric,
		    const struct rk_name_map *names, struct rk_findings *findings)
{
	struct rk_plan *plan;
	unsigned skipped = 0, unplaced = 0;
	int err = rk_plan_load(path, &plan, &skipped);

	if (!err)
		err = rk_plan_compare(fabric, plan, names, RK_LOG_WARNING, &unplaced, findings);
	if (!err)
		err = rk_plan_skipped_finding(path, skipped + unplaced, findings);
	rk_plan_free(plan);
	return err;
}

/* --save: the fabric as a plan in FILE. */
static int save_plan(const char *path, const struct rk_fabric *fabric)
{
	struct rk_plan *plan;
	int err = rk_plan_from_fabric(fabric, &plan);

	if (!err)
		err = rk_plan_save(path, plan);
	if (!err)
		fprintf(stderr, "rdmakit fabric: plan of %zu nodes and %zu links written to %s\n",
			plan->nnodes, plan->nlinks, path);
	rk_plan_free(plan);
	return err ? EXIT_TROUBLE : 0;
}

/* --expect: the findings against the plan; the exit status of the worst. */
static int expect_plan(const struct fabric_args *args, const struct rk_fabric *fabric,
		       const struct rk_name_map *names)
{
	struct rk_findings findings = {0};
	struct printer printer;
	int status = EXIT_TROUBLE;

	if (cli_expect_plan(args->expect, fabric, names, &findings) == 0) {
		rk_findings_sort(&findings);
		status = cli_exit_for_findings(&findings);
		print_start(&printer, stdout, print_json_format(args->common.json, false));
		print_findings(&printer, &findings);
		print_end(&printer);
	} else {
		fprintf(stderr, "rdmakit fabric: could not compare with %s\n", args->expect);
	}
	rk_findings_free(&findings);
	return status;
}

static int show_fabric(const struct fabric_args *args, const struct rk_fabric *prev,
		       const struct rk_fabric *fabric)
{
	struct printer printer;

	if (args->dot)
		return print_dot(prev, fabric);
	print_start(&printer, stdout, print_json_format(args->common.json, false));
	print_fabric(&printer, fabric, args->links);
	print_end(&printer);
	return 0;
}

/* --dot --congestion S: two sweeps S apart, the links coloured by their ports' waits. */
static int dot_congestion(const struct fabric_args *args, struct cli_fabric *session)
{
	const struct rk_fabric_cache *monitor = &session->monitor;
	struct rk_port_wait *waits = NULL;
	int err = cli_fabric_sample(session, CLI_SAMPLE_SWEEP);

	if (!err)
		err = cli_fabric_sample_after(session, args->congestion, CLI_SAMPLE_SWEEP);
	if (!err) {
		waits = calloc(monitor->sweep.count ? monitor->sweep.count : 1, sizeof(*waits));
		err = waits ? 0 : -ENOMEM;
	}
	for (size_t i = 0; !err && i < monitor->sweep.count; i++)
		rk_port_wait_of(monitor->fabric, &monitor->sweep, i, &monitor->options.congestion,
				&waits[i]);
	if (!err)
		dot_fabric(stdout, monitor->fabric, NULL, NULL,
			   &(struct dot_congestion){.sweep = &monitor->sweep, .waits = waits});
	free(waits);
	return err ? cli_exit_for(err) : 0;
}

/* The fabric, and with an interval the discovery before it: saved, compared or shown. */
static int run_fabric(struct cli_fabric *session, const void *ctx)
{
	const struct fabric_args *args = ctx;
	const struct rk_fabric_cache *monitor = &session->monitor;
	int err;

	if (args->congestion > 0)
		return dot_congestion(args, session);
	err = cli_fabric_sample(session, CLI_SAMPLE_DISCOVER);
	if (!err && args->interval > 0)
		err = cli_fabric_sample_after(session, args->interval, CLI_SAMPLE_DISCOVER);
	if (err)
		return cli_exit_for(err);
	if (args->save)
		return save_plan(args->save, monitor->fabric);
	if (args->expect)
		return expect_plan(args, monitor->fabric, session->names);
	return show_fabric(args, args->interval > 0 ? monitor->prev_fabric : NULL,
			   monitor->fabric) == 0
		   ? 0
		   : EXIT_TROUBLE;
}

int cmd_fabric(int argc, char **argv)
{
	struct fabric_args args = {0};
	int status;

	if (!cli_parse(&fabric_command, argc, argv, &args, &args.mad, &status) ||
	    !check_combination(&args, &status))
		return status;
	return cli_with_fabric(
	    &(struct cli_fabric_run){.mad = &args.mad, .run = run_fabric, .ctx = &args});
}
