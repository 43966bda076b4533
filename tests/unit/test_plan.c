/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of fabric plans: both readers, the writer, hostile plan files, and each finding of
 * the comparison on hand-built fabrics (a two-leaf, one-spine tree written as plan text). */
#include "rdmakit/plan.h"

#include "fixture_util.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* Leaf1 (0x11) and Leaf2 (0x12) each cable two ports to Spine (0x21); hosts 0x31, 0x32 on
 * Leaf1, 0x33 on Leaf2. */
#define NODES                                                                                      \
	"node 0x11 switch 8 \"Leaf1\"\n"                                                           \
	"node 0x12 switch 8 \"Leaf2\"\n"                                                           \
	"node 0x21 switch 8 \"Spine\"\n"                                                           \
	"node 0x31 ca 1 \"host1\"\n"                                                               \
	"node 0x32 ca 1 \"host2\"\n"                                                               \
	"node 0x33 ca 1 \"host3\"\n"
#define L_H1 "0x11[1] -> 0x31[1] 4X EDR\n"
#define L_H2 "0x11[2] -> 0x32[1] 4X EDR\n"
#define L_H3 "0x12[1] -> 0x33[1] 4X EDR\n"
#define L_UP                                                                                       \
	"0x11[5] -> 0x21[1] 4X EDR\n0x11[6] -> 0x21[2] 4X EDR\n"                                   \
	"0x12[5] -> 0x21[3] 4X EDR\n0x12[6] -> 0x21[4] 4X EDR\n"
#define PLAN NODES L_H1 L_H2 L_H3 L_UP

static struct rk_plan *parse(const char *text, unsigned *errors)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct rk_plan *plan = NULL;

	assert_non_null(in);
	assert_int_equal(rk_plan_parse(in, "plan", &plan, errors), 0);
	fclose(in);
	return plan;
}

/* The findings of live text against plan text, sorted. */
static struct rk_findings diff(const char *live_text, const char *plan_text,
			       const struct rk_name_map *names)
{
	struct rk_plan *live = parse(live_text, NULL), *plan = parse(plan_text, NULL);
	struct rk_findings f = {0};

	assert_int_equal(rk_plan_diff(live, plan, names, &f), 0);
	rk_findings_sort(&f);
	rk_plan_free(live);
	rk_plan_free(plan);
	return f;
}

static size_t count(const struct rk_findings *f, const char *code)
{
	size_t n = 0;

	for (size_t i = 0; i < f->count; i++)
		n += strcmp(f->items[i].code, code) == 0;
	return n;
}

static const struct rk_finding *only(const struct rk_findings *f, const char *code)
{
	assert_int_equal(f->count, 1);
	assert_string_equal(f->items[0].code, code);
	return &f->items[0];
}

static void same_fabric_no_finding(void **state)
{
	struct rk_findings f = diff(PLAN, PLAN, NULL);

	(void)state;
	assert_int_equal(f.count, 0);
	rk_findings_free(&f);
}

static void link_missing_names_both_ends(void **state)
{
	struct rk_findings f = diff(NODES L_H1 L_H2 L_H3 "0x11[6] -> 0x21[2] 4X EDR\n"
							 "0x12[5] -> 0x21[3] 4X EDR\n"
							 "0x12[6] -> 0x21[4] 4X EDR\n",
				    PLAN, NULL);
	const struct rk_finding *x = only(&f, "LINK_MISSING");

	(void)state;
	assert_string_equal(x->subject, "Leaf1[5]-Spine[1]");
	assert_non_null(strstr(x->message, "0x0000000000000011[5] - 0x0000000000000021[1]"));
	assert_int_equal(x->severity, RK_SEVERITY_WARNING);
	assert_true(x->node_guid == 0x11 && x->port == 5);
	rk_findings_free(&f);
}

static void link_unexpected(void **state)
{
	struct rk_findings f = diff(PLAN "0x11[7] -> 0x12[7] 4X EDR\n", PLAN, NULL);

	(void)state;
	assert_string_equal(only(&f, "LINK_UNEXPECTED")->subject, "Leaf1[7]-Leaf2[7]");
	rk_findings_free(&f);
}

