/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit sweep: every fabric port's counters over MADs, once or at an interval. */
#include "cli.h"
#include "congestion_out.h"
#include "fabric_out.h"
#include "fabric_session.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char sweep_usage[] =
    "Usage: rdmakit sweep [--errors-only [--data]] [--interval S] [--count N] [--reset NAMES]\n"
    "                     [--top N [--threshold PCT] [--tick-ns NS]]\n"
    "                     [--rediscover S] [--json] [-C CA] [-P PORT]\n"
    "                     [--node-name-map FILE] [--timeout MS] [--window N]\n"
    "\n"
    "Reads PortCounters (and PortCountersExtended where the node supports it) of\n"
    "every switch and CA port of the fabric, many MADs in flight at once. Data\n"
    "counters are in bytes. Counters stuck at their maximum are flagged saturated.\n"
    "Nothing is ever cleared unless --reset names the counters. With --errors-only,\n"
    "each switch is first asked for the sum of its ports (AllPortSelect), ports are\n"
    "read one by one only where a sum has errors, and PortCountersExtended only of\n"
    "the ports shown; the text shows their error counters that are not zero (the\n"
    "JSON every counter).\n"
    "With --top, two sweeps --interval apart rank the ports by how long they\n"
    "waited to send (port_xmit_wait): a share of the interval, and the bandwidth\n"
    "the link lost to it, where the node's tick is known, else ticks per word sent;\n"
    "and which VLs waited (PortVLXmitWaitCounters, read where a port's wait rose).\n"
    "\n";

struct sweep_args {
	struct cli_common common;
	struct cli_mad mad;
	bool errors_only, data;
	double interval, rediscover;
	unsigned long count, top;
	struct rk_congestion_options congestion;
	uint32_t reset_mask;
};

static bool store_reset(const struct cli_option *option, const char *arg, void *field)
{
	(void)option;
	return rk_sweep_reset_mask(arg, field) == 0;
}

#define FIELD(name) offsetof(struct sweep_args, name)

static const struct cli_option sweep_options[] = {
    CLI_FLAG("errors-only", FIELD(errors_only),
	     "show only ports with non-zero error counters, and\n"
	     "in text only those counters"),
    CLI_FLAG("data", FIELD(data),
	     "with --errors-only: the text shows the counters\n"
	     "that are not error counters too (data, packets, wait)"),
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
    CLI_OPTION("top", "N", cli_store_count, FIELD(top), 0,
	       "print the N most congested ports instead of the\n"
	       "counters (from the second sweep; takes --interval)"),
    CLI_OPTION("threshold", "PCT", cli_store_setting, FIELD(congestion.threshold),
	       RK_SETTING_CONGESTION_PCT,
	       "a port waiting PCT% of the time is congested\n"
	       "(default " RK_STRINGIFY(RK_CONGESTION_THRESHOLD_DEFAULT) ")"),
    CLI_OPTION("tick-ns", "NS", cli_store_setting, FIELD(congestion.tick_ns),
	       RK_SETTING_XMIT_WAIT_TICK,
	       "one port_xmit_wait tick in ns on every port (default:\n"
	       "each node's PortSamplesControl Tick)"),
    CLI_FLAG("json", FIELD(common.json),
	     "{\"ports\": [...], \"failed\": [...]} per sweep; with\n"
	     "--top, {\"congested\": [...]}"),
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
	if (args->data && !args->errors_only) {
		*status =
		    cli_usage_error("sweep", "--data is for --errors-only (which hides them)");
		return false;
	}
	if (args->top && args->interval <= 0) {
		*status = cli_usage_error("sweep", "--top compares two sweeps: give --interval S");
		return false;
	}
	if (args->count == 0) /* not given */
		args->count = args->top ? 2 : args->interval >= 0 ? 0 : 1;
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

/* The --top ports of the last interval. */
static int show_top(const struct sweep_args *args, const struct rk_fabric_cache *monitor,
		    struct printer *printer)
{
	struct rk_findings findings = {0};
	struct rk_port_wait *ranked;
	struct congestion_view view = {.fabric = monitor->fabric,
				       .sweep = &monitor->sweep,
				       .top = args->top,
				       .options = &args->congestion,
				       .findings = &findings};
	int err = rk_congestion_rank(monitor->fabric, &monitor->sweep, &args->congestion, &ranked,
				     &view.count);

	if (!err)
		err = rk_health_check_congestion(monitor->fabric, &monitor->sweep,
						 &args->congestion, &findings);
	view.ranked = ranked;
	if (!err)
		print_congestion(printer, &view);
	rk_findings_free(&findings);
	free(ranked);
	return err;
}

/* -EIO when the output could not be written: no point sweeping on. *unread: the ports not
 * read. */
static int show_sweep(const struct sweep_args *args, const struct rk_fabric_cache *monitor,
		      unsigned long n, size_t *unread)
{
	struct printer printer;
	int err = 0;

	*unread = monitor->sweep.failed;
	if (args->top && n == 0)
		return 0; /* nothing to rank before a second sweep */
	print_start(&printer, stdout,
		    args->common.json ? PRINT_FORMAT_JSON_STREAM : PRINT_FORMAT_TEXT);
	if (args->top)
		err = show_top(args, monitor, &printer);
	else
		*unread = print_sweep(&printer, monitor->fabric, &monitor->sweep,
				      !args->errors_only ? SWEEP_ALL
				      : args->data	 ? SWEEP_ERRORS_AND_DATA
							 : SWEEP_ERRORS);
	return print_end(&printer) ? err : -EIO;
}

static int reset_counters(const struct sweep_args *args, struct rk_fabric_cache *monitor)
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

/* The monitor's options the sweep's flags set. */
static void set_sweep_options(struct rk_fabric_cache_options *options, const void *ctx)
{
	const struct sweep_args *args = ctx;

	options->rediscover_seconds = args->rediscover;
	options->errors_only = args->errors_only;
	options->vl_wait = args->top > 0;
	options->congestion = args->congestion;
}

/* --count sweeps --interval apart, each shown; exit 5 when the last did not read every port. */
static int run_sweeps(struct cli_fabric *fabric, const void *ctx)
{
	const struct sweep_args *args = ctx;
	size_t unread = 0;
	int err = 0;

	fabric->progress = isatty(STDERR_FILENO) ? show_progress : NULL;
	for (unsigned long n = 0; !err && (args->count == 0 || n < args->count); n++) {
		err = n > 0 ? cli_fabric_sample_after(fabric, args->interval, CLI_SAMPLE_SWEEP)
			    : cli_fabric_sample(fabric, CLI_SAMPLE_SWEEP);
		if (!err)
			err = show_sweep(args, &fabric->monitor, n, &unread);
		if (!err && n == 0 && args->reset_mask)
			err = reset_counters(args, &fabric->monitor);
	}
	return err ? cli_exit_for(err) : unread ? EXIT_PARTIAL : 0;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args args = {0};
	int status;

	if (!parse_sweep_args(argc, argv, &args, &status))
		return status;
	return cli_with_fabric(&(struct cli_fabric_run){.mad = &args.mad,
							.watching = args.count != 1,
							.set_options = set_sweep_options,
							.run = run_sweeps,
							.ctx = &args});
}
