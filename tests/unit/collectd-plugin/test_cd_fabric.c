/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the collectd plugin's fabric and SM mapping: node instance names, which value
 * lists a fabric port has, the fabric-wide and SM values of hand-built snapshots, and that every
 * value sent maps a fact of the core's table. */
#include "cd_fabric_values.h"
#include "cd_names.h"
#include "rdmakit/route.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static void safe_names_keep_letters_digits_dot_dash_underscore(void **state)
{
	char out[CD_NODE_NAME_MAX];

	(void)state;
	cd_safe_name("host7 HCA-1", out, sizeof(out));
	assert_string_equal(out, "host7_HCA-1");
	cd_safe_name("MF0;sw-ib01:MQM8700/U1", out, sizeof(out));
	assert_string_equal(out, "MF0_sw-ib01_MQM8700_U1");
	cd_safe_name("sw.example.com", out, sizeof(out));
	assert_string_equal(out, "sw.example.com");
	cd_safe_name("abcdef", out, 4);
	assert_string_equal(out, "abc");
}

static struct rk_fabric *three_nodes(void)
{
	struct rk_fabric *fabric = calloc(1, sizeof(*fabric));

	fabric->nnodes = 3;
	fabric->nodes = calloc(3, sizeof(*fabric->nodes));
	for (int n = 0; n < 3; n++)
		fabric->nodes[n].guid = 0x0002c90200100001 + (uint64_t)n;
	return fabric;
}

static struct rk_name_map *map_of(const char *text)
{
	char path[] = "/tmp/rdmakit-map-XXXXXX";
	int fd = mkstemp(path);
	struct rk_name_map *map = NULL;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(rk_name_map_load(path, &map), 0);
	unlink(path);
	return map;
}

static void nodes_are_named_by_the_map_or_their_guid(void **state)
{
	struct rk_fabric *fabric = three_nodes();
	struct rk_name_map *map = map_of("0x0002c90200100001 \"leaf 1\"\n");
	cd_node_name names[3];

	(void)state;
	assert_int_equal(cd_node_names(fabric, map, names), 0);
	assert_string_equal(names[0], "leaf_1");
	assert_string_equal(names[1], "0x0002c90200100002");
	assert_int_equal(cd_node_names(fabric, NULL, names), 0);
	assert_string_equal(names[0], "0x0002c90200100001");
	rk_name_map_free(map);
	free(fabric->nodes);
	free(fabric);
}

static void a_shared_name_falls_back_to_guids(void **state)
{
	struct rk_fabric *fabric = three_nodes();
	struct rk_name_map *map = map_of("0x0002c90200100001 \"sw a\"\n"
					 "0x0002c90200100002 \"sw/a\"\n"
					 "0x0002c90200100003 \"sw b\"\n");
	cd_node_name names[3];

	(void)state;
	assert_int_equal(cd_node_names(fabric, map, names), 2); /* both are "sw_a" when safe */
	assert_string_equal(names[0], "0x0002c90200100001");
	assert_string_equal(names[1], "0x0002c90200100002");
	assert_string_equal(names[2], "sw_b");
	rk_name_map_free(map);
	free(fabric->nodes);
	free(fabric);
}

static const struct cd_fabric_item *find_item(const struct cd_fabric_item *items, size_t n,
					      const char *type, const char *type_instance)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(items[i].slot.type, type) == 0 &&
		    strcmp(items[i].slot.type_instance, type_instance) == 0)
			return &items[i];
	return NULL;
}

