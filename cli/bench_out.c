/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit bench's output: a run through the one writer, the progress line and the plot. */
#include "bench_out.h"

#include "facts_out.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The context (its port's link layer and its device's NUMA node under their facts' keys); the
 * text's header line shows where the run went and how (mtu after gid_type). */
static void print_context(struct printer *p, const struct rk_bench_client_options *o,
			  const struct rk_bench_context *c)
{
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	print_open_object(p, "context");
	print_string(p, PRINT_JSON, "host", NULL, host);
	print_string(p, PRINT_ANY, "server", " to %s", o->host);
	print_uint(p, PRINT_ANY, "server_port", ":%llu", o->port);
	print_string(p, PRINT_ANY, "device", " via %s", c->device);
	print_string(p, PRINT_JSON, "firmware", NULL, c->fw_ver);
	print_uint(p, PRINT_ANY, "port", ":%llu", c->port);
	print_string(p, PRINT_ANY, fact_key(RK_FACT_PORT_LINK_LAYER), " (%s", c->link_layer);
	print_uint(p, PRINT_JSON, "mtu_bytes", NULL, c->mtu);
	print_string(p, PRINT_ANY, "gid_type", ", %s", c->gid_type);
	print_text(p, ", MTU %u)", c->mtu);
	print_int(p, PRINT_JSON, "max_msg_size_bytes", NULL, c->max_msg_size);
	print_double_or_null(p, PRINT_JSON, "link_rate_gbps", NULL, c->link_data_gbps);
	print_double_or_null(p, PRINT_JSON, "pcie_gbps", NULL, c->pcie_data_gbps);
	print_number_or_null(p, PRINT_JSON, fact_key(RK_FACT_DEVICE_NUMA_NODE), NULL, c->numa_node);
	print_string(p, PRINT_JSON, "cpu_binding", NULL, c->cpu_binding);
	print_string(p, PRINT_JSON, "clock", NULL, rk_bench_clock_name(o->params.test));
	print_close(p);
}

/* The parameters that are counts (uint32_t); the text's header line shows warm-up and inline
 * after CQ mod. */
static const struct print_member counts[] = {
    {"warmup_iterations", NULL, PRINT_U32, offsetof(struct rk_bench_params, warmup)},
    {"qps", ", %llu QP(s)", PRINT_U32, offsetof(struct rk_bench_params, qps)},
    {"tx_depth", ", TX depth %llu", PRINT_U32, offsetof(struct rk_bench_params, tx_depth)},
    {"inline_bytes", NULL, PRINT_U32, offsetof(struct rk_bench_params, inline_size)},
    {"cq_moderation", ", CQ mod %llu", PRINT_U32, offsetof(struct rk_bench_params, cq_mod)},
};

/* The latency statistics, in microseconds (doubles). */
static const struct print_member latencies[] = {
    {"min", " %9.2f", PRINT_DOUBLE, offsetof(struct rk_latency_stats, min)},
    {"p50", " %9.2f", PRINT_DOUBLE, offsetof(struct rk_latency_stats, p50)},
    {"p90", " %9.2f", PRINT_DOUBLE, offsetof(struct rk_latency_stats, p90)},
    {"p99", " %9.2f", PRINT_DOUBLE, offsetof(struct rk_latency_stats, p99)},
    {"p99_9", " %9.2f", PRINT_DOUBLE, offsetof(struct rk_latency_stats, p999)},
    {"p99_99", " %9.2f", PRINT_DOUBLE, offsetof(struct rk_latency_stats, p9999)},
    {"max", " %9.2f", PRINT_DOUBLE, offsetof(struct rk_latency_stats, max)},
    {"mean", " %9.2f", PRINT_DOUBLE, offsetof(struct rk_latency_stats, mean)},
    {"stddev", " %9.2f", PRINT_DOUBLE, offsetof(struct rk_latency_stats, stddev)},
};

