/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of rdmakit fabric --dot (cli/fabric_dot.c) on fabrics built by hand: escaping,
 * shapes, link direction and labels, and links that went down between two discoveries. The
 * graph rendered by dot from a real simulated fabric is tested in tests/sim/test_fabric.py. */
#include "fabric_dot.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define SW  0x0002c90200000001ULL
#define SW2 0x0002c90200000002ULL
#define CA1 0x0002c90300000001ULL
#define CA2 0x0002c90300000002ULL
#define CA3 0x0002c90300000003ULL

struct node_spec {
	uint64_t guid;
	enum rk_node_type type;
	const char *name;
};

/* Nodes of 4 ports each; the ports of links are ACTIVE and cabled, every other one DOWN. */
static struct rk_fabric *build(const struct node_spec *specs, size_t nnodes,
			       const struct rk_fabric_link *links, size_t nlinks)
{
	struct rk_fabric *fabric = calloc(1, sizeof(*fabric));

	fabric->nnodes = nnodes;
	fabric->nodes = calloc(nnodes, sizeof(*fabric->nodes));
	for (size_t n = 0; n < nnodes; n++) {
		struct rk_fabric_node *node = &fabric->nodes[n];

		*node = (struct rk_fabric_node){
		    .guid = specs[n].guid, .type = specs[n].type, .nports = 4};
		snprintf(node->name, sizeof(node->name), "%s", specs[n].name);
		node->ports = calloc(5, sizeof(*node->ports));
		for (int p = 1; p <= 4; p++)
			node->ports[p] = (struct rk_fabric_port){.num = p,
								 .present = true,
								 .state = 1,
								 .phys_state = 2,
								 .remote_node = -1};
	}
	fabric->nlinks = nlinks;
	fabric->links = calloc(nlinks + 1, sizeof(*fabric->links));
	for (size_t i = 0; i < nlinks; i++) {
		const struct rk_fabric_link *l = &links[i];
		struct rk_fabric_port *a = &fabric->nodes[l->node_a].ports[l->port_a];
		struct rk_fabric_port *b = &fabric->nodes[l->node_b].ports[l->port_b];

		fabric->links[i] = *l;
		*a = (struct rk_fabric_port){.num = l->port_a,
					     .present = true,
					     .state = 4,
					     .phys_state = 5,
					     .remote_node = l->node_b,
					     .remote_port = l->port_b};
		*b = (struct rk_fabric_port){.num = l->port_b,
					     .present = true,
					     .state = 4,
					     .phys_state = 5,
					     .remote_node = l->node_a,
					     .remote_port = l->port_a};
	}
	return fabric;
}

/* The graph as text (the caller frees it). */
static char *draw(const struct rk_fabric *fabric, const struct rk_fabric *prev,
		  const struct rk_findings *findings)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	assert_non_null(out);
	dot_fabric(out, fabric, prev, findings, NULL);
	fclose(out);
	return text;
}

/* The graph of now, with the fabric findings since before (NULL: the first discovery). */
static char *draw_since(const struct rk_fabric *before, const struct rk_fabric *now)
{
	struct rk_findings findings = {0};
	char *text;

	assert_int_equal(rk_health_check_fabric(before, now, &findings), 0);
	text = draw(now, before, &findings);
	rk_findings_free(&findings);
	return text;
}

static size_t count(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *at = text; (at = strstr(at, needle)); at += strlen(needle))
		n++;
	return n;
}

static const struct node_spec small[] = {
    {CA1, RK_NODE_CA, "host1 HCA-1"},
    {SW, RK_NODE_SWITCH, "sw \"zero\" \\ one\ntwo\tthree"},
    {CA2, RK_NODE_CA, "host2"},
};

static void names_are_escaped_and_shapes_tell_the_kinds(void **state)
{
	struct rk_fabric *fabric = build(small, 3, NULL, 0);
	char *text;

	(void)state;
	fabric->nodes[2].type = RK_NODE_ROUTER;
	text = draw(fabric, NULL, NULL);
	assert_non_null(strstr(text, "graph fabric {\n"));
	assert_non_null(strstr(text, "\t\"0x0002c90200000001\" [label=\"sw \\\"zero\\\" \\\\ "
				     "one\\ntwo three\", shape=box];\n"));
	assert_non_null(strstr(text, "\t\"0x0002c90300000001\" [label=\"host1 HCA-1\", "
				     "shape=ellipse];\n"));
	assert_non_null(strstr(text, "[label=\"host2\", shape=diamond];\n"));
	assert_int_equal(count(text, "\n"), 5); /* graph, 3 nodes, closing brace: no raw newline */
	assert_string_equal(text + strlen(text) - 2, "}\n");
	free(text);
	rk_fabric_free(fabric);
}

