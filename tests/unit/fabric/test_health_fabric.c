/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the SM, fabric and sweep health rules on hand-built snapshots. */
#include "rdmakit/health.h"
#include "rdmakit/limits.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static struct rk_sm sms[4];

static struct rk_sm_status status_of(size_t count, uint16_t local_sm_lid)
{
	return (struct rk_sm_status){.sms = sms, .count = count, .local_sm_lid = local_sm_lid};
}

static void set_sm(size_t i, uint16_t lid, enum rk_sm_state state, uint32_t activity)
{
	sms[i] = (struct rk_sm){.lid = lid,
				.guid = 0x100 + lid,
				.priority = 10 - (int)i,
				.state = state,
				.activity_count = activity};
}

static bool has(const struct rk_findings *f, const char *code, enum rk_severity severity)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->items[i].code, code) == 0 && f->items[i].severity == severity)
			return true;
	return false;
}

static void healthy_master_with_standby(void **state)
{
	struct rk_findings f = {0};
	struct rk_sm_status now;
	struct rk_sm_status before;
	struct rk_sm saved[2];

	(void)state;
	set_sm(0, 1, RK_SM_MASTER, 900);
	set_sm(1, 9, RK_SM_STANDBY, 300);
	memcpy(saved, sms, sizeof(saved));
	before = (struct rk_sm_status){.sms = saved, .count = 2, .local_sm_lid = 1};
	sms[0].activity_count = 950;
	now = status_of(2, 1);
	assert_int_equal(rk_health_check_sm(&before, &now, &f), 0);
	assert_int_equal(f.count, 0);
	rk_findings_free(&f);
}

static void each_sm_rule_fires(void **state)
{
	struct rk_findings f = {0};
	struct rk_sm_status now, before;
	struct rk_sm saved[1];

	(void)state;
	set_sm(0, 1, RK_SM_STANDBY, 1);
	now = status_of(1, 1);
	assert_int_equal(rk_health_check_sm(NULL, &now, &f), 0);
	assert_true(has(&f, "SM_NO_MASTER", RK_SEVERITY_CRITICAL));
	rk_findings_free(&f);

	set_sm(0, 1, RK_SM_MASTER, 1);
	set_sm(1, 9, RK_SM_MASTER, 1);
	now = status_of(2, 1);
	assert_int_equal(rk_health_check_sm(NULL, &now, &f), 0);
	assert_true(has(&f, "SM_MULTIPLE_MASTERS", RK_SEVERITY_CRITICAL));
	rk_findings_free(&f);

	set_sm(0, 1, RK_SM_MASTER, 77);
	memcpy(saved, sms, sizeof(saved));
	before = (struct rk_sm_status){.sms = saved, .count = 1, .local_sm_lid = 4};
	now = status_of(1, 4);
	assert_int_equal(rk_health_check_sm(&before, &now, &f), 0);
	assert_int_equal(f.count, 3);
	assert_true(has(&f, "SM_HUNG", RK_SEVERITY_CRITICAL));
	assert_true(has(&f, "SM_NO_STANDBY", RK_SEVERITY_WARNING));
	assert_true(has(&f, "SM_LID_MISMATCH", RK_SEVERITY_WARNING));
	rk_findings_free(&f);
}

/* A standby took over: the local port keeps the old master's LID until the new master's first
 * sweep sets it, which one query may come before; a second query that still sees it raises. */
static void sm_lid_mismatch_waits_for_a_second_query(void **state)
{
	struct rk_findings f = {0};
	struct rk_sm_status now, before;
	struct rk_sm saved[2];

	(void)state;
	set_sm(0, 1, RK_SM_NOT_ACTIVE, 5);
	set_sm(1, 9, RK_SM_STANDBY, 300);
	memcpy(saved, sms, sizeof(saved));
	before = (struct rk_sm_status){.sms = saved, .count = 2, .local_sm_lid = 1};
	set_sm(1, 9, RK_SM_MASTER, 301);
	now = status_of(2, 1);
	assert_int_equal(rk_health_check_sm(&before, &now, &f), 0);
	assert_false(has(&f, "SM_LID_MISMATCH", RK_SEVERITY_WARNING));
	assert_true(has(&f, "SM_NO_STANDBY", RK_SEVERITY_WARNING));
	rk_findings_free(&f);

	memcpy(saved, sms, sizeof(saved));
	before = (struct rk_sm_status){.sms = saved, .count = 2, .local_sm_lid = 1};
	sms[1].activity_count = 302;
	assert_int_equal(rk_health_check_sm(&before, &now, &f), 0);
	assert_true(has(&f, "SM_LID_MISMATCH", RK_SEVERITY_WARNING));
	rk_findings_free(&f);

	now = status_of(2, 9); /* the new master's sweep reached the port */
	assert_int_equal(rk_health_check_sm(&before, &now, &f), 0);
	assert_false(has(&f, "SM_LID_MISMATCH", RK_SEVERITY_WARNING));
	rk_findings_free(&f);

	now = status_of(2, 1); /* one query alone (the CLI's) says what it sees */
	assert_int_equal(rk_health_check_sm(NULL, &now, &f), 0);
	assert_true(has(&f, "SM_LID_MISMATCH", RK_SEVERITY_WARNING));
	rk_findings_free(&f);
}

