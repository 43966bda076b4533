/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A LID that answers for another node, over real MADs through the tests' fake libibumad
 * (tests/fakes/fake_umad.c): after the SM gave host1's LID to another node, the sweep sees
 * host1's counters go back, asks NodeInfo through that LID, and credits nothing of it to
 * host1; a node that really rebooted keeps its answers. ibsim cannot show this: it drops a
 * MAD whose LID is not its destination's, so a moved LID there is a timeout
 * (tests/sim/test_real_fabric.py). */
#include "fake_fabric.h"
#include "fake_umad.h"
#include "rdmakit/catalog.h"
#include "rdmakit/fabric_cache.h"
#include "rdmakit/mad.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static uint64_t node_guid[3];	    /* by LID: the NodeGUID NodeInfo answers with */
static uint64_t xmit_data[3];	    /* by LID: PortXmitData (64-bit) */
static unsigned node_info_asked[3]; /* by LID */

/* Every MAD answered: NodeInfo with the LID's GUID, the counters with its PortXmitData. */
int fake_umad_answer(void *umad, int length)
{
	uint8_t reply[FAKE_UMAD_MAX];
	uint16_t lid;
	uint8_t *mad = fake_umad_reply(umad, reply, &lid);
	unsigned attr = mad_get_field(mad, 0, IB_MAD_ATTRID_F);

	(void)length;
	if (attr == RK_SMP_ATTR_NODE_INFO && lid < 3) {
		node_info_asked[lid]++;
		mad_set_field64(mad + IB_SMP_DATA_OFFS, 0, IB_NODE_GUID_F, node_guid[lid]);
	} else if (attr == RK_PMA_ATTR_PORT_COUNTERS && lid < 3) {
		mad_set_field(mad + IB_PC_DATA_OFFS, 0, IB_PC_XMT_BYTES_F,
			      (uint32_t)(xmit_data[lid] & 0xffffffff));
	} else if (attr == RK_PMA_ATTR_PORT_COUNTERS_EXTENDED && lid < 3) {
		mad_set_field64(mad + IB_PC_DATA_OFFS, 0, IB_PC_EXT_XMT_BYTES_F, xmit_data[lid]);
	}
	assert_true(fake_umad_queue(reply, IB_MAD_SIZE, 0));
	return 0;
}

static void start(struct rk_fabric_cache *monitor)
{
	fake_fabric_watch(monitor);
	for (int i = 0; i < 2; i++) {
		node_guid[i + 1] = monitor->fabric->nodes[i].guid; /* LID i + 1 is node i's */
		node_info_asked[i + 1] = 0;
	}
	xmit_data[1] = xmit_data[2] = 1000;
	assert_int_equal(rk_fabric_cache_sweep(monitor, NULL, NULL), 0);
	assert_int_equal(monitor->sweep.ports[0].status, 0);
}

static void moved_lid_is_not_credited(void **state)
{
	struct rk_fabric_cache monitor;
	size_t c = (size_t)rk_catalog_pma_index("port_xmit_data");
	uint64_t before;

	(void)state;
	start(&monitor);
	before = monitor.sweep.ports[0].raw[c];
	node_guid[1] = 0x0002c903deadbeefull; /* LID 1 is another node's now, with less sent */
	xmit_data[1] = 10;
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	assert_int_equal(node_info_asked[1], 1);
	assert_int_equal(node_info_asked[2], 0); /* its counters did not go back: not asked */
	assert_int_equal(monitor.sweep.ports[0].status, -ESTALE);
	assert_int_equal(monitor.sweep.ports[0].raw[c], before); /* the last sample kept */
	assert_true(monitor.sweep.ports[0].went_back_at == 0);
	assert_int_equal(monitor.sweep.ports[1].status, 0);
	assert_true(monitor.sweep.topology_stale);
	assert_string_equal(rk_sweep_status_text(-ESTALE), "its LID answers for another node now");
	rk_fabric_cache_close(&monitor);
}

static void rebooted_node_keeps_its_answers(void **state)
{
	struct rk_fabric_cache monitor;
	size_t c = (size_t)rk_catalog_pma_index("port_xmit_data");

	(void)state;
	start(&monitor);
	xmit_data[1] = 10; /* the same node, its counters from zero again */
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	assert_int_equal(node_info_asked[1], 1);
	assert_int_equal(monitor.sweep.ports[0].status, 0);
	assert_int_equal(monitor.sweep.ports[0].raw[c], 10);
	assert_true(monitor.sweep.ports[0].went_back_at > 0);
	assert_int_equal(rk_sweep_delta(&monitor.sweep.ports[0], c), 10 * 4); /* no wrap */
	rk_fabric_cache_close(&monitor);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(moved_lid_is_not_credited),
	    cmocka_unit_test(rebooted_node_keeps_its_answers),
	};

	return cmocka_run_group_tests_name("sweep_identity", tests, NULL, NULL);
}
