/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the congestion measure: the wait as a share of the interval and the bandwidth
 * the link lost to it, the ranking, the PORT_CONGESTED rule over passes, saturated and unknown
 * counters. */
#include "rdmakit/catalog.h"
#include "rdmakit/congestion.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define NPORTS 3

static struct rk_fabric_port ports[NPORTS + 1];
static struct rk_fabric_node node;
static struct rk_fabric fabric;
static struct rk_sweep_port swept[NPORTS];
static struct rk_sweep sweep;
static size_t wait_c, data_c;

/* One switch "Leaf1" with NPORTS QDR ports (1 ns symbols), swept twice 2 s apart, no wait. */
static int setup(void **state)
{
	(void)state;
	wait_c = (size_t)rk_catalog_pma_index("port_xmit_wait");
	data_c = (size_t)rk_catalog_pma_index("port_xmit_data");
	memset(ports, 0, sizeof(ports));
	for (int p = 1; p <= NPORTS; p++)
		ports[p] = (struct rk_fabric_port){
		    .num = p, .present = true, .active_speed = RK_SPEED_QDR, .active_width = 4};
	node = (struct rk_fabric_node){
	    .guid = 0x10, .type = RK_NODE_SWITCH, .nports = NPORTS, .ports = ports};
	strcpy(node.name, "Leaf1");
	fabric = (struct rk_fabric){.nodes = &node, .nnodes = 1};
	memset(swept, 0, sizeof(swept));
	for (size_t i = 0; i < NPORTS; i++)
		swept[i] = (struct rk_sweep_port){.node_guid = 0x10,
						  .port = (uint8_t)(i + 1),
						  .sampled = true,
						  .has_delta = true,
						  .xmit_wait = -1};
	sweep = (struct rk_sweep){.ports = swept, .count = NPORTS, .interval = 2.0};
	return 0;
}

/* The next sample of port i: wait and data (in words) rose by these. */
static void rise(size_t i, uint64_t ticks, uint64_t words)
{
	struct rk_sweep_port *p = &swept[i];

	p->prev[wait_c] = p->raw[wait_c];
	p->prev[data_c] = p->raw[data_c];
	p->raw[wait_c] += ticks;
	p->raw[data_c] += words;
}

static void tick_from_port_samples_control(void **state)
{
	struct rk_port_wait w;

	(void)state;
	assert_true(fabs(rk_xmit_wait_tick_ns(1, RK_SPEED_SDR) - 4.0) < 1e-9);
	assert_true(fabs(rk_xmit_wait_tick_ns(8, RK_SPEED_QDR) - 8.0) < 1e-9);
	assert_true(fabs(rk_xmit_wait_tick_ns(1, RK_SPEED_EDR) - 0.32) < 1e-9);
	assert_true(rk_xmit_wait_tick_ns(0, RK_SPEED_QDR) == 0);
	assert_true(rk_xmit_wait_tick_ns(8, RK_SPEED_NONE) == 0);

	node.pm_tick = 8; /* Tick 0x07: 8 symbol times, 8 ns at QDR */
	rise(0, 50000000, 1000);
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_TIME);
	assert_int_equal(w.ticks, 50000000);
	/* 5e7 ticks * 8 ns = 0.4 s of a 2 s interval */
	assert_true(fabs(w.percent - 20.0) < 1e-9);
	assert_true(fabs(w.score - 2.0) < 1e-9);
	assert_true(fabs(w.data_rate - 2000.0) < 1e-9);
}

/* Quantum switches count 8 bytes of the whole port a tick (Tick 7): 0.32 ns at 4X HDR; a
 * Switch-IB 2 counts 32 bytes of one lane (Tick 31): 10.24 ns at EDR. */
static void quantum_ticks_span_the_port(void **state)
{
	struct rk_port_wait w;

	(void)state;
	node.vendor_id = 0x02c9;
	node.device_id = 0xd2f0;
	node.pm_tick = 8;
	ports[1].active_speed = RK_SPEED_HDR;
	rise(0, 1000000000, 0);
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_true(fabs(w.tick_ns - 0.32) < 1e-9);
	assert_true(fabs(w.percent - 16.0) < 1e-9); /* 1e9 * 0.32 ns of 2 s */
	node.device_id = 0xcf08;
	node.pm_tick = 32;
	ports[1].active_speed = RK_SPEED_EDR;
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_true(fabs(w.tick_ns - 10.24) < 1e-9);
	node.device_id = 0xd2f2;
	ports[1].active_width = 0; /* down: no width, no tick */
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_PER_DATA);
}

static void option_tick_wins_and_threshold_is_configurable(void **state)
{
	struct rk_congestion_options options = {.threshold = 50, .tick_ns = 2};
	struct rk_port_wait w;

	(void)state;
	node.pm_tick = 8;
	rise(0, 250000000, 0);
	rk_port_wait_of(&fabric, &sweep, 0, &options, &w);
	assert_true(fabs(w.percent - 25.0) < 1e-9);
	assert_true(fabs(w.score - 0.5) < 1e-9);
}