static struct rk_fabric *two_switches(void)
{
	struct rk_fabric *fabric = calloc(1, sizeof(*fabric));

	fabric->nnodes = 2;
	fabric->nodes = calloc(2, sizeof(*fabric->nodes));
	for (int n = 0; n < 2; n++) {
		struct rk_fabric_node *node = &fabric->nodes[n];

		node->guid = 0x10 + (uint64_t)n;
		node->type = RK_NODE_SWITCH;
		node->nports = 2;
		snprintf(node->name, sizeof(node->name), "sw%d", n);
		node->ports = calloc(3, sizeof(*node->ports));
		for (int p = 0; p <= 2; p++)
			node->ports[p] = (struct rk_fabric_port){.num = p,
								 .present = true,
								 .state = 4,
								 .phys_state = 5,
								 .remote_node = p ? 1 - n : -1,
								 .remote_port = p};
	}
	fabric->nlinks = 1;
	fabric->links = calloc(1, sizeof(*fabric->links));
	fabric->links[0] = (struct rk_fabric_link){
	    .node_a = 0, .port_a = 1, .node_b = 1, .port_b = 1, .width = 4, .speed = RK_SPEED_EDR};
	return fabric;
}

/* A port linked up whose peer discovery did not reach: that node is not read. */
static void unreached_peer_is_a_finding(void **state)
{
	struct rk_fabric *fabric = two_switches();
	struct rk_findings f = {0};

	(void)state;
	fabric->nodes[1].ports[2].remote_node = -1;
	assert_int_equal(rk_health_check_fabric(NULL, fabric, &f), 0);
	assert_int_equal(f.count, 1);
	assert_string_equal(f.items[0].code, "NODE_UNREACHED");
	assert_string_equal(f.items[0].subject, "sw1[2]");
	assert_int_equal(f.items[0].node_guid, 0x11);
	assert_int_equal(f.items[0].port, 2);
	rk_findings_free(&f);
	fabric->nodes[1].ports[2].phys_state = 2; /* Polling: nothing behind it, as expected */
	assert_int_equal(rk_health_check_fabric(NULL, fabric, &f), 0);
	assert_int_equal(f.count, 0);
	rk_findings_free(&f);
	rk_fabric_free(fabric);
}

static void fabric_rules(void **state)
{
	struct rk_fabric *before = two_switches(), *now = two_switches();
	struct rk_findings f = {0};

	(void)state;
	assert_int_equal(rk_health_check_fabric(before, now, &f), 0);
	assert_int_equal(f.count, 0);
	now->links[0].below_enabled = true;
	now->links[0].unused_supported = true;
	now->nodes[1].ports[2].state = 1;
	now->nodes[1].ports[2].phys_state = 2;
	assert_int_equal(rk_health_check_fabric(before, now, &f), 0);
	assert_int_equal(f.count, 3);
	assert_true(has(&f, "LINK_DEGRADED", RK_SEVERITY_WARNING));
	assert_true(has(&f, "PORT_WENT_DOWN", RK_SEVERITY_WARNING));
	assert_true(has(&f, "LINK_SPEED_NOT_ENABLED", RK_SEVERITY_OK));
	assert_string_equal(f.items[0].subject, "sw0[1]-sw1[1]");
	/* located at the link's first end, and at the port that went down */
	assert_int_equal(f.items[0].node_guid, 0x10);
	assert_int_equal(f.items[0].port, 1);
	assert_string_equal(f.items[1].code, "PORT_WENT_DOWN");
	assert_int_equal(f.items[1].node_guid, 0x11);
	assert_int_equal(f.items[1].port, 2);
	assert_int_equal(f.items[2].node_guid, 0); /* about the whole fabric */
	rk_findings_free(&f);
	rk_fabric_free(before);
	rk_fabric_free(now);
}

/* One lost sweep is no outage, a second is; a silent port keeps its saturated counter; errors
 * that rose stay rising for RK_ERRORS_QUIET_SWEEPS answered sweeps. */
