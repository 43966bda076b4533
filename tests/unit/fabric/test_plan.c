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
	static const struct test_node nodes[] = {{0x11, RK_NODE_SWITCH, 8, "Leaf1"},
						 {0x21, RK_NODE_SWITCH, 8, "Spine"}};
	static const struct test_link links[] = {{1, 1, 0, 5}};

	return test_fabric(nodes, 2, links, 1);
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
	unsigned unplaced = 99;

	(void)state;
	assert_int_equal(rk_plan_from_fabric(fabric, &live), 0);
	assert_int_equal(live->nlinks, 1);
	assert_true(live->links[0].guid_a == 0x11 && live->links[0].port_a == 5 &&
		    live->links[0].guid_b == 0x21 && live->links[0].port_b == 1);
	assert_int_equal(rk_plan_compare(fabric, plan, NULL, RK_LOG_WARNING, &unplaced, &f), 0);
	assert_int_equal(unplaced, 0);
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

/* A fabric for plans that name their nodes: Leaf1 (0x11), leaf2 (0x12, described as NVIDIA
 * firmware does), Spine (0x21), host1 and host2 (0x31, 0x32, described by their interfaces),
 * and two CAs described alike (0x41, 0x42). All 4X EDR. */
static struct rk_fabric *named_fabric(void)
{
	static const struct test_node nodes[] = {
	    {0x11, RK_NODE_SWITCH, 8, "Leaf1"},
	    {0x12, RK_NODE_SWITCH, 8, "MF0;leaf2:MQM8700/U1"},
	    {0x21, RK_NODE_SWITCH, 8, "Spine"},
	    {0x31, RK_NODE_CA, 1, "host1 ibp3s0f0"},
	    {0x32, RK_NODE_CA, 1, "host2 ibp4s0f0"},
	    {0x41, RK_NODE_CA, 1, "twin"},
	    {0x42, RK_NODE_CA, 1, "twin"},
	};
	/* Leaf1[1]-host1, Leaf1[2]-host2, Leaf1[5]-Spine[1], leaf2[5]-Spine[3], leaf2[1]-0x41,
	 * leaf2[2]-0x42 */
	static const struct test_link links[] = {{0, 1, 3, 1}, {0, 2, 4, 1}, {0, 5, 2, 1},
						 {1, 5, 2, 3}, {1, 1, 5, 1}, {1, 2, 6, 1}};

	return test_fabric(nodes, 7, links, 6);
}

/* The node name map of the named fabric: host2, Spine and the twins by name, and one name two
 * GUIDs share (in other cases). */
static struct rk_name_map *named_map(void)
{
	static const char text[] = "0x32 \"host-two\"\n0x21 \"spine-a\"\n0x41 \"twin-a\"\n"
				   "0x42 \"twin-b\"\n0x51 \"dupname\"\n0x52 \"DupName\"\n";
	char path[] = "/tmp/rk-plan-map-XXXXXX";
	int fd = mkstemp(path);
	struct rk_name_map *names;

	assert_true(fd >= 0);
	assert_true(write(fd, text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1));
	close(fd);
	assert_int_equal(rk_name_map_load(path, &names), 0);
	unlink(path);
	return names;
}

/* Text read as the file origin (its extension may matter); *errors its bad parts. */
static struct rk_plan *parse_as(const char *text, const char *origin, unsigned *errors)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct rk_plan *plan = NULL;

	assert_non_null(in);
	assert_int_equal(rk_plan_parse(in, origin, &plan, errors), 0);
	fclose(in);
	return plan;
}

/* The findings of the named fabric against a plan read from text as origin (with the name
 * map), sorted; *errors the plan's bad parts, *unplaced its links not placed. */
static struct rk_findings against_named(const char *text, const char *origin, unsigned *errors,
					unsigned *unplaced)
{
	struct rk_plan *plan = parse_as(text, origin, errors);
	struct rk_fabric *fabric = named_fabric();
	struct rk_name_map *names = named_map();
	struct rk_findings f = {0};

	assert_int_equal(rk_plan_compare(fabric, plan, names, RK_LOG_WARNING, unplaced, &f), 0);
	rk_findings_sort(&f);
	rk_name_map_free(names);
	rk_fabric_free(fabric);
	rk_plan_free(plan);
	return f;
}

/* The named fabric as an NDT: each port spelling, names through the map, descriptions (any
 * case, an NVIDIA switch's system name, an HCA's "HOST ibpX" as the port) and rows that are not
 * InfiniBand cables. */