static void port_items_and_their_rules(void **state)
{
	struct cd_fabric_item items[RK_SWEEP_COUNTERS];
	size_t n = cd_fabric_items(items);
	const struct cd_fabric_item *item;
	size_t npairs;

	(void)state;
	rk_counter_pairs(&npairs);
	assert_int_equal(n, RK_PMA_COUNT - npairs); /* each rx/tx pair is one item */
	item = find_item(items, n, "if_octets", "");
	assert_non_null(item);
	assert_int_equal(item->rule, CD_SEND_ALWAYS);
	assert_int_equal(item->counter[0], rk_catalog_pma_index("port_rcv_data"));
	assert_int_equal(item->counter[1], rk_catalog_pma_index("port_xmit_data"));
	item = find_item(items, n, "if_packets", "multicast");
	assert_non_null(item);
	assert_int_equal(item->rule, CD_SEND_PACKETS);
	item = find_item(items, n, "derive", "symbol_error");
	assert_non_null(item);
	assert_int_equal(item->rule, CD_SEND_NONZERO);
	assert_int_equal(item->counter[1], -1);
}

/* The value the plugin sends under a type instance of a fact list. */
static double sent(const struct cd_fact *facts, size_t count, const double values[RK_FACT_COUNT],
		   const char *type_instance)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(facts[i].type_instance, type_instance) == 0)
			return values[facts[i].fact];
	fail_msg("%s is not sent", type_instance);
	return NAN;
}

static void fabric_values_are_the_cores_facts(void **state)
{
	struct rk_fabric *fabric = three_nodes();
	struct rk_fabric_link links[2] = {{.below_peers = true}, {0}};
	struct rk_sweep sweep = {.count = 10, .answered = 9, .failed = 1};
	struct rk_route_summary routes = {.routes = 120,
					  .holes = 2,
					  .loops = 1,
					  .dead_ends = 3,
					  .max_hops = 4,
					  .unbalanced_switches = 5};
	double v[RK_FACT_COUNT];
	size_t n;
	const struct cd_fact *facts = cd_fact_list(RK_SCOPE_FABRIC, &n);

	(void)state;
	fabric->nodes[0].type = RK_NODE_SWITCH;
	fabric->nodes[1].type = RK_NODE_CA;
	fabric->nodes[2].type = RK_NODE_CA;
	fabric->links = links;
	fabric->nlinks = 2;
	fabric->discovery_seconds = 0.5;
	rk_fabric_fact_values(fabric, &sweep, 0.25, v);
	assert_int_equal(n, 18);
	assert_true(isnan(v[RK_FACT_FABRIC_WATCHER_ACTIVE])); /* the engine's, with an election */
	assert_true(isnan(sent(facts, n, v, "audit_critical"))); /* the engine's, after an audit */
	assert_true(isnan(sent(facts, n, v, "audit_warning")));
	assert_true(sent(facts, n, v, "nodes") == 3 && sent(facts, n, v, "switches") == 1);
	assert_true(sent(facts, n, v, "cas") == 2 && sent(facts, n, v, "links") == 2);
	assert_true(sent(facts, n, v, "degraded_links") == 1);
	assert_true(sent(facts, n, v, "swept_ports") == 10 &&
		    sent(facts, n, v, "unanswered_ports") == 1);
	assert_true(sent(facts, n, v, "sweep") == 0.25 && sent(facts, n, v, "discovery") == 0.5);
	assert_true(isnan(sent(facts, n, v, "routes_followed"))); /* no route check yet */
	rk_route_fact_values(&routes, v);
	assert_true(sent(facts, n, v, "routes_followed") == 120 &&
		    sent(facts, n, v, "route_holes") == 2 && sent(facts, n, v, "route_loops") == 1);
	assert_true(sent(facts, n, v, "route_dead_ends") == 3 &&
		    sent(facts, n, v, "route_max_hops") == 4 &&
		    sent(facts, n, v, "routes_unbalanced") == 5);
	free(fabric->nodes);
	free(fabric);
}

