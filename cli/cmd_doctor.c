/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit doctor: every health rule over the host, and with --fabric the fabric. */
#include "cli.h"
#include "doctor_probe.h"
#include "fabric_session.h"
#include "host_out.h"
#include "rdmakit/file.h"
#include "rdmakit/health.h"

#include "rdmakit/tune.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char doctor_usage[] =
    "Usage: rdmakit doctor [--interval S] [--expect-rate GBPS] [--sysfs-root DIR] [--json]\n"
    "                      [--tune]\n"
    "                      [--fabric [--expect FILE] [-C CA] [-P PORT] [--node-name-map FILE]\n"
    "                                [--timeout MS]]\n"
    "                      [--probe]\n"
    "\n"
    "Checks this host's RDMA devices and prints findings, most severe first, each\n"
    "with what to do: ports not ACTIVE (no SM, no cable, disabled), ACTIVE ports\n"
    "without an SM LID, links slower than their siblings or than expected, PCIe\n"
    "links below their maximum, saturated counters, mixed firmware; with\n"
    "--interval, also error counters rising and congestion (xmit_wait) between two\n"
    "samples.\n"
    "With --fabric, also the InfiniBand fabric seen from this node: degraded links,\n"
    "ports gone down, the subnet managers (no master, no standby, a hung master)\n"
    "and every port's error counters (rising, saturated, not answering); with\n"
    "--expect, also the fabric against a plan (rdmakit fabric --expect).\n"
    "With --probe, also a loopback RDMA write, read and send on every ACTIVE port\n"
    "(rdmakit probe): PROBE_PASSED, or PROBE_FAILED with the step and what to check.\n"
    "\n";

static const char doctor_epilogue[] =
    "\n"
    "Exit status: 0 nothing above ok, 1 warnings, 2 critical, 3 could not check.\n";

struct doctor_args {
	struct cli_common common;
	struct cli_mad mad;
	bool fabric, tune, probe;
	const char *expect;
	struct rk_health_options health;
	double interval;
};

/* Above 0, and no faster than any link can be. */
static bool store_expect_rate(const struct cli_option *option, const char *arg, void *field)
{
	if (!cli_store_positive(option, arg, field))
		return false;
	if (*(double *)field <= RK_RATE_MAX_GBPS)
		return true;
	cli_usage_error("doctor", "--expect-rate: above any link's rate (%g Gb/s), got %s",
			RK_RATE_MAX_GBPS, arg);
	return false;
}

#define FIELD(name) offsetof(struct doctor_args, name)

static const struct cli_option doctor_options[] = {
    CLI_OPTION("interval", "S", cli_store_setting, FIELD(interval), RK_SETTING_INTERVAL_S,
	       "take a second sample after S seconds (default 0: one sample)"),
    CLI_FLAG("fabric", FIELD(fabric), "add the fabric and SM findings (MADs from this node)"),
    CLI_OPTION("expect", "FILE", cli_store_text, FIELD(expect), 0,
	       "with --fabric: compare the fabric with the plan in FILE"),
    CLI_FLAG("tune", FIELD(tune),
	     "add rdmakit tune audit's findings (no profile) about\n"
	     "/, or the tree above --sysfs-root when that ends in /sys"),
    CLI_FLAG("probe", FIELD(probe), "add the loopback probe's result on every ACTIVE port"),
    CLI_OPTION("expect-rate", "GBPS", store_expect_rate, FIELD(health.expect_rate_gbps), 0,
	       "flag ACTIVE ports below this rate (e.g. 200)"),
    CLI_OPTION("sysfs-root", "DIR", cli_store_text, FIELD(common.sysfs_root), 0,
	       "read DIR instead of /sys"),
    CLI_FLAG("json", FIELD(common.json),
	     "{\"findings\": [{severity, code, subject, message, remedy}]}"),
    {0},
};

static const struct cli_command doctor_command = {
    .name = "doctor",
    .usage = doctor_usage,
    .options = doctor_options,
    .mad = true,
    .column = 25,
    .epilogue = doctor_epilogue,
};

/* What doctor looks at: the host, and with --fabric the fabric seen from it. */
struct doctor_view {
	const struct doctor_args *args;
	struct rk_host *host;
	struct cli_fabric *fabric; /* NULL without --fabric */
};

