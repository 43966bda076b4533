/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the bench module's pure parts: latency statistics, test names, the private-data
 * wire format and the parameter checks both sides apply; and verbs' rate tables. */
#include "../../../common/src/bench/bench_int.h"
#include "rdmakit/verbs.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void statistics_of_one_to_ten(void **state)
{
	double ns[10] = {10000, 3000, 1000, 2000, 9000, 4000, 5000, 6000, 8000, 7000};
	struct rk_latency_stats s;

	(void)state;
	rk_latency_stats_compute(ns, 10, &s);
	assert_int_equal(s.samples, 10);
	assert_float_equal(s.min, 1.0, 1e-12);
	assert_float_equal(s.max, 10.0, 1e-12);
	assert_float_equal(s.mean, 5.5, 1e-12);
	assert_float_equal(s.stddev, 3.0276503540974917, 1e-12); /* sample (n - 1) */
	assert_float_equal(s.p50, 5.5, 1e-12);
	assert_float_equal(s.p90, 9.1, 1e-12);
	assert_float_equal(s.p99, 9.91, 1e-12);
	assert_float_equal(s.p999, 9.991, 1e-12);
	assert_float_equal(s.p9999, 9.9991, 1e-12);
}

static void statistics_keep_fractions_of_a_microsecond(void **state)
{
	double ns[4] = {1250, 1250, 1750, 1750};
	struct rk_latency_stats s;

	(void)state;
	rk_latency_stats_compute(ns, 4, &s);
	assert_float_equal(s.mean, 1.5, 1e-12);
	assert_float_equal(s.stddev, 0.28867513459481287, 1e-12);
	assert_float_equal(s.p50, 1.5, 1e-12);
	assert_float_equal(s.min, 1.25, 1e-12);
}

static void statistics_of_one_sample_and_none(void **state)
{
	double ns[1] = {4321};
	struct rk_latency_stats s;

	(void)state;
	rk_latency_stats_compute(ns, 1, &s);
	assert_float_equal(s.p9999, 4.321, 1e-12);
	assert_float_equal(s.stddev, 0, 0);
	rk_latency_stats_compute(ns, 0, &s);
	assert_int_equal(s.samples, 0);
	assert_float_equal(s.mean, 0, 0);
}

static void test_names_round_trip(void **state)
{
	enum rk_bench_test test;

	(void)state;
	for (int i = 0; i < RK_BENCH_TESTS; i++) {
		assert_int_equal(rk_bench_parse_test(rk_bench_test_name(i), &test), 0);
		assert_int_equal(test, i);
	}
	assert_int_equal(rk_bench_parse_test("write", &test), -EINVAL);
	assert_int_equal(rk_bench_parse_test("WRITE_BW", &test), -EINVAL);
	assert_true(rk_bench_is_latency(RK_BENCH_READ_LAT));
	assert_false(rk_bench_is_latency(RK_BENCH_SEND_BW));
}

static struct rk_bench_params sample_params(void)
{
	return (struct rk_bench_params){.test = RK_BENCH_SEND_BW,
					.size = 65536,
					.iters = 5000,
					.warmup = 256,
					.qps = 4,
					.tx_depth = 128,
					.inline_size = 0,
					.cq_mod = 64,
					.bidir = true};
}

static void request_round_trip(void **state)
{
	struct rk_bench_params p = sample_params(), got;
	struct ibv_mr mr = {.rkey = 0xdeadbeef};
	struct bench_conn conn = {.mr = &mr, .local_addr = 0x00007f0012345678ull};
	struct wire_request req;
	uint32_t run_id, rkey;
	uint8_t index;
	uint64_t addr;
	bool last;

	(void)state;
	assert_true(sizeof(req) <= 56); /* an IB CM REQ's private data, less rdma_cm's header */
	wire_encode_request(&p, 0xcafe0001, 3, true, &conn, &req);
	assert_int_equal(
	    wire_decode_request(&req, sizeof(req), &got, &run_id, &index, &last, &addr, &rkey), 0);
	assert_int_equal(got.test, RK_BENCH_SEND_BW);
	assert_int_equal(got.size, 65536);
	assert_int_equal(got.iters, 5000);
	assert_int_equal(got.warmup, 256);
	assert_int_equal(got.qps, 4);
	assert_int_equal(got.tx_depth, 128);
	assert_int_equal(got.cq_mod, 64);
	assert_true(got.bidir);
	assert_int_equal(run_id, 0xcafe0001);
	assert_int_equal(index, 3);
	assert_true(last);
	assert_int_equal(addr, 0x00007f0012345678ull);
	assert_int_equal(rkey, 0xdeadbeef);
}

