/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of route following and checking on a hand-built fat tree and its tables. */
#include "rdmakit/route.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Spines S0, S1 (nodes 0, 1; LIDs 1, 2), leaves L0, L1 (2, 3; LIDs 3, 4), CAs 4..7 (LIDs 5..8),
 * two per leaf. A leaf's ports 1, 2 go to its CAs, 3 to S0, 4 to S1; a spine's port 1 to L0,
 * 2 to L1. */
enum { S0, S1, L0, L1, NNODES = 8 };

static void connect(struct rk_fabric *f, int a, int pa, int b, int pb)
{
	struct rk_fabric_link *l = &f->links[f->nlinks++];

	f->nodes[a].ports[pa].remote_node = b;
	f->nodes[a].ports[pa].remote_port = pb;
	f->nodes[b].ports[pb].remote_node = a;
	f->nodes[b].ports[pb].remote_port = pa;
	*l = (struct rk_fabric_link){.node_a = a,
				     .port_a = pa,
				     .node_b = b,
				     .port_b = pb,
				     .width = 4,
				     .speed = RK_SPEED_EDR};
}

static void make_node(struct rk_fabric_node *node, int n)
{
	node->guid = 0x100 + (uint64_t)n;
	node->type = n < 4 ? RK_NODE_SWITCH : RK_NODE_CA;
	node->nports = n < 4 ? 4 : 1;
	node->ports = calloc((size_t)node->nports + 1, sizeof(*node->ports));
	snprintf(node->name, sizeof(node->name), "%s%d",
		 n < 2	 ? "spine"
		 : n < 4 ? "leaf"
			 : "hca",
		 n < 2	 ? n
		 : n < 4 ? n - 2
			 : n - 4);
	for (int p = 0; p <= node->nports; p++) {
		node->ports[p] = (struct rk_fabric_port){.num = p,
							 .present = p > 0 || n < 4,
							 .state = 4,
							 .remote_node = -1,
							 .lid = (uint16_t)(n + 1)};
	}
	node->lid = (uint16_t)(n + 1);
}

static struct rk_fabric *make_fabric(void)
{
	struct rk_fabric *f = calloc(1, sizeof(*f));

	f->nodes = calloc(NNODES, sizeof(*f->nodes));
	f->nnodes = NNODES;
	f->links = calloc(16, sizeof(*f->links));
	for (int n = 0; n < NNODES; n++)
		make_node(&f->nodes[n], n);
	for (int c = 0; c < 4; c++)
		connect(f, L0 + c / 2, 1 + c % 2, 4 + c, 1);
	for (int l = 0; l < 2; l++) {
		connect(f, L0 + l, 3, S0, 1 + l);
		connect(f, L0 + l, 4, S1, 1 + l);
	}
	f->local_node = 4;
	return f;
}

/* Minimal, balanced tables: leaves send remote CAs up alternately, spines down. */
static void fill_tables(const struct rk_fabric *f, struct rk_routes *r)
{
	for (size_t t = 0; t < r->count; t++) {
		struct rk_route_table *table = &r->tables[t];
		int n = table->node;

		assert_int_equal(rk_route_table_size(table, 8), 0);
		table->status = 0;
		for (int lid = 1; lid <= 8; lid++) {
			int owner = lid - 1, leaf = owner >= 4 ? L0 + (owner - 4) / 2 : owner;
			uint8_t *e = &table->ports[lid];

			if (owner == n)
				*e = 0;
			else if (n <= S1) /* a spine: down to the leaf (S1 via L0 for S0, etc.) */
				*e = (uint8_t)(leaf <= S1 ? 1 : 1 + leaf - L0);
			else if (leaf == n) /* a leaf's own CA */
				*e = (uint8_t)(1 + (owner - 4) % 2);
			else if (owner <= S1)
				*e = (uint8_t)(3 + owner);
			else /* remote CA or leaf: up, alternating */
				*e = (uint8_t)(owner >= 4 ? 3 + owner % 2 : 3);
		}
	}
	(void)f;
}

struct env {
	struct rk_fabric *f;
	struct rk_routes r;
	struct rk_route_check check;
	struct rk_findings findings;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	e->f = make_fabric();
	assert_int_equal(rk_routes_init(e->f, &e->r), 0);
	fill_tables(e->f, &e->r);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	rk_route_check_free(&e->check);
	rk_findings_free(&e->findings);
	rk_routes_free(&e->r);
	rk_fabric_free(e->f);
	free(e);
	return 0;
}

static uint8_t *entry(struct env *e, int node, int lid)
{
	return &e->r.tables[e->r.table_of[node]].ports[lid];
}

static void run_check(struct env *e)
{
	rk_route_check_free(&e->check);
	rk_findings_free(&e->findings);
	assert_int_equal(rk_route_check(e->f, &e->r, &e->check, &e->findings), 0);
}

/* How many findings have code; *subject is the first one's. */
static size_t count_code(const struct env *e, const char *code, const char **subject)
{
	size_t n = 0;

	for (size_t i = 0; i < e->findings.count; i++)
		if (strcmp(e->findings.items[i].code, code) == 0) {
			if (n++ == 0 && subject)
				*subject = e->findings.items[i].subject;
		}
	return n;
}