#define NDT_GOOD                                                                                   \
	"\xef\xbb\xbf#StartDevice,StartPort,EndDevice,EndPort,LinkType\n"                          \
	"Leaf1,Port 1,host1,host1 ibp3s0f0,Data\n"                                                 \
	"LEAF1,1/2,host2,ibp4s0f0,Data\n"                                                          \
	"Leaf1,P5,spine-a,Port1, Data\n"                                                           \
	"leaf2,IB Port 5,Spine,p3,data\n"                                                          \
	"\"leaf2\",\"1\",twin-a,1,Data\n"                                                          \
	"leaf2,2,twin-b,1,Data\n"                                                                  \
	"Leaf1,7,pdu-3,outlet 2,Power\n"                                                           \
	",,,,\n"

static void ndt_of_the_fabric_gives_no_finding(void **state)
{
	unsigned errors = 99, unplaced = 99;
	struct rk_findings f = against_named(NDT_GOOD, "plan", &errors, &unplaced);

	(void)state;
	assert_int_equal(errors, 0);
	assert_int_equal(unplaced, 0);
	assert_int_equal(f.count, 0);
	rk_findings_free(&f);
}

static void ndt_miswire_is_found(void **state)
{
	unsigned errors, unplaced;
	struct rk_findings f = against_named("StartDevice,StartPort,EndDevice,EndPort\n"
					     "Leaf1,1,host1 ibp3s0f0,1\nLeaf1,3,host-two,1\n"
					     "Leaf1,5,Spine,1\nleaf2,5,Spine,3\n"
					     "leaf2,1,twin-a,1\nleaf2,2,twin-b,1\n",
					     "plan.ndt", &errors, &unplaced);
	const struct rk_finding *x = only(&f, "LINK_MISWIRED");

	(void)state;
	assert_int_equal(errors + unplaced, 0);
	assert_string_equal(x->subject, "Leaf1[3]-host-two[1]");
	assert_non_null(strstr(x->message, "the cable joins Leaf1[2] - host-two[1]"));
	rk_findings_free(&f);
}

static void ndt_bad_rows_named_and_counted(void **state)
{
	char text[4096], longline[1100];
	unsigned errors = 0;
	struct rk_plan *plan;

	(void)state;
	memset(longline, 'x', sizeof(longline) - 2);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	snprintf(text, sizeof(text),
		 "Leaf1,Port 1,host1,ibp3s0f0,Data\n" /* 1: before the header */
		 "# the test fabric\n"		      /* 2 */
		 ",rack,#Fields:StartDevice,StartPort,EndDevice,EndPort,LinkType\n" /* 3 */
		 ",r1,Leaf1,Port 1,host1\n"					    /* 4: short */
		 ",r1,Leaf1,abra,host1,1,Data\n"				    /* 5 */
		 ",r1,dir1,Blade 2_Port 1/1,Spine,1,Data\n"			    /* 6 */
		 ",r1,Leaf1,Port 300,Spine,1,Data\n"				    /* 7 */
		 ",r1,,Port 3,Spine,1,Data\n"					    /* 8 */
		 "%s"								    /* 9: long */
		 ",r1,\"Leaf,1\",Port 4,Spine,\"2\",Data\n"			    /* 10: read */
		 ",r1,Leaf1,3/3,Spine,4,Data\n"					    /* 11 */
		 ",r1,Leaf1,Port 6,Spine,\"\"\"q\",Data\n",			    /* 12 */
		 longline);
	log_capture_start();
	plan = parse_as(text, "plan.csv", &errors);
	assert_int_equal(errors, 9);
	assert_int_equal(log_capture_count("plan.csv:1: a row before the header line"), 1);
	assert_int_equal(log_capture_count("plan.csv:4: the row has no EndPort field"), 1);
	assert_int_equal(log_capture_count("plan.csv:5: StartDevice \"Leaf1\" StartPort \"abra\": "
					   "not a port"),
			 1);
	assert_int_equal(log_capture_count("plan.csv:6: StartDevice \"dir1\" StartPort \"Blade "
					   "2_Port 1/1\": a director's port"),
			 1);
	assert_int_equal(log_capture_count("plan.csv:7: StartDevice \"Leaf1\" StartPort \"Port "
					   "300\": not a port"),
			 1);
	assert_int_equal(log_capture_count("plan.csv:8: StartDevice \"\" StartPort \"Port 3\": no "
					   "device name"),
			 1);
	assert_int_equal(log_capture_count("plan.csv:9: line longer than 1024"), 1);
	assert_int_equal(log_capture_count("plan.csv:11: StartDevice \"Leaf1\" StartPort \"3/3\""),
			 1);
	assert_int_equal(log_capture_count("plan.csv:12: EndDevice \"Spine\" EndPort \"\"q\""), 1);
	assert_int_equal(log_capture_count("line skipped"), 9);
	assert_int_equal(rk_plan_named_links(plan), 1);
	assert_int_equal(plan->nlinks, 0);
	rk_plan_free(plan);
}