static void miswired_same_nodes_other_ports(void **state)
{
	/* Leaf1[5] - Spine[1] cabled into Spine[7] instead. */
	struct rk_findings f = diff(NODES L_H1 L_H2 L_H3 "0x11[5] -> 0x21[7] 4X EDR\n"
							 "0x11[6] -> 0x21[2] 4X EDR\n"
							 "0x12[5] -> 0x21[3] 4X EDR\n"
							 "0x12[6] -> 0x21[4] 4X EDR\n",
				    PLAN, NULL);
	const struct rk_finding *x = only(&f, "LINK_MISWIRED");

	(void)state;
	assert_string_equal(x->subject, "Leaf1[5]-Spine[1]");
	assert_non_null(strstr(x->message, "Leaf1[5] - Spine[7]"));
	rk_findings_free(&f);
}

static void miswired_one_end_moved(void **state)
{
	/* host2's cable moved from Leaf1[2] to Leaf2[2]. */
	struct rk_findings f = diff(NODES L_H1 "0x12[2] -> 0x32[1] 4X EDR\n" L_H3 L_UP, PLAN, NULL);
	const struct rk_finding *x = only(&f, "LINK_MISWIRED");

	(void)state;
	assert_string_equal(x->subject, "Leaf1[2]-host2[1]");
	assert_non_null(strstr(x->message, "Leaf2[2] - host2[1]"));
	rk_findings_free(&f);
}

static void below_plan(void **state)
{
	struct rk_findings f =
	    diff(NODES "0x11[1] -> 0x31[1] 1X EDR\n" L_H2 "0x12[1] -> 0x33[1] 4X SDR\n" L_UP, PLAN,
		 NULL);

	(void)state;
	assert_int_equal(f.count, 2);
	assert_int_equal(count(&f, "LINK_BELOW_PLAN"), 2);
	assert_non_null(strstr(f.items[0].message, "runs 1X EDR, the plan has 4X EDR"));
	assert_non_null(strstr(f.items[1].message, "runs 4X SDR, the plan has 4X EDR"));
	rk_findings_free(&f);
}

static void faster_than_plan_is_fine(void **state)
{
	struct rk_findings f =
	    diff(PLAN, NODES "0x11[1] -> 0x31[1] 1X SDR\n0x11[2] -> 0x32[1]\n" L_H3 L_UP, NULL);

	(void)state;
	assert_int_equal(f.count, 0);
	rk_findings_free(&f);
}

static void node_missing_covers_its_links(void **state)
{
	struct rk_findings f = diff("node 0x11 switch 8 \"Leaf1\"\nnode 0x12 switch 8 \"Leaf2\"\n"
				    "node 0x21 switch 8 \"Spine\"\nnode 0x31 ca 1 \"host1\"\n"
				    "node 0x33 ca 1 \"host3\"\n" L_H1 L_H3 L_UP,
				    PLAN, NULL);
	const struct rk_finding *x = only(&f, "NODE_MISSING");

	(void)state;
	assert_string_equal(x->subject, "host2 (0x0000000000000032)");
	assert_int_equal(x->severity, RK_SEVERITY_CRITICAL);
	rk_findings_free(&f);
}

static void node_unexpected(void **state)
{
	struct rk_findings f =
	    diff(PLAN "node 0x34 ca 1 \"host4\"\n0x12[2] -> 0x34[1] 4X EDR\n", PLAN, NULL);

	(void)state;
	assert_string_equal(only(&f, "NODE_UNEXPECTED")->subject, "host4 (0x0000000000000034)");
	rk_findings_free(&f);
}

static void replaced_switch_is_one_finding(void **state)
{
	/* Leaf2 (0x12) replaced by 0x19 with the same cables. */
	struct rk_findings f = diff("node 0x11 switch 8 \"Leaf1\"\nnode 0x19 switch 8 \"new\"\n"
				    "node 0x21 switch 8 \"Spine\"\nnode 0x31 ca 1 \"host1\"\n"
				    "node 0x32 ca 1 \"host2\"\nnode 0x33 ca 1 \"host3\"\n" L_H1 L_H2
				    "0x19[1] -> 0x33[1] 4X EDR\n"
				    "0x11[5] -> 0x21[1] 4X EDR\n0x11[6] -> 0x21[2] 4X EDR\n"
				    "0x19[5] -> 0x21[3] 4X EDR\n0x19[6] -> 0x21[4] 4X EDR\n",
				    PLAN, NULL);
	const struct rk_finding *x = only(&f, "NODE_REPLACED");

	(void)state;
	assert_string_equal(x->subject, "Leaf2 (0x0000000000000012)");
	assert_non_null(strstr(x->message, "0x0000000000000019"));
	assert_true(x->node_guid == 0x19);
	rk_findings_free(&f);
}

