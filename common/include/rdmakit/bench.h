/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Bandwidth and latency runs between two hosts over rdma_cm: RDMA write, RDMA read and
 * send/receive. Parameters and keys travel in the connection's private data. */
#ifndef RDMAKIT_BENCH_H
#define RDMAKIT_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rk_bench_test {
	RK_BENCH_WRITE_BW,
	RK_BENCH_READ_BW,
	RK_BENCH_SEND_BW,
	RK_BENCH_WRITE_LAT,
	RK_BENCH_READ_LAT,
	RK_BENCH_SEND_LAT,
	RK_BENCH_TESTS,
};

#define RK_BENCH_DEFAULT_PORT 18515
#define RK_BENCH_MAX_QPS      64
#define RK_BENCH_MAX_SIZES    64

/* What client and server agree on for one size of a run. */
struct rk_bench_params {
	enum rk_bench_test test;
	uint32_t size;	      /* bytes per message */
	uint32_t iters;	      /* timed iterations per QP; 0: run for duration */
	double duration;      /* seconds, when iters is 0 */
	uint32_t warmup;      /* untimed iterations per QP before the timed ones */
	uint32_t qps;	      /* connections (RC QPs), 1..RK_BENCH_MAX_QPS */
	uint32_t tx_depth;    /* work requests in flight per QP */
	uint32_t inline_size; /* bytes sent inline (0: none) */
	uint32_t cq_mod;      /* one signalled completion every cq_mod work requests */
	bool bidir;	      /* BW tests: the server sends the same load back */
};

/* Latency percentiles and moments, in microseconds. */
struct rk_latency_stats {
	double min, p50, p90, p99, p999, p9999, max, mean, stddev;
	size_t samples;
};

struct rk_bench_result {
	uint32_t size;
	uint64_t iters;	       /* timed messages, all QPs (and both directions with bidir) */
	double seconds;	       /* timed phase */
	double gbps;	       /* BW tests: payload bits per second / 1e9 */
	double msg_per_second; /* BW tests */
	bool verified;	       /* the data that arrived was checked and right */
	struct rk_latency_stats latency; /* latency tests */
};

/* What the client ran on (for the report). */
struct rk_bench_context {
	char device[64], fw_ver[64], link_layer[16], gid_type[16];
	unsigned port, mtu;
	uint32_t max_msg_size;
	double link_data_gbps; /* after line encoding; -1 unknown */
	double pcie_data_gbps; /* -1 unknown */
	int numa_node;	       /* -1 unknown */
	char cpu_binding[64];  /* the CPUs the run was bound to, or why not */
};

/* Called now and then during a run: fraction done (0..1) and seconds so far. */
typedef void (*rk_bench_progress_fn)(const struct rk_bench_params *params, double fraction,
				     double elapsed, void *ctx);

struct rk_bench_client_options {
	const char *host;
	uint16_t port;
	struct rk_bench_params params; /* size ignored: see sizes */
	uint32_t sizes[RK_BENCH_MAX_SIZES];
	size_t nsizes;
	double timeout; /* seconds to reach the server; 0: 10 */
	bool bind_numa; /* bind to the device's NUMA node's CPUs */
	rk_bench_progress_fn progress;
	void *progress_ctx;
};

struct rk_bench_server_options {
	const char *bind; /* an address, or NULL for every address */
	uint16_t port;
	bool once; /* serve one client run, then return */
};

/** Run every size against a server; results[i] for sizes[i]; 0, or -errno with a message. */
int rk_bench_client_run(const struct rk_bench_client_options *options,
			struct rk_bench_context *context, struct rk_bench_result *results);

/** Serve client runs one at a time (others are refused while one runs); -errno on failure. */
int rk_bench_serve(const struct rk_bench_server_options *options);

/** "write_bw", ... or "?". */
const char *rk_bench_test_name(enum rk_bench_test test);

/** Parse a test name; -EINVAL when unknown. */
int rk_bench_parse_test(const char *name, enum rk_bench_test *test);

/** True for the latency tests. */
bool rk_bench_is_latency(enum rk_bench_test test);

/** Statistics of n samples in nanoseconds (sorted in place): linear-interpolated percentiles,
 * the mean and the sample standard deviation, in microseconds. */
void rk_latency_stats_compute(double *samples_ns, size_t n, struct rk_latency_stats *stats);

/** The clock a test's times come from: CLOCK_MONOTONIC_RAW, or for latency samples on x86-64
 * the TSC calibrated against it over the timed phase (reading it costs no system call). */
const char *rk_bench_clock_name(enum rk_bench_test test);

/** Nanoseconds on CLOCK_MONOTONIC_RAW. */
uint64_t rk_bench_now_ns(void);

/** Ticks of the latency clock (the TSC on x86-64, else CLOCK_MONOTONIC_RAW nanoseconds). */
uint64_t rk_bench_ticks(void);

#endif
