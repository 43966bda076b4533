/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the event tracker: every kind, once per transition, state kept over returns. */
#include "fixture_util.h"

#include "rdmakit/events.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define PORT1 "class/infiniband/mlx5_0/ports/1"

/* A tracker, its last events, and a host read from a private copy of a fixture. */
struct bench {
	struct rk_event_tracker *tracker;
	struct rk_event_list events;
	char *root;
	struct rk_host *host;
};

static void bench_open(struct bench *b, const char *fixture)
{
	memset(b, 0, sizeof(*b));
	assert_int_equal(rk_event_tracker_new(&b->tracker), 0);
	if (!fixture)
		return;
	b->root = fixture_copy(fixture);
	assert_non_null(b->root);
	assert_int_equal(rk_host_open(b->root, &b->host), 0);
}

static void bench_close(struct bench *b)
{
	rk_event_tracker_free(b->tracker);
	rk_event_list_free(&b->events);
	if (b->host)
		rk_host_close(b->host);
	if (b->root)
		fixture_discard(b->root);
}

/* Refresh the host and track it; the number of events. */
static size_t read_host(struct bench *b)
{
	const struct rk_event_views views = {.host = b->host};

	rk_event_list_clear(&b->events);
	assert_int_equal(rk_host_refresh(b->host), 0);
	assert_int_equal(rk_events_track(b->tracker, &views, &b->events), 0);
	return b->events.count;
}

static size_t count_kind(const struct rk_event_list *events, enum rk_event_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < events->count; i++)
		n += events->items[i].kind == kind;
	return n;
}

static const struct rk_event *find_kind(const struct rk_event_list *events, enum rk_event_kind kind)
{
	for (size_t i = 0; i < events->count; i++)
		if (events->items[i].kind == kind)
			return &events->items[i];
	return NULL;
}

static void set_state(struct bench *b, const char *state, const char *phys)
{
	write_file(b->root, PORT1 "/state", state);
	write_file(b->root, PORT1 "/phys_state", phys);
}

static void first_read_is_quiet(void **unused)
{
	struct bench b;

	(void)unused;
	bench_open(&b, "ib-hdr");
	assert_int_equal(read_host(&b), 0);
	assert_int_equal(read_host(&b), 0);
	bench_close(&b);
}

static void flapping_port_gives_one_event_per_change(void **unused)
{
	struct bench b;
	const struct rk_event *e;

	(void)unused;
	bench_open(&b, "ib-hdr");
	read_host(&b);
	set_state(&b, "1: DOWN\n", "3: Disabled\n");
	assert_int_equal(read_host(&b), 1);
	e = &b.events.items[0];
	assert_int_equal(e->kind, RK_EVENT_PORT_STATE);
	assert_int_equal(e->severity, RK_SEVERITY_CRITICAL);
	assert_string_equal(e->device, "mlx5_0");
	assert_true(e->on_port);
	assert_int_equal(e->port, 1);
	assert_int_equal(e->old.number, RK_PORT_ACTIVE);
	assert_int_equal(e->old.detail, RK_PHYS_LINK_UP);
	assert_int_equal(e->now.number, RK_PORT_DOWN);
	assert_int_equal(e->now.detail, RK_PHYS_DISABLED);
	assert_string_equal(e->message, "mlx5_0:1: port is DOWN/Disabled, was ACTIVE/LinkUp");
	set_state(&b, "4: ACTIVE\n", "5: LinkUp\n");
	assert_int_equal(read_host(&b), 1);
	assert_int_equal(b.events.items[0].severity, RK_SEVERITY_OK);
	assert_string_equal(b.events.items[0].message,
			    "mlx5_0:1: port is ACTIVE/LinkUp, was DOWN/Disabled");
	set_state(&b, "1: DOWN\n", "2: Polling\n");
	assert_int_equal(read_host(&b), 1);
	assert_string_equal(b.events.items[0].now.text, "DOWN/Polling");
	assert_int_equal(read_host(&b), 0); /* no change, no event */
	bench_close(&b);
}

static void physical_state_alone_is_a_change(void **unused)
{
	struct bench b;

	(void)unused;
	bench_open(&b, "ib-hdr");
	read_host(&b);
	write_file(b.root, PORT1 "/phys_state", "6: LinkErrorRecovery");
	assert_int_equal(read_host(&b), 1);
	assert_int_equal(b.events.items[0].severity, RK_SEVERITY_OK); /* still ACTIVE */
	assert_int_equal(b.events.items[0].now.detail, RK_PHYS_ERROR_RECOVERY);
	bench_close(&b);
}

