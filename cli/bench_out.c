/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "bench_out.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static json_object *number_or_null(double value)
{
	return value >= 0 ? json_object_new_double(value) : NULL;
}

static json_object *json_context(const struct rk_bench_client_options *o,
				 const struct rk_bench_context *c)
{
	json_object *obj = json_object_new_object();
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	json_object_object_add(obj, "host", json_object_new_string(host));
	json_object_object_add(obj, "server", json_object_new_string(o->host));
	json_object_object_add(obj, "server_port", json_object_new_int(o->port));
	json_object_object_add(obj, "device", json_object_new_string(c->device));
	json_object_object_add(obj, "firmware", json_object_new_string(c->fw_ver));
	json_object_object_add(obj, "port", json_object_new_int((int)c->port));
	json_object_object_add(obj, "link_layer", json_object_new_string(c->link_layer));
	json_object_object_add(obj, "mtu_bytes", json_object_new_int((int)c->mtu));
	json_object_object_add(obj, "gid_type", json_object_new_string(c->gid_type));
	json_object_object_add(obj, "max_msg_size_bytes", json_object_new_int64(c->max_msg_size));
	json_object_object_add(obj, "link_rate_gbps", number_or_null(c->link_data_gbps));
	json_object_object_add(obj, "pcie_gbps", number_or_null(c->pcie_data_gbps));
	json_object_object_add(obj, "numa_node",
			       c->numa_node >= 0 ? json_object_new_int(c->numa_node) : NULL);
	json_object_object_add(obj, "cpu_binding", json_object_new_string(c->cpu_binding));
	json_object_object_add(obj, "clock",
			       json_object_new_string(rk_bench_clock_name(o->params.test)));
	return obj;
}

static json_object *json_params(const struct rk_bench_params *p)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "iterations",
			       p->iters ? json_object_new_int64(p->iters) : NULL);
	json_object_object_add(obj, "duration_seconds",
			       p->iters ? NULL : json_object_new_double(p->duration));
	json_object_object_add(obj, "warmup_iterations", json_object_new_int64(p->warmup));
	json_object_object_add(obj, "qps", json_object_new_int((int)p->qps));
	json_object_object_add(obj, "tx_depth", json_object_new_int((int)p->tx_depth));
	json_object_object_add(obj, "inline_bytes", json_object_new_int((int)p->inline_size));
	json_object_object_add(obj, "cq_moderation", json_object_new_int((int)p->cq_mod));
	json_object_object_add(obj, "bidirectional", json_object_new_boolean(p->bidir));
	return obj;
}

static json_object *json_latency(const struct rk_latency_stats *s)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "min", json_object_new_double(s->min));
	json_object_object_add(obj, "p50", json_object_new_double(s->p50));
	json_object_object_add(obj, "p90", json_object_new_double(s->p90));
	json_object_object_add(obj, "p99", json_object_new_double(s->p99));
	json_object_object_add(obj, "p99_9", json_object_new_double(s->p999));
	json_object_object_add(obj, "p99_99", json_object_new_double(s->p9999));
	json_object_object_add(obj, "max", json_object_new_double(s->max));
	json_object_object_add(obj, "mean", json_object_new_double(s->mean));
	json_object_object_add(obj, "stddev", json_object_new_double(s->stddev));
	return obj;
}

static double percent_of(double value, double ceiling)
{
	return ceiling > 0 ? 100.0 * value / ceiling : -1;
}