/* First samples, then (with an interval) the second ones, host and fabric side by side. */
static int take_samples(const struct doctor_view *view)
{
	int err =
	    view->fabric ? cli_fabric_sample(view->fabric, CLI_SAMPLE_SWEEP | CLI_SAMPLE_SM) : 0;

	if (!err && view->args->interval > 0) {
		cli_sleep(view->args->interval);
		rk_host_refresh(view->host);
		if (view->fabric) /* a second discovery shows ports that went down */
			err = cli_fabric_sample(view->fabric, CLI_SAMPLE_DISCOVER |
								  CLI_SAMPLE_SWEEP | CLI_SAMPLE_SM);
	}
	return err;
}

/* The root tune reads: the tree above --sysfs-root when that ends in /sys, else /. */
static void tune_root_of(const struct cli_common *common, char *root, size_t size)
{
	const char *sys = common->sysfs_root;
	size_t len = sys ? strlen(sys) : 0;

	while (len > 1 && sys[len - 1] == '/')
		len--;
	if (len > 4 && strncmp(sys + len - 4, "/sys", 4) == 0)
		snprintf(root, size, "%.*s", (int)(len - 4), sys);
	else
		snprintf(root, size, "/");
}

/* The tune audit's findings (hazards, no profile) added to doctor's. */
static int check_tune(const struct cli_common *common, struct rk_findings *findings)
{
	char root[RK_PATH_SIZE];
	struct rk_tune_options options = {.root = root};
	struct rk_tune_audit audit = {0};
	int err;

	tune_root_of(common, root, sizeof(root));
	err = rk_tune_audit_host(&options, &audit, NULL);
	if (!err)
		err = rk_findings_append_all(findings, &audit.findings);
	rk_tune_audit_free(&audit);
	return err;
}

static int check_all(const struct doctor_view *view, struct rk_findings *findings)
{
	const struct doctor_args *args = view->args;
	const struct rk_fabric_cache *m = view->fabric ? &view->fabric->monitor : NULL;
	int err = rk_health_check_host(view->host, &args->health, findings);

	if (!err && m)
		err = rk_health_check_monitor(m, findings);
	if (!err && m)
		err = rk_health_check_sm(args->interval > 0 ? &m->prev_sm : NULL, &m->sm, findings);
	if (!err && m && args->expect)
		err = cli_expect_plan(args->expect, m->fabric, view->fabric->names, findings);
	if (!err && args->tune)
		err = check_tune(&args->common, findings);
	if (!err && args->probe)
		err = doctor_add_probe_findings(view->host, findings);
	return err;
}

/* Sample, check and print the findings: doctor's exit status. */
static int diagnose(struct cli_fabric *fabric, const void *ctx)
{
	struct doctor_view view = *(const struct doctor_view *)ctx;
	struct rk_findings findings = {0};
	struct printer printer;
	int status;

	view.fabric = fabric;
	if (take_samples(&view) != 0 || check_all(&view, &findings) != 0) {
		fprintf(stderr, "rdmakit doctor: could not complete the checks\n");
		status = EXIT_TROUBLE;
	} else {
		rk_findings_sort(&findings);
		status = cli_exit_for_findings(&findings);
		print_start(&printer, stdout, print_json_format(view.args->common.json, false));
		print_findings(&printer, &findings);
		print_end(&printer);
	}
	rk_findings_free(&findings);
	return status;
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_args args = {0};
	struct doctor_view view = {.args = &args};
	int status;

	if (!cli_parse(&doctor_command, argc, argv, &args, &args.mad, &status))
		return status;
	if (args.expect && !args.fabric)
		return cli_usage_error("doctor", "--expect compares the fabric: add --fabric");
	view.host = cli_open_host(&args.common);
	if (!view.host) {
		fprintf(stderr, "rdmakit doctor: could not complete the checks\n");
		return EXIT_TROUBLE;
	}
	status = args.fabric ? cli_with_fabric(&(struct cli_fabric_run){
				   .mad = &args.mad, .run = diagnose, .ctx = &view})
			     : diagnose(NULL, &view);
	rk_host_close(view.host);
	return status;
}