static void sweep_rules_ride_out_lost_sweeps(void **state)
{
	struct rk_fabric *fabric = two_switches();
	struct rk_sweep_port ports[2] = {0};
	struct rk_sweep sweep = {.ports = ports, .count = 2, .answered = 1};
	struct rk_findings f = {0};

	(void)state;
	ports[0] = (struct rk_sweep_port){.node_guid = 0x10,
					  .node = 0,
					  .port = 1,
					  .sampled = true,
					  .status = -ETIMEDOUT,
					  .unanswered = 1,
					  .since_rise = UINT8_MAX};
	ports[0].state[2] = RK_VALUE_SATURATED;
	ports[1] = (struct rk_sweep_port){.node_guid = 0x11,
					  .node = 1,
					  .port = 1,
					  .sampled = true,
					  .has_delta = true,
					  .since_rise = 1};
	assert_int_equal(rk_health_check_sweep(fabric, &sweep, &f), 0);
	assert_int_equal(f.count, 2);
	assert_string_equal(f.items[0].code, "COUNTER_SATURATED"); /* not PORT_NO_ANSWER yet */
	assert_int_equal(f.items[0].node_guid, 0x10);
	assert_string_equal(f.items[1].code, "ERRORS_RISING");
	assert_string_equal(f.items[1].message,
			    "error counters rose 1 sweep ago; clears after 5 quiet sweeps");
	rk_findings_free(&f);
	ports[0].unanswered = RK_NO_ANSWER_SWEEPS;
	ports[1].since_rise = RK_ERRORS_QUIET_SWEEPS;
	ports[1].rise_flaps = 1; /* they rose again after a quiet sweep: twice as long */
	assert_int_equal(rk_health_check_sweep(fabric, &sweep, &f), 0);
	assert_int_equal(f.count, 3);
	assert_string_equal(f.items[2].message,
			    "error counters rose 5 sweeps ago; clears after 10 quiet sweeps");
	rk_findings_free(&f);
	ports[1].rise_flaps = 0;
	assert_int_equal(rk_health_check_sweep(fabric, &sweep, &f), 0);
	assert_int_equal(f.count, 2);
	assert_string_equal(f.items[0].code, "PORT_NO_ANSWER");
	assert_string_equal(f.items[1].code, "COUNTER_SATURATED");
	rk_findings_free(&f);
	/* it answers again: held until RK_NO_ANSWER_CLEAR_SWEEPS answers in a row */
	ports[0].status = 0;
	ports[0].unanswered = 0;
	ports[0].no_answer_held = true;
	ports[0].answered_again = 1;
	ports[0].last_failure = -ETIMEDOUT;
	assert_int_equal(rk_health_check_sweep(fabric, &sweep, &f), 0);
	assert_string_equal(f.items[0].code, "PORT_NO_ANSWER");
	assert_non_null(strstr(f.items[0].message, "got no answer (timeout); it answered 1 sweep "
						   "in a row since, 3 clear this"));
	rk_findings_free(&f);
	ports[0].no_answer_flaps = 5; /* it answered and failed again 5 times: at most x4 */
	assert_int_equal(rk_health_check_sweep(fabric, &sweep, &f), 0);
	assert_non_null(strstr(f.items[0].message, "in a row since, 12 clear this"));
	rk_findings_free(&f);
	ports[0].no_answer_held = false;
	ports[0].status = -ETIMEDOUT;
	/* nothing answered at all (the local port or the SM's fabric is gone): at once */
	ports[0].unanswered = 1;
	sweep.answered = 0;
	assert_int_equal(rk_health_check_sweep(fabric, &sweep, &f), 0);
	assert_string_equal(f.items[0].code, "PORT_NO_ANSWER");
	rk_findings_free(&f);
	rk_fabric_free(fabric);
}

static void sweep_rules(void **state)
{
	struct rk_fabric *fabric = two_switches();
	struct rk_sweep_port ports[2] = {0};
	struct rk_sweep sweep = {.ports = ports, .count = 2};
	struct rk_findings f = {0};

	(void)state;
	ports[0] = (struct rk_sweep_port){
	    .node_guid = 0x10, .node = 0, .port = 1, .sampled = true, .has_delta = true};
	ports[1] =
	    (struct rk_sweep_port){.node_guid = 0x11, .node = 1, .port = 1, .status = -ETIMEDOUT};
	ports[0].prev[0] = 3; /* symbol_error 3 -> 8 */
	ports[0].raw[0] = 8;
	ports[0].raw[2] = 255; /* link_downed at its 8-bit maximum */
	ports[0].prev[2] = 255;
	ports[0].state[2] = ports[0].prev_state[2] = RK_VALUE_SATURATED;
	assert_int_equal(rk_health_check_sweep(fabric, &sweep, &f), 0);
	assert_int_equal(f.count, 3);
	assert_string_equal(f.items[0].code, "ERRORS_RISING");
	assert_string_equal(f.items[0].message,
			    "error counters rose between sweeps: symbol_error +5");
	assert_string_equal(f.items[1].code, "COUNTER_SATURATED");
	assert_string_equal(f.items[2].code, "PORT_NO_ANSWER");
	assert_string_equal(f.items[2].subject, "sw1[1]");
	for (size_t i = 0; i < f.count; i++) /* each located at its port */
		assert_int_equal(f.items[i].node_guid * 10 + (uint64_t)f.items[i].port,
				 (i < 2 ? 0x10 : 0x11) * 10 + 1);
	rk_findings_free(&f);
	rk_fabric_free(fabric);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(healthy_master_with_standby),
	    cmocka_unit_test(each_sm_rule_fires),
	    cmocka_unit_test(sm_lid_mismatch_waits_for_a_second_query),
	    cmocka_unit_test(fabric_rules),
	    cmocka_unit_test(unreached_peer_is_a_finding),
	    cmocka_unit_test(sweep_rules),
	    cmocka_unit_test(sweep_rules_ride_out_lost_sweeps),
	};

	return cmocka_run_group_tests_name("health_fabric", tests, NULL, NULL);
}