static void healthy_tables_give_nothing(void **state)
{
	struct env *e = *state;

	run_check(e);
	assert_int_equal(e->findings.count, 0);
	assert_int_equal(e->check.summary.switches, 4);
	assert_int_equal(e->check.summary.destinations, 8);
	assert_int_equal(e->check.summary.routes, 24); /* to switches only from the leaves */
	assert_int_equal(e->check.summary.reached, 24);
	assert_int_equal(e->check.summary.max_hops, 3);
	assert_int_equal(e->check.nbalance, 2); /* the leaves; spines have no up-link */
	assert_int_equal(e->check.balance[0].uplinks, 2);
	assert_int_equal(e->check.balance[0].min, 1);
	assert_int_equal(e->check.balance[0].max, 1);
}

static void follow_lists_every_hop(void **state)
{
	struct env *e = *state;
	struct rk_route_path path;

	rk_route_follow(e->f, &e->r, 4, 8, &path); /* hca0 -> hca3 */
	assert_int_equal(path.end, RK_ROUTE_REACHES);
	assert_int_equal(path.nhops, 5);
	assert_int_equal(path.hops[0].node, 4);
	assert_int_equal(path.hops[1].node, L0);
	assert_int_equal(path.hops[1].out_port, 4);
	assert_int_equal(path.hops[2].node, S1);
	assert_int_equal(path.hops[2].out_port, 2);
	assert_int_equal(path.hops[3].node, L1);
	assert_int_equal(path.hops[4].node, 7);
	assert_true(path.hops[1].link >= 0);
	assert_int_equal(rk_route_lid_owner(e->f, 8, NULL), 7);
}

static void hole_is_one_finding_at_its_switch(void **state)
{
	struct env *e = *state;
	const char *subject = NULL;

	*entry(e, S0, 7) = RK_ROUTE_NO_PORT;
	run_check(e);
	assert_int_equal(count_code(e, "ROUTE_HOLE", &subject), 1);
	assert_string_equal(subject, "spine0");
	assert_int_equal(e->check.summary.holes, 2); /* from spine0, and from leaf0 through it */
	assert_int_equal(e->findings.count, 1);
	assert_non_null(strstr(e->findings.items[0].message, "LID 7 (hca2)"));
}

static void table_shorter_than_the_lids_is_a_hole(void **state)
{
	struct env *e = *state;
	struct rk_route_table *t = &e->r.tables[e->r.table_of[L1]];

	assert_int_equal(rk_route_table_size(t, 4), 0); /* LIDs 5..8 past its top */
	memset(t->ports, 3, 5);
	t->ports[4] = 0;
	run_check(e);
	assert_int_equal(count_code(e, "ROUTE_HOLE", NULL), 1);
	assert_true(e->check.summary.holes > 0);
}

static void loop_blames_the_switch_that_turns_back(void **state)
{
	struct env *e = *state;
	const char *subject = NULL;

	*entry(e, L0, 5) = 3; /* leaf0 sends its own hca0 up to spine0, which sends it back */
	run_check(e);
	assert_int_equal(count_code(e, "ROUTE_LOOP", &subject), 1);
	assert_string_equal(subject, "leaf0");
	assert_int_equal(e->check.summary.loops, 4);
	assert_int_equal(e->findings.count, 1);
}

static void down_port_is_a_dead_end(void **state)
{
	struct env *e = *state;
	struct rk_fabric_port *a = &e->f->nodes[L1].ports[3], *b = &e->f->nodes[S0].ports[2];

	a->state = b->state = 1;
	a->remote_node = b->remote_node = -1;
	run_check(e);
	assert_int_equal(count_code(e, "ROUTE_DEAD_END", NULL), 2); /* spine0 and leaf1 */
	assert_true(e->check.summary.dead_ends > 0);
	assert_int_equal(count_code(e, "ROUTE_HOLE", NULL), 0);
}

static void port_out_of_range_is_a_dead_end(void **state)
{
	struct env *e = *state;
	const char *subject = NULL;

	*entry(e, L0, 7) = 200;
	run_check(e);
	assert_int_equal(count_code(e, "ROUTE_DEAD_END", &subject), 1);
	assert_string_equal(subject, "leaf0");
	assert_true(rk_routes_link_at(&e->r, L0, 3) >= 0);
	assert_int_equal(rk_routes_link_at(&e->r, L0, 200), -1);
	assert_int_equal(rk_routes_link_at(&e->r, NNODES - 1, 2), -1); /* past the last node's */
	assert_int_equal(rk_routes_link_at(&e->r, NNODES, 0), -1);
}

static void degraded_link_is_named(void **state)
{
	struct env *e = *state;
	const char *subject = NULL;

	for (size_t i = 0; i < e->f->nlinks; i++)
		if (e->f->links[i].node_a == L0 + 0 && e->f->links[i].port_a == 3)
			e->f->links[i].below_enabled = true;
	run_check(e);
	assert_int_equal(count_code(e, "ROUTE_THROUGH_DEGRADED", &subject), 1);
	assert_string_equal(subject, "leaf0[3]-spine0[1]");
	assert_int_equal(e->findings.count, 1);
}