static void replaced_switch_with_a_miswire(void **state)
{
	/* Leaf2 replaced by 0x19, and host3's cable put into its port 2. */
	struct rk_findings f = diff("node 0x11 switch 8 \"Leaf1\"\nnode 0x19 switch 8 \"new\"\n"
				    "node 0x21 switch 8 \"Spine\"\nnode 0x31 ca 1 \"host1\"\n"
				    "node 0x32 ca 1 \"host2\"\nnode 0x33 ca 1 \"host3\"\n" L_H1 L_H2
				    "0x19[2] -> 0x33[1] 4X EDR\n"
				    "0x11[5] -> 0x21[1] 4X EDR\n0x11[6] -> 0x21[2] 4X EDR\n"
				    "0x19[5] -> 0x21[3] 4X EDR\n0x19[6] -> 0x21[4] 4X EDR\n",
				    PLAN, NULL);

	(void)state;
	assert_int_equal(f.count, 2);
	assert_int_equal(count(&f, "NODE_REPLACED"), 1);
	assert_int_equal(count(&f, "LINK_MISWIRED"), 1);
	rk_findings_free(&f);
}

static void names_from_the_name_map(void **state)
{
	char path[] = "/tmp/rk-plan-names-XXXXXX";
	int fd = mkstemp(path);
	struct rk_name_map *names;
	struct rk_findings f;

	(void)state;
	assert_true(fd >= 0);
	assert_true(write(fd, "0x11 \"leaf-r1\"\n", 15) == 15);
	close(fd);
	assert_int_equal(rk_name_map_load(path, &names), 0);
	f = diff(NODES L_H1 L_H2 L_H3, PLAN, names);
	assert_int_equal(count(&f, "LINK_MISSING"), 4);
	for (size_t i = 0; i < f.count; i++)
		if (f.items[i].node_guid == 0x11 && f.items[i].port == 5)
			assert_string_equal(f.items[i].subject, "leaf-r1[5]-Spine[1]");
	rk_findings_free(&f);
	rk_name_map_free(names);
	unlink(path);
}

static const char ibnd[] =
    "#\n# Topology file: generated on Wed Dec  2 04:59:17 2026\n#\n"
    "vendid=0x2c9\ndevid=0xcf08\nsysimgguid=0x2c90200100001\n"
    "switchguid=0x2c90200100001(2c90200100001)\n"
    "Switch\t8 \"S-0002c90200100001\"\t\t# \"Leaf1\" enhanced port 0 lid 2 lmc 0\n"
    "[1]\t\"H-0002c90300000010\"[1](2c90300000011) \t\t# \"host1 HCA-1\" lid 1 4xEDR\n"
    "[3]\t\"S-0002c90200200001\"[1]\t\t# \"Spine1\" lid 3 1xSDR\n"
    "\n"
    "Switch\t8 \"S-0002c90200200001\"\t\t# \"Spine1\" enhanced port 0 lid 3 lmc 0\n"
    "[1]\t\"S-0002c90200100001\"[3]\t\t# \"Leaf1\" lid 2 1xSDR\n"
    "\n"
    "vendid=0x2c9\ncaguid=0x2c90300000010\n"
    "Ca\t1 \"H-0002c90300000010\"\t\t# \"host1 HCA-1\"\n"
    "[1](2c90300000011) \t\"S-0002c90200100001\"[1]\t\t# lid 1 lmc 0 \"Leaf1\" lid 2 4xEDR\n";

static void reads_ibnetdiscover(void **state)
{
	unsigned errors = 99;
	struct rk_plan *plan = parse(ibnd, &errors);

	(void)state;
	assert_int_equal(errors, 0);
	assert_int_equal(plan->nnodes, 3);
	assert_int_equal(plan->nlinks, 2);
	assert_true(plan->nodes[0].guid == 0x2c90200100001ull);
	assert_int_equal(plan->nodes[0].type, RK_NODE_SWITCH);
	assert_int_equal(plan->nodes[0].nports, 8);
	assert_string_equal(plan->nodes[0].name, "Leaf1");
	assert_string_equal(plan->nodes[2].name, "host1 HCA-1");
	assert_int_equal(plan->nodes[2].type, RK_NODE_CA);
	assert_true(plan->links[0].guid_a == 0x2c90200100001ull && plan->links[0].port_a == 1);
	assert_int_equal(plan->links[0].width, 4);
	assert_int_equal(plan->links[0].speed, RK_SPEED_EDR);
	assert_int_equal(plan->links[1].width, 1);
	assert_int_equal(plan->links[1].speed, RK_SPEED_SDR);
	rk_plan_free(plan);
}

