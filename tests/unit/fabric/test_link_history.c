/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The link history: PORT_WENT_DOWN from events, LINK_FLAPPING raised at the rule's count of
 * downs within its window and cleared after its stable time, LinkDownedCounter rises no event
 * told of, and a discovery that shows a port ACTIVE again. */
#include "rdmakit/catalog.h"
#include "rdmakit/limits.h"
#include "rdmakit/link_history.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define GUID 0x1234

static const struct rk_flap_settings rule = {.downs = 3, .window_s = 60, .stable_s = 30};

/* How many findings of code the history gives at now. */
static size_t count_code(struct rk_link_history *h, double now, const char *code)
{
	struct rk_findings findings = {0};
	size_t n = 0;

	assert_int_equal(rk_link_history_findings(h, now, &findings), 0);
	for (size_t i = 0; i < findings.count; i++)
		if (strcmp(findings.items[i].code, code) == 0) {
			assert_string_equal(findings.items[i].subject, "leaf1[3]");
			assert_int_equal(findings.items[i].node_guid, GUID);
			assert_int_equal(findings.items[i].port, 3);
			n++;
		}
	rk_findings_free(&findings);
	return n;
}

static void cycle(struct rk_link_history *h, double down_at, double up_at)
{
	assert_int_equal(rk_link_history_note(h, GUID, 3, "leaf1[3]", "hca9[1]", false, down_at),
			 0);
	assert_int_equal(rk_link_history_note(h, GUID, 3, "leaf1[3]", "hca9[1]", true, up_at), 0);
}

static void one_down_is_no_flap(void **state)
{
	struct rk_link_history h;

	(void)state;
	rk_link_history_init(&h, &rule);
	assert_int_equal(rk_link_history_note(&h, GUID, 3, "leaf1[3]", "hca9[1]", false, 10), 0);
	assert_int_equal(count_code(&h, 11, "PORT_WENT_DOWN"), 1);
	assert_int_equal(count_code(&h, 11, "LINK_FLAPPING"), 0);
	assert_int_equal(rk_link_history_note(&h, GUID, 3, "leaf1[3]", NULL, true, 12), 0);
	assert_int_equal(count_code(&h, 13, "PORT_WENT_DOWN"), 0);
	assert_int_equal(count_code(&h, 13, "LINK_FLAPPING"), 0);
	/* a second down told twice (both ends' reads) is still one down */
	assert_int_equal(rk_link_history_note(&h, GUID, 3, "leaf1[3]", NULL, false, 14), 0);
	assert_int_equal(rk_link_history_note(&h, GUID, 3, "leaf1[3]", NULL, false, 14.1), 0);
	assert_int_equal(count_code(&h, 15, "LINK_FLAPPING"), 0);
	rk_link_history_free(&h);
}

static void flapping_raises_and_clears(void **state)
{
	struct rk_link_history h;

	(void)state;
	rk_link_history_init(&h, &rule);
	for (int i = 0; i < 5; i++)
		cycle(&h, 100 + 10 * i, 105 + 10 * i);
	assert_int_equal(count_code(&h, 146, "LINK_FLAPPING"), 1);
	assert_int_equal(count_code(&h, 146, "PORT_WENT_DOWN"), 0);
	/* up since 145: still flapping before 145 + 30, cleared after, and not raised again by
	 * the downs still within the window */
	assert_int_equal(count_code(&h, 174, "LINK_FLAPPING"), 1);
	assert_int_equal(count_code(&h, 176, "LINK_FLAPPING"), 0);
	assert_int_equal(count_code(&h, 177, "LINK_FLAPPING"), 0);
	rk_link_history_free(&h);
}

static void downs_spread_out_do_not_flap(void **state)
{
	struct rk_link_history h;

	(void)state;
	rk_link_history_init(&h, &rule);
	for (int i = 0; i < 5; i++)
		cycle(&h, 100 + 40 * i, 101 + 40 * i); /* two within any 60 s at most */
	assert_int_equal(count_code(&h, 270, "LINK_FLAPPING"), 0);
	rk_link_history_free(&h);
}