static json_object *json_result(const struct rk_bench_params *p, const struct rk_bench_context *c,
				const struct rk_bench_result *r)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "size_bytes", json_object_new_int64(r->size));
	json_object_object_add(obj, "iterations", json_object_new_int64((int64_t)r->iters));
	json_object_object_add(obj, "seconds", json_object_new_double(r->seconds));
	json_object_object_add(obj, "verified", json_object_new_boolean(r->verified));
	if (rk_bench_is_latency(p->test)) {
		json_object_object_add(
		    obj, "latency_kind",
		    json_object_new_string(p->test == RK_BENCH_READ_LAT
					       ? "round trip"
					       : "one-way (half the round trip)"));
		json_object_object_add(obj, "latency_us", json_latency(&r->latency));
		return obj;
	}
	json_object_object_add(obj, "bandwidth_gbps", json_object_new_double(r->gbps));
	json_object_object_add(obj, "messages_per_second",
			       json_object_new_double(r->msg_per_second));
	json_object_object_add(obj, "link_rate_percent",
			       number_or_null(percent_of(r->gbps, c->link_data_gbps)));
	json_object_object_add(obj, "pcie_percent",
			       number_or_null(percent_of(r->gbps, c->pcie_data_gbps)));
	return obj;
}

json_object *json_bench(const struct rk_bench_client_options *o, const struct rk_bench_context *c,
			const struct rk_bench_result *results)
{
	json_object *doc = json_object_new_object();
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < o->nsizes; i++)
		json_object_array_add(array, json_result(&o->params, c, &results[i]));
	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "tool", json_object_new_string("rdmakit " RDMAKIT_VERSION));
	json_object_object_add(doc, "test",
			       json_object_new_string(rk_bench_test_name(o->params.test)));
	json_object_object_add(doc, "context", json_context(o, c));
	json_object_object_add(doc, "parameters", json_params(&o->params));
	json_object_object_add(doc, "results", array);
	return doc;
}

static void text_header(FILE *out, const struct rk_bench_client_options *o,
			const struct rk_bench_context *c)
{
	const struct rk_bench_params *p = &o->params;

	fprintf(out,
		"%s to %s:%u via %s:%u (%s, %s, MTU %u), %u QP(s), TX depth %u, CQ mod %u, "
		"inline %u, warm-up %u%s\n",
		rk_bench_test_name(p->test), o->host, o->port, c->device, c->port, c->link_layer,
		c->gid_type, c->mtu, p->qps, p->tx_depth, p->cq_mod, p->inline_size, p->warmup,
		p->bidir ? ", bidirectional" : "");
	fprintf(out, "clock %s; CPU binding: %s\n", rk_bench_clock_name(p->test), c->cpu_binding);
}

static void text_percent(FILE *out, double value)
{
	if (value >= 0)
		fprintf(out, "  %7.1f", value);
	else
		fprintf(out, "  %7s", "-");
}

void text_bench(FILE *out, const struct rk_bench_client_options *o,
		const struct rk_bench_context *c, const struct rk_bench_result *results)
{
	bool lat = rk_bench_is_latency(o->params.test);

	text_header(out, o, c);
	if (lat)
		fprintf(out, "%10s %10s %9s %9s %9s %9s %9s %9s %9s %9s %9s  %s\n", "bytes",
			"iters", "min", "p50", "p90", "p99", "p99.9", "p99.99", "max", "mean",
			"stddev",
			o->params.test == RK_BENCH_READ_LAT ? "us, round trip" : "us, one-way");
	else
		fprintf(out, "%10s %10s %10s %12s  %7s  %7s  %s\n", "bytes", "iters", "Gb/s",
			"msg/s", "% link", "% PCIe", "verified");
	for (size_t i = 0; i < o->nsizes; i++) {
		const struct rk_bench_result *r = &results[i];
		const struct rk_latency_stats *s = &r->latency;

		if (lat) {
			fprintf(out,
				"%10u %10llu %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f "
				" %s\n",
				r->size, (unsigned long long)r->iters, s->min, s->p50, s->p90,
				s->p99, s->p999, s->p9999, s->max, s->mean, s->stddev,
				r->verified ? "verified" : "NOT VERIFIED");
			continue;
		}
		fprintf(out, "%10u %10llu %10.3f %12.1f", r->size, (unsigned long long)r->iters,
			r->gbps, r->msg_per_second);
		text_percent(out, percent_of(r->gbps, c->link_data_gbps));
		text_percent(out, percent_of(r->gbps, c->pcie_data_gbps));
		fprintf(out, "  %s\n", r->verified ? "yes" : "NO");
	}
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
