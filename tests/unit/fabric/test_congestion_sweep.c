/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The congestion measure over real MADs, through the tests' fake libibumad
 * (tests/fakes/fake_umad.c): each node answers ClassPortInfo, PortSamplesControl with a Tick
 * and an OptionMask, PortCounters with the PortXmitWait the test sets, and
 * PortVLXmitWaitCounters with its VL counters (or a MAD status: no such attribute); the
 * monitor's sweeps turn them into a share of the interval and the VLs that waited. Under
 * ibsim's shim (LD_PRELOAD naming umad2sim) PortSamplesControl is never sent. */
#include "fake_fabric.h"
#include "fake_umad.h"
#include "rdmakit/catalog.h"
#include "rdmakit/clock.h"
#include "rdmakit/fabric_cache.h"
#include "rdmakit/mad.h"

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
static bool extended;		/* LID 2 has PortCountersExtended */
static uint32_t cap_mask2;	/* and this CapabilityMask2 (0x2: its additional counters) */
static uint64_t option_mask[3]; /* by LID: PortSamplesControl's OptionMask */
static uint16_t vl_wait[3][RK_SWEEP_VLS]; /* by LID: PortVLXmitWaitCounters' counters */
static bool vl_refused[3];		  /* by LID: answers it with "unsupported attribute" */
static unsigned vl_asked[3];		  /* by LID: PortVLXmitWaitCounters asked */

#define OPTION_VL_XMIT_WAIT	(UINT64_C(1) << 23)
#define STATUS_UNSUPPORTED_ATTR 0x000c

/* A PortVLXmitWaitCounters answer: the LID's counters, or a MAD status where it refuses. */
static void answer_vl_wait(uint8_t *mad, uint16_t lid)
{
	vl_asked[lid]++;
	if (vl_refused[lid]) {
		mad_set_field(mad, 0, IB_MAD_STATUS_F, STATUS_UNSUPPORTED_ATTR);
		return;
	}
	for (int v = 0; v < RK_SWEEP_VLS; v++)
		mad_set_field(mad + IB_PC_DATA_OFFS, 0,
			      (enum MAD_FIELDS)(IB_PC_PORT_VL_XMIT_WAIT0_F + v), vl_wait[lid][v]);
}