static void unreadable_state_is_critical(void **unused)
{
	struct bench b;

	(void)unused;
	bench_open(&b, "ib-hdr");
	read_host(&b);
	write_file(b.root, PORT1 "/state", "garbage");
	assert_int_equal(read_host(&b), 1);
	assert_int_equal(b.events.items[0].severity, RK_SEVERITY_CRITICAL);
	assert_string_equal(b.events.items[0].now.text, "unknown/LinkUp");
	bench_close(&b);
}

static void counter_saturates_counts_again_and_becomes_unavailable(void **unused)
{
	struct bench b;
	const struct rk_event *e;

	(void)unused;
	bench_open(&b, "ib-hdr");
	read_host(&b);
	write_file(b.root, PORT1 "/counters/symbol_error", "65535\n");
	read_host(&b);
	e = find_kind(&b.events, RK_EVENT_COUNTER_SATURATED);
	assert_non_null(e);
	assert_int_equal(count_kind(&b.events, RK_EVENT_COUNTER_SATURATED), 1);
	assert_string_equal(e->counter, "symbol_error");
	assert_string_equal(e->subject, "mlx5_0:1");
	assert_int_equal(e->now.number, 65535);
	assert_string_equal(e->message,
			    "mlx5_0:1: symbol_error is stuck at 65535, its register's maximum");
	read_host(&b); /* still saturated: only "stopped rising" */
	assert_int_equal(b.events.count, 1);
	assert_int_equal(b.events.items[0].kind, RK_EVENT_ERRORS_STOPPED);
	write_file(b.root, PORT1 "/counters/symbol_error", "0\n");
	assert_int_equal(read_host(&b), 1);
	assert_int_equal(b.events.items[0].kind, RK_EVENT_COUNTER_COUNTS_AGAIN);
	assert_string_equal(b.events.items[0].message, "mlx5_0:1: symbol_error counts again (0)");
	write_file(b.root, PORT1 "/counters/symbol_error", "N/A (no PMA)\n");
	assert_int_equal(read_host(&b), 1);
	e = &b.events.items[0];
	assert_int_equal(e->kind, RK_EVENT_COUNTER_UNAVAILABLE);
	assert_false(e->now.known);
	assert_int_equal(read_host(&b), 0);
	bench_close(&b);
}

static void narrow_counters_saturate_at_their_width(void **unused)
{
	struct bench b;

	(void)unused;
	bench_open(&b, "ib-hdr");
	read_host(&b);
	write_file(b.root, PORT1 "/counters/link_downed", "255");
	write_file(b.root, PORT1 "/counters/port_xmit_wait", "4294967295");
	write_file(b.root, PORT1 "/counters/port_rcv_errors", "65534");
	read_host(&b);
	assert_int_equal(count_kind(&b.events, RK_EVENT_COUNTER_SATURATED), 2);
	bench_close(&b);
}

static void rising_errors_start_and_stop_once(void **unused)
{
	struct bench b;
	const struct rk_event *e;

	(void)unused;
	bench_open(&b, "ib-hdr");
	write_file(b.root, PORT1 "/counters/symbol_error", "0");
	read_host(&b);
	write_file(b.root, PORT1 "/counters/symbol_error", "5");
	assert_int_equal(read_host(&b), 1);
	e = &b.events.items[0];
	assert_int_equal(e->kind, RK_EVENT_ERRORS_RISING);
	assert_int_equal(e->severity, RK_SEVERITY_WARNING);
	assert_int_equal(e->now.number, 5);
	assert_int_equal(e->now.detail, 5);
	assert_string_equal(e->unit, "errors");
	assert_string_equal(e->message, "mlx5_0:1: symbol_error is rising: +5 to 5 errors");
	write_file(b.root, PORT1 "/counters/symbol_error", "9");
	assert_int_equal(read_host(&b), 0); /* still rising */
	assert_int_equal(read_host(&b), 1);
	assert_int_equal(b.events.items[0].kind, RK_EVENT_ERRORS_STOPPED);
	assert_string_equal(b.events.items[0].message,
			    "mlx5_0:1: symbol_error stopped rising at 9 errors");
	assert_int_equal(read_host(&b), 0);
	bench_close(&b);
}