static void sm_values_are_the_cores_facts(void **state)
{
	struct rk_sm sms[3] = {
	    {.lid = 1, .priority = 10, .state = RK_SM_MASTER, .activity_count = 900},
	    {.lid = 5, .priority = 5, .state = RK_SM_STANDBY},
	    {.lid = 9, .state = RK_SM_STANDBY, .status = -110}, /* did not answer */
	};
	struct rk_sm_status status = {.sms = sms, .count = 3, .local_sm_lid = 1};
	double v[RK_FACT_COUNT];
	size_t n;
	const struct cd_fact *facts = cd_fact_list(RK_SCOPE_SM, &n);

	(void)state;
	rk_sm_fact_values(&status, v);
	assert_int_equal(n, 7);
	assert_true(sent(facts, n, v, "master_lid") == 1 &&
		    sent(facts, n, v, "master_priority") == 10);
	assert_true(sent(facts, n, v, "master_state") == 3);
	assert_true(sent(facts, n, v, "master_activity_count") == 900);
	assert_true(sent(facts, n, v, "sms") == 2 && sent(facts, n, v, "masters") == 1);
	assert_true(sent(facts, n, v, "standbys") == 1);
	sms[0].status = -110; /* nothing to describe: master_* are not sent */
	rk_sm_fact_values(&status, v);
	assert_true(isnan(sent(facts, n, v, "master_lid")));
	assert_true(sent(facts, n, v, "sms") == 1);
}

/* Every entry of a fact list names a fact of the scope, once, under a type that suits it. */
static void check_fact_list(const struct cd_fact *facts, size_t count, enum rk_fact_scope scope)
{
	for (size_t i = 0; i < count; i++) {
		const struct rk_fact *fact = rk_fact(facts[i].fact);
		bool duration = strcmp(facts[i].type, "duration") == 0;

		assert_int_equal(fact->scope, scope);
		assert_int_equal(fact->id, facts[i].fact);
		assert_int_equal(fact->kind == RK_KIND_COUNTER,
				 strcmp(facts[i].type, "derive") == 0);
		assert_int_not_equal(fact->kind, RK_KIND_TEXT);
		assert_int_equal(duration, strcmp(fact->unit, "seconds") == 0);
		assert_string_equal(facts[i].ds_name, duration ? "seconds" : "value");
		for (size_t j = 0; j < i; j++) {
			assert_int_not_equal(facts[j].fact, facts[i].fact);
			assert_string_not_equal(facts[j].type_instance, facts[i].type_instance);
		}
	}
}

static void every_sent_value_maps_a_core_fact(void **state)
{
	size_t count;
	const struct cd_fact *facts = cd_fact_list(RK_SCOPE_FABRIC, &count);
	const struct cd_port_gauge *gauges;
	const struct rk_counter_pair *pairs;

	(void)state;
	check_fact_list(facts, count, RK_SCOPE_FABRIC);
	facts = cd_fact_list(RK_SCOPE_SM, &count);
	check_fact_list(facts, count, RK_SCOPE_SM);
	gauges = cd_port_gauges(&count);
	assert_int_equal(count, 8);
	for (size_t i = 0; i < count; i++) {
		assert_int_equal(gauges[i].fact->scope, RK_SCOPE_PORT);
		assert_int_equal(gauges[i].fact->kind, RK_KIND_GAUGE);
		assert_non_null(gauges[i].value);
		assert_ptr_equal(gauges[i].value, gauges[i].fact->port_number);
	}
	pairs = rk_counter_pairs(&count);
	for (size_t i = 0; i < count; i++) {
		const char *type_instance = NULL;

		assert_non_null(cd_pair_type(&pairs[i], &type_instance));
		assert_non_null(type_instance);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(safe_names_keep_letters_digits_dot_dash_underscore),
	    cmocka_unit_test(nodes_are_named_by_the_map_or_their_guid),
	    cmocka_unit_test(a_shared_name_falls_back_to_guids),
	    cmocka_unit_test(port_items_and_their_rules),
	    cmocka_unit_test(fabric_values_are_the_cores_facts),
	    cmocka_unit_test(sm_values_are_the_cores_facts),
	    cmocka_unit_test(every_sent_value_maps_a_core_fact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
