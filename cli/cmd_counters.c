/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cli.h"
#include "json_out.h"
#include "text_out.h"

#include <getopt.h>
#include <stdio.h>

static const char counters_usage[] =
    "Usage: rdmakit counters [--interval S] [--count N] [--sysfs-root DIR] [--json]\n"
    "                        [DEVICE[:PORT]]\n"
    "\n"
    "Every counter of every port (counters/ and the driver's hw_counters/), data\n"
    "counters in bytes. Sampled twice or more, it also shows rates per second.\n"
    "\n"
    "  --interval S      seconds between samples (default 1); given without --count,\n"
    "                    samples until interrupted\n"
    "  --count N         number of samples (default 1, or unlimited with --interval)\n"
    "  --sysfs-root DIR  read DIR instead of /sys\n"
    "  --json            one JSON object per sample (one line each when N > 1)\n"
    "  --help            this text\n";

static const struct option counters_options[] = {
    {"interval", required_argument, NULL, OPT_INTERVAL},
    {"count", required_argument, NULL, OPT_COUNT},
    {"sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

struct counters_args {
	struct cli_common common;
	struct port_filter filter;
	double interval;
	unsigned long count; /* 0: until interrupted */
};

static int parse_counters_args(int argc, char **argv, struct counters_args *args)
{
	bool interval_given = false, count_given = false;
	int opt;

	args->interval = 1;
	args->count = 1;
	while ((opt = getopt_long(argc, argv, "", counters_options, NULL)) != -1) {
		if (opt == OPT_HELP) {
			fputs(counters_usage, stdout);
			return 0;
		} else if (opt == OPT_INTERVAL) {
			if (!cli_parse_seconds("--interval", optarg, &args->interval))
				return EXIT_TROUBLE;
			interval_given = true;
		} else if (opt == OPT_COUNT) {
			if (!cli_parse_count("--count", optarg, 1000000, &args->count))
				return EXIT_TROUBLE;
			count_given = true;
		} else if (!cli_common_option(&args->common, opt, optarg)) {
			return cli_usage_error("counters", "unknown option");
		}
	}
	if (interval_given && !count_given)
		args->count = 0;
	if (argc - optind > 1)
		return cli_usage_error("counters", "too many arguments");
	if (optind < argc && !cli_parse_port_filter(argv[optind], &args->filter))
		return EXIT_TROUBLE;
	return -1; /* go on */
}

static void print_sample(const struct counters_args *args, const struct rk_host *host)
{
	if (args->common.json)
		json_print(json_counters(host, &args->filter), args->count == 1);
	else
		text_counters(stdout, host, &args->filter);
}

int cmd_counters(int argc, char **argv)
{
	struct counters_args args = {0};
	struct rk_host *host;
	int status = parse_counters_args(argc, argv, &args);

	if (status >= 0)
		return status;
	host = cli_open_host(&args.common);
	if (!host)
		return EXIT_TROUBLE;
	if (!cli_filter_exists(host, &args.filter)) {
		rk_host_close(host);
		return EXIT_TROUBLE;
	}
	print_sample(&args, host);
	for (unsigned long n = 1; args.count == 0 || n < args.count; n++) {
		cli_sleep(args.interval);
		rk_host_refresh(host);
		if (!args.common.json)
			printf("\n");
		print_sample(&args, host);
	}
	rk_host_close(host);
	return 0;
}
