/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the collectd plugin's fabric and SM mapping: node instance names, which value
 * lists a fabric port has, and the fabric-wide and SM values of hand-built snapshots. */
#include "cd_fabric_values.h"
#include "cd_names.h"

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

	(void)state;
	assert_int_equal(n, 17); /* 21 counters, four of them rx/tx pairs */
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

static void fabric_facts_count_nodes_links_and_ports(void **state)
{
	struct rk_fabric *fabric = three_nodes();
	struct rk_fabric_link links[2] = {{.below_peers = true}, {0}};
	struct rk_sweep sweep = {.count = 10, .failed = 1};
	double v[CD_FABRIC_FACTS];

	(void)state;
	fabric->nodes[0].type = RK_NODE_SWITCH;
	fabric->nodes[1].type = RK_NODE_CA;
	fabric->nodes[2].type = RK_NODE_CA;
	fabric->links = links;
	fabric->nlinks = 2;
	fabric->discovery_seconds = 0.5;
	cd_fabric_facts(fabric, &sweep, 0.25, v);
	assert_true(v[CD_FABRIC_NODES] == 3 && v[CD_FABRIC_SWITCHES] == 1 && v[CD_FABRIC_CAS] == 2);
	assert_true(v[CD_FABRIC_LINKS] == 2 && v[CD_FABRIC_DEGRADED_LINKS] == 1);
	assert_true(v[CD_FABRIC_SWEPT_PORTS] == 10 && v[CD_FABRIC_UNANSWERED_PORTS] == 1);
	assert_true(v[CD_FABRIC_SWEEP_SECONDS] == 0.25 && v[CD_FABRIC_DISCOVERY_SECONDS] == 0.5);
	assert_string_equal(cd_fabric_fact_list()[CD_FABRIC_SWEEP_SECONDS].type, "duration");
	free(fabric->nodes);
	free(fabric);
}

static void sm_facts_of_a_master_and_a_standby(void **state)
{
	struct rk_sm sms[3] = {
	    {.lid = 1, .priority = 10, .state = RK_SM_MASTER, .activity_count = 900},
	    {.lid = 5, .priority = 5, .state = RK_SM_STANDBY},
	    {.lid = 9, .state = RK_SM_STANDBY, .status = -110}, /* did not answer */
	};
	struct rk_sm_status status = {.sms = sms, .count = 3, .local_sm_lid = 1};
	double v[CD_SM_FACTS];

	(void)state;
	cd_sm_facts(&status, v);
	assert_true(v[CD_SM_MASTER_LID] == 1 && v[CD_SM_MASTER_PRIORITY] == 10);
	assert_true(v[CD_SM_MASTER_STATE] == 3 && v[CD_SM_MASTER_ACTIVITY] == 900);
	assert_true(v[CD_SM_ANSWERED] == 2 && v[CD_SM_MASTERS] == 1 && v[CD_SM_STANDBYS] == 1);
	/* no SM in MASTER state: the local port's SM stands in, if it answered */
	sms[0].state = RK_SM_DISCOVERING;
	cd_sm_facts(&status, v);
	assert_true(v[CD_SM_MASTER_STATE] == 1 && v[CD_SM_MASTERS] == 0);
	sms[0].status = -110;
	cd_sm_facts(&status, v);
	assert_true(isnan(v[CD_SM_MASTER_LID]) && isnan(v[CD_SM_MASTER_ACTIVITY]));
	assert_true(v[CD_SM_ANSWERED] == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(safe_names_keep_letters_digits_dot_dash_underscore),
	    cmocka_unit_test(nodes_are_named_by_the_map_or_their_guid),
	    cmocka_unit_test(a_shared_name_falls_back_to_guids),
	    cmocka_unit_test(port_items_and_their_rules),
	    cmocka_unit_test(fabric_facts_count_nodes_links_and_ports),
	    cmocka_unit_test(sm_facts_of_a_master_and_a_standby),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