static void names_not_placed_named_and_counted(void **state)
{
	unsigned errors = 99, unplaced = 0;
	struct rk_findings f;

	(void)state;
	log_capture_start();
	f = against_named("StartDevice,StartPort,EndDevice,EndPort\n"
			  "Leaf1,1,host1 ibp3s0f0,1\n" /* 2: placed */
			  "leaf2,1,twin,1\n"	       /* 3: two nodes described so */
			  "leaf2,2,dupname,1\n"	       /* 4: the map gives it to two GUIDs */
			  "nosuch,1,Spine,2\n"	       /* 5 */
			  "Leaf1,5,spine-a,1\n"	       /* 6: placed */
			  "Leaf1,6,Spine,1\n"	       /* 7: Spine[1] is on line 6 */
			  "Spine,9,leaf2,5\n",	       /* 8: Spine has 8 ports */
			  "plan", &errors, &unplaced);
	assert_int_equal(errors, 0);
	assert_int_equal(unplaced, 5);
	assert_int_equal(log_capture_count("plan:3: 2 nodes of the fabric are described \"twin\": "
					   "give each its own name in the node name map, line "
					   "skipped"),
			 1);
	assert_int_equal(
	    log_capture_count("plan:4: the node name map gives \"dupname\" to 2 GUIDs"), 1);
	assert_int_equal(log_capture_count("plan:5: \"nosuch\" is not in the node name map and no "
					   "node of the fabric is described so"),
			 1);
	assert_int_equal(log_capture_count("plan:7: this port is already in a link"), 1);
	assert_int_equal(log_capture_count("plan:8: the link goes to a port above its node's port "
					   "count"),
			 1);
	assert_int_equal(count(&f, "LINK_MISSING"), 0);
	assert_int_equal(count(&f, "NODE_MISSING"), 0);
	rk_findings_free(&f);
}

/* The named fabric as an ibfabricconf.xml: rates inherited and overridden, a subfabric, the
 * markup the reader passes over, entities and CDATA. */
static const char ibfc_good[] =
    "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n"
    "<!DOCTYPE ibfabric [ <!ELEMENT ibfabric ANY> ]>\n"
    "<ibfabric name=\"test\" schemaVersion=\"1.0\" width=\"4x\" speed=\"EDR\">\n"
    "  <!-- the leaves -->\n"
    "  <linklist name=\"Leaf1\">\n"
    "    <port num=\"1\"><r_port>1</r_port><r_node>host1 ibp3s0f0</r_node></port>\n"
    "    <port num=\"2\" extnum=\"2\"><r_port extnum=\"1\">1</r_port><r_node>host-two</r_node>"
    "</port>\n"
    "    <port num=\"5\" speed=\"MAX\"><r_port>1</r_port><r_node>spine-a</r_node></port>\n"
    "  </linklist>\n"
    "  <subfabric name=\"rack2\">\n"
    "    <property name=\"room\">B</property>\n"
    "    <linklist name='leaf2' width='MAX'>\n"
    "      <port num=\"5\"><r_port> 3 </r_port><r_node>\n        Spine\n      </r_node>"
    "<speed>QDR</speed></port>\n"
    "      <port num=\"1\"><r_node><![CDATA[twin-a]]></r_node><r_port>1</r_port></port>\n"
    "      <port num=\"2\"><r_port>1</r_port><r_node>twin&#x2d;b</r_node></port>\n"
    "    </linklist>\n"
    "  </subfabric>\n"
    "</ibfabric>\n";

static void ibfabricconf_of_the_fabric_gives_no_finding(void **state)
{
	unsigned errors = 99, unplaced = 99;
	struct rk_findings f = against_named(ibfc_good, "ibfabricconf.xml", &errors, &unplaced);

	(void)state;
	assert_int_equal(errors, 0);
	assert_int_equal(unplaced, 0);
	assert_int_equal(f.count, 0);
	rk_findings_free(&f);
}

