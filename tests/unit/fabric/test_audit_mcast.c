/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The multicast checks on a hand-built fabric and tables: what sim_audit cannot make on ibsim
 * (a one-way break between two switches, an entry to a port that is down or to a switch that
 * forwards nothing of the group, members in other join states, a table that was not read). */
#include "rdmakit/audit.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* Leaves L1 and L2 and L3 under spine S: L1 ports 1, 2 to CAs A and B, port 3 to S port 1,
 * port 4 down; L2 ports 1, 2 to CAs C and D, port 3 to S port 2; L3 port 1 to S port 3. */
enum { L1, L2, L3, S, A, B, C, D, NODES };
#define PORTS 5

struct net {
	struct rk_fabric fabric;
	struct rk_fabric_node nodes[NODES];
	struct rk_fabric_port ports[NODES][PORTS];
	struct rk_audit_mft mfts[4];
	uint16_t masks[4][32];
	uint16_t mlid;
	int ca_ports[8];
	uint8_t membership[4];
	uint8_t mgid[16];
	struct rk_audit_mcast mcast;
};

static void link_ports(struct net *t, int a, int pa, int b, int pb)
{
	t->ports[a][pa] = (struct rk_fabric_port){.num = pa,
						  .present = true,
						  .state = 4,
						  .guid = t->nodes[a].guid + (unsigned)pa,
						  .remote_node = b,
						  .remote_port = pb};
	t->ports[b][pb] = (struct rk_fabric_port){.num = pb,
						  .present = true,
						  .state = 4,
						  .guid = t->nodes[b].guid + (unsigned)pb,
						  .remote_node = a,
						  .remote_port = pa};
}

static void set_bits(struct net *t, int sw, unsigned bits)
{
	t->masks[sw][0] = (uint16_t)bits;
}

/* The healthy tree: A, B and C full members, D none; every table as the SM makes it. */
static void build(struct net *t)
{
	static const char *names[NODES] = {"L1", "L2", "L3", "S", "A", "B", "C", "D"};

	memset(t, 0, sizeof(*t));
	for (int n = 0; n < NODES; n++) {
		t->nodes[n] = (struct rk_fabric_node){.guid = 0x1000 * (unsigned)(n + 1),
						      .type = n < A ? RK_NODE_SWITCH : RK_NODE_CA,
						      .nports = n < A ? PORTS - 1 : 1,
						      .ports = t->ports[n]};
		snprintf(t->nodes[n].name, sizeof(t->nodes[n].name), "%s", names[n]);
		for (int p = 0; p < PORTS; p++)
			t->ports[n][p] = (struct rk_fabric_port){.num = p, .remote_node = -1};
	}
	link_ports(t, L1, 1, A, 1);
	link_ports(t, L1, 2, B, 1);
	link_ports(t, L1, 3, S, 1);
	link_ports(t, L2, 1, C, 1);
	link_ports(t, L2, 2, D, 1);
	link_ports(t, L2, 3, S, 2);
	link_ports(t, L3, 1, S, 3);
	t->fabric = (struct rk_fabric){.nodes = t->nodes, .nnodes = NODES, .local_node = A};
	for (int sw = 0; sw < 4; sw++)
		t->mfts[sw] = (struct rk_audit_mft){
		    .node = sw, .blocks = 1, .words = 1, .masks = t->masks[sw]};
	set_bits(t, L1, 1u << 1 | 1u << 2 | 1u << 3);
	set_bits(t, L2, 1u << 1 | 1u << 3);
	set_bits(t, S, 1u << 1 | 1u << 2);
	t->mlid = RK_MLID_FIRST;
	for (int k = 0; k < 4; k++) {
		t->ca_ports[2 * k] = A + k;
		t->ca_ports[2 * k + 1] = 1;
		t->membership[k] = k < 3 ? RK_MEMBER_FULL : RK_MEMBER_NONE;
	}
	t->mgid[0] = 0xff;
	t->mgid[1] = 0x12;
	t->mgid[15] = 1;
	t->mcast = (struct rk_audit_mcast){.mfts = t->mfts,
					   .nmfts = 4,
					   .mlids = &t->mlid,
					   .nmlids = 1,
					   .nasked = 1,
					   .ca_ports = t->ca_ports,
					   .nca_ports = 4,
					   .membership = t->membership,
					   .mgids = t->mgid};
}