static void data_counters_never_count_as_rising_errors(void **unused)
{
	struct bench b;

	(void)unused;
	bench_open(&b, "ib-hdr");
	read_host(&b);
	write_file(b.root, PORT1 "/counters/port_xmit_data", "999999999999");
	assert_int_equal(read_host(&b), 0);
	bench_close(&b);
}

static void device_vanishes_and_comes_back_with_its_history(void **unused)
{
	struct bench b;

	(void)unused;
	bench_open(&b, "ib-hdr");
	write_file(b.root, PORT1 "/counters/symbol_error", "0");
	read_host(&b);
	write_file(b.root, PORT1 "/counters/symbol_error", "4");
	assert_int_equal(read_host(&b), 1); /* rising */
	assert_int_equal(move_path(b.root, "class/infiniband/mlx5_0", "mlx5_0.aside"), 0);
	assert_int_equal(read_host(&b), 1);
	assert_int_equal(b.events.items[0].kind, RK_EVENT_DEVICE_VANISHED);
	assert_int_equal(b.events.items[0].severity, RK_SEVERITY_CRITICAL);
	assert_string_equal(b.events.items[0].subject, "mlx5_0");
	assert_false(b.events.items[0].on_port);
	assert_int_equal(read_host(&b), 0); /* still gone: once */
	write_file(b.root, "mlx5_0.aside/ports/1/state", "1: DOWN");
	write_file(b.root, "mlx5_0.aside/ports/1/counters/symbol_error", "8");
	assert_int_equal(move_path(b.root, "mlx5_0.aside", "class/infiniband/mlx5_0"), 0);
	assert_int_equal(rk_host_rescan(b.host), 0);
	read_host(&b);
	assert_int_equal(count_kind(&b.events, RK_EVENT_DEVICE_BACK), 1);
	/* the state it had before it vanished is the one compared with */
	assert_int_equal(count_kind(&b.events, RK_EVENT_PORT_STATE), 1);
	assert_int_equal(find_kind(&b.events, RK_EVENT_PORT_STATE)->old.number, RK_PORT_ACTIVE);
	/* the counter was rising before: no second "rising" (a new sample has no delta yet) */
	assert_int_equal(count_kind(&b.events, RK_EVENT_ERRORS_RISING), 0);
	assert_int_equal(b.events.count, 2);
	bench_close(&b);
}

static void device_gone_before_the_first_read_is_reported(void **unused)
{
	struct bench b;

	(void)unused;
	bench_open(&b, "ib-hdr");
	assert_int_equal(move_path(b.root, "class/infiniband/mlx5_1", "mlx5_1.aside"), 0);
	assert_int_equal(read_host(&b), 1);
	assert_int_equal(b.events.items[0].kind, RK_EVENT_DEVICE_VANISHED);
	assert_string_equal(b.events.items[0].device, "mlx5_1");
	assert_int_equal(read_host(&b), 0);
	bench_close(&b);
}

/* Findings of one call, built by hand. */
static void add_at(struct rk_findings *f, enum rk_severity severity, const char *code,
		   const char *subject, uint64_t guid, int port)
{
	assert_int_equal(
	    rk_findings_add(f, severity, code, subject, "fix it", "%s is bad", subject), 0);
	rk_findings_locate(f, guid, port);
}

static void add(struct rk_findings *f, enum rk_severity severity, const char *code,
		const char *subject)
{
	add_at(f, severity, code, subject, 0x1234, 3);
}

static size_t track_fabric(struct bench *b, const struct rk_findings *findings)
{
	const struct rk_event_views views = {.fabric_findings = findings};

	rk_event_list_clear(&b->events);
	assert_int_equal(rk_events_track(b->tracker, &views, &b->events), 0);
	return b->events.count;
}