static void print_params(struct printer *p, const struct rk_bench_params *params)
{
	print_open_object(p, "parameters");
	if (params->iters) {
		print_int(p, PRINT_JSON, "iterations", NULL, params->iters);
		print_null(p, PRINT_JSON, "duration_seconds", NULL);
	} else {
		print_null(p, PRINT_JSON, "iterations", NULL);
		print_double(p, PRINT_JSON, "duration_seconds", NULL, params->duration);
	}
	print_members(p, counts, sizeof(counts) / sizeof(counts[0]), params);
	print_text(p, ", inline %u, warm-up %u", params->inline_size, params->warmup);
	print_bool(p, PRINT_ANY, "bidirectional", params->bidir ? ", bidirectional" : NULL,
		   params->bidir);
	print_text(p, "\n");
	print_close(p);
}

static void print_latency(struct printer *p, const struct rk_latency_stats *s)
{
	print_open_object(p, "latency_us");
	print_members(p, latencies, sizeof(latencies) / sizeof(latencies[0]), s);
	print_close(p);
}

static double percent_of(double value, double ceiling)
{
	return ceiling > 0 ? 100.0 * value / ceiling : -1;
}

/* A result; the text's row ends with whether the data was verified. */
static void print_result(struct printer *p, const struct rk_bench_params *params,
			 const struct rk_bench_context *c, const struct rk_bench_result *r)
{
	bool lat = rk_bench_is_latency(params->test);

	print_open_object(p, NULL);
	print_int(p, PRINT_ANY, "size_bytes", "%10lld", r->size);
	print_uint(p, PRINT_ANY, "iterations", " %10llu", r->iters);
	print_double(p, PRINT_JSON, "seconds", NULL, r->seconds);
	print_bool(p, PRINT_JSON, "verified", NULL, r->verified);
	if (lat) {
		print_string(p, PRINT_JSON, "latency_kind", NULL,
			     params->test == RK_BENCH_READ_LAT ? "round trip"
							       : "one-way (half the round trip)");
		print_latency(p, &r->latency);
	} else {
		print_double(p, PRINT_ANY, "bandwidth_gbps", " %10.3f", r->gbps);
		print_double(p, PRINT_ANY, "messages_per_second", " %12.1f", r->msg_per_second);
		print_double_or_null(p, PRINT_ANY, "link_rate_percent", "  %7.1f",
				     percent_of(r->gbps, c->link_data_gbps));
		print_double_or_null(p, PRINT_ANY, "pcie_percent", "  %7.1f",
				     percent_of(r->gbps, c->pcie_data_gbps));
	}
	print_text(p, "  %s\n",
		   r->verified ? (lat ? "verified" : "yes") : (lat ? "NOT VERIFIED" : "NO"));
	print_close(p);
}

/* The table's heading: the columns of print_result, the latency's kind in its unit. */
static void print_heading(struct printer *p, const struct rk_bench_params *params)
{
	print_text(p, "%10s %10s", "bytes", "iters");
	if (rk_bench_is_latency(params->test))
		print_text(p, " %9s %9s %9s %9s %9s %9s %9s %9s %9s  %s\n", "min", "p50", "p90",
			   "p99", "p99.9", "p99.99", "max", "mean", "stddev",
			   params->test == RK_BENCH_READ_LAT ? "us, round trip" : "us, one-way");
	else
		print_text(p, " %10s %12s  %7s  %7s  %s\n", "Gb/s", "msg/s", "% link", "% PCIe",
			   "verified");
}

void print_bench(struct printer *p, const struct rk_bench_client_options *o,
		 const struct rk_bench_context *c, const struct rk_bench_result *results)
{
	print_open_object(p, NULL);
	print_int(p, PRINT_JSON, "schema_version", NULL, 1);
	print_string(p, PRINT_JSON, "tool", NULL, "rdmakit " RDMAKIT_VERSION);
	print_string(p, PRINT_ANY, "test", "%s", rk_bench_test_name(o->params.test));
	print_context(p, o, c);
	print_params(p, &o->params);
	print_text(p, "clock %s; CPU binding: %s\n", rk_bench_clock_name(o->params.test),
		   c->cpu_binding);
	print_open_array(p, "results");
	print_heading(p, &o->params);
	for (size_t i = 0; i < o->nsizes; i++)
		print_result(p, &o->params, c, &results[i]);
	print_close(p);
	print_close(p);
}

