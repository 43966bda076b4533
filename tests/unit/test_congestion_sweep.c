/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The congestion measure over real MADs, through the tests' fake libibumad
 * (tests/fakes/fake_umad.c): each node answers ClassPortInfo, PortSamplesControl with a Tick,
 * and PortCounters with the PortXmitWait the test sets; the monitor's sweeps turn them into a
 * share of the interval. Under ibsim's shim (LD_PRELOAD naming umad2sim) PortSamplesControl
 * is never sent. */
#include "fake_fabric.h"
#include "fake_umad.h"
#include "rdmakit/catalog.h"
#include "rdmakit/clock.h"
#include "rdmakit/mad.h"
#include "rdmakit/monitor.h"

#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static uint64_t xmit_wait[3]; /* by LID: the PortXmitWait the PMA answers */
static unsigned samples_control_asked;
static bool extended;	   /* LID 2 has PortCountersExtended */
static uint32_t cap_mask2; /* and this CapabilityMask2 (0x2: its additional counters) */

/* Every request answered with status 0; PortSamplesControl with Tick 7, PortCounters with the
 * LID's PortXmitWait (stuck at 32 bits); PortCountersExtended always with the 64-bit one,
 * which counts only where ClassPortInfo says the additional counters are there. */
int fake_umad_answer(void *umad, int length)
{
	uint8_t reply[FAKE_UMAD_MAX];
	uint16_t lid;
	uint8_t *mad = fake_umad_reply(umad, reply, &lid);
	unsigned attr = mad_get_field(mad, 0, IB_MAD_ATTRID_F);

	(void)length;
	if (attr == RK_PMA_ATTR_PORT_SAMPLES_CONTROL) {
		samples_control_asked++;
		mad_set_field(mad + IB_PC_DATA_OFFS, 0, IB_PSC_TICK_F, 7);
	} else if (attr == RK_PMA_ATTR_CLASS_PORT_INFO && extended && lid == 2) {
		mad_set_field(mad + IB_PC_DATA_OFFS, 0, IB_CPI_CAPMASK_F, 0x0200);
		mad_set_field(mad + IB_PC_DATA_OFFS, 0, IB_CPI_CAPMASK2_F, cap_mask2);
	} else if (attr == RK_PMA_ATTR_PORT_COUNTERS && lid < 3) {
		mad_set_field(mad + IB_PC_DATA_OFFS, 0, IB_PC_XMT_WAIT_F,
			      xmit_wait[lid] > UINT32_MAX ? UINT32_MAX : (uint32_t)xmit_wait[lid]);
	} else if (attr == RK_PMA_ATTR_PORT_COUNTERS_EXTENDED && lid < 3) {
		mad_set_field64(mad + IB_PC_DATA_OFFS, 0, IB_PC_EXT_XMT_WAIT_F, xmit_wait[lid]);
	}
	assert_true(fake_umad_queue(reply, IB_MAD_SIZE, 0));
	return 0;
}

/* Two sweeps "2 s apart" (the first one's time moved back: a unit test does not wait), the
 * wait of LID lid rising from start by ticks in between. */
static void sweep_twice(struct rk_monitor *monitor, int lid, uint64_t start, uint64_t ticks)
{
	memset(xmit_wait, 0, sizeof(xmit_wait));
	xmit_wait[lid] = start;
	assert_int_equal(rk_monitor_sweep(monitor, NULL, NULL), 0);
	monitor->sweep.last_time -= 2.0;
	xmit_wait[lid] = start + ticks;
	assert_int_equal(rk_monitor_sweep(monitor, NULL, NULL), 0);
}

/* Tick 7 at EDR: 8 symbol times of 0.32 ns, 2.56 ns; 1e8 ticks in 2 s: 12.8% of the time (a
 * little less on a loaded machine, where the second sweep starts later: the interval is the
 * sweeps' own). */
static double expected_share(const struct rk_monitor *monitor)
{
	return 100000000 * 2.56e-9 / monitor->sweep.interval * 100;
}