static void finding_raised_cleared_and_raised_again(void **unused)
{
	struct bench b;
	struct rk_findings f = {0};
	const struct rk_event *e;

	(void)unused;
	bench_open(&b, NULL);
	add(&f, RK_SEVERITY_WARNING, "ERRORS_RISING", "leaf1[3]");
	add(&f, RK_SEVERITY_CRITICAL, "SM_HUNG", "SM lid 1");
	add(&f, RK_SEVERITY_WARNING, "ERRORS_RISING", "leaf1[3]"); /* twice: one event */
	assert_int_equal(track_fabric(&b, &f), 2);
	e = &b.events.items[0];
	assert_int_equal(e->kind, RK_EVENT_FINDING_RAISED);
	assert_true(e->is_finding);
	assert_false(e->cleared);
	assert_string_equal(e->finding.code, "ERRORS_RISING");
	assert_int_equal(e->node_guid, 0x1234);
	assert_int_equal(e->port, 3);
	assert_int_equal(e->domain, RK_DOMAIN_FABRIC);
	assert_string_equal(e->message, "leaf1[3]: leaf1[3] is bad");
	assert_int_equal(b.events.items[1].severity, RK_SEVERITY_CRITICAL);
	assert_int_equal(track_fabric(&b, &f), 0);
	f.count = 1; /* SM_HUNG is gone */
	assert_int_equal(track_fabric(&b, &f), 1);
	e = &b.events.items[0];
	assert_int_equal(e->kind, RK_EVENT_FINDING_CLEARED);
	assert_true(e->cleared);
	assert_int_equal(e->severity, RK_SEVERITY_OK);
	assert_int_equal(e->finding.severity, RK_SEVERITY_CRITICAL); /* as it was raised */
	assert_string_equal(e->message, "SM lid 1: SM_HUNG cleared");
	add(&f, RK_SEVERITY_CRITICAL, "SM_HUNG", "SM lid 1");
	assert_int_equal(track_fabric(&b, &f), 1);
	assert_int_equal(b.events.items[0].kind, RK_EVENT_FINDING_RAISED);
	rk_findings_free(&f);
	bench_close(&b);
}

static void same_code_other_port_is_another_finding(void **unused)
{
	struct bench b;
	struct rk_findings f = {0};

	(void)unused;
	bench_open(&b, NULL);
	add_at(&f, RK_SEVERITY_WARNING, "ERRORS_RISING", "leaf1[3]", 0x1234, 3);
	track_fabric(&b, &f);
	f.count = 0;
	add_at(&f, RK_SEVERITY_WARNING, "ERRORS_RISING", "leaf1[4]", 0x1234, 4);
	assert_int_equal(track_fabric(&b, &f), 2);
	assert_int_equal(count_kind(&b.events, RK_EVENT_FINDING_RAISED), 1);
	assert_int_equal(count_kind(&b.events, RK_EVENT_FINDING_CLEARED), 1);
	rk_findings_free(&f);
	bench_close(&b);
}

/* Two switches with one description: two findings, each raised and cleared on its own. */
static void nodes_with_one_name_keep_their_findings(void **unused)
{
	struct bench b;
	struct rk_findings f = {0};

	(void)unused;
	bench_open(&b, NULL);
	add_at(&f, RK_SEVERITY_WARNING, "COUNTER_SATURATED", "SwitchIB[3]", 0x10, 3);
	add_at(&f, RK_SEVERITY_WARNING, "COUNTER_SATURATED", "SwitchIB[3]", 0x20, 3);
	assert_int_equal(track_fabric(&b, &f), 2);
	assert_int_equal(b.events.items[0].node_guid, 0x10);
	assert_int_equal(b.events.items[1].node_guid, 0x20);
	f.count = 1;
	assert_int_equal(track_fabric(&b, &f), 1);
	assert_int_equal(b.events.items[0].kind, RK_EVENT_FINDING_CLEARED);
	assert_int_equal(b.events.items[0].node_guid, 0x20);
	assert_int_equal(b.events.items[0].port, 3);
	rk_findings_free(&f);
	bench_close(&b);
}

/* A node renamed (its description, or the GUID added when another node took its name) keeps
 * its finding: the key is the node and port, not the text. */
static void renamed_node_keeps_its_finding(void **unused)
{
	struct bench b;
	struct rk_findings f = {0};

	(void)unused;
	bench_open(&b, NULL);
	add_at(&f, RK_SEVERITY_WARNING, "ERRORS_RISING", "leaf1[3]", 0x10, 3);
	track_fabric(&b, &f);
	f.count = 0;
	add_at(&f, RK_SEVERITY_WARNING, "ERRORS_RISING", "leaf1 (0x0000000000000010)[3]", 0x10, 3);
	assert_int_equal(track_fabric(&b, &f), 0);
	rk_findings_free(&f);
	bench_close(&b);
}