static void write_then_read_is_the_same(void **state)
{
	struct rk_plan *plan = parse(PLAN, NULL), *again;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	(void)state;
	assert_int_equal(rk_plan_write(out, plan), 0);
	fclose(out);
	assert_non_null(strstr(text, "node 0x0000000000000011 switch 8 \"Leaf1\"\n"));
	assert_non_null(strstr(text, "0x0000000000000011[1] -> 0x0000000000000031[1] 4X EDR  # "
				     "\"Leaf1\" - \"host1\"\n"));
	again = parse(text, NULL);
	assert_int_equal(again->nnodes, plan->nnodes);
	assert_int_equal(again->nlinks, plan->nlinks);
	for (size_t i = 0; i < plan->nlinks; i++)
		assert_int_equal(
		    memcmp(&again->links[i], &plan->links[i], offsetof(struct rk_plan_link, line)),
		    0);
	free(text);
	rk_plan_free(plan);
	rk_plan_free(again);
}

static void hostile_lines_skipped_rest_read(void **state)
{
	char longline[1200];
	char text[4096];
	unsigned errors = 0;
	struct rk_plan *plan;

	(void)state;
	memset(longline, 'x', sizeof(longline) - 2);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	snprintf(text, sizeof(text),
		 "%s"
		 "node 0x41 hub 8 \"bad type\"\n"	 /* 7 */
		 "node 0x42 switch 999 \"too many\"\n"	 /* 8 */
		 "0x11[300] -> 0x21[1]\n"		 /* 9 */
		 "0x11[7] -> 0x99[1]\n"			 /* 10: undeclared node */
		 "0x11[1] -> 0x21[8] 4X EDR\n"		 /* 11: 0x11[1] is on line 12 */
		 "0x11[1] -> 0x31[1] 4X EDR\n"		 /* 12 */
		 "%s"					 /* 13: too long */
		 "0x11[2] -> 0x32[1] 4X WARP\n"		 /* 14 */
		 "[1]\t\"S-0002c90200100001\"[1]\n"	 /* 15: before any node */
		 "0x11[2] -> 0x32[1] 4X EDR\n"		 /* 16 */
		 "0x1111111111111111111[1] -> 0x21[2]\n" /* 17 */
		 "garbage\n",				 /* 18 */
		 NODES, longline);
	log_capture_start();
	plan = parse(text, &errors);
	assert_int_equal(errors, 10);
	assert_int_equal(log_capture_count("plan:7: node type must be"), 1);
	assert_int_equal(log_capture_count("plan:8: expected a port count"), 1);
	assert_int_equal(log_capture_count("plan:9: expected 0xGUID[PORT]"), 1);
	assert_int_equal(log_capture_count("plan:10: the link goes to a node no node line"), 1);
	assert_int_equal(log_capture_count("plan:12: this port is already in a link"), 1);
	assert_int_equal(log_capture_count("plan:13: line longer"), 1);
	assert_int_equal(log_capture_count("plan:14: expected a rate"), 1);
	assert_int_equal(log_capture_count("plan:15: port line before"), 1);
	assert_int_equal(log_capture_count("plan:17:"), 1);
	assert_int_equal(log_capture_count("plan:18: not a node"), 1);
	assert_int_equal(plan->nnodes, 6);
	assert_int_equal(plan->nlinks, 2); /* lines 11 and 16 */
	rk_plan_free(plan);
}

static void port_claimed_by_three_links_keeps_the_first(void **state)
{
	unsigned errors = 0;
	struct rk_plan *plan;

	(void)state;
	log_capture_start();
	plan = parse(NODES "0x12[3] -> 0x21[1]\n0x11[3] -> 0x21[1]\n0x21[1] -> 0x21[3]\n", &errors);
	assert_int_equal(errors, 2);
	assert_int_equal(log_capture_count("plan:8: this port is already in a link"), 1);
	assert_int_equal(log_capture_count("plan:9: this port is already in a link"), 1);
	assert_int_equal(plan->nlinks, 1);
	assert_true(plan->links[0].guid_a == 0x12 && plan->links[0].port_a == 3);
	rk_plan_free(plan);
}