static void unknown_tick_ranks_by_wait_per_data(void **state)
{
	struct rk_port_wait w;

	(void)state;
	rise(0, 4000, 8000); /* 0.5 ticks per word */
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_PER_DATA);
	assert_true(w.percent < 0);
	assert_true(fabs(w.per_word - 0.5) < 1e-9);
	assert_true(fabs(w.score - 5.0) < 1e-9);
	rise(1, 999, 0); /* under the noise floor: not congested however little was sent */
	rk_port_wait_of(&fabric, &sweep, 1, NULL, &w);
	assert_true(w.score == 0);
	assert_true(fabs(w.per_word - 999) < 1e-9);
}

static void saturated_wait_gives_no_fraction(void **state)
{
	struct rk_port_wait w;

	(void)state;
	node.pm_tick = 8;
	rise(0, 0, 100);
	swept[0].raw[wait_c] = swept[0].prev[wait_c] = 0xFFFFFFFFu;
	swept[0].state[wait_c] = swept[0].prev_state[wait_c] = RK_VALUE_SATURATED;
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_SATURATED);
	assert_true(w.percent < 0 && w.score < 0);
	swept[0].congested = 5;
	rk_congestion_update(&sweep, &fabric, NULL);
	assert_int_equal(swept[0].congested, 0);
	assert_true(swept[0].xmit_wait < 0);
}

static void unknown_deltas_are_not_measured(void **state)
{
	struct rk_port_wait w;

	(void)state;
	node.pm_tick = 8;
	rise(0, 1000000, 10);
	swept[0].has_delta = false; /* first sample, or no answer */
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_NONE);
	swept[0].has_delta = true;
	swept[0].prev_state[wait_c] = RK_VALUE_UNAVAILABLE;
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_NONE);
	swept[0].prev_state[wait_c] = RK_VALUE_OK;
	swept[0].status = -ETIMEDOUT;
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_NONE);
	swept[0].status = 0;
	sweep.interval = 0;
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_NONE);
	/* tick unknown and port_xmit_data's change unknown (it changed width): nothing to rank */
	sweep.interval = 2;
	node.pm_tick = 0;
	swept[0].prev_state[data_c] = RK_VALUE_UNAVAILABLE;
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_NONE);
	assert_true(w.data_rate < 0);
}

/* The bandwidth lost: the share of the interval waited times the link's data rate, not its
 * signalling rate (a 4X EDR link carries 100 Gb/s of data, 103.125 Gb/s of symbols). */
static void lost_bandwidth_is_the_share_of_the_links_data_rate(void **state)
{
	struct rk_port_wait w;

	(void)state;
	node.pm_tick = 8; /* Tick 7 at EDR: 2.56 ns */
	ports[1].active_speed = RK_SPEED_EDR;
	rise(0, 100000000, 1000); /* 1e8 ticks * 2.56 ns = 0.256 s of 2 s: 12.8% */
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_true(fabs(w.percent - 12.8) < 1e-9);
	assert_true(fabs(w.lost_gbps - 12.8) < 1e-9); /* of 4 x 25 Gb/s */
	rk_congestion_update(&sweep, &fabric, NULL);
	assert_true(fabs(swept[0].lost_gbps - 12.8) < 1e-9);
	ports[1].active_width = 1; /* 1X: the same share of 25 Gb/s */
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_true(fabs(w.lost_gbps - 3.2) < 1e-9);
	assert_true(fabs(rk_lost_bandwidth_gbps(1, 1e9, 2, 100) - 50) < 1e-9);
}

/* A Quantum port at 4X HDR (a tick is 8 bytes of the whole port): NVIDIA's ticks x (Tick + 1)
 * x 8 bits over the interval, 1e9 x 8 x 8 / 2 s = 32 Gb/s. */
static void lost_bandwidth_on_a_quantum_port(void **state)
{
	struct rk_port_wait w;

	(void)state;
	node.vendor_id = 0x02c9;
	node.device_id = 0xd2f0;
	node.pm_tick = 8;
	ports[1].active_speed = RK_SPEED_HDR;
	rise(0, 1000000000, 0);
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_true(fabs(w.lost_gbps - 32.0) < 1e-9);
}

/* No number where the wait is not known as time: tick unknown, counter saturated, the port
 * down or its rate unknown; and never more than the link carries. */