void bench_print_progress(const struct rk_bench_params *params, double fraction, double elapsed,
			  void *ctx)
{
	struct bench_progress *progress = ctx;

	if (!progress->tty || elapsed < 1.0)
		return;
	fprintf(stderr, "\r%s %u bytes: %3.0f%% after %.1f s ", rk_bench_test_name(params->test),
		params->size, fraction * 100, elapsed);
	progress->shown = true;
}

void bench_end_progress(struct bench_progress *progress)
{
	if (progress->shown)
		fprintf(stderr, "\r\033[K");
	progress->shown = false;
}

/* The script and the data, inline (a datablock): nothing taken from the command line. */
static void write_plot_script(FILE *pipe, const struct rk_bench_client_options *o,
			      const struct rk_bench_context *c, const struct rk_bench_result *r)
{
	bool lat = rk_bench_is_latency(o->params.test);

	fprintf(pipe, "set terminal svg size 900,560 dynamic\nset logscale x 2\nset grid\n");
	fprintf(pipe, "set title '%s over %s'\n", rk_bench_test_name(o->params.test),
		c->link_layer[0] ? c->link_layer : "RDMA");
	fprintf(pipe, "set xlabel 'message size (bytes)'\nset ylabel '%s'\nset key left top\n",
		lat ? "latency (us)" : "bandwidth (Gb/s)");
	fprintf(pipe, "$data << EOD\n");
	for (size_t i = 0; i < o->nsizes; i++)
		fprintf(pipe, "%u %.6f %.6f %.6f %.6f\n", r[i].size,
			lat ? r[i].latency.p50 : r[i].gbps, r[i].latency.p90, r[i].latency.p99,
			r[i].latency.p999);
	fprintf(pipe, "EOD\n");
	if (lat)
		fprintf(pipe,
			"plot $data using 1:2 with linespoints title 'p50', '' using 1:3 with "
			"linespoints title 'p90', '' using 1:4 with linespoints title 'p99', "
			"'' using 1:5 with linespoints title 'p99.9'\n");
	else if (c->link_data_gbps > 0)
		fprintf(pipe,
			"plot $data using 1:2 with linespoints title 'Gb/s', %.6f with lines "
			"title 'link rate after encoding'\n",
			c->link_data_gbps);
	else
		fprintf(pipe, "plot $data using 1:2 with linespoints title 'Gb/s'\n");
}

/* gnuplot with a fixed argument list: script and data on its stdin, the SVG on its stdout. */
int bench_plot(const char *path, const struct rk_bench_client_options *o,
	       const struct rk_bench_context *c, const struct rk_bench_result *results)
{
	char *const argv[] = {"gnuplot", NULL};
	int fds[2], out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), status = 0;
	pid_t pid;
	FILE *pipe;

	if (out < 0 || pipe2(fds, O_CLOEXEC) != 0) {
		fprintf(stderr, "rdmakit bench: --plot: cannot write %s: %s\n", path,
			strerror(errno));
		if (out >= 0)
			close(out);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(fds[0], STDIN_FILENO);
		dup2(out, STDOUT_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[0]);
	close(out);
	pipe = fdopen(fds[1], "w");
	if (pid < 0 || !pipe) {
		fprintf(stderr, "rdmakit bench: --plot: cannot start gnuplot\n");
		if (pipe)
			fclose(pipe);
		else
			close(fds[1]);
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	write_plot_script(pipe, o, c, results);
	fclose(pipe);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr,
			"rdmakit bench: --plot: gnuplot failed (%s; is gnuplot installed?)\n",
			WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "not found" : "error");
		return -1;
	}
	return 0;
}
