/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit bench: bandwidth and latency runs between two hosts over rdma_cm. */
#include "bench_out.h"
#include "cli.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char bench_usage[] =
    "Usage: rdmakit bench server [--bind ADDR] [--port N] [--once]\n"
    "       rdmakit bench client HOST --test TEST [--size N | --sizes LIST]\n"
    "                    [--iters N | --duration S] [--qps N] [--tx-depth N] [--inline N]\n"
    "                    [--cq-mod N] [--bidir] [--warmup N] [--port N] [--timeout S]\n"
    "                    [--no-numa] [--json] [--plot FILE.svg]\n"
    "\n"
    "Bandwidth and latency between two hosts over rdma_cm (InfiniBand, RoCE, rxe).\n"
    "Parameters and keys travel in the connection's private data; the server serves\n"
    "one client run at a time. Every run warms up first, reads the data back and\n"
    "checks it, and times with CLOCK_MONOTONIC_RAW.\n"
    "\n"
    "TEST: write_bw, read_bw, send_bw, write_lat, read_lat, send_lat. Latency is\n"
    "one-way (half the round trip) for write_lat and send_lat, the round trip for\n"
    "read_lat, as perftest reports them.\n"
    "\n";

static const char bench_epilogue[] =
    "\n"
    "Exit status: 0 done, 2 the run failed (bad data, lost connection), 3 could not\n"
    "run (bad option, port not ACTIVE, size beyond the device's limit, no server).\n";

/* What the command line asked for; -1 in a number means "not given". */
struct bench_args {
	bool server_mode, once, json, have_test, no_numa;
	const char *bind, *host, *plot;
	struct rk_bench_client_options client;
	long tx_depth, inline_size, cq_mod, warmup, iters, qps; /* -1: not given */
};

static bool add_size(struct rk_bench_client_options *o, unsigned long size)
{
	if (o->nsizes == RK_BENCH_MAX_SIZES) {
		fprintf(stderr, "rdmakit: --sizes: at most %d sizes\n", RK_BENCH_MAX_SIZES);
		return false;
	}
	o->sizes[o->nsizes++] = (uint32_t)size;
	return true;
}

/* "2,64,4096" or "2-65536" (powers of two from the first to the last). */
static bool parse_sizes(const struct cli_option *option, const char *text,
			struct rk_bench_client_options *o)
{
	char buf[512], *save = NULL, *item, *dash;
	unsigned long first, last;

	if (strlen(text) >= sizeof(buf) || !text[0]) {
		fprintf(stderr, "rdmakit: --sizes: expected a list like 2,64,4096 or 2-65536\n");
		return false;
	}
	snprintf(buf, sizeof(buf), "%s", text);
	o->nsizes = 0;
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (!cli_store_bounded(option, item, 1, 1UL << 30, &first))
			return false;
		last = first;
		if (dash && !cli_store_bounded(option, dash + 1, 1, 1UL << 30, &last))
			return false;
		for (unsigned long size = first; size <= last; size = dash ? size * 2 : last + 1)
			if (!add_size(o, size))
				return false;
	}
	return true;
}

static bool parse_test(const char *text, struct rk_bench_params *p)
{
	if (rk_bench_parse_test(text, &p->test) == 0)
		return true;
	fprintf(stderr,
		"rdmakit bench: unknown test \"%s\" (write_bw, read_bw, send_bw, write_lat, "
		"read_lat, send_lat)\n",
		text);
	return false;
}

/* The range of each whole-number option (option->value indexes it). */
enum { RANGE_ITERS, RANGE_QPS, RANGE_TX_DEPTH, RANGE_INLINE, RANGE_CQ_MOD, RANGE_WARMUP };
static const struct {
	unsigned long min, max;
} ranges[] = {
    [RANGE_ITERS] = {1, 100000000}, [RANGE_QPS] = {1, RK_BENCH_MAX_QPS},
    [RANGE_TX_DEPTH] = {1, 8192},   [RANGE_INLINE] = {0, 1024},
    [RANGE_CQ_MOD] = {1, 8192},	    [RANGE_WARMUP] = {0, 100000000},
};