static void fabric_findings_with_kinds_of_their_own(void **unused)
{
	struct bench b;
	struct rk_findings f = {0};
	struct rk_findings none = {0};

	(void)unused;
	bench_open(&b, NULL);
	add(&f, RK_SEVERITY_WARNING, "PORT_NO_ANSWER", "Hca3[1]");
	add(&f, RK_SEVERITY_WARNING, "LINK_DEGRADED", "sw[1]-Hca3[1]");
	track_fabric(&b, &f);
	assert_int_equal(count_kind(&b.events, RK_EVENT_FABRIC_PORT_SILENT), 1);
	assert_int_equal(count_kind(&b.events, RK_EVENT_LINK_DEGRADED), 1);
	track_fabric(&b, &none);
	assert_int_equal(count_kind(&b.events, RK_EVENT_FABRIC_PORT_ANSWERS), 1);
	assert_int_equal(count_kind(&b.events, RK_EVENT_LINK_RECOVERED), 1);
	assert_true(b.events.items[0].is_finding);
	assert_int_equal(track_fabric(&b, &none), 0);
	rk_findings_free(&f);
	bench_close(&b);
}

static void domains_do_not_clear_each_other(void **unused)
{
	struct bench b;
	struct rk_findings f = {0};
	struct rk_event_views views = {0};

	(void)unused;
	bench_open(&b, "ib-hdr");
	add(&f, RK_SEVERITY_WARNING, "LINK_DEGRADED", "sw[1]-Hca3[1]");
	track_fabric(&b, &f);
	views.host = b.host; /* a host read: the fabric's findings stay */
	assert_int_equal(rk_host_refresh(b.host), 0);
	rk_event_list_clear(&b.events);
	assert_int_equal(rk_events_track(b.tracker, &views, &b.events), 0);
	assert_int_equal(b.events.count, 0);
	assert_int_equal(track_fabric(&b, &f), 0);
	rk_findings_free(&f);
	bench_close(&b);
}

static struct rk_sm sms[3];

static void set_sm(size_t i, uint16_t lid, enum rk_sm_state state, int status)
{
	sms[i] = (struct rk_sm){.lid = lid,
				.guid = 0x500 + lid,
				.priority = 15 - (int)i,
				.state = state,
				.activity_count = 100,
				.status = status};
	snprintf(sms[i].name, sizeof(sms[i].name), "node%u", lid);
}

/* Track an SM query of count SMs with the SM rules' findings. */
static size_t track_sm(struct bench *b, size_t count)
{
	struct rk_sm_status sm = {.sms = sms, .count = count};
	struct rk_findings f = {0};
	const struct rk_event_views views = {.sm = &sm, .sm_findings = &f};

	sm.local_sm_lid = rk_sm_master(&sm) ? rk_sm_master(&sm)->lid : 0;
	assert_int_equal(rk_health_check_sm(NULL, &sm, &f), 0);
	rk_event_list_clear(&b->events);
	assert_int_equal(rk_events_track(b->tracker, &views, &b->events), 0);
	rk_findings_free(&f);
	return b->events.count;
}

static void sm_master_seen_changed_and_lost(void **unused)
{
	struct bench b;
	const struct rk_event *e;

	(void)unused;
	bench_open(&b, NULL);
	set_sm(0, 1, RK_SM_MASTER, 0);
	set_sm(1, 9, RK_SM_STANDBY, 0);
	assert_int_equal(track_sm(&b, 2), 1);
	e = &b.events.items[0];
	assert_int_equal(e->kind, RK_EVENT_SM_MASTER_SEEN);
	assert_string_equal(e->message, "master SM: node1 (LID 1, GUID 0x0000000000000501, "
					"priority 15)");
	assert_int_equal(track_sm(&b, 2), 0);
	set_sm(0, 1, RK_SM_NOT_ACTIVE, -110);
	set_sm(1, 9, RK_SM_MASTER, 0);
	track_sm(&b, 2);
	e = find_kind(&b.events, RK_EVENT_SM_MASTER_CHANGED);
	assert_non_null(e);
	assert_int_equal(e->old.number, 1);
	assert_int_equal(e->old.guid, 0x501);
	assert_int_equal(e->now.number, 9);
	assert_int_equal(e->now.guid, 0x509);
	assert_int_equal(e->severity, RK_SEVERITY_WARNING);
	assert_int_equal(count_kind(&b.events, RK_EVENT_SM_SILENT), 1);
	/* the old master is gone, so no standby is left */
	assert_int_equal(count_kind(&b.events, RK_EVENT_SM_NO_STANDBY), 1);
	assert_int_equal(b.events.count, 3);
	assert_int_equal(track_sm(&b, 2), 0);
	set_sm(1, 9, RK_SM_DISCOVERING, 0);
	track_sm(&b, 2);
	assert_int_equal(count_kind(&b.events, RK_EVENT_SM_NO_MASTER), 1);
	assert_int_equal(count_kind(&b.events, RK_EVENT_FINDING_CLEARED), 1); /* NO_STANDBY */
	set_sm(0, 1, RK_SM_STANDBY, 0);
	set_sm(1, 9, RK_SM_MASTER, 0);
	track_sm(&b, 2);
	assert_int_equal(count_kind(&b.events, RK_EVENT_SM_ANSWERS), 1);
	assert_int_equal(count_kind(&b.events, RK_EVENT_FINDING_CLEARED), 1); /* NO_MASTER */
	/* the same master as before it was lost: not a change */
	assert_int_equal(count_kind(&b.events, RK_EVENT_SM_MASTER_CHANGED), 0);
	bench_close(&b);
}