/* Every request answered with status 0 (PortVLXmitWaitCounters: see answer_vl_wait);
 * PortSamplesControl with Tick 7 and the LID's OptionMask, PortCounters with the LID's
 * PortXmitWait (stuck at 32 bits); PortCountersExtended always with the 64-bit one, which
 * counts only where ClassPortInfo says the additional counters are there. */
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
		mad_set_field64(mad + IB_PC_DATA_OFFS, 0, IB_PSC_OPTION_MASK_F,
				lid < 3 ? option_mask[lid] : 0);
	} else if (attr == RK_PMA_ATTR_PORT_VL_XMIT_WAIT && lid < 3) {
		answer_vl_wait(mad, lid);
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
static void sweep_twice(struct rk_fabric_cache *monitor, int lid, uint64_t start, uint64_t ticks)
{
	memset(xmit_wait, 0, sizeof(xmit_wait));
	xmit_wait[lid] = start;
	assert_int_equal(rk_fabric_cache_sweep(monitor, NULL, NULL), 0);
	monitor->sweep.last_time -= 2.0;
	xmit_wait[lid] = start + ticks;
	assert_int_equal(rk_fabric_cache_sweep(monitor, NULL, NULL), 0);
}

/* Tick 7 at EDR: 8 symbol times of 0.32 ns, 2.56 ns; 1e8 ticks in 2 s: 12.8% of the time (a
 * little less on a loaded machine, where the second sweep starts later: the interval is the
 * sweeps' own). */
static double expected_share(const struct rk_fabric_cache *monitor)
{
	return 100000000 * 2.56e-9 / monitor->sweep.interval * 100;
}

static void wait_share_from_port_samples_control(void **state)
{
	struct rk_fabric_cache monitor;

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
	rk_fabric_cache_close(&monitor);
}

/* LD_PRELOAD as under ibsim's shim (rk_rdma_stack_simulated); the value it had, for
 * end_simulator. */
static char *start_simulator(void)
{
	const char *preload = getenv("LD_PRELOAD");
	char *saved = preload ? strdup(preload) : NULL;

	setenv("LD_PRELOAD", "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so", 1);
	return saved;
}

static void end_simulator(char *saved)
{
	if (saved)
		setenv("LD_PRELOAD", saved, 1);
	else
		unsetenv("LD_PRELOAD");
	free(saved);
}

static void no_port_samples_control_under_the_simulator(void **state)
{
	char *saved = start_simulator();
	struct rk_fabric_cache monitor;
	struct rk_port_wait w;

	(void)state;
	samples_control_asked = 0;
	fake_fabric_watch(&monitor);
	sweep_twice(&monitor, 1, 0, 100000000);
	end_simulator(saved);
	assert_int_equal(samples_control_asked, 0);
	assert_int_equal(monitor.fabric->nodes[0].pm_tick, 0);
	assert_true(monitor.sweep.ports[0].xmit_wait < 0);
	rk_port_wait_of(monitor.fabric, &monitor.sweep, 0, NULL, &w);
	assert_int_equal(w.basis, RK_WAIT_PER_DATA);
	assert_int_equal(w.ticks, 100000000);
	rk_fabric_cache_close(&monitor);
}

/* Past 2^32 ticks: the 64-bit PortXmitWait where the node has the additional counters (LID 2),
 * the 32-bit one stuck at its maximum elsewhere (LID 1). */
static void the_64_bit_wait_where_the_node_has_it(void **state)
{
	struct rk_fabric_cache monitor;
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
	rk_fabric_cache_close(&monitor);
	cap_mask2 = 0; /* extended data counters only: those bytes are reserved */
	fake_fabric_watch(&monitor);
	sweep_twice(&monitor, 2, 0x100000000ull, 100000000);
	assert_true(monitor.sweep.ports[1].extended);
	assert_int_equal(monitor.sweep.ports[1].state[wait], RK_VALUE_SATURATED);
	extended = false;
	rk_fabric_cache_close(&monitor);
}

/* A monitor that reads the VL waits (sweep --top), its fake's VL counters all 0. */
static void watch_vl_waits(struct rk_fabric_cache *monitor)
{
	memset(vl_wait, 0, sizeof(vl_wait));
	memset(vl_asked, 0, sizeof(vl_asked));
	memset(xmit_wait, 0, sizeof(xmit_wait));
	fake_fabric_watch(monitor);
	monitor->options.vl_wait = monitor->sweep.vl_wait = true;
}

/* One more sweep "2 s" after the last. */
static void sweep_again(struct rk_fabric_cache *monitor)
{
	monitor->sweep.last_time -= 2.0;
	assert_int_equal(rk_fabric_cache_sweep(monitor, NULL, NULL), 0);
}

/* LID 1's PortSamplesControl has the VL counters, LID 2's not: only LID 1 is asked for them,
 * every port once for the reading the next rise starts from, then only while its wait rises. */
static void vl_waits_of_the_ports_whose_wait_rose(void **state)
{
	struct rk_fabric_cache monitor;
	struct rk_vl_wait waits[RK_SWEEP_VLS];
	const struct rk_sweep_port *port;

	(void)state;
	option_mask[1] = OPTION_VL_XMIT_WAIT;
	option_mask[2] = ~OPTION_VL_XMIT_WAIT;
	watch_vl_waits(&monitor);
	port = &monitor.sweep.ports[0];
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	assert_int_equal(monitor.fabric->nodes[0].pm_vl_wait, RK_PM_SUPPORTED);
	assert_int_equal(monitor.fabric->nodes[1].pm_vl_wait, RK_PM_UNSUPPORTED);
	assert_int_equal(vl_asked[1], 1);
	assert_int_equal(vl_asked[2], 0);
	assert_int_equal(rk_sweep_vl_waits(port, waits), -1); /* one reading: no rise yet */
	xmit_wait[1] = xmit_wait[2] = 1000000;
	vl_wait[1][3] = 500;
	sweep_again(&monitor);
	assert_int_equal(vl_asked[1], 2);
	assert_int_equal(vl_asked[2], 0);
	assert_int_equal(rk_sweep_vl_waits(port, waits), 1);
	assert_int_equal(waits[0].vl, 3);
	assert_int_equal(waits[0].ticks, 500);
	assert_false(waits[0].saturated);
	assert_int_equal(rk_sweep_vl_waits(&monitor.sweep.ports[1], waits), -1);
	sweep_again(&monitor); /* the wait did not rise: no MAD, and no VL waited */
	assert_int_equal(vl_asked[1], 2);
	assert_int_equal(rk_sweep_vl_waits(port, waits), 0);
	xmit_wait[1] += 1000000;
	vl_wait[1][3] += 100;
	vl_wait[1][5] = 0xFFFF; /* stuck at the maximum: it rose by that much at least */
	sweep_again(&monitor);
	assert_int_equal(rk_sweep_vl_waits(port, waits), 2);
	assert_int_equal(waits[0].ticks, 100);
	assert_int_equal(waits[1].vl, 5);
	assert_int_equal(waits[1].ticks, 0xFFFF);
	assert_true(waits[1].saturated);
	xmit_wait[1] += 1000000;
	sweep_again(&monitor); /* still stuck: how much it rose is not known */
	assert_int_equal(rk_sweep_vl_waits(port, waits), 1);
	assert_int_equal(waits[0].vl, 5);
	assert_int_equal(waits[0].ticks, 0);
	assert_true(waits[0].saturated);
	memset(option_mask, 0, sizeof(option_mask));
	rk_fabric_cache_close(&monitor);
}

/* Without PortSamplesControl (the simulator) the nodes are asked: one that refuses the
 * attribute with a MAD status is not asked again. A sweep without vl_wait asks none. */
static void vl_waits_learnt_from_the_first_answer(void **state)
{
	char *saved = start_simulator();
	struct rk_fabric_cache monitor;

	(void)state;
	vl_refused[2] = true;
	watch_vl_waits(&monitor);
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	xmit_wait[1] = xmit_wait[2] = 1000000;
	sweep_again(&monitor);
	end_simulator(saved);
	vl_refused[2] = false;
	assert_int_equal(monitor.fabric->nodes[0].pm_vl_wait, RK_PM_SUPPORTED);
	assert_int_equal(monitor.fabric->nodes[1].pm_vl_wait, RK_PM_UNSUPPORTED);
	assert_int_equal(vl_asked[1], 2);
	assert_int_equal(vl_asked[2], 1);
	assert_int_equal(monitor.sweep.stats.errors, 0); /* the second sweep asked it no more */
	rk_fabric_cache_close(&monitor);
	fake_fabric_watch(&monitor);
	sweep_twice(&monitor, 1, 0, 100000000);
	assert_int_equal(vl_asked[1], 2);
	rk_fabric_cache_close(&monitor);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(wait_share_from_port_samples_control),
	    cmocka_unit_test(no_port_samples_control_under_the_simulator),
	    cmocka_unit_test(the_64_bit_wait_where_the_node_has_it),
	    cmocka_unit_test(vl_waits_of_the_ports_whose_wait_rose),
	    cmocka_unit_test(vl_waits_learnt_from_the_first_answer),
	};

	return cmocka_run_group_tests_name("congestion_sweep", tests, NULL, NULL);
}