static void links_run_from_the_switch_and_degraded_ones_are_red(void **state)
{
	const struct rk_fabric_link links[] = {
	    {.node_a = 0, .port_a = 1, .node_b = 1, .port_b = 3, .width = 4, .speed = RK_SPEED_EDR},
	    {.node_a = 1,
	     .port_a = 2,
	     .node_b = 2,
	     .port_b = 1,
	     .width = 1,
	     .speed = RK_SPEED_SDR,
	     .below_enabled = true,
	     .below_peers = true},
	};
	struct rk_fabric *fabric = build(small, 3, links, 2);
	char *text = draw(fabric, NULL, NULL);

	(void)state;
	/* node_a is the CA: the edge is written from the switch, its ports as they belong */
	assert_non_null(strstr(text, "\t\"0x0002c90200000001\" -- \"0x0002c90300000001\" "
				     "[taillabel=\"3\", headlabel=\"1\", label=\"4X EDR\"];\n"));
	assert_non_null(strstr(text, "\t\"0x0002c90200000001\" -- \"0x0002c90300000002\" "
				     "[taillabel=\"2\", headlabel=\"1\", label=\"1X SDR\\nbelow "
				     "what both ends enable\\nbelow peers\", color=red, "
				     "fontcolor=red, penwidth=2];\n"));
	assert_int_equal(count(text, ", color=red"), 1);
	assert_int_equal(count(text, "dashed"), 0);
	free(text);
	rk_fabric_free(fabric);
}

static void a_link_that_went_down_is_dashed_once(void **state)
{
	const struct node_spec before_nodes[] = {
	    {SW, RK_NODE_SWITCH, "sw"}, {SW2, RK_NODE_SWITCH, "sw2"}, {CA1, RK_NODE_CA, "host1"},
	    {CA3, RK_NODE_CA, "host3"}, {CA2, RK_NODE_CA, "host2"},
	};
	const struct rk_fabric_link before_links[] = {
	    {.node_a = 0, .port_a = 1, .node_b = 2, .port_b = 1, .width = 4, .speed = RK_SPEED_EDR},
	    {.node_a = 0, .port_a = 2, .node_b = 3, .port_b = 1, .width = 4, .speed = RK_SPEED_EDR},
	    {.node_a = 0, .port_a = 3, .node_b = 3, .port_b = 2, .width = 4, .speed = RK_SPEED_EDR},
	    {.node_a = 0, .port_a = 4, .node_b = 1, .port_b = 4, .width = 4, .speed = RK_SPEED_EDR},
	    {.node_a = 1, .port_a = 1, .node_b = 4, .port_b = 1, .width = 4, .speed = RK_SPEED_EDR},
	};
	/* host3 (both of its ports) is gone; sw-sw2 went down but both switches are still in
	 * the fabric */
	const struct node_spec now_nodes[] = {{SW, RK_NODE_SWITCH, "sw"},
					      {SW2, RK_NODE_SWITCH, "sw2"},
					      {CA1, RK_NODE_CA, "host1"},
					      {CA2, RK_NODE_CA, "host2"}};
	const struct rk_fabric_link now_links[] = {
	    {.node_a = 0, .port_a = 1, .node_b = 2, .port_b = 1, .width = 4, .speed = RK_SPEED_EDR},
	    {.node_a = 1, .port_a = 1, .node_b = 3, .port_b = 1, .width = 4, .speed = RK_SPEED_EDR},
	};
	struct rk_fabric *before = build(before_nodes, 5, before_links, 5);
	struct rk_fabric *now = build(now_nodes, 4, now_links, 2);
	char *text = draw_since(before, now);

	(void)state;
	assert_int_equal(count(text, "PORT"), 0);
	/* the CA that went away: drawn once, dashed, with both of its links */
	assert_int_equal(count(text, "\t\"0x0002c90300000003\" [label=\"host3\", shape=ellipse, "
				     "style=dashed];\n"),
			 1);
	assert_non_null(strstr(text, "\t\"0x0002c90200000001\" -- \"0x0002c90300000003\" "
				     "[taillabel=\"2\", headlabel=\"1\", label=\"went DOWN\", "
				     "style=dashed];\n"));
	assert_non_null(strstr(text, "[taillabel=\"3\", headlabel=\"2\", label=\"went DOWN\""));
	/* both ends of sw-sw2 went down and are still there: one dashed edge */
	assert_int_equal(count(text, "\"0x0002c90200000002\" [taillabel=\"4\", headlabel=\"4\", "
				     "label=\"went DOWN\", style=dashed]"),
			 1);
	assert_int_equal(count(text, "label=\"went DOWN\""), 3);
	assert_int_equal(count(text, "style=dashed"), 4);
	free(text);
	rk_fabric_free(before);
	rk_fabric_free(now);
}

