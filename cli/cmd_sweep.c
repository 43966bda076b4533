/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cli.h"
#include "fabric_out.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

static const char sweep_usage[] =
    "Usage: rdmakit sweep [--errors-only] [--interval S] [--count N] [--reset NAMES]\n"
    "                     [--rediscover S] [--json] [-C CA] [-P PORT]\n"
    "                     [--node-name-map FILE] [--timeout MS] [--window N]\n"
    "\n"
    "Reads PortCounters (and PortCountersExtended where the node supports it) of\n"
    "every switch and CA port of the fabric, many MADs in flight at once. Data\n"
    "counters are in bytes. Counters stuck at their maximum are flagged saturated.\n"
    "Nothing is ever cleared unless --reset names the counters. With --errors-only,\n"
    "each switch is first asked for the sum of its ports (AllPortSelect), ports are\n"
    "read one by one only where a sum has errors, and PortCountersExtended only of\n"
    "the ports shown.\n"
    "\n";

struct sweep_args {
	struct cli_common common;
	struct cli_mad mad;
	bool errors_only;
	double interval, rediscover;
	unsigned long count;
	uint32_t reset_mask;
};

static bool store_reset(const struct cli_option *option, const char *arg, void *field)
{
	(void)option;
	return rk_sweep_reset_mask(arg, field) == 0;
}

#define FIELD(name) offsetof(struct sweep_args, name)

static const struct cli_option sweep_options[] = {
    CLI_FLAG("errors-only", FIELD(errors_only), "show only ports with non-zero error counters"),
    CLI_OPTION("interval", "S", cli_store_setting, FIELD(interval), RK_SETTING_INTERVAL_S,
	       "sweep again every S seconds, with deltas and rates"),
    CLI_OPTION("count", "N", cli_store_count, FIELD(count), 0,
	       "number of sweeps (default 1, or unlimited with --interval)"),
    CLI_OPTION("reset", "NAMES", store_reset, FIELD(reset_mask), 0,
	       "after the first sweep, clear these error counters\n"
	       "(comma-separated, e.g. symbol_error,link_downed) on\n"
	       "every swept port"),
    CLI_OPTION("rediscover", "S", cli_store_setting, FIELD(rediscover), RK_SETTING_REDISCOVER_S,
	       "rediscover the topology when older than S seconds\n"
	       "(default " RK_STRINGIFY(RK_REDISCOVER_DEFAULT_S) "; it is also rediscovered "
								 "when ports stop\n"
								 "answering)"),
    CLI_FLAG("json", FIELD(common.json), "{\"ports\": [...], \"failed\": [...]} per sweep"),
    {0},
};

static const struct cli_command sweep_command = {
    .name = "sweep",
    .usage = sweep_usage,
    .options = sweep_options,
    .mad = true,
    .column = 25,
};

/* Parse, then the defaults that depend on what was given; false: exit with *status. */
static bool parse_sweep_args(int argc, char **argv, struct sweep_args *args, int *status)
{
	args->interval = -1; /* not given */
	args->rediscover = RK_REDISCOVER_DEFAULT_S;
	if (!cli_parse(&sweep_command, argc, argv, args, &args->mad, status))
		return false;
	if (args->count == 0) /* not given */
		args->count = args->interval >= 0 ? 0 : 1;
	if (args->interval < 0)
		args->interval = 0;
	return true;
}

static void show_progress(size_t done, size_t total, void *ctx)
{
	(void)ctx;
	if (done % 256 == 0 || done == total)
		fprintf(stderr, "\rsweeping: %zu/%zu MADs%s", done, total,
			done == total ? "\n" : "");
}

/* -EIO when the output could not be written: no point sweeping on. */
static int show_sweep(const struct sweep_args *args, const struct rk_monitor *monitor)
{
	struct printer printer;

	print_start(&printer, stdout,
		    args->common.json ? PRINT_FORMAT_JSON_STREAM : PRINT_FORMAT_TEXT);
	print_sweep(&printer, monitor->fabric, &monitor->sweep, args->errors_only);
	return print_end(&printer) ? 0 : -EIO;
}

static int reset_counters(const struct sweep_args *args, struct rk_monitor *monitor)
{
	size_t failed;
	int err = rk_sweep_reset(monitor->port, &monitor->sweep, args->reset_mask,
				 &monitor->options.mad, &failed);

	if (!err)
		fprintf(stderr,
			"rdmakit sweep: cleared the named counters on %zu ports (%zu failed)\n",
			monitor->sweep.count - failed, failed);
	return err;
}

static int run_sweeps(const struct sweep_args *args, struct rk_monitor *monitor)
{
	rk_sweep_progress_fn progress = isatty(STDERR_FILENO) ? show_progress : NULL;
	int err = 0;

	for (unsigned long n = 0; !err && (args->count == 0 || n < args->count); n++) {
		if (n > 0)
			cli_sleep(args->interval);
		err = rk_monitor_sweep(monitor, progress, NULL);
		if (!err)
			err = show_sweep(args, monitor);
		if (!err && n == 0 && args->reset_mask)
			err = reset_counters(args, monitor);
	}
	return err;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args args = {0};
	struct rk_monitor_options options;
	struct rk_monitor monitor;
	struct rk_name_map *names;
	int status, err;

	if (!parse_sweep_args(argc, argv, &args, &status))
		return status;
	if (!cli_load_name_map(&args.mad, &names))
		return EXIT_TROUBLE;
	cli_monitor_options(&args.mad, names, args.count != 1, &options);
	options.rediscover_seconds = args.rediscover;
	options.errors_only = args.errors_only;
	rk_monitor_init(&monitor, &options);
	err = run_sweeps(&args, &monitor);
	status = err ? cli_exit_for(err) : 0;
	rk_monitor_close(&monitor);
	rk_name_map_free(names);
	return status;
}
