/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit counters: every counter of this host's ports, once or as rates. */
#include "cli.h"
#include "host_out.h"

#include <stddef.h>
#include <stdio.h>

static const char counters_usage[] =
    "Usage: rdmakit counters [--interval S] [--count N] [--sysfs-root DIR] [--json]\n"
    "                        [DEVICE[:PORT]]\n"
    "\n"
    "Every counter of every port (counters/ and the driver's hw_counters/), data\n"
    "counters in bytes. Sampled twice or more, it also shows rates per second.\n"
    "\n";

struct counters_args {
	struct cli_common common;
	struct port_filter filter;
	double interval;
	unsigned long count; /* 0: until interrupted */
};

#define FIELD(name) offsetof(struct counters_args, name)

static const struct cli_option counters_options[] = {
    CLI_OPTION("interval", "S", cli_store_setting, FIELD(interval), RK_SETTING_INTERVAL_S,
	       "seconds between samples (default 1); given without --count,\n"
	       "samples until interrupted"),
    CLI_OPTION("count", "N", cli_store_count, FIELD(count), 0,
	       "number of samples (default 1, or unlimited with --interval)"),
    CLI_OPTION("sysfs-root", "DIR", cli_store_text, FIELD(common.sysfs_root), 0,
	       "read DIR instead of /sys"),
    CLI_FLAG("json", FIELD(common.json), "one JSON object per sample (one line each when N > 1)"),
    {0},
};

static const struct cli_option counters_operand =
    CLI_OPTION(NULL, "DEVICE[:PORT]", cli_store_port_filter, FIELD(filter), 0, NULL);

static const struct cli_command counters_command = {
    .name = "counters",
    .usage = counters_usage,
    .options = counters_options,
    .operand = &counters_operand,
    .column = 20,
};

/* Parse, then the defaults that depend on what was given; false: exit with *status. */
static bool parse_counters_args(int argc, char **argv, struct counters_args *args, int *status)
{
	args->interval = -1; /* not given */
	if (!cli_parse(&counters_command, argc, argv, args, NULL, status))
		return false;
	if (args->count == 0) /* not given */
		args->count = args->interval >= 0 ? 0 : 1;
	if (args->interval < 0)
		args->interval = 1;
	return true;
}

/* False when the output could not be written: no point sampling on. */
static bool print_sample(const struct counters_args *args, const struct rk_host *host)
{
	struct printer printer;

	print_start(&printer, stdout, print_json_format(args->common.json, args->count != 1));
	print_counters(&printer, host, &args->filter);
	return print_end(&printer);
}

int cmd_counters(int argc, char **argv)
{
	struct counters_args args = {0};
	struct rk_host *host;
	int status;

	if (!parse_counters_args(argc, argv, &args, &status))
		return status;
	host = cli_open_filtered_host(&args.common, &args.filter);
	if (!host)
		return EXIT_TROUBLE;
	for (unsigned long n = 1; print_sample(&args, host) && (args.count == 0 || n < args.count);
	     n++) {
		cli_sleep(args.interval);
		rk_host_refresh(host);
		if (!args.common.json)
			printf("\n");
	}
	rk_host_close(host);
	return 0;
}