static void too_many_nodes_refused(void **state)
{
	size_t size = (RK_PLAN_MAX_NODES + 2) * 32;
	char *text = malloc(size), *p = text;
	struct rk_plan *plan = (void *)1;
	FILE *in;

	(void)state;
	assert_non_null(text);
	for (unsigned i = 1; i <= RK_PLAN_MAX_NODES + 1; i++)
		p += sprintf(p, "node 0x%x ca 1\n", i);
	in = fmemopen(text, (size_t)(p - text), "r");
	assert_int_equal(rk_plan_parse(in, "big", &plan, NULL), -E2BIG);
	assert_null(plan);
	fclose(in);
	free(text);
}

/* A live fabric of Leaf1 (0x11) and Spine (0x21), cabled 0x11[5] - 0x21[1] at 4X EDR. */
static struct rk_fabric *leaf_and_spine(void)
{
	struct rk_fabric *fabric = calloc(1, sizeof(*fabric));

	assert_non_null(fabric);
	fabric->nnodes = 2;
	fabric->nodes = calloc(2, sizeof(*fabric->nodes));
	assert_non_null(fabric->nodes);
	for (int n = 0; n < 2; n++) {
		struct rk_fabric_node *node = &fabric->nodes[n];

		node->guid = n ? 0x21 : 0x11;
		node->type = RK_NODE_SWITCH;
		node->nports = 8;
		snprintf(node->name, sizeof(node->name), "%s", n ? "Spine" : "Leaf1");
		node->ports = calloc(9, sizeof(*node->ports));
		assert_non_null(node->ports);
	}
	fabric->nlinks = 1;
	fabric->links = calloc(1, sizeof(*fabric->links));
	assert_non_null(fabric->links);
	fabric->links[0] = (struct rk_fabric_link){
	    .node_a = 1, .port_a = 1, .node_b = 0, .port_b = 5, .width = 4, .speed = RK_SPEED_EDR};
	return fabric;
}

static void live_fabric_against_plan(void **state)
{
	struct rk_fabric *fabric = leaf_and_spine();
	struct rk_plan *live,
	    *plan = parse("node 0x11 switch 8 \"Leaf1\"\n"
			  "node 0x21 switch 8 \"Spine\"\n"
			  "0x11[5] -> 0x21[1] 4X EDR\n0x11[6] -> 0x21[2] 4X EDR\n",
			  NULL);
	struct rk_findings f = {0};

	(void)state;
	assert_int_equal(rk_plan_from_fabric(fabric, &live), 0);
	assert_int_equal(live->nlinks, 1);
	assert_true(live->links[0].guid_a == 0x11 && live->links[0].port_a == 5 &&
		    live->links[0].guid_b == 0x21 && live->links[0].port_b == 1);
	assert_int_equal(rk_plan_compare(fabric, plan, NULL, &f), 0);
	assert_string_equal(only(&f, "LINK_MISSING")->subject, "Leaf1[6]-Spine[2]");
	rk_findings_free(&f);
	rk_plan_free(live);
	rk_plan_free(plan);
	rk_fabric_free(fabric);
}

static void missing_file_is_an_error(void **state)
{
	struct rk_plan *plan;

	(void)state;
	assert_int_equal(rk_plan_load("/nonexistent/plan", &plan, NULL), -ENOENT);
	assert_null(plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(same_fabric_no_finding),
	    cmocka_unit_test(link_missing_names_both_ends),
	    cmocka_unit_test(link_unexpected),
	    cmocka_unit_test(miswired_same_nodes_other_ports),
	    cmocka_unit_test(miswired_one_end_moved),
	    cmocka_unit_test(below_plan),
	    cmocka_unit_test(faster_than_plan_is_fine),
	    cmocka_unit_test(node_missing_covers_its_links),
	    cmocka_unit_test(node_unexpected),
	    cmocka_unit_test(replaced_switch_is_one_finding),
	    cmocka_unit_test(replaced_switch_with_a_miswire),
	    cmocka_unit_test(names_from_the_name_map),
	    cmocka_unit_test(reads_ibnetdiscover),
	    cmocka_unit_test(write_then_read_is_the_same),
	    cmocka_unit_test(hostile_lines_skipped_rest_read),
	    cmocka_unit_test(port_claimed_by_three_links_keeps_the_first),
	    cmocka_unit_test(too_many_nodes_refused),
	    cmocka_unit_test(live_fabric_against_plan),
	    cmocka_unit_test(missing_file_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