/* A long field within its range; "not given" stays -1. */
static bool store_number(const struct cli_option *option, const char *arg, void *field)
{
	unsigned long value;

	if (!cli_store_bounded(option, arg, ranges[option->value].min, ranges[option->value].max,
			       &value))
		return false;
	*(long *)field = (long)value;
	return true;
}

static bool store_port(const struct cli_option *option, const char *arg, void *field)
{
	unsigned long value;

	if (!cli_store_bounded(option, arg, 1, 65535, &value))
		return false;
	*(uint16_t *)field = (uint16_t)value;
	return true;
}

static bool store_size(const struct cli_option *option, const char *arg, void *field)
{
	struct rk_bench_client_options *o = field;
	unsigned long value;

	o->nsizes = 0;
	return cli_store_bounded(option, arg, 1, 1UL << 30, &value) && add_size(o, value);
}

static bool store_sizes(const struct cli_option *option, const char *arg, void *field)
{
	return parse_sizes(option, arg, field);
}

static bool store_test(const struct cli_option *option, const char *arg, void *field)
{
	struct bench_args *a = field;

	(void)option;
	return (a->have_test = parse_test(arg, &a->client.params));
}

#define FIELD(name) offsetof(struct bench_args, name)

static const struct cli_option bench_options[] = {
    CLI_OPTION("bind", "ADDR", cli_store_text, FIELD(bind), 0,
	       "server: listen on this address only (default: every address)"),
    CLI_OPTION("port", "N", store_port, FIELD(client.port), 0, "rdma_cm port (default 18515)"),
    CLI_FLAG("once", FIELD(once), "server: serve one client run, then exit"),
    CLI_OPTION("test", "TEST", store_test, 0, 0, "client: the test to run (see TEST above)"),
    CLI_OPTION("size", "N", store_size, FIELD(client), 0,
	       "bytes per message (default 65536 for BW, 2 for latency)"),
    CLI_OPTION("sizes", "LIST", store_sizes, FIELD(client), 0,
	       "a sweep: 2,64,4096 or 2-65536 (every power of two between)"),
    CLI_OPTION("iters", "N", store_number, FIELD(iters), RANGE_ITERS,
	       "timed iterations per QP (default 5000 BW, 1000 latency)"),
    CLI_OPTION("duration", "S", cli_store_positive, FIELD(client.params.duration), 0,
	       "run each size for S seconds instead"),
    CLI_OPTION("qps", "N", store_number, FIELD(qps), RANGE_QPS,
	       "queue pairs, one connection each (BW tests; default 1)"),
    CLI_OPTION("tx-depth", "N", store_number, FIELD(tx_depth), RANGE_TX_DEPTH,
	       "work requests in flight per QP (default 128; latency: 1)"),
    CLI_OPTION("inline", "N", store_number, FIELD(inline_size), RANGE_INLINE,
	       "send up to N bytes inline (default 0 BW, 220 latency)"),
    CLI_OPTION("cq-mod", "N", store_number, FIELD(cq_mod), RANGE_CQ_MOD,
	       "one signalled completion every N requests (default 16)"),
    CLI_FLAG("bidir", FIELD(client.params.bidir),
	     "BW tests: the server sends the same load back meanwhile; the\n"
	     "figures are the client's direction under that load"),
    CLI_OPTION("warmup", "N", store_number, FIELD(warmup), RANGE_WARMUP,
	       "untimed iterations first (default tx-depth x 2 BW, 100 latency)"),
    CLI_OPTION("timeout", "S", cli_store_positive, FIELD(client.timeout), 0,
	       "seconds to wait for the server (default 10)"),
    CLI_FLAG("no-numa", FIELD(no_numa), "do not bind to the device's NUMA node (bound by default)"),
    CLI_FLAG("json", FIELD(json), "one JSON document (schema_version 1)"),
    CLI_OPTION("plot", "FILE", cli_store_text, FIELD(plot), 0,
	       "draw the sweep into FILE (SVG) with gnuplot"),
    {0},
};

static const struct cli_option bench_operand =
    CLI_OPTION(NULL, "HOST", cli_store_text, FIELD(host), 0, NULL);