static void ibfabricconf_rates_and_miswire(void **state)
{
	unsigned errors, unplaced;
	struct rk_findings f = against_named(
	    "<ibfabric speed=\"EDR\">\n"
	    "<linklist name=\"Leaf1\" width=\"4X\">\n"
	    "<port num=\"3\"><r_port>1</r_port><r_node>host1 ibp3s0f0</r_node></port>\n"
	    "<port num=\"2\"><r_port>1</r_port><r_node>host-two</r_node></port>\n"
	    "<port num=\"5\" speed=\"HDR\"><r_port>1</r_port><r_node>Spine</r_node>"
	    "</port>\n</linklist>\n"
	    "<linklist name=\"leaf2\"><port num=\"5\"><r_port>3</r_port><r_node>Spine"
	    "</r_node></port><port num=\"1\"><r_port>1</r_port><r_node>twin-a</r_node>"
	    "</port><port num=\"2\"><r_port>1</r_port><r_node>twin-b</r_node></port>"
	    "</linklist></ibfabric>\n",
	    "plan", &errors, &unplaced);

	(void)state;
	assert_int_equal(errors + unplaced, 0);
	assert_int_equal(f.count, 2);
	assert_int_equal(count(&f, "LINK_MISWIRED"), 1);
	assert_int_equal(count(&f, "LINK_BELOW_PLAN"), 1);
	for (size_t i = 0; i < f.count; i++)
		if (strcmp(f.items[i].code, "LINK_MISWIRED") == 0)
			assert_string_equal(f.items[i].subject, "Leaf1[3]-host1 ibp3s0f0[1]");
		else
			assert_non_null(
			    strstr(f.items[i].message, "runs 4X EDR, the plan has 4X HDR"));
	rk_findings_free(&f);
}

static void ibfabricconf_bad_elements_named_and_counted(void **state)
{
	char text[4096], name[1100];
	unsigned errors = 0;
	struct rk_plan *plan;

	(void)state;
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(
	    text, sizeof(text),
	    "<ibfabric>\n"								   /* 1 */
	    "<linklist name=\"Leaf1\">\n"						   /* 2 */
	    "<port><r_port>1</r_port><r_node>h</r_node></port>\n"			   /* 3 */
	    "<port num=\"-\"><r_port>1</r_port><r_node>h</r_node></port>\n"		   /* 4 */
	    "<port num=\"2\"><r_port>1</r_port></port>\n"				   /* 5 */
	    "<port num=\"3\"><r_node>h</r_node></port>\n"				   /* 6 */
	    "<port num=\"4\" speed=\"WARP\"><r_port>1</r_port><r_node>h</r_node></port>\n" /* 7 */
	    "<port num=\"6\"><r_port>1</r_port><r_node>h</r_node><width>3y</width></port>\n"
	    "<port num=\"7\"><r_port>1</r_port><r_node>h</r_node></port>\n" /* 9: read */
	    "</linklist>\n"						    /* 10 */
	    "<linklist><port num=\"1\"><r_port>1</r_port><r_node>y</r_node></port></linklist>\n"
	    "<chassis name=\"c\" model=\"m\"><node position=\"1\">a</node></chassis>\n" /* 12 */
	    "<switchlist/>\n"								/* 13 */
	    "<linklist name=\"L\"><port num=\"1\"><r_port>1</r_port><r_node>%s</r_node>"
	    "</port></linklist>\n" /* 14 */
	    "</ibfabric>\n",
	    name);
	log_capture_start();
	plan = parse_as(text, "fc", &errors);
	assert_int_equal(errors, 10);
	assert_int_equal(log_capture_count("fc:3: <port num=\"\"> of \"Leaf1\": num is not a port"),
			 1);
	assert_int_equal(
	    log_capture_count("fc:4: <port num=\"-\"> of \"Leaf1\": num is not a port"), 1);
	assert_int_equal(log_capture_count("fc:5: <port num=\"2\"> of \"Leaf1\": no <r_node>"), 1);
	assert_int_equal(log_capture_count("fc:6: <port num=\"3\"> of \"Leaf1\": no <r_port>"), 1);
	assert_int_equal(log_capture_count("fc:7: <port>: unknown speed \"WARP\""), 1);
	assert_int_equal(log_capture_count("fc:8: <port num=\"6\"> of \"Leaf1\": a <width>"), 1);
	assert_int_equal(log_capture_count("fc:11: a <linklist> without a name"), 1);
	assert_int_equal(log_capture_count("fc:12: <chassis> needs the chassis model files"), 1);
	assert_int_equal(log_capture_count("fc:13: unknown element <switchlist>"), 1);
	assert_int_equal(log_capture_count("fc:14: <port num=\"1\"> of \"L\": a value longer than "
					   "1024"),
			 1);
	assert_int_equal(log_capture_count("element skipped"), 10);
	assert_int_equal(rk_plan_named_links(plan), 1);
	rk_plan_free(plan);
}

