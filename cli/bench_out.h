/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit bench's output: the run through the one writer, the progress line and the plot. */
#ifndef RDMAKIT_CLI_BENCH_OUT_H
#define RDMAKIT_CLI_BENCH_OUT_H

#include "print.h"
#include "rdmakit/bench.h"

#include <stdbool.h>
#include <stdio.h>

/* The progress line's state: shown on a terminal once a run has lasted a second. */
struct bench_progress {
	bool tty, shown;
};

/** The run: schema version, context, parameters, results per size (a table in text). */
void print_bench(struct printer *p, const struct rk_bench_client_options *o,
		 const struct rk_bench_context *context, const struct rk_bench_result *results);

/** rk_bench_progress_fn that redraws one line on stderr (ctx: struct bench_progress). */
void bench_print_progress(const struct rk_bench_params *params, double fraction, double elapsed,
			  void *ctx);

/** Clear the progress line if one was drawn. */
void bench_end_progress(struct bench_progress *progress);

/** Draw the results against message size into path (SVG) with gnuplot; 0 or -1 (printed). */
int bench_plot(const char *path, const struct rk_bench_client_options *o,
	       const struct rk_bench_context *context, const struct rk_bench_result *results);

#endif