static void detour_is_longer_than_needed(void **state)
{
	struct env *e = *state;
	const char *subject = NULL;

	*entry(e, S0, 7) = 1; /* spine0 -> leaf0 -> spine1 -> leaf1 */
	*entry(e, L0, 7) = 4;
	*entry(e, L0, 8) = 3;
	run_check(e);
	assert_int_equal(count_code(e, "ROUTE_LONGER_THAN_NEEDED", &subject), 1);
	assert_string_equal(subject, "spine0");
	assert_int_equal(e->check.summary.longer, 1);
	assert_int_equal(e->check.summary.max_hops, 4);
}

static void uneven_uplinks_are_unbalanced(void **state)
{
	struct env *e = *state;
	const char *subject = NULL;

	*entry(e, L0, 8) = 3; /* both remote CAs up through spine0 */
	run_check(e);
	assert_int_equal(count_code(e, "ROUTES_UNBALANCED", &subject), 1);
	assert_string_equal(subject, "leaf0");
	assert_int_equal(e->check.summary.unbalanced_switches, 1);
	assert_int_equal(e->check.summary.worst_node, L0);
	assert_true(e->check.summary.worst_cv > 0.99);
}

static void top_past_the_range_is_refused(void **state)
{
	struct env *e = *state;
	struct rk_route_table *t = &e->r.tables[e->r.table_of[S1]];
	const char *subject = NULL;

	assert_int_equal(rk_route_table_size(t, 0xc000), -ERANGE);
	assert_int_equal(rk_route_table_size(t, 0xffff), -ERANGE);
	t->status = -ERANGE;
	run_check(e);
	assert_int_equal(count_code(e, "ROUTE_TABLE_UNREAD", &subject), 1);
	assert_string_equal(subject, "spine1");
	assert_true(e->check.summary.unknown > 0);
	assert_int_equal(e->check.summary.tables_read, 3);
	assert_int_equal(count_code(e, "ROUTE_HOLE", NULL), 0);
}

static void every_lid_of_an_lmc_port_is_a_destination(void **state)
{
	struct env *e = *state;

	e->f->nodes[4].ports[1].lmc = 1; /* hca0: LIDs 5 and 6 ... */
	e->f->nodes[5].ports[1].lid = 9; /* ... so hca1 moves to 9, past every table's top */
	*entry(e, L0, 6) = 1;
	run_check(e);
	assert_int_equal(e->check.summary.destinations, 9);
	assert_int_equal(count_code(e, "ROUTE_HOLE", NULL), 4); /* LID 9 nowhere */
	assert_int_equal(count_code(e, "ROUTE_DEAD_END", NULL), 0);
}

static void garbage_tables_never_crash(void **state)
{
	struct env *e = *state;

	for (size_t t = 0; t < e->r.count; t++)
		for (int lid = 0; lid <= 8; lid++)
			e->r.tables[t].ports[lid] = (uint8_t)((lid * 37 + (int)t * 11) % 7);
	run_check(e);
	assert_int_equal(e->check.summary.routes, 24);
	assert_int_equal(e->check.summary.reached + e->check.summary.holes +
			     e->check.summary.loops + e->check.summary.dead_ends +
			     e->check.summary.unknown,
			 24);
	assert_true(e->findings.count <= 4 * 5 + 2);
}

/* Many random tables and port states: every route ends one way, findings stay grouped. */
static void random_tables_keep_the_counts(void **state)
{
	struct env *e = *state;
	unsigned seed = 22;

	for (int round = 0; round < 300; round++) {
		for (size_t t = 0; t < e->r.count; t++)
			for (int lid = 0; lid <= 8; lid++)
				e->r.tables[t].ports[lid] =
				    (uint8_t)(rand_r(&seed) % 8 == 0 ? 255 : rand_r(&seed) % 7);
		for (int n = 0; n < NNODES; n++)
			e->f->nodes[n].ports[1].state = rand_r(&seed) % 10 ? 4 : 1;
		run_check(e);
		const struct rk_route_summary *s = &e->check.summary;

		assert_int_equal(s->reached + s->holes + s->loops + s->dead_ends + s->unknown,
				 s->routes);
		assert_true(s->max_hops <= RK_ROUTE_MAX_HOPS);
		assert_true(e->findings.count <= 4 * 5 + 4 + 16);
	}
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(healthy_tables_give_nothing),
	    T(follow_lists_every_hop),
	    T(hole_is_one_finding_at_its_switch),
	    T(table_shorter_than_the_lids_is_a_hole),
	    T(loop_blames_the_switch_that_turns_back),
	    T(down_port_is_a_dead_end),
	    T(port_out_of_range_is_a_dead_end),
	    T(degraded_link_is_named),
	    T(detour_is_longer_than_needed),
	    T(uneven_uplinks_are_unbalanced),
	    T(top_past_the_range_is_refused),
	    T(every_lid_of_an_lmc_port_is_a_destination),
	    T(garbage_tables_never_crash),
	    T(random_tables_keep_the_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