/* The size bytes at text, read as origin, refused as XML saying why. */
static void refused(const char *text, size_t size, const char *origin, const char *why)
{
	FILE *in = fmemopen((void *)text, size, "r");
	struct rk_plan *plan = (void *)1;

	assert_non_null(in);
	log_capture_start();
	assert_int_equal(rk_plan_parse(in, origin, &plan, NULL), -EBADMSG);
	assert_null(plan);
	assert_int_equal(log_capture_count(why), 1);
	assert_int_equal(log_capture_count("plan refused"), 1);
	fclose(in);
}

/* XML a plan cannot be read from is refused whole, saying where and why. */
static void ibfabricconf_not_well_formed_is_refused(void **state)
{
	static const struct {
		const char *text, *origin, *why;
	} cases[] = {
	    {"<ibfabric>\n<linklist name=\"a\">", "p",
	     "p:2: not well-formed XML: the file ends inside <linklist> of line 2"},
	    {"<ibfabric></linklist></ibfabric>", "p", "</linklist> where <ibfabric> of line 1"},
	    {"<ibfabric><port num=1/></ibfabric>", "p", "an attribute value without quotes"},
	    {"<ibfabric><port num=\"1></ibfabric>", "p", "a < inside an attribute value"},
	    {"<plan/>", "p", "the root element is <plan>, not <ibfabric>"},
	    {"<ibfabric/>\n<ibfabric/>", "p", "p:2: not well-formed XML: a second root element"},
	    {"<!-- never closed <ibfabric/>", "p", "an unterminated comment"},
	    {"<\x01\x02\x89garbage", "p", "a bad element name after <"},
	    {"", "p.xml", "no <ibfabric> element"},
	    {"<ibfabric><![CDATA[ open", "p", "an unterminated CDATA section"},
	    {"<ibfabric a=\"b\" / >", "p", "a / not before >"},
	};
	static const char binary[] = "\x89PNG\r\n\x1a\n\x00\x00";
	char deep[512] = "<ibfabric>";

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		refused(cases[i].text, strlen(cases[i].text), cases[i].origin, cases[i].why);
	refused(binary, sizeof(binary) - 1, "p.xml", "no <ibfabric> element");
	for (int i = 0; i < 40; i++)
		strcat(deep, "<a>");
	refused(deep, strlen(deep), "p", "elements nested deeper than 32");
}

static void ibfabricconf_on_one_long_line(void **state)
{
	size_t size = 64 * 1024;
	char *text = malloc(size), *p = text;
	unsigned errors = 99;
	struct rk_plan *plan;

	(void)state;
	assert_non_null(text);
	p += sprintf(p, "<ibfabric><linklist name=\"S\">");
	for (int i = 1; i <= 200; i++)
		p += sprintf(p, "<port num=\"%d\"><r_port>1</r_port><r_node>h%d</r_node></port>", i,
			     i);
	sprintf(p, "</linklist></ibfabric>");
	plan = parse_as(text, "one-line", &errors);
	assert_int_equal(errors, 0);
	assert_int_equal(rk_plan_named_links(plan), 200);
	rk_plan_free(plan);
	free(text);
}

static void too_many_named_links_refused(void **state)
{
	size_t size = (size_t)(RK_PLAN_MAX_LINKS + 2) * 24;
	char *text = malloc(size), *p = text;
	struct rk_plan *plan = (void *)1;
	FILE *in;

	(void)state;
	assert_non_null(text);
	p += sprintf(p, "StartDevice,StartPort,EndDevice,EndPort\n");
	for (unsigned i = 0; i <= RK_PLAN_MAX_LINKS; i++)
		p += sprintf(p, "s%u,1,h%u,1\n", i, i);
	in = fmemopen(text, (size_t)(p - text), "r");
	assert_int_equal(rk_plan_parse(in, "big", &plan, NULL), -E2BIG);
	assert_null(plan);
	fclose(in);
	free(text);
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
	    cmocka_unit_test(ndt_of_the_fabric_gives_no_finding),
	    cmocka_unit_test(ndt_miswire_is_found),
	    cmocka_unit_test(ndt_bad_rows_named_and_counted),
	    cmocka_unit_test(names_not_placed_named_and_counted),
	    cmocka_unit_test(ibfabricconf_of_the_fabric_gives_no_finding),
	    cmocka_unit_test(ibfabricconf_rates_and_miswire),
	    cmocka_unit_test(ibfabricconf_bad_elements_named_and_counted),
	    cmocka_unit_test(ibfabricconf_not_well_formed_is_refused),
	    cmocka_unit_test(ibfabricconf_on_one_long_line),
	    cmocka_unit_test(too_many_named_links_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
