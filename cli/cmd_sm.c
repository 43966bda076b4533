/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit sm: the subnet managers' SMInfo, master and standbys. */
#include "cli.h"
#include "fabric_out.h"
#include "fabric_session.h"
#include "host_out.h"
#include "rdmakit/health.h"

#include <stddef.h>
#include <stdio.h>

static const char sm_usage[] =
    "Usage: rdmakit sm [--interval S] [--json] [-C CA] [-P PORT] [--node-name-map FILE]\n"
    "                  [--timeout MS] [--window N]\n"
    "\n"
    "The subnet managers: SMInfo (LID, GUID, priority, state, activity count) of the\n"
    "master the local port points at and of every port that advertises IsSM, and\n"
    "findings: no master, several masters, no standby, local SM LID disagreeing with\n"
    "the master; with --interval, a master whose activity count does not advance.\n"
    "\n";

struct sm_args {
	struct cli_common common;
	struct cli_mad mad;
	double interval;
};

#define FIELD(name) offsetof(struct sm_args, name)

static const struct cli_option sm_options[] = {
    CLI_OPTION("interval", "S", cli_store_setting, FIELD(interval), RK_SETTING_INTERVAL_S,
	       "query twice, S seconds apart (default 0: once)"),
    CLI_FLAG("json", FIELD(common.json), "{\"sms\": [...], \"findings\": [...]}"),
    {0},
};

static const struct cli_command sm_command = {
    .name = "sm",
    .usage = sm_usage,
    .options = sm_options,
    .mad = true,
    .column = 25,
};

static void print_sms(const struct sm_args *args, const struct rk_fabric_cache *monitor,
		      const struct rk_findings *findings)
{
	struct printer printer;

	print_start(&printer, stdout, print_json_format(args->common.json, false));
	print_open_object(&printer, NULL);
	print_sm(&printer, &monitor->sm);
	print_findings_array(&printer, findings);
	print_close(&printer);
	print_end(&printer);
}

/* The SMs once, or twice --interval apart, and what the health rules say of them. */
static int show_sms(struct cli_fabric *fabric, const void *ctx)
{
	const struct sm_args *args = ctx;
	const struct rk_fabric_cache *monitor = &fabric->monitor;
	struct rk_findings findings = {0};
	int err = cli_fabric_sample(fabric, CLI_SAMPLE_SM);

	if (!err && args->interval > 0)
		err = cli_fabric_sample_after(fabric, args->interval, CLI_SAMPLE_SM);
	if (err)
		return cli_exit_for(err);
	err = rk_health_check_sm(args->interval > 0 ? &monitor->prev_sm : NULL, &monitor->sm,
				 &findings);
	rk_findings_sort(&findings);
	if (!err)
		print_sms(args, monitor, &findings);
	rk_findings_free(&findings);
	return err ? cli_exit_for(err) : 0;
}

int cmd_sm(int argc, char **argv)
{
	struct sm_args args = {0};
	int status;

	if (!cli_parse(&sm_command, argc, argv, &args, &args.mad, &status))
		return status;
	return cli_with_fabric(&(struct cli_fabric_run){
	    .mad = &args.mad, .watching = args.interval > 0, .run = show_sms, .ctx = &args});
}
