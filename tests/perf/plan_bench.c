/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* plan_bench PLAN [REPS]: milliseconds to read a plan file (rk_plan_load) and to compare a
 * plan with it (rk_plan_diff of the plan against itself: every link matched), median and
 * range over REPS (default 21); what --expect adds to a discovery, without the discovery. */
#include "rdmakit/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One rep: the load's and the diff's milliseconds; -1 on an error. */
static int one_rep(const char *path, double *load_ms, double *diff_ms)
{
	struct rk_findings findings = {0};
	struct rk_plan *plan;
	double t0 = now_ms(), t1;
	int err = rk_plan_load(path, &plan, NULL);

	if (err)
		return -1;
	t1 = now_ms();
	err = rk_plan_diff(plan, plan, NULL, &findings);
	*diff_ms = now_ms() - t1;
	*load_ms = t1 - t0;
	if (!err && findings.count)
		err = -1;
	rk_findings_free(&findings);
	rk_plan_free(plan);
	return err;
}

static void print_stats(const char *what, double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), compare_doubles);
	printf("%-8s median %.2f ms (%.2f-%.2f)\n", what, v[n / 2], v[0], v[n - 1]);
}

int main(int argc, char **argv)
{
	int reps = argc > 2 ? atoi(argv[2]) : 21;
	double *load, *diff;

	if (argc < 2 || reps < 1) {
		fprintf(stderr, "usage: plan_bench PLAN [REPS]\n");
		return 2;
	}
	load = calloc((size_t)reps, sizeof(*load));
	diff = calloc((size_t)reps, sizeof(*diff));
	for (int i = 0; load && diff && i < reps; i++)
		if (one_rep(argv[1], &load[i], &diff[i]) != 0) {
			fprintf(stderr, "plan_bench: %s: cannot read or compare\n", argv[1]);
			return 1;
		}
	if (!load || !diff)
		return 1;
	print_stats("read", load, reps);
	print_stats("compare", diff, reps);
	free(load);
	free(diff);
	return 0;
}