static void lost_bandwidth_only_where_it_is_known(void **state)
{
	struct rk_congestion_options long_tick = {.tick_ns = 1000};
	struct rk_port_wait w;

	(void)state;
	rise(0, 4000, 8000); /* no tick: per data only */
	rk_port_wait_of(&fabric, &sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_PER_DATA);
	assert_true(w.lost_gbps < 0);
	rk_congestion_update(&sweep, &fabric, NULL);
	assert_true(swept[0].lost_gbps < 0);
	rk_port_wait_of(&fabric, &sweep, 0, &long_tick, &w); /* 4000 us of 2 s: 0.2% of 32 Gb/s */
	assert_true(fabs(w.lost_gbps - 0.064) < 1e-9);
	rise(0, 4000000000u, 0); /* 4000 s of waiting in 2 s: a tick too long, all of the link */
	rk_port_wait_of(&fabric, &sweep, 0, &long_tick, &w);
	assert_true(w.percent > 100);
	assert_true(fabs(w.lost_gbps - 32.0) < 1e-9);
	ports[1].active_width = 0; /* down: no rate */
	rk_port_wait_of(&fabric, &sweep, 0, &long_tick, &w);
	assert_int_equal(w.basis, RK_WAIT_TIME);
	assert_true(w.lost_gbps < 0);
	swept[0].raw[wait_c] = 0xFFFFFFFFu;
	swept[0].state[wait_c] = RK_VALUE_SATURATED;
	rk_port_wait_of(&fabric, &sweep, 0, &long_tick, &w);
	assert_int_equal(w.basis, RK_WAIT_SATURATED);
	assert_true(w.lost_gbps < 0);
	assert_true(rk_lost_bandwidth_gbps(10, 0, 2, 100) < 0);
	assert_true(rk_lost_bandwidth_gbps(10, 1, 0, 100) < 0);
	assert_true(rk_lost_bandwidth_gbps(10, 1, 2, 0) < 0);
	assert_true(rk_lost_bandwidth_gbps(0, 1, 2, 100) == 0);
}

static void ranked_most_congested_first(void **state)
{
	struct rk_port_wait *ranked;
	size_t count;

	(void)state;
	node.pm_tick = 1;	/* 1 ns at QDR */
	rise(0, 200000000, 5);	/* 10% */
	rise(1, 1000000000, 5); /* 50% */
	rise(2, 0, 5);		/* 0% */
	swept[2].has_delta = false;
	assert_int_equal(rk_congestion_rank(&fabric, &sweep, NULL, &ranked, &count), 0);
	assert_int_equal(count, 2);
	assert_int_equal(ranked[0].index, 1);
	assert_int_equal(ranked[1].index, 0);
	assert_true(fabs(ranked[0].percent - 50.0) < 1e-9);
	free(ranked);
}

static size_t count_congested(const struct rk_findings *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->count; i++)
		n += strcmp(f->items[i].code, "PORT_CONGESTED") == 0;
	return n;
}

/* One pass: port 1 waits ticks, then the update and the rule. */
static size_t pass(uint64_t ticks, bool answered, struct rk_findings *f)
{
	rk_findings_free(f);
	rise(0, ticks, 100);
	swept[0].has_delta = answered;
	rk_congestion_update(&sweep, &fabric, NULL);
	assert_int_equal(rk_health_check_congestion(&fabric, &sweep, NULL, f), 0);
	return count_congested(f);
}

static void raised_after_two_intervals_and_cleared(void **state)
{
	struct rk_findings f = {0};

	(void)state;
	node.pm_tick = 1;
	assert_int_equal(pass(400000000, true, &f), 0); /* 20%: one interval */
	assert_int_equal(swept[0].congested, 1);
	assert_true(fabs(swept[0].xmit_wait - 20.0) < 1e-9);
	assert_int_equal(pass(400000000, true, &f), 1); /* the second: raised */
	assert_string_equal(f.items[0].subject, "Leaf1[1]");
	assert_int_equal(f.items[0].node_guid, 0x10);
	assert_int_equal(f.items[0].port, 1);
	assert_non_null(strstr(f.items[0].message, "20.0% of the last 2.0 s"));
	assert_int_equal(pass(0, false, &f), 1);	/* no reading: kept, not flapping */
	assert_int_equal(pass(100000000, true, &f), 0); /* 5%: cleared */
	assert_int_equal(swept[0].congested, 0);
	assert_int_equal(pass(400000000, true, &f), 0); /* once over again: not yet */
	rk_findings_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(tick_from_port_samples_control, setup),
	    cmocka_unit_test_setup(quantum_ticks_span_the_port, setup),
	    cmocka_unit_test_setup(option_tick_wins_and_threshold_is_configurable, setup),
	    cmocka_unit_test_setup(unknown_tick_ranks_by_wait_per_data, setup),
	    cmocka_unit_test_setup(saturated_wait_gives_no_fraction, setup),
	    cmocka_unit_test_setup(unknown_deltas_are_not_measured, setup),
	    cmocka_unit_test_setup(lost_bandwidth_is_the_share_of_the_links_data_rate, setup),
	    cmocka_unit_test_setup(lost_bandwidth_on_a_quantum_port, setup),
	    cmocka_unit_test_setup(lost_bandwidth_only_where_it_is_known, setup),
	    cmocka_unit_test_setup(ranked_most_congested_first, setup),
	    cmocka_unit_test_setup(raised_after_two_intervals_and_cleared, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