static void new_silent_sm_is_reported_once(void **unused)
{
	struct bench b;

	(void)unused;
	bench_open(&b, NULL);
	set_sm(0, 1, RK_SM_MASTER, 0);
	set_sm(1, 9, RK_SM_STANDBY, 0);
	set_sm(2, 12, RK_SM_NOT_ACTIVE, -110);
	track_sm(&b, 3);
	assert_int_equal(count_kind(&b.events, RK_EVENT_SM_SILENT), 1);
	assert_string_equal(find_kind(&b.events, RK_EVENT_SM_SILENT)->message,
			    "the SM at LID 12 does not answer SMInfo: Connection timed out");
	assert_int_equal(track_sm(&b, 3), 0);
	bench_close(&b);
}

/* A switch and two CAs; discovery order differs between the two topologies. */
static struct rk_fabric_port ports[3][2];
static struct rk_fabric_node nodes[3];

static void make_fabric(struct rk_fabric *fabric, bool reversed)
{
	static const char *const names[] = {"leaf1", "hca1", "hca2"};

	for (int i = 0; i < 3; i++) {
		int n = reversed ? 2 - i : i;

		nodes[n] = (struct rk_fabric_node){.guid = 0x100 + (uint64_t)i,
						   .type = i ? RK_NODE_CA : RK_NODE_SWITCH,
						   .nports = 1,
						   .ports = ports[n]};
		snprintf(nodes[n].name, sizeof(nodes[n].name), "%s", names[i]);
		ports[n][1] = (struct rk_fabric_port){
		    .num = 1, .present = true, .lid = (uint16_t)(i + 1), .state = 4};
	}
	*fabric = (struct rk_fabric){.nodes = nodes, .nnodes = 3};
}

/* One sweep in which the switch port's symbol_error reads value. */
static size_t sweep_once(struct bench *b, const struct rk_fabric *fabric, struct rk_sweep *sweep,
			 uint64_t value)
{
	size_t symbol = (size_t)rk_catalog_pma_index("symbol_error");
	struct rk_findings f = {0};
	size_t count;

	for (size_t i = 0; i < sweep->count; i++) {
		struct rk_sweep_port *p = &sweep->ports[i];

		memcpy(p->prev, p->raw, sizeof(p->prev));
		memcpy(p->prev_state, p->state, sizeof(p->prev_state));
		p->raw[symbol] = p->node_guid == 0x100 ? value : 0;
		p->has_delta = p->sampled;
		p->sampled = true;
	}
	assert_int_equal(rk_health_check_sweep(fabric, sweep, &f), 0);
	count = track_fabric(b, &f);
	rk_findings_free(&f);
	return count;
}

