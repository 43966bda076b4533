/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Test names, the clock, and latency statistics. */
#include "rdmakit/bench.h"

#include <errno.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const test_names[RK_BENCH_TESTS] = {
    "write_bw", "read_bw", "send_bw", "write_lat", "read_lat", "send_lat",
};

const char *rk_bench_test_name(enum rk_bench_test test)
{
	return test < RK_BENCH_TESTS ? test_names[test] : "?";
}

int rk_bench_parse_test(const char *name, enum rk_bench_test *test)
{
	for (int i = 0; i < RK_BENCH_TESTS; i++) {
		if (strcmp(name, test_names[i]) == 0) {
			*test = (enum rk_bench_test)i;
			return 0;
		}
	}
	return -EINVAL;
}

bool rk_bench_is_latency(enum rk_bench_test test)
{
	return test == RK_BENCH_WRITE_LAT || test == RK_BENCH_READ_LAT || test == RK_BENCH_SEND_LAT;
}

const char *rk_bench_clock_name(enum rk_bench_test test)
{
#if defined(__x86_64__)
	if (rk_bench_is_latency(test))
		return "TSC calibrated against CLOCK_MONOTONIC_RAW";
#endif
	(void)test;
	return "CLOCK_MONOTONIC_RAW";
}

uint64_t rk_bench_ticks(void)
{
#if defined(__x86_64__)
	return __rdtsc();
#else
	return rk_bench_now_ns();
#endif
}

uint64_t rk_bench_now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC_RAW, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y ? 1 : 0;
}

/* The p-th percentile (0..100) of sorted samples, interpolated between closest ranks. */
static double percentile(const double *sorted, size_t n, double p)
{
	double rank = p / 100.0 * (double)(n - 1);
	size_t low = (size_t)floor(rank);
	double fraction = rank - (double)low;

	if (low + 1 >= n)
		return sorted[n - 1];
	return sorted[low] + fraction * (sorted[low + 1] - sorted[low]);
}

void rk_latency_stats_compute(double *samples_ns, size_t n, struct rk_latency_stats *s)
{
	double sum = 0, squares = 0;

	memset(s, 0, sizeof(*s));
	s->samples = n;
	if (n == 0)
		return;
	qsort(samples_ns, n, sizeof(*samples_ns), compare_doubles);
	for (size_t i = 0; i < n; i++)
		sum += samples_ns[i];
	s->mean = sum / (double)n / 1e3;
	for (size_t i = 0; i < n; i++) {
		double d = samples_ns[i] / 1e3 - s->mean;

		squares += d * d;
	}
	s->stddev = n > 1 ? sqrt(squares / (double)(n - 1)) : 0;
	s->min = samples_ns[0] / 1e3;
	s->max = samples_ns[n - 1] / 1e3;
	s->p50 = percentile(samples_ns, n, 50) / 1e3;
	s->p90 = percentile(samples_ns, n, 90) / 1e3;
	s->p99 = percentile(samples_ns, n, 99) / 1e3;
	s->p999 = percentile(samples_ns, n, 99.9) / 1e3;
	s->p9999 = percentile(samples_ns, n, 99.99) / 1e3;
}
