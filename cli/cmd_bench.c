/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "bench_out.h"
#include "cli.h"
#include "json_out.h"

#include <errno.h>
#include <getopt.h>
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
    "\n"
    "  --bind ADDR     server: listen on this address only (default: every address)\n"
    "  --port N        rdma_cm port (default 18515)\n"
    "  --once          server: serve one client run, then exit\n"
    "  --size N        bytes per message (default 65536 for BW, 2 for latency)\n"
    "  --sizes LIST    a sweep: 2,64,4096 or 2-65536 (every power of two between)\n"
    "  --iters N       timed iterations per QP (default 5000 BW, 1000 latency)\n"
    "  --duration S    run each size for S seconds instead\n"
    "  --qps N         queue pairs, one connection each (BW tests; default 1)\n"
    "  --tx-depth N    work requests in flight per QP (default 128; latency: 1)\n"
    "  --inline N      send up to N bytes inline (default 0 BW, 220 latency)\n"
    "  --cq-mod N      one signalled completion every N requests (default 16)\n"
    "  --bidir         BW tests: the server sends the same load back meanwhile; the\n"
    "                  figures are the client's direction under that load\n"
    "  --warmup N      untimed iterations first (default tx-depth x 2 BW, 100 latency)\n"
    "  --timeout S     seconds to wait for the server (default 10)\n"
    "  --no-numa       do not bind to the device's NUMA node (bound by default)\n"
    "  --json          one JSON document (schema_version 1)\n"
    "  --plot FILE     draw the sweep into FILE (SVG) with gnuplot\n"
    "\n"
    "Exit status: 0 done, 2 the run failed (bad data, lost connection), 3 could not\n"
    "run (bad option, port not ACTIVE, size beyond the device's limit, no server).\n";

enum {
	OPT_BIND = OPT_REDISCOVER + 100,
	OPT_PORT,
	OPT_ONCE,
	OPT_TEST,
	OPT_SIZE,
	OPT_SIZES,
	OPT_ITERS,
	OPT_DURATION,
	OPT_QPS,
	OPT_TX_DEPTH,
	OPT_INLINE,
	OPT_CQ_MOD,
	OPT_BIDIR,
	OPT_WARMUP,
	OPT_NO_NUMA,
	OPT_PLOT,
};

static const struct option bench_options[] = {
    {"bind", required_argument, NULL, OPT_BIND},
    {"port", required_argument, NULL, OPT_PORT},
    {"once", no_argument, NULL, OPT_ONCE},
    {"test", required_argument, NULL, OPT_TEST},
    {"size", required_argument, NULL, OPT_SIZE},
    {"sizes", required_argument, NULL, OPT_SIZES},
    {"iters", required_argument, NULL, OPT_ITERS},
    {"duration", required_argument, NULL, OPT_DURATION},
    {"qps", required_argument, NULL, OPT_QPS},
    {"tx-depth", required_argument, NULL, OPT_TX_DEPTH},
    {"inline", required_argument, NULL, OPT_INLINE},
    {"cq-mod", required_argument, NULL, OPT_CQ_MOD},
    {"bidir", no_argument, NULL, OPT_BIDIR},
    {"warmup", required_argument, NULL, OPT_WARMUP},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"no-numa", no_argument, NULL, OPT_NO_NUMA},
    {"json", no_argument, NULL, OPT_JSON},
    {"plot", required_argument, NULL, OPT_PLOT},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

/* What the command line asked for; -1 in a number means "not given". */
struct bench_args {
	bool server_mode, once, json, have_test, no_numa;
	const char *bind, *host, *plot;
	struct rk_bench_client_options client;
	long tx_depth, inline_size, cq_mod, warmup, iters;
};