/* A fabric of one switch with port 3, and a sweep of that port with LinkDownedCounter from
 * before to now. */
static void one_port(struct rk_fabric *fabric, struct rk_fabric_node *node,
		     struct rk_fabric_port *ports, struct rk_sweep *sweep, struct rk_sweep_port *p,
		     uint64_t before, uint64_t now)
{
	int c = rk_catalog_pma_index("link_downed");

	assert_true(c >= 0);
	memset(node, 0, sizeof(*node));
	snprintf(node->name, sizeof(node->name), "leaf1");
	node->guid = GUID;
	node->nports = 3;
	node->ports = ports;
	ports[3].state = 4;
	*fabric = (struct rk_fabric){.nodes = node, .nnodes = 1};
	memset(p, 0, sizeof(*p));
	p->node_guid = GUID;
	p->port = 3;
	p->has_delta = true;
	p->prev[c] = before;
	p->raw[c] = now;
	*sweep = (struct rk_sweep){.ports = p, .count = 1};
}

static void counter_rises_count_missed_downs(void **state)
{
	struct rk_fabric_port ports[4] = {0};
	struct rk_fabric_node node;
	struct rk_fabric fabric;
	struct rk_sweep_port p;
	struct rk_sweep sweep;
	struct rk_link_history h;

	(void)state;
	rk_link_history_init(&h, &rule);
	/* one down told by an event and counted by the counter: no more */
	cycle(&h, 10, 11);
	one_port(&fabric, &node, ports, &sweep, &p, 7, 8);
	assert_int_equal(rk_link_history_sweep(&h, &fabric, &sweep, 12), 0);
	assert_int_equal(count_code(&h, 13, "LINK_FLAPPING"), 0);
	/* then two more the events missed: three downs within the window */
	one_port(&fabric, &node, ports, &sweep, &p, 8, 10);
	assert_int_equal(rk_link_history_sweep(&h, &fabric, &sweep, 20), 0);
	assert_int_equal(count_code(&h, 21, "LINK_FLAPPING"), 1);
	assert_int_equal(count_code(&h, 21, "PORT_WENT_DOWN"), 0);
	rk_link_history_free(&h);
}

static void discovery_shows_it_up(void **state)
{
	struct rk_fabric_port ports[4] = {0};
	struct rk_fabric_node node;
	struct rk_fabric fabric;
	struct rk_sweep_port p;
	struct rk_sweep sweep;
	struct rk_link_history h;

	(void)state;
	rk_link_history_init(&h, &rule);
	assert_int_equal(rk_link_history_note(&h, GUID, 3, "leaf1[3]", NULL, false, 10), 0);
	one_port(&fabric, &node, ports, &sweep, &p, 0, 0);
	ports[3].state = 1;
	rk_link_history_discovered(&h, &fabric, 11);
	assert_int_equal(count_code(&h, 12, "PORT_WENT_DOWN"), 1);
	ports[3].state = 4;
	rk_link_history_discovered(&h, &fabric, 13);
	assert_int_equal(count_code(&h, 14, "PORT_WENT_DOWN"), 0);
	rk_link_history_free(&h);
}

static void bad_rule_takes_defaults(void **state)
{
	struct rk_flap_settings bad = {.downs = 0, .window_s = 60, .stable_s = 30};
	struct rk_link_history h;

	(void)state;
	rk_link_history_init(&h, &bad);
	assert_int_equal(h.flap.downs, RK_FLAP_DOWNS_DEFAULT);
	rk_link_history_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(one_down_is_no_flap),
	    cmocka_unit_test(flapping_raises_and_clears),
	    cmocka_unit_test(downs_spread_out_do_not_flap),
	    cmocka_unit_test(counter_rises_count_missed_downs),
	    cmocka_unit_test(discovery_shows_it_up),
	    cmocka_unit_test(bad_rule_takes_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
