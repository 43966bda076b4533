/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A LID that answers for another node, over real MADs through the tests' fake libibumad
 * (tests/fakes/fake_umad.c): after the SM gave host1's LID to another node, the sweep sees
 * host1's counters go back, asks NodeInfo through that LID, and credits nothing of it to
 * host1; a node that really rebooted keeps its answers. ibsim cannot show this: it drops a
 * MAD whose LID is not its destination's, so a moved LID there is a timeout
 * (tests/sim/test_real_fabric.py). */
#include "fake_fabric.h"
#include "fake_umad.h"
#include "fixture_util.h"
#include "rdmakit/catalog.h"
#include "rdmakit/fabric_cache.h"
#include "rdmakit/health.h"
#include "rdmakit/limits.h"
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

static unsigned other_lids_asked;   /* MADs to a LID past 2 */
static uint64_t node_guid[3];	    /* by LID: the NodeGUID NodeInfo answers with */
static uint64_t xmit_data[3];	    /* by LID: PortXmitData (64-bit) */
static unsigned node_info_asked[3]; /* by LID */
static bool silent[3];		    /* by LID: its MADs go unanswered */
static unsigned symbol_errors[3];   /* by LID: SymbolErrorCounter */

/* Every MAD answered: NodeInfo with the LID's GUID, the counters with its PortXmitData. */
int fake_umad_answer(void *umad, int length)
{
	uint8_t reply[FAKE_UMAD_MAX];
	uint16_t lid;
	uint8_t *mad = fake_umad_reply(umad, reply, &lid);
	unsigned attr = mad_get_field(mad, 0, IB_MAD_ATTRID_F);

	(void)length;
	other_lids_asked += lid >= 3;
	if (lid < 3 && silent[lid])
		return 0;
	if (attr == RK_SMP_ATTR_NODE_INFO && lid < 3) {
		node_info_asked[lid]++;
		mad_set_field64(mad + IB_SMP_DATA_OFFS, 0, IB_NODE_GUID_F, node_guid[lid]);
	} else if (attr == RK_PMA_ATTR_PORT_COUNTERS && lid < 3) {
		mad_set_field(mad + IB_PC_DATA_OFFS, 0, IB_PC_XMT_BYTES_F,
			      (uint32_t)(xmit_data[lid] & 0xffffffff));
		mad_set_field(mad + IB_PC_DATA_OFFS, 0, IB_PC_ERR_SYM_F, symbol_errors[lid]);
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

/* LID 1 answers for a node the view does not know, whose counters are ahead of host1's: more
 * sent than host1's 4xEDR link carries in the time, or errors that rose. Neither is credited,
 * though no counter went back; plain traffic asks no NodeInfo. */
static void moved_lid_ahead_is_not_credited(void **state)
{
	struct rk_fabric_cache monitor;
	size_t data = (size_t)rk_catalog_pma_index("port_xmit_data");
	size_t symbol = (size_t)rk_catalog_pma_index("symbol_error");
	uint64_t before;

	(void)state;
	start(&monitor);
	xmit_data[1] = 2000; /* host1 sends 4 KB: no question */
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	assert_int_equal(node_info_asked[1], 0);
	assert_int_equal(monitor.sweep.ports[0].raw[data], 2000);

	node_guid[1] = 0x0002c903deadbeefull;
	xmit_data[1] = 2000 + (uint64_t)1e15; /* 4 PB more within a second */
	before = monitor.sweep.ports[0].raw[data];
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	assert_int_equal(node_info_asked[1], 1);
	assert_int_equal(monitor.sweep.ports[0].status, -ESTALE);
	assert_int_equal(monitor.sweep.ports[0].raw[data], before);
	assert_true(monitor.sweep.topology_stale);

	xmit_data[1] = 2100; /* plausible traffic, but errors host1 never had */
	symbol_errors[1] = 7;
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	assert_int_equal(node_info_asked[1], 2);
	assert_int_equal(monitor.sweep.ports[0].status, -ESTALE);
	assert_int_equal(monitor.sweep.ports[0].raw[symbol], 0);
	symbol_errors[1] = 0;
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

/* The findings with this code after one more sweep: 0 or 1. */
static size_t findings_after_sweep(struct rk_fabric_cache *monitor, const char *code)
{
	struct rk_findings findings = {0};
	size_t count = 0;

	assert_int_equal(rk_fabric_cache_sweep(monitor, NULL, NULL), 0);
	monitor->sweep.topology_stale = false; /* no rediscovery here: no libibnetdisc */
	assert_int_equal(rk_health_check_sweep(monitor->fabric, &monitor->sweep, &findings), 0);
	for (size_t i = 0; i < findings.count; i++)
		count += strcmp(findings.items[i].code, code) == 0;
	rk_findings_free(&findings);
	return count;
}

static size_t no_answer_after_sweep(struct rk_fabric_cache *monitor)
{
	return findings_after_sweep(monitor, "PORT_NO_ANSWER");
}

/* Sweeps that still show the finding with this code: sweeps - 1 of them, then the one that
 * clears it. */
static void clears_after(struct rk_fabric_cache *monitor, const char *code, unsigned sweeps)
{
	for (unsigned i = 1; i < sweeps; i++)
		assert_int_equal(findings_after_sweep(monitor, code), 1);
	assert_int_equal(findings_after_sweep(monitor, code), 0);
}

/* LID 2 answers again: answers - 1 sweeps still show its PORT_NO_ANSWER, the next clears it. */
static void answers_clear_after(struct rk_fabric_cache *monitor, unsigned answers)
{
	silent[2] = false;
	clears_after(monitor, "PORT_NO_ANSWER", answers);
}

/* One answer, then a lost sweep while PORT_NO_ANSWER is held: the same finding, not a new one. */
static void flap(struct rk_fabric_cache *monitor)
{
	silent[2] = false;
	assert_int_equal(no_answer_after_sweep(monitor), 1);
	silent[2] = true;
	assert_int_equal(no_answer_after_sweep(monitor), 1);
}

/* Answered sweeps with no PORT_NO_ANSWER: the probation after a clear. */
static void answers_quietly(struct rk_fabric_cache *monitor, unsigned sweeps)
{
	silent[2] = false;
	for (unsigned i = 0; i < sweeps; i++)
		assert_int_equal(no_answer_after_sweep(monitor), 0);
}

/* PORT_NO_ANSWER after RK_NO_ANSWER_SWEEPS lost sweeps, kept until the port answered
 * RK_NO_ANSWER_CLEAR_SWEEPS in a row, twice that after it answered and failed again, four times
 * after two such flaps and no more after three: a port that answers now and then under MAD loss
 * is one problem, raised once; an outage after the probation starts from
 * RK_NO_ANSWER_CLEAR_SWEEPS again. */
static void silent_port_clears_after_answers_in_a_row(void **state)
{
	struct rk_fabric_cache monitor;

	(void)state;
	start(&monitor);
	silent[2] = true;
	assert_int_equal(no_answer_after_sweep(&monitor), 0); /* one lost sweep is no outage */
	assert_int_equal(no_answer_after_sweep(&monitor), 1);
	answers_clear_after(&monitor, RK_NO_ANSWER_CLEAR_SWEEPS);
	assert_int_equal(monitor.sweep.ports[1].status, 0);
	answers_quietly(&monitor, RK_NO_ANSWER_PROBATION_SWEEPS);

	silent[2] = true;
	assert_int_equal(no_answer_after_sweep(&monitor), 0);
	assert_int_equal(no_answer_after_sweep(&monitor), 1);
	flap(&monitor);
	assert_int_equal(rk_sweep_no_answer_clear_sweeps(&monitor.sweep.ports[1]),
			 2 * RK_NO_ANSWER_CLEAR_SWEEPS);
	answers_clear_after(&monitor, 2 * RK_NO_ANSWER_CLEAR_SWEEPS);
	answers_quietly(&monitor, RK_NO_ANSWER_PROBATION_SWEEPS);

	silent[2] = true;
	assert_int_equal(no_answer_after_sweep(&monitor), 0);
	assert_int_equal(no_answer_after_sweep(&monitor), 1);
	assert_int_equal(rk_sweep_no_answer_clear_sweeps(&monitor.sweep.ports[1]),
			 RK_NO_ANSWER_CLEAR_SWEEPS); /* a new outage */
	for (int i = 0; i < 3; i++)
		flap(&monitor);
	answers_clear_after(&monitor, RK_NO_ANSWER_CLEAR_SWEEPS << RK_FLAP_DOUBLINGS_MAX);
	rk_fabric_cache_close(&monitor);
}

/* A port that fails again before RK_NO_ANSWER_PROBATION_SWEEPS answers in a row after its
 * PORT_NO_ANSWER cleared is the same flaky port: raised again only after twice as many lost
 * sweeps in a row (a lost sweep between answers raises nothing), then held twice as long; its
 * probation starts again at each failure. */
static void a_port_failing_again_on_probation_is_raised_later(void **state)
{
	struct rk_fabric_cache monitor;

	(void)state;
	start(&monitor);
	silent[2] = true;
	assert_int_equal(no_answer_after_sweep(&monitor), 0);
	assert_int_equal(no_answer_after_sweep(&monitor), 1);
	answers_clear_after(&monitor, RK_NO_ANSWER_CLEAR_SWEEPS);
	for (unsigned flaps = 1; flaps <= 3; flaps++) { /* a lost sweep now and then: a flap */
		silent[2] = true;
		assert_int_equal(no_answer_after_sweep(&monitor), 0);
		assert_int_equal(rk_sweep_no_answer_raise_sweeps(&monitor.sweep.ports[1]),
				 RK_NO_ANSWER_SWEEPS << (flaps < 2 ? flaps : 2));
		answers_quietly(&monitor, RK_NO_ANSWER_PROBATION_SWEEPS - 1);
	}
	silent[2] = true;
	for (unsigned i = 1; i < RK_NO_ANSWER_SWEEPS << RK_FLAP_DOUBLINGS_MAX; i++)
		assert_int_equal(no_answer_after_sweep(&monitor), 0);
	assert_int_equal(no_answer_after_sweep(&monitor), 1);
	assert_int_equal(rk_sweep_no_answer_clear_sweeps(&monitor.sweep.ports[1]),
			 RK_NO_ANSWER_CLEAR_SWEEPS << RK_FLAP_DOUBLINGS_MAX);
	answers_clear_after(&monitor, RK_NO_ANSWER_CLEAR_SWEEPS << RK_FLAP_DOUBLINGS_MAX);
	rk_fabric_cache_close(&monitor);
}

/* ERRORS_RISING clears after RK_ERRORS_QUIET_SWEEPS without a rise; errors that rose again
 * after a quiet sweep while it was raised double that (a rise at every sweep does not), up to
 * RK_FLAP_DOUBLINGS_MAX times; after it cleared, the next rise starts from the start again. */
static void rising_errors_that_come_back_clear_later(void **state)
{
	struct rk_fabric_cache monitor;

	(void)state;
	symbol_errors[2] = 0;
	start(&monitor);
	symbol_errors[2] = 3;
	assert_int_equal(findings_after_sweep(&monitor, "ERRORS_RISING"), 1);
	symbol_errors[2] = 5; /* at every sweep: one long rise, no flap */
	assert_int_equal(findings_after_sweep(&monitor, "ERRORS_RISING"), 1);
	clears_after(&monitor, "ERRORS_RISING", RK_ERRORS_QUIET_SWEEPS);

	symbol_errors[2] = 6;
	assert_int_equal(findings_after_sweep(&monitor, "ERRORS_RISING"), 1);
	assert_int_equal(findings_after_sweep(&monitor, "ERRORS_RISING"), 1); /* quiet */
	symbol_errors[2] = 7; /* again, before it cleared */
	assert_int_equal(findings_after_sweep(&monitor, "ERRORS_RISING"), 1);
	clears_after(&monitor, "ERRORS_RISING", 2 * RK_ERRORS_QUIET_SWEEPS);

	for (unsigned rise = 8; rise < 12; rise++) {
		symbol_errors[2] = rise; /* four rises a quiet sweep apart */
		assert_int_equal(findings_after_sweep(&monitor, "ERRORS_RISING"), 1);
		assert_int_equal(findings_after_sweep(&monitor, "ERRORS_RISING"), 1);
	}
	clears_after(&monitor, "ERRORS_RISING",
		     (RK_ERRORS_QUIET_SWEEPS << RK_FLAP_DOUBLINGS_MAX) - 1);
	symbol_errors[2] = 0;
	rk_fabric_cache_close(&monitor);
}

/* A view in which host2's port has host1's LID (the SM gave it twice, or moved it between the
 * reads of a discovery): whose answers are whose is asked through that LID at every sweep;
 * host1's are credited, host2's never, and that is said once, with no rediscovery. */
static void a_lid_given_twice_is_credited_to_its_owner(void **state)
{
	struct rk_fabric_cache monitor;
	size_t c = (size_t)rk_catalog_pma_index("port_xmit_data");

	(void)state;
	start(&monitor);
	monitor.fabric->nodes[1].ports[1].lid = 1;
	assert_int_equal(rk_sweep_prepare(&monitor.sweep, monitor.fabric), 0);
	assert_true(monitor.sweep.ports[0].lid_shared && monitor.sweep.ports[1].lid_shared);
	log_capture_start();
	for (unsigned sweep = 1; sweep <= 2; sweep++) {
		xmit_data[1] += 100;
		assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
		assert_int_equal(node_info_asked[1], 2 * sweep); /* once for each node */
		assert_int_equal(monitor.sweep.ports[0].status, 0);
		assert_int_equal(monitor.sweep.ports[0].raw[c], xmit_data[1]);
		assert_int_equal(monitor.sweep.ports[1].status, -ESTALE);
		/* host2 answered before: one rediscovery, none while it stays so */
		assert_int_equal(monitor.sweep.topology_stale, sweep == 1);
		monitor.sweep.topology_stale = false; /* no libibnetdisc here */
	}
	assert_int_equal(log_capture_count("LID 1 of host2 is another node's too, and answers for "
					   "that one"),
			 1);
	rk_fabric_cache_close(&monitor);
}

/* A rediscovery that fails (here a helper that ends without an answer) with a view at hand:
 * the view is swept all the same, and the failure said once, not at every sweep. */
static void failed_rediscovery_sweeps_the_last_view(void **state)
{
	struct rk_fabric_cache monitor;

	(void)state;
	start(&monitor);
	assert_int_equal(setenv("RDMAKIT_DISCOVER_HELPER", "/bin/false", 1), 0);
	monitor.options.discover_in_helper = true;
	log_capture_start();
	for (int i = 0; i < 2; i++) {
		monitor.sweep.topology_stale = true;
		monitor.sweep.ports[0].status = monitor.sweep.ports[1].status = -ETIMEDOUT;
		assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
		assert_int_equal(monitor.sweep.ports[0].status, 0);
		assert_int_equal(monitor.sweep.ports[1].status, 0);
	}
	assert_int_equal(log_capture_count("fabric discovery failed (No data available): reading "
					   "the last view (2 nodes) until it works again"),
			 1);
	assert_true(monitor.discovery_failing);
	assert_int_equal(monitor.discoveries, 0);
	unsetenv("RDMAKIT_DISCOVER_HELPER");
	rk_fabric_cache_close(&monitor);
}

/* A port the SM has not given a LID yet has the permissive LID (0xffff), which every port
 * answers: no MAD goes to it, nothing is credited by it, and nothing is logged (the audit says
 * LID_UNASSIGNED); the other host is swept as before. */
static void a_permissive_lid_is_no_lid(void **state)
{
	struct rk_fabric_cache monitor;

	(void)state;
	start(&monitor);
	monitor.fabric->nodes[1].ports[1].lid = 0xffff;
	monitor.fabric->nodes[1].ports[1].state =
	    2; /* INIT: the link is up, the SM not there yet */
	assert_int_equal(rk_sweep_prepare(&monitor.sweep, monitor.fabric), 0);
	assert_int_equal(monitor.sweep.count, 1);
	assert_int_equal(monitor.sweep.ports[0].node_guid, monitor.fabric->nodes[0].guid);
	other_lids_asked = 0;
	log_capture_start();
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	assert_int_equal(monitor.sweep.ports[0].status, 0);
	assert_int_equal(other_lids_asked, 0);
	assert_int_equal(monitor.sweep.stats.errors, 0);
	assert_int_equal(log_capture_count("not sent"), 0);
	rk_fabric_cache_close(&monitor);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(moved_lid_is_not_credited),
	    cmocka_unit_test(rebooted_node_keeps_its_answers),
	    cmocka_unit_test(a_lid_given_twice_is_credited_to_its_owner),
	    cmocka_unit_test(moved_lid_ahead_is_not_credited),
	    cmocka_unit_test(silent_port_clears_after_answers_in_a_row),
	    cmocka_unit_test(a_port_failing_again_on_probation_is_raised_later),
	    cmocka_unit_test(rising_errors_that_come_back_clear_later),
	    cmocka_unit_test(failed_rediscovery_sweeps_the_last_view),
	    cmocka_unit_test(a_permissive_lid_is_no_lid),
	};

	return cmocka_run_group_tests_name("sweep_identity", tests, NULL, NULL);
}