/* The findings of the check, as "CODE: message" lines; checked as it says. */
static void check(struct net *t, bool want_checked, size_t want, char (*out)[1024])
{
	struct rk_findings findings = {0};
	bool checked = !want_checked;

	assert_int_equal(rk_audit_mcast_check(&t->fabric, &t->mcast, &findings, &checked), 0);
	assert_int_equal(checked, want_checked);
	assert_int_equal(findings.count, want);
	for (size_t i = 0; i < findings.count; i++) {
		assert_string_equal(findings.items[i].subject, "MLID 0xc000");
		snprintf(out[i], sizeof(out[i]), "%s: %s", findings.items[i].code,
			 findings.items[i].message);
	}
	rk_findings_free(&findings);
}

static void healthy_tree_is_quiet(void **state)
{
	struct net t;

	(void)state;
	build(&t);
	check(&t, true, 0, NULL);
}

static void member_whose_leaf_entry_is_cleared(void **state)
{
	char got[1][1024];
	struct net t;

	(void)state;
	build(&t);
	set_bits(&t, L1, 1u << 1 | 1u << 3); /* no longer to B */
	check(&t, true, 1, got);
	assert_string_equal(got[0], "MULTICAST_MEMBER_UNREACHED: 1 of the 3 full members of MGID "
				    "ff12::1 receives no packet of another member through the "
				    "switches' multicast tables: B[1] (0x0000000000006001, not "
				    "from A[1])");
}

static void one_way_break_between_switches(void **state)
{
	char got[1][1024];
	struct net t;

	(void)state;
	build(&t);
	set_bits(&t, S, 1u << 2); /* S sends to L2, no longer to L1 */
	check(&t, true, 1, got);
	assert_non_null(strstr(got[0], "2 of the 3 full members of MGID ff12::1 receive no"));
	assert_non_null(strstr(got[0], "A[1] (0x0000000000005001, not from C[1]), B[1] "
				       "(0x0000000000006001, not from C[1])"));
}

static void entries_out_of_the_tree(void **state)
{
	char got[2][1024];
	struct net t;

	(void)state;
	build(&t);
	set_bits(&t, L2, 1u << 1 | 1u << 2 | 1u << 3); /* to D, no member */
	check(&t, true, 1, got);
	assert_string_equal(got[0], "MULTICAST_STRAY_ENTRY: 1 entry of the switches' multicast "
				    "tables for MGID ff12::1 leads out of the group's tree: L2[2] "
				    "(0x0000000000002000) to D[1]: a CA that is no member");
	build(&t);
	set_bits(&t, L1, 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4); /* port 4 is down */
	set_bits(&t, S, 1u << 1 | 1u << 2 | 1u << 3);		 /* L3 forwards none */
	check(&t, true, 1, got);
	assert_non_null(strstr(got[0], "2 entries"));
	assert_non_null(strstr(got[0], "L1[4] (0x0000000000001000): a port that is not ACTIVE"));
	assert_non_null(
	    strstr(got[0], "S[3] (0x0000000000004000) to L3[1]: a switch that forwards none"));
	build(&t); /* to C, whose node the discovery did not reach: not judged */
	t.ports[L2][1].remote_node = -1;
	t.membership[2] = RK_MEMBER_NONE;
	check(&t, true, 0, NULL);
}

static void other_join_states_are_members(void **state)
{
	struct net t;

	(void)state;
	build(&t);
	t.membership[3] = RK_MEMBER_OTHER; /* D joined send-only, yet its entry is set */
	set_bits(&t, L2, 1u << 1 | 1u << 2 | 1u << 3);
	check(&t, true, 0, NULL);
	build(&t); /* only send-only members: nothing to say of the tables */
	memset(t.membership, RK_MEMBER_OTHER, sizeof(t.membership));
	set_bits(&t, L1, 1u << 4);
	check(&t, true, 0, NULL);
}

static void unread_table_or_query_is_not_checked(void **state)
{
	struct net t;

	(void)state;
	build(&t);
	set_bits(&t, L1, 1u << 1); /* would be two findings */
	t.mfts[S].status = -ETIMEDOUT;
	check(&t, false, 0, NULL);
	t.mfts[S].status = 0;
	t.mcast.sa_status = -ETIMEDOUT;
	check(&t, false, 0, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(healthy_tree_is_quiet),
	    cmocka_unit_test(member_whose_leaf_entry_is_cleared),
	    cmocka_unit_test(one_way_break_between_switches),
	    cmocka_unit_test(entries_out_of_the_tree),
	    cmocka_unit_test(other_join_states_are_members),
	    cmocka_unit_test(unread_table_or_query_is_not_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
