/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit probe: a loopback RC probe that really moves data on each ACTIVE port. */
#include "cli.h"
#include "port_filter.h"
#include "verbs_out.h"

#include <stddef.h>
#include <stdio.h>

static const char probe_usage[] =
    "Usage: rdmakit probe [DEVICE[:PORT]] [--size BYTES] [--timeout S] [--json]\n"
    "\n"
    "Does RDMA really move data on this port? Two RC queue pairs of one process,\n"
    "connected to each other through the port, do an RDMA write, an RDMA read and a\n"
    "send/receive; the data is checked and every step timed. A failure names the\n"
    "step, the verbs status and what to check.\n"
    "\n"
    "  DEVICE[:PORT]  the device and port (default: the first device, its first port)\n";

static const char probe_epilogue[] =
    "\n"
    "Exit status: 0 pass, 2 fail, 3 could not run (no such device or port, bad option).\n";

struct probe_args {
	struct port_filter filter;
	unsigned long size;
	double timeout;
	bool json;
};

#define FIELD(name) offsetof(struct probe_args, name)

/* Bytes an operation moves: 1 to 1 GiB. */
static bool store_size(const struct cli_option *option, const char *arg, void *field)
{
	return cli_store_bounded(option, arg, 1, 1UL << 30, field);
}

static const struct cli_option probe_options[] = {
    CLI_OPTION("size", "BYTES", store_size, FIELD(size), 0,
	       "bytes moved by each operation (default 4096)"),
    CLI_OPTION("timeout", "S", cli_store_positive, FIELD(timeout), 0,
	       "seconds to wait for each completion (default 5)"),
    CLI_FLAG("json", FIELD(json), "one JSON document (schema_version 1)"),
    {0},
};

static const struct cli_option probe_operand =
    CLI_OPTION(NULL, "DEVICE[:PORT]", cli_store_port_filter, FIELD(filter), 0, NULL);

static const struct cli_command probe_command = {
    .name = "probe",
    .usage = probe_usage,
    .options = probe_options,
    .operand = &probe_operand,
    .column = 17,
    .epilogue = probe_epilogue,
};

int cmd_probe(int argc, char **argv)
{
	struct probe_args args = {0};
	struct rk_probe_options options = {0};
	struct rk_probe_result result;
	struct printer printer;
	int status;

	if (!cli_parse(&probe_command, argc, argv, &args, NULL, &status))
		return status;
	options = (struct rk_probe_options){.device = args.filter.device,
					    .port = args.filter.one_port ? args.filter.port : 0,
					    .size = args.size,
					    .timeout = args.timeout};
	if (rk_probe_run(&options, &result) != 0) {
		fprintf(stderr, "rdmakit probe: could not run the probe\n");
		return EXIT_TROUBLE;
	}
	print_start(&printer, stdout, print_json_format(args.json, false));
	print_probe(&printer, &result);
	print_end(&printer);
	return result.passed ? 0 : 2;
}