static void rediscovery_in_the_middle_of_a_rising_counter(void **unused)
{
	struct bench b;
	struct rk_fabric fabric;
	struct rk_sweep sweep = {0};

	(void)unused;
	bench_open(&b, NULL);
	make_fabric(&fabric, false);
	assert_int_equal(rk_sweep_prepare(&sweep, &fabric), 0);
	assert_int_equal(sweep_once(&b, &fabric, &sweep, 0), 0);
	assert_int_equal(sweep_once(&b, &fabric, &sweep, 3), 1);
	assert_string_equal(b.events.items[0].finding.code, "ERRORS_RISING");
	assert_string_equal(b.events.items[0].subject, "leaf1[1]");
	make_fabric(&fabric, true); /* rediscovered: other node order, same ports */
	assert_int_equal(rk_sweep_prepare(&sweep, &fabric), 0);
	assert_int_equal(sweep_once(&b, &fabric, &sweep, 7), 0); /* still rising */
	assert_int_equal(sweep_once(&b, &fabric, &sweep, 7), 1);
	assert_int_equal(b.events.items[0].kind, RK_EVENT_FINDING_CLEARED);
	assert_int_equal(sweep_once(&b, &fabric, &sweep, 7), 0);
	rk_sweep_free(&sweep);
	bench_close(&b);
}

/* The same code and subject at another severity: one FINDING_CHANGED with both severities,
 * then nothing while it stays. */
static void finding_that_changes_severity(void **unused)
{
	struct bench b;
	struct rk_findings f = {0};
	const struct rk_event *e;

	(void)unused;
	bench_open(&b, NULL);
	add(&f, RK_SEVERITY_CRITICAL, "TUNE_IPOIB_MTU", "ib0");
	add(&f, RK_SEVERITY_WARNING, "TUNE_ARP", "ib0");
	assert_int_equal(track_fabric(&b, &f), 2);
	f.items[0].severity = RK_SEVERITY_WARNING;
	assert_int_equal(track_fabric(&b, &f), 1);
	e = &b.events.items[0];
	assert_int_equal(e->kind, RK_EVENT_FINDING_CHANGED);
	assert_true(e->is_finding);
	assert_false(e->cleared);
	assert_int_equal(e->severity, RK_SEVERITY_WARNING);
	assert_int_equal(e->finding.severity, RK_SEVERITY_WARNING);
	assert_true(e->old.known);
	assert_int_equal(e->old.number, RK_SEVERITY_CRITICAL);
	assert_int_equal(e->now.number, RK_SEVERITY_WARNING);
	assert_string_equal(e->finding.code, "TUNE_IPOIB_MTU");
	assert_string_equal(e->message, "ib0: ib0 is bad");
	assert_int_equal(track_fabric(&b, &f), 0);
	assert_string_equal(rk_event_kind_name(RK_EVENT_FINDING_CHANGED), "finding_changed");
	rk_findings_free(&f);
	bench_close(&b);
}

static void kinds_have_names(void **unused)
{
	(void)unused;
	for (int k = 0; k < RK_EVENT_KIND_COUNT; k++)
		assert_string_not_equal(rk_event_kind_name((enum rk_event_kind)k), "unknown");
	assert_string_equal(rk_event_kind_name(RK_EVENT_KIND_COUNT), "unknown");
	assert_string_equal(rk_event_kind_name(RK_EVENT_PORT_STATE), "port_state");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(first_read_is_quiet),
	    cmocka_unit_test(flapping_port_gives_one_event_per_change),
	    cmocka_unit_test(physical_state_alone_is_a_change),
	    cmocka_unit_test(unreadable_state_is_critical),
	    cmocka_unit_test(counter_saturates_counts_again_and_becomes_unavailable),
	    cmocka_unit_test(narrow_counters_saturate_at_their_width),
	    cmocka_unit_test(rising_errors_start_and_stop_once),
	    cmocka_unit_test(data_counters_never_count_as_rising_errors),
	    cmocka_unit_test(device_vanishes_and_comes_back_with_its_history),
	    cmocka_unit_test(device_gone_before_the_first_read_is_reported),
	    cmocka_unit_test(finding_raised_cleared_and_raised_again),
	    cmocka_unit_test(same_code_other_port_is_another_finding),
	    cmocka_unit_test(nodes_with_one_name_keep_their_findings),
	    cmocka_unit_test(renamed_node_keeps_its_finding),
	    cmocka_unit_test(fabric_findings_with_kinds_of_their_own),
	    cmocka_unit_test(domains_do_not_clear_each_other),
	    cmocka_unit_test(sm_master_seen_changed_and_lost),
	    cmocka_unit_test(new_silent_sm_is_reported_once),
	    cmocka_unit_test(rediscovery_in_the_middle_of_a_rising_counter),
	    cmocka_unit_test(finding_that_changes_severity),
	    cmocka_unit_test(kinds_have_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