static void wait_share_from_port_samples_control(void **state)
{
	struct rk_monitor monitor;

	(void)state;
	samples_control_asked = 0;
	fake_fabric_watch(&monitor);
	sweep_twice(&monitor, 1, 0, 100000000);
	assert_int_equal(samples_control_asked, 2); /* once per node, not per sweep */
	assert_int_equal(monitor.fabric->nodes[0].pm_tick, 8);
	assert_true(monitor.sweep.interval >= 2.0);
	assert_true(fabs(monitor.sweep.ports[0].xmit_wait - expected_share(&monitor)) < 0.05);
	assert_true(fabs(monitor.sweep.ports[1].xmit_wait) < 1e-9);
	assert_int_equal(monitor.sweep.ports[0].congested, 1);
	assert_int_equal(monitor.sweep.ports[1].congested, 0);
	rk_monitor_close(&monitor);
}

static void no_port_samples_control_under_the_simulator(void **state)
{
	const char *preload = getenv("LD_PRELOAD");
	char *saved = preload ? strdup(preload) : NULL;
	struct rk_monitor monitor;
	struct rk_port_wait w;

	(void)state;
	samples_control_asked = 0;
	setenv("LD_PRELOAD", "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so", 1);
	fake_fabric_watch(&monitor);
	sweep_twice(&monitor, 1, 0, 100000000);
	if (saved)
		setenv("LD_PRELOAD", saved, 1);
	else
		unsetenv("LD_PRELOAD");
	free(saved);
	assert_int_equal(samples_control_asked, 0);
	assert_int_equal(monitor.fabric->nodes[0].pm_tick, 0);
	assert_true(monitor.sweep.ports[0].xmit_wait < 0);
	rk_port_wait_of(monitor.fabric, &monitor.sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_PER_DATA);
	assert_int_equal(w.ticks, 100000000);
	rk_monitor_close(&monitor);
}

/* Past 2^32 ticks: the 64-bit PortXmitWait where the node has the additional counters (LID 2),
 * the 32-bit one stuck at its maximum elsewhere (LID 1). */
static void the_64_bit_wait_where_the_node_has_it(void **state)
{
	struct rk_monitor monitor;
	size_t wait = (size_t)rk_catalog_pma_index("port_xmit_wait");

	(void)state;
	extended = true;
	cap_mask2 = 0x2;
	fake_fabric_watch(&monitor);
	sweep_twice(&monitor, 2, 0x100000000ull, 100000000);
	assert_int_equal(monitor.fabric->nodes[1].pm_cap_mask2, 0x2);
	assert_true(monitor.sweep.ports[1].extended);
	assert_int_equal(monitor.sweep.ports[1].state[wait], RK_VALUE_OK);
	assert_true(monitor.sweep.ports[1].raw[wait] == 0x100000000ull + 100000000);
	assert_true(fabs(monitor.sweep.ports[1].xmit_wait - expected_share(&monitor)) < 0.05);
	sweep_twice(&monitor, 1, 0x100000000ull, 100000000);
	assert_false(monitor.sweep.ports[0].extended);
	assert_int_equal(monitor.sweep.ports[0].state[wait], RK_VALUE_SATURATED);
	assert_true(monitor.sweep.ports[0].xmit_wait < 0);
	rk_monitor_close(&monitor);
	cap_mask2 = 0; /* extended data counters only: those bytes are reserved */
	fake_fabric_watch(&monitor);
	sweep_twice(&monitor, 2, 0x100000000ull, 100000000);
	assert_true(monitor.sweep.ports[1].extended);
	assert_int_equal(monitor.sweep.ports[1].state[wait], RK_VALUE_SATURATED);
	extended = false;
	rk_monitor_close(&monitor);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(wait_share_from_port_samples_control),
	    cmocka_unit_test(no_port_samples_control_under_the_simulator),
	    cmocka_unit_test(the_64_bit_wait_where_the_node_has_it),
	};

	return cmocka_run_group_tests_name("congestion_sweep", tests, NULL, NULL);
}
