/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The audit's identity checks on hand-built fabrics: what the sim cannot make (a port with no
 * LID, a multicast LID, LIDs past the unicast range) and what must stay quiet (a port that is
 * down has no LID, legally). sim_audit runs the rest on ibsim. */
#include "rdmakit/audit.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* A switch (port 0 LID 1) linked by its port 1 to a CA's port 1 (LID lid, LMC lmc, state). */
struct two {
	struct rk_fabric fabric;
	struct rk_fabric_node nodes[2];
	struct rk_fabric_port ports[2][2];
};

static void build(struct two *t, uint16_t lid, uint8_t lmc, int state)
{
	memset(t, 0, sizeof(*t));
	for (int n = 0; n < 2; n++) {
		t->nodes[n].guid = 0x100 * (unsigned)(n + 1);
		t->nodes[n].nports = 1;
		t->nodes[n].ports = t->ports[n];
		snprintf(t->nodes[n].description, sizeof(t->nodes[n].description), "node%d", n);
		snprintf(t->nodes[n].name, sizeof(t->nodes[n].name), "node%d", n);
		for (int p = 0; p < 2; p++)
			t->ports[n][p] =
			    (struct rk_fabric_port){.num = p,
						    .present = true,
						    .guid = t->nodes[n].guid + (unsigned)p,
						    .state = 4,
						    .phys_state = 5,
						    .remote_node = -1};
	}
	t->nodes[0].type = RK_NODE_SWITCH;
	t->nodes[1].type = RK_NODE_CA;
	t->ports[0][0].lid = t->ports[0][1].lid = 1;
	t->ports[1][0].present = false;
	t->ports[1][1].lid = lid;
	t->ports[1][1].lmc = lmc;
	t->ports[1][1].state = state;
	t->fabric = (struct rk_fabric){.nodes = t->nodes, .nnodes = 2, .local_node = 1};
}

static const char *only_code(struct two *t)
{
	static char code[32];
	struct rk_findings findings = {0};

	assert_int_equal(rk_audit_fabric(&t->fabric, &findings), 0);
	code[0] = '\0';
	assert_true(findings.count <= 1);
	if (findings.count)
		snprintf(code, sizeof(code), "%s", findings.items[0].code);
	rk_findings_free(&findings);
	return code;
}

static void healthy_is_quiet(void **state)
{
	struct two t;

	(void)state;
	build(&t, 2, 0, 4);
	assert_string_equal(only_code(&t), "");
	build(&t, 0, 0, 1); /* down: no LID, legally */
	t.ports[1][1].phys_state = 2;
	assert_string_equal(only_code(&t), "");
	build(&t, 4, 2, 4); /* LMC 2 at an aligned base */
	assert_string_equal(only_code(&t), "");
}

static void lids_checked(void **state)
{
	struct two t;

	(void)state;
	build(&t, 0, 0, 4);
	assert_string_equal(only_code(&t), "LID_UNASSIGNED");
	build(&t, 0xc001, 0, 4);
	assert_string_equal(only_code(&t), "LID_UNASSIGNED");
	build(&t, 0xbffe, 2, 4); /* aligned? no: and past the unicast range */
	assert_string_equal(only_code(&t), "LID_OUTSIDE_LMC");
	build(&t, 0xbffc, 2, 4); /* aligned, and its last LID is 0xbfff */
	assert_string_equal(only_code(&t), "");
	build(&t, 1, 0, 4); /* the switch's LID */
	assert_string_equal(only_code(&t), "LID_DUPLICATE");
}

static void half_up_port_named_with_its_path(void **state)
{
	struct two t;
	struct rk_findings findings = {0};

	(void)state;
	build(&t, 0, 0, 3); /* ARMED: no LID needed yet */
	assert_int_equal(rk_audit_fabric(&t.fabric, &findings), 0);
	assert_int_equal(findings.count, 1);
	assert_string_equal(findings.items[0].code, "PORT_STUCK_ARMED");
	assert_string_equal(findings.items[0].subject, "node1");
	assert_non_null(strstr(findings.items[0].message, "1 port in ARMED with the link up: 1 "));
	rk_findings_free(&findings);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(healthy_is_quiet),
	    cmocka_unit_test(lids_checked),
	    cmocka_unit_test(half_up_port_named_with_its_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
