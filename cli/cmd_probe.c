/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cli.h"
#include "json_out.h"
#include "verbs_out.h"

#include <getopt.h>
#include <stdio.h>

static const char probe_usage[] =
    "Usage: rdmakit probe [DEVICE[:PORT]] [--size BYTES] [--timeout S] [--json]\n"
    "\n"
    "Does RDMA really move data on this port? Two RC queue pairs of one process,\n"
    "connected to each other through the port, do an RDMA write, an RDMA read and a\n"
    "send/receive; the data is checked and every step timed. A failure names the\n"
    "step, the verbs status and what to check.\n"
    "\n"
    "  DEVICE[:PORT]  the device and port (default: the first device, its first port)\n"
    "  --size BYTES   bytes moved by each operation (default 4096)\n"
    "  --timeout S    seconds to wait for each completion (default 5)\n"
    "  --json         one JSON document (schema_version 1)\n"
    "  --help         this text\n"
    "\n"
    "Exit status: 0 pass, 2 fail, 3 could not run (no such device or port, bad option).\n";

enum { OPT_SIZE = OPT_REDISCOVER + 100 };

static const struct option probe_options[] = {
    {"size", required_argument, NULL, OPT_SIZE},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

/* Fills options and *json; returns -1 to go on, else the exit status. */
static int parse_probe_args(int argc, char **argv, struct rk_probe_options *options, bool *json)
{
	struct port_filter filter = {0};
	unsigned long size;
	int opt;

	while ((opt = getopt_long(argc, argv, "", probe_options, NULL)) != -1) {
		if (opt == OPT_HELP) {
			fputs(probe_usage, stdout);
			return 0;
		} else if (opt == OPT_SIZE) {
			if (!cli_parse_count("--size", optarg, 1UL << 30, &size))
				return EXIT_TROUBLE;
			options->size = size;
		} else if (opt == OPT_TIMEOUT) {
			if (!cli_parse_positive("--timeout", optarg, &options->timeout))
				return EXIT_TROUBLE;
		} else if (opt == OPT_JSON) {
			*json = true;
		} else {
			return cli_usage_error("probe", "unknown option");
		}
	}
	if (argc - optind > 1)
		return cli_usage_error("probe", "too many arguments");
	if (optind < argc && !cli_parse_port_filter(argv[optind], &filter))
		return EXIT_TROUBLE;
	options->device = filter.device;
	options->port = filter.one_port ? filter.port : 0;
	return -1;
}

int cmd_probe(int argc, char **argv)
{
	struct rk_probe_options options = {0};
	struct rk_probe_result result;
	bool json = false;
	int status = parse_probe_args(argc, argv, &options, &json);

	if (status >= 0)
		return status;
	if (rk_probe_run(&options, &result) != 0) {
		fprintf(stderr, "rdmakit probe: could not run the probe\n");
		return EXIT_TROUBLE;
	}
	if (json)
		json_print(json_probe(&result), true);
	else
		text_probe(stdout, &result);
	return result.passed ? 0 : 2;
}