/* Zero and 0-prefixed values are accepted where 0 means something (--inline, --warmup). */
static bool parse_number(const char *option, const char *text, unsigned long min, unsigned long max,
			 long *out)
{
	unsigned long value;

	if (strcmp(text, "0") == 0 && min == 0) {
		*out = 0;
		return true;
	}
	if (!cli_parse_count(option, text, max, &value))
		return false;
	if (value < min) {
		fprintf(stderr, "rdmakit: %s: must be at least %lu\n", option, min);
		return false;
	}
	*out = (long)value;
	return true;
}

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
static bool parse_sizes(const char *text, struct rk_bench_client_options *o)
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
		if (!cli_parse_count("--sizes", item, 1UL << 30, &first))
			return false;
		last = first;
		if (dash && !cli_parse_count("--sizes", dash + 1, 1UL << 30, &last))
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

/* One option; false (message printed) when its value is bad. */
static bool bench_option(struct bench_args *a, int opt, const char *arg)
{
	struct rk_bench_client_options *o = &a->client;
	unsigned long value;
	long number;

	switch (opt) {
	case OPT_BIND:
		a->bind = arg;
		return true;
	case OPT_PORT:
		if (!cli_parse_count("--port", arg, 65535, &value))
			return false;
		o->port = (uint16_t)value;
		return true;
	case OPT_ONCE:
		return a->once = true;
	case OPT_TEST:
		return (a->have_test = parse_test(arg, &o->params));
	case OPT_SIZE:
		o->nsizes = 0;
		return cli_parse_count("--size", arg, 1UL << 30, &value) && add_size(o, value);
	case OPT_SIZES:
		return parse_sizes(arg, o);
	case OPT_ITERS:
		return parse_number("--iters", arg, 1, 100000000, &a->iters);
	case OPT_DURATION:
		return cli_parse_positive("--duration", arg, &o->params.duration);
	case OPT_QPS:
		if (!parse_number("--qps", arg, 1, RK_BENCH_MAX_QPS, &number))
			return false;
		o->params.qps = (uint32_t)number;
		return true;
	case OPT_TX_DEPTH:
		return parse_number("--tx-depth", arg, 1, 8192, &a->tx_depth);
	case OPT_INLINE:
		return parse_number("--inline", arg, 0, 1024, &a->inline_size);
	case OPT_CQ_MOD:
		return parse_number("--cq-mod", arg, 1, 8192, &a->cq_mod);
	case OPT_WARMUP:
		return parse_number("--warmup", arg, 0, 100000000, &a->warmup);
	case OPT_TIMEOUT:
		return cli_parse_positive("--timeout", arg, &o->timeout);
	case OPT_BIDIR:
		return o->params.bidir = true;
	case OPT_NO_NUMA:
		return a->no_numa = true;
	case OPT_JSON:
		return a->json = true;
	case OPT_PLOT:
		a->plot = arg;
		return true;
	default:
		return false;
	}
}

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
	if (p->qps == 0)
		p->qps = 1;
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

static int parse_bench_args(int argc, char **argv, struct bench_args *a)
{
	int opt;

	a->tx_depth = a->inline_size = a->cq_mod = a->warmup = a->iters = -1;
	while ((opt = getopt_long(argc, argv, "", bench_options, NULL)) != -1) {
		if (opt == OPT_HELP) {
			fputs(bench_usage, stdout);
			return 0;
		}
		if (opt == '?')
			return cli_usage_error("bench", "unknown option");
		if (!bench_option(a, opt, optarg))
			return EXIT_TROUBLE;
	}
	if (optind >= argc)
		return cli_usage_error("bench", "say \"server\" or \"client HOST\"");
	a->server_mode = strcmp(argv[optind], "server") == 0;
	if (!a->server_mode && strcmp(argv[optind], "client") != 0)
		return cli_usage_error("bench", "unknown mode \"%s\"", argv[optind]);
	if (a->server_mode && optind + 1 != argc)
		return cli_usage_error("bench", "the server takes no arguments");
	if (!a->server_mode && optind + 2 != argc)
		return cli_usage_error("bench", "client: give one HOST (the server's address)");
	if (!a->server_mode && !a->have_test)
		return cli_usage_error("bench", "client: --test is required");
	a->host = a->server_mode ? NULL : argv[optind + 1];
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
	if (a->json)
		json_print(json_bench(&a->client, &context, results), true);
	else
		text_bench(stdout, &a->client, &context, results);
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