static void foreign_or_short_requests_are_refused(void **state)
{
	struct rk_bench_params p = sample_params(), got;
	struct ibv_mr mr = {.rkey = 1};
	struct bench_conn conn = {.mr = &mr};
	struct wire_request req;
	uint32_t run_id, rkey;
	uint8_t index;
	uint64_t addr;
	bool last;

	(void)state;
	wire_encode_request(&p, 1, 0, false, &conn, &req);
	assert_int_equal(
	    wire_decode_request(&req, sizeof(req) - 1, &got, &run_id, &index, &last, &addr, &rkey),
	    -EINVAL);
	assert_int_equal(wire_decode_request(NULL, 0, &got, &run_id, &index, &last, &addr, &rkey),
			 -EINVAL);
	req.magic ^= 1;
	assert_int_equal(
	    wire_decode_request(&req, sizeof(req), &got, &run_id, &index, &last, &addr, &rkey),
	    -EINVAL);
}

static void parameter_checks(void **state)
{
	struct rk_bench_params p = sample_params();

	(void)state;
	assert_int_equal(bench_check_params(&p), 0);
	p.size = 0;
	assert_int_equal(bench_check_params(&p), -EINVAL);
	p = sample_params();
	p.test = RK_BENCH_SEND_LAT; /* 4 QPs and bidir: not for latency */
	assert_int_equal(bench_check_params(&p), -EINVAL);
	p = sample_params();
	p.cq_mod = 129;
	assert_int_equal(bench_check_params(&p), -EINVAL);
	p = sample_params();
	p.iters = 0;
	assert_int_equal(bench_check_params(&p), -EINVAL);
	p.duration = 2.5;
	assert_int_equal(bench_check_params(&p), 0);
	p.test = RK_BENCH_TESTS;
	assert_int_equal(bench_check_params(&p), -EINVAL);
}

static void reply_round_trip(void **state)
{
	struct ibv_mr mr = {.rkey = 0x1234};
	struct bench_conn conn = {.mr = &mr, .local_addr = 0x1000};
	struct wire_reply reply, got;

	(void)state;
	wire_encode_reply(WIRE_BUSY, NULL, &reply);
	assert_int_equal(wire_decode_reply(&reply, sizeof(reply), &got), 0);
	assert_int_equal(got.status, WIRE_BUSY);
	assert_non_null(strstr(wire_status_text(got.status), "another client"));
	wire_encode_reply(WIRE_OK, &conn, &reply);
	assert_int_equal(wire_decode_reply(&reply, sizeof(reply), &got), 0);
	assert_int_equal(got.addr, 0x1000);
	assert_int_equal(got.rkey, 0x1234);
	assert_int_equal(wire_decode_reply(&reply, 3, &got), -EINVAL);
}

static void link_and_pcie_rates_after_encoding(void **state)
{
	const struct rk_speed_info *qdr = rk_speed_info(rk_speed_from_name("QDR"));
	const struct rk_speed_info *hdr = rk_speed_info(rk_speed_from_name("HDR"));

	(void)state;
	assert_float_equal(qdr->signal_gbps, 10.0, 1e-12);
	assert_float_equal(qdr->data_gbps, 8.0, 1e-12);
	assert_float_equal(hdr->data_gbps * 4, 200.0, 1e-12);
	assert_int_equal(rk_speed_from_name("XYZ"), RK_SPEED_NONE);
	assert_float_equal(rk_pcie_data_gbps(16.0, 16), 16.0 * 16 * 128 / 130, 1e-9); /* Gen4 x16 */
	assert_float_equal(rk_pcie_data_gbps(5.0, 8), 32.0, 1e-9);		      /* Gen2 x8 */
	assert_float_equal(rk_pcie_data_gbps(-1, 8), -1, 0);
	assert_int_equal(rk_mtu_bytes(3), 1024);
	assert_int_equal(rk_mtu_bytes(0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(statistics_of_one_to_ten),
	    cmocka_unit_test(statistics_keep_fractions_of_a_microsecond),
	    cmocka_unit_test(statistics_of_one_sample_and_none),
	    cmocka_unit_test(test_names_round_trip),
	    cmocka_unit_test(request_round_trip),
	    cmocka_unit_test(foreign_or_short_requests_are_refused),
	    cmocka_unit_test(parameter_checks),
	    cmocka_unit_test(reply_round_trip),
	    cmocka_unit_test(link_and_pcie_rates_after_encoding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