static void without_a_previous_discovery_nothing_is_dashed(void **state)
{
	struct rk_fabric *fabric = build(small, 3, NULL, 0);
	char *text = draw_since(NULL, fabric);

	(void)state;
	assert_int_equal(count(text, "dashed"), 0);
	assert_int_equal(count(text, " -- "), 0);
	free(text);
	rk_fabric_free(fabric);
}

/* --congestion: each link coloured by its more congested end, the wait in its label; a link
 * with no reading at either end keeps its colour. */
static void links_are_coloured_by_their_more_congested_end(void **state)
{
	const struct rk_fabric_link links[] = {
	    {.node_a = 0, .port_a = 1, .node_b = 1, .port_b = 1, .width = 4, .speed = RK_SPEED_EDR},
	    {.node_a = 1, .port_a = 2, .node_b = 2, .port_b = 1, .width = 4, .speed = RK_SPEED_EDR},
	    {.node_a = 1,
	     .port_a = 3,
	     .node_b = 3,
	     .port_b = 1,
	     .width = 4,
	     .speed = RK_SPEED_EDR}};
	static const struct node_spec nodes[] = {{CA1, RK_NODE_CA, "host1"},
						 {SW, RK_NODE_SWITCH, "leaf"},
						 {CA2, RK_NODE_CA, "host2"},
						 {CA3, RK_NODE_CA, "host3"}};
	struct rk_fabric *fabric = build(nodes, 4, links, 3);
	/* sorted by GUID and port, as a sweep keeps them: SW's ports, then the CAs' */
	struct rk_sweep_port swept[] = {
	    {.node_guid = SW, .port = 1},  {.node_guid = SW, .port = 2},
	    {.node_guid = SW, .port = 3},  {.node_guid = CA1, .port = 1},
	    {.node_guid = CA2, .port = 1}, {.node_guid = CA3, .port = 1}};
	struct rk_sweep sweep = {.ports = swept, .count = 6, .interval = 2};
	struct rk_port_wait waits[6];
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	(void)state;
	for (size_t i = 0; i < 6; i++)
		waits[i] = (struct rk_port_wait){.index = i, .basis = RK_WAIT_TIME, .score = 0};
	waits[0] =
	    (struct rk_port_wait){.index = 0, .basis = RK_WAIT_TIME, .percent = 50, .score = 5};
	waits[4] = (struct rk_port_wait){
	    .index = 4, .basis = RK_WAIT_PER_DATA, .per_word = 0.06, .score = 0.6};
	waits[2].score = waits[5].score = -1; /* leaf[3] and host3: no reading */
	assert_non_null(out);
	dot_fabric(out, fabric, NULL, NULL,
		   &(struct dot_congestion){.sweep = &sweep, .waits = waits});
	fclose(out);
	assert_non_null(strstr(text, "label=\"4X EDR\\nwait 50.0%\", color=orange, "
				     "fontcolor=orange, penwidth=3];"));
	assert_non_null(strstr(text, "label=\"4X EDR\\nwait 0.06 ticks/word\", color=gold3, "
				     "penwidth=2];"));
	assert_non_null(strstr(text, "[taillabel=\"3\", headlabel=\"1\", label=\"4X EDR\"];"));
	free(text);
	rk_fabric_free(fabric);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(names_are_escaped_and_shapes_tell_the_kinds),
	    cmocka_unit_test(links_run_from_the_switch_and_degraded_ones_are_red),
	    cmocka_unit_test(a_link_that_went_down_is_dashed_once),
	    cmocka_unit_test(without_a_previous_discovery_nothing_is_dashed),
	    cmocka_unit_test(links_are_coloured_by_their_more_congested_end),
	};

	return cmocka_run_group_tests_name("fabric_dot", tests, NULL, NULL);
}