static const struct cli_command bench_command = {
    .name = "bench",
    .usage = bench_usage,
    .options = bench_options,
    .operand = &bench_operand,
    .column = 18,
    .epilogue = bench_epilogue,
};

static long or_default(long value, long fallback)
{
	return value >= 0 ? value : fallback;
}

/* Defaults that depend on the test, then what both sides will check. */
static void fill_defaults(struct bench_args *a)
{
	struct rk_bench_params *p = &a->client.params;
	bool lat = rk_bench_is_latency(p->test);

	if (a->client.nsizes == 0)
		add_size(&a->client, lat ? 2 : 65536);
	p->qps = (uint32_t)or_default(a->qps, 1);
	p->iters =
	    p->duration > 0 && a->iters < 0 ? 0 : (uint32_t)or_default(a->iters, lat ? 1000 : 5000);
	p->tx_depth = (uint32_t)or_default(a->tx_depth, lat ? 1 : 128);
	p->cq_mod =
	    (uint32_t)or_default(a->cq_mod, lat ? 1 : (p->tx_depth < 16 ? p->tx_depth : 16));
	p->inline_size = (uint32_t)or_default(a->inline_size, lat ? 220 : 0);
	p->warmup = (uint32_t)or_default(a->warmup, lat ? 100 : 2 * p->tx_depth);
	if (a->client.port == 0)
		a->client.port = RK_BENCH_DEFAULT_PORT;
	a->client.bind_numa = !a->no_numa;
}

/* Fills a; returns -1 to go on, else the exit status. The mode comes first: "server" or
 * "client HOST". */
static int parse_bench_args(int argc, char **argv, struct bench_args *a)
{
	int status;

	a->tx_depth = a->inline_size = a->cq_mod = a->warmup = a->iters = a->qps = -1;
	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		cli_parse(&bench_command, argc, argv, a, NULL, &status);
		return status;
	}
	if (argc < 2 || argv[1][0] == '-')
		return cli_usage_error("bench", "say \"server\" or \"client HOST\"");
	a->server_mode = strcmp(argv[1], "server") == 0;
	if (!a->server_mode && strcmp(argv[1], "client") != 0)
		return cli_usage_error("bench", "unknown mode \"%s\"", argv[1]);
	optind = 2; /* the options come after the mode */
	if (!cli_parse(&bench_command, argc, argv, a, NULL, &status))
		return status;
	if (a->server_mode && a->host)
		return cli_usage_error("bench", "the server takes no arguments");
	if (!a->server_mode && !a->host)
		return cli_usage_error("bench", "client: give one HOST (the server's address)");
	if (!a->server_mode && !a->have_test)
		return cli_usage_error("bench", "client: --test is required");
	fill_defaults(a);
	return -1;
}

static int run_server(const struct bench_args *a)
{
	struct rk_bench_server_options o = {
	    .bind = a->bind, .port = a->client.port, .once = a->once};

	return rk_bench_serve(&o) == 0 ? 0 : EXIT_TROUBLE;
}

static int run_client(struct bench_args *a)
{
	struct rk_bench_result results[RK_BENCH_MAX_SIZES];
	struct rk_bench_context context;
	struct bench_progress progress = {.tty = isatty(STDERR_FILENO) == 1};
	struct printer printer;
	int err;

	a->client.host = a->host;
	a->client.progress = bench_print_progress;
	a->client.progress_ctx = &progress;
	err = rk_bench_client_run(&a->client, &context, results);
	bench_end_progress(&progress);
	if (err) {
		fprintf(stderr, "rdmakit bench: the run did not complete\n");
		return err == -EIO ? 2 : EXIT_TROUBLE;
	}
	print_start(&printer, stdout, print_json_format(a->json, false));
	print_bench(&printer, &a->client, &context, results);
	print_end(&printer);
	if (a->plot && bench_plot(a->plot, &a->client, &context, results) != 0)
		return EXIT_TROUBLE;
	return 0;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_args args = {0};
	int status = parse_bench_args(argc, argv, &args);

	if (status >= 0)
		return status;
	return args.server_mode ? run_server(&args) : run_client(&args);
}
