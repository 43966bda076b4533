/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cli.h"
#include "fabric_out.h"
#include "json_out.h"

#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#define TEXT_OF(x)     #x
#define NUMBER_TEXT(x) TEXT_OF(x)

static const char sweep_usage[] =
    "Usage: rdmakit sweep [--errors-only] [--interval S] [--count N] [--reset NAMES]\n"
    "                     [--rediscover S] [--json] [-C CA] [-P PORT]\n"
    "                     [--node-name-map FILE] [--timeout MS] [--window N]\n"
    "\n"
    "Reads PortCounters (and PortCountersExtended where the node supports it) of\n"
    "every switch and CA port of the fabric, many MADs in flight at once. Data\n"
    "counters are in bytes. Counters stuck at their maximum are flagged saturated.\n"
    "Nothing is ever cleared unless --reset names the counters.\n"
    "\n"
    "  --errors-only          show only ports with non-zero error counters\n"
    "  --interval S           sweep again every S seconds, with deltas and rates\n"
    "  --count N              number of sweeps (default 1, or unlimited with --interval)\n"
    "  --reset NAMES          after the first sweep, clear these error counters\n"
    "                         (comma-separated, e.g. symbol_error,link_downed) on\n"
    "                         every swept port\n"
    "  --rediscover S         rediscover the topology when older than S seconds\n"
    "                         (default " NUMBER_TEXT(
	RK_REDISCOVER_DEFAULT_S) "; it is also rediscovered when ports stop\n"
				 "                         answering)\n"
				 "  --json                 {\"ports\": [...], \"failed\": [...]} "
				 "per sweep\n" CLI_MAD_HELP "  --help                 this text\n";

static const struct option sweep_options[] = {
    {"errors-only", no_argument, NULL, OPT_ERRORS_ONLY},
    {"interval", required_argument, NULL, OPT_INTERVAL},
    {"count", required_argument, NULL, OPT_COUNT},
    {"reset", required_argument, NULL, OPT_RESET},
    {"rediscover", required_argument, NULL, OPT_REDISCOVER},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, OPT_HELP},
    CLI_MAD_LONG_OPTIONS,
    {NULL, 0, NULL, 0},
};

struct sweep_args {
	struct cli_common common;
	struct cli_mad mad;
	bool errors_only;
	double interval, rediscover;
	unsigned long count;
	uint32_t reset_mask;
};

static int parse_sweep_option(struct sweep_args *args, int opt, const char *arg,
			      bool *interval_given)
{
	switch (opt) {
	case OPT_ERRORS_ONLY:
		args->errors_only = true;
		return -1;
	case OPT_INTERVAL:
		*interval_given = true;
		return cli_parse_seconds("--interval", arg, &args->interval) ? -1 : EXIT_TROUBLE;
	case OPT_COUNT:
		return cli_parse_count("--count", arg, 1000000, &args->count) ? -1 : EXIT_TROUBLE;
	case OPT_REDISCOVER:
		return cli_parse_seconds("--rediscover", arg, &args->rediscover) ? -1
										 : EXIT_TROUBLE;
	case OPT_RESET:
		return rk_sweep_reset_mask(arg, &args->reset_mask) == 0 ? -1 : EXIT_TROUBLE;
	default:
		return -2; /* not a sweep option */
	}
}

static int parse_sweep_args(int argc, char **argv, struct sweep_args *args)
{
	bool interval_given = false;
	int opt, status, handled;

	args->count = 0;
	args->rediscover = RK_REDISCOVER_DEFAULT_S;
	while ((opt = getopt_long(argc, argv, CLI_MAD_SHORT_OPTIONS, sweep_options, NULL)) != -1) {
		if (opt == OPT_HELP) {
			fputs(sweep_usage, stdout);
			return 0;
		}
		status = parse_sweep_option(args, opt, optarg, &interval_given);
		if (status >= 0)
			return status;
		if (status == -1)
			continue;
		handled = cli_mad_option(&args->mad, opt, optarg);
		if (handled < 0)
			return EXIT_TROUBLE;
		if (!handled && !cli_common_option(&args->common, opt, optarg))
			return cli_usage_error("sweep", "unknown option");
	}
	if (optind < argc)
		return cli_usage_error("sweep", "unexpected argument \"%s\"", argv[optind]);
	if (args->count == 0)
		args->count = interval_given ? 0 : 1;
	return -1; /* go on */
}

static void show_progress(size_t done, size_t total, void *ctx)
{
	(void)ctx;
	if (done % 256 == 0 || done == total)
		fprintf(stderr, "\rsweeping: %zu/%zu MADs%s", done, total,
			done == total ? "\n" : "");
}

static void print_sweep(const struct sweep_args *args, const struct rk_monitor *monitor)
{
	if (args->common.json)
		print_json_sweep(stdout, monitor->fabric, &monitor->sweep, args->errors_only);
	else
		text_sweep(stdout, monitor->fabric, &monitor->sweep, args->errors_only);
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
			print_sweep(args, monitor);
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
	int status = parse_sweep_args(argc, argv, &args);

	if (status >= 0)
		return status;
	if (!cli_load_name_map(&args.mad, &names))
		return EXIT_TROUBLE;
	cli_monitor_options(&args.mad, names, args.count != 1, &options);
	options.rediscover_seconds = args.rediscover;
	rk_monitor_init(&monitor, &options);
	status = run_sweeps(&args, &monitor) ? EXIT_TROUBLE : 0;
	rk_monitor_close(&monitor);
	rk_name_map_free(names);
	return status;
}
