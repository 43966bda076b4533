/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The audit's checks on hand-built fabrics and tables: what the sim cannot make (a port with no
 * LID, a multicast LID, LIDs past the unicast range, a P_Key no partition has, an SL past a
 * port's VLs) and what must stay quiet (a port that is down has no LID, legally; an SL no
 * traffic uses; a table that was not read); and partitions.conf as OpenSM makes partitions of
 * it. sim_audit runs the rest on ibsim. */
#include "rdmakit/audit.h"

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

/* The message of only_code's finding. */
static char only_message[sizeof(((struct rk_finding *)0)->message)];

static const char *only_code(struct two *t)
{
	static char code[32];
	struct rk_findings findings = {0};

	assert_int_equal(rk_audit_fabric(&t->fabric, &findings), 0);
	code[0] = only_message[0] = '\0';
	assert_true(findings.count <= 1);
	if (findings.count) {
		snprintf(code, sizeof(code), "%s", findings.items[0].code);
		snprintf(only_message, sizeof(only_message), "%s", findings.items[0].message);
	}
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
	assert_non_null(strstr(only_message, "has the multicast LID 49153"));
	build(&t, 0xffff, 0, 4); /* what a port has before the SM gives it a LID */
	assert_string_equal(only_code(&t), "LID_UNASSIGNED");
	assert_non_null(strstr(only_message, "has the permissive LID 65535"));
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

/* partitions.conf text into *out through a temporary file. */
static void load_partitions(const char *text, struct rk_partitions *out, unsigned *errors)
{
	char path[] = "/tmp/rk-partitions-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(rk_partitions_load(path, out, errors), 0);
	unlink(path);
}

static const struct rk_partition *partition_of(const struct rk_partitions *parts, uint16_t pkey)
{
	for (size_t i = 0; i < parts->count; i++)
		if (parts->items[i].pkey == pkey)
			return &parts->items[i];
	fail_msg("no partition 0x%x", pkey);
	return NULL;
}

static void partitions_as_opensm_makes_them(void **state)
{
	struct rk_partitions parts;
	const struct rk_partition *p;
	unsigned errors = 9;

	(void)state;
	load_partitions("# no Default rule\n"
			"a=0x10, defmember=full : ALL_CAS, 0x20=limited ;\n"
			"b=0x10 : 0x30=both ;\n"
			"c=0x8011, sl=3 : SELF ;\n"
			"d=zz : ALL ;\n",
			&parts, &errors);
	assert_int_equal(errors, 1); /* d's P_Key */
	assert_int_equal(parts.count, 3);
	p = partition_of(&parts, 0x10); /* b merged into a, under a's name */
	assert_string_equal(p->name, "a");
	assert_int_equal(p->nmembers, 3);
	assert_int_equal(p->members[0].who, RK_PARTITION_ALL_CAS);
	assert_int_equal(p->members[0].membership, RK_PARTITION_FULL);
	assert_int_equal(p->members[1].guid, 0x20);
	assert_int_equal(p->members[1].membership, RK_PARTITION_LIMITED);
	assert_int_equal(p->members[2].membership, RK_PARTITION_FULL | RK_PARTITION_LIMITED);
	assert_int_equal(p->sl, -1);
	p = partition_of(&parts, 0x11); /* the membership bit dropped, as OpenSM does */
	assert_int_equal(p->sl, 3);
	assert_int_equal(p->members[0].who, RK_PARTITION_SELF);
	p = partition_of(&parts, 0x7fff); /* OpenSM's Default when the file has none */
	assert_int_equal(p->nmembers, 2);
	assert_int_equal(p->members[0].who, RK_PARTITION_ALL);
	assert_int_equal(p->members[0].membership, RK_PARTITION_LIMITED);
	assert_int_equal(p->members[1].who, RK_PARTITION_SELF);
	assert_int_equal(p->members[1].membership, RK_PARTITION_FULL);
	rk_partitions_free(&parts);
	assert_int_equal(rk_partitions_load("/nonexistent/partitions.conf", &parts, NULL), -ENOENT);
	assert_int_equal(rk_partitions_load("/tmp", &parts, NULL), -EISDIR);
	{
		char path[] = "/tmp/rk-partitions-XXXXXX";
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, "Default=0x7fff : ALL ;\0\1", 25), 25);
		close(fd);
		assert_int_equal(rk_partitions_load(path, &parts, NULL), -EILSEQ);
		unlink(path);
	}
}

/* The findings of the CA port's P_Key table (count entries) against the partitions. */
static struct rk_findings pkey_findings(const struct rk_partitions *parts, const uint16_t *pkeys,
					size_t count, int status)
{
	struct two t;
	struct rk_audit_port entry = {.node = 1, .port = 1, .pkey_status = status};
	struct rk_audit_reads reads = {.ports = &entry, .nports = 1};
	struct rk_audit_context context = {.partitions = parts, .sls_in_use = 1};
	struct rk_findings findings = {0};

	build(&t, 2, 0, 4);
	memcpy(entry.pkeys, pkeys, count * sizeof(*pkeys));
	entry.npkeys = 32;
	entry.sl2vl_status = 1;
	assert_int_equal(rk_audit_tables(&t.fabric, &reads, &context, &findings), 0);
	return findings;
}

static void expect_pkey_finding(const struct rk_partitions *parts, const uint16_t *pkeys,
				size_t count, const char *code, const char *subject,
				enum rk_severity severity)
{
	struct rk_findings findings = pkey_findings(parts, pkeys, count, 0);

	assert_int_equal(findings.count, code ? 1 : 0);
	if (code) {
		assert_string_equal(findings.items[0].code, code);
		assert_string_equal(findings.items[0].subject, subject);
		assert_int_equal(findings.items[0].severity, severity);
		assert_non_null(strstr(findings.items[0].message, "1 port is "));
		assert_non_null(strstr(findings.items[0].message, "node1[1] (0x0000000000000201)"));
		assert_int_equal(findings.items[0].node_guid, 0x200);
	}
	rk_findings_free(&findings);
}

static void p_key_tables_against_the_partitions(void **state)
{
	struct rk_partitions parts;
	struct rk_findings none;

	(void)state;
	load_partitions("Default=0x7fff : ALL=full ; p=0x5 : 0x201=limited ;", &parts, NULL);
	expect_pkey_finding(&parts, (uint16_t[]){0xffff, 0x0005}, 2, NULL, NULL, 0);
	expect_pkey_finding(&parts, (uint16_t[]){0xffff}, 1, "PARTITION_MISSING",
			    "partition p (0x0005)", RK_SEVERITY_WARNING);
	expect_pkey_finding(&parts, (uint16_t[]){0xffff, 0x8005}, 2, "PARTITION_MEMBERSHIP",
			    "partition p (0x0005)", RK_SEVERITY_WARNING);
	expect_pkey_finding(&parts, (uint16_t[]){0x0005}, 1, "PARTITION_DEFAULT_MISSING",
			    "partition Default (0x7fff)", RK_SEVERITY_CRITICAL);
	expect_pkey_finding(&parts, (uint16_t[]){0xffff, 0x0005, 0x8009, 0x8009}, 4,
			    "PARTITION_UNEXPECTED", "P_Key 0x0009", RK_SEVERITY_CRITICAL);
	expect_pkey_finding(&parts, (uint16_t[]){0xffff, 0x0005, 0x0009}, 3, "PARTITION_UNEXPECTED",
			    "P_Key 0x0009", RK_SEVERITY_WARNING);
	none = pkey_findings(&parts, (uint16_t[]){0}, 1, -ETIMEDOUT); /* not read: no verdict */
	assert_int_equal(none.count, 0);
	rk_partitions_free(&parts);
}

/* The switch port's finding (NULL: none) when it holds sw and the CA behind it ca (2 each). */
static void expect_switch_port(const struct rk_partitions *parts, const uint16_t *sw,
			       const uint16_t *ca, uint8_t enforcement, int sw_status,
			       const char *subject)
{
	struct two t;
	struct rk_audit_port entries[2] = {{.node = 0, .port = 1, .pkey_status = sw_status},
					   {.node = 1, .port = 1}};
	struct rk_audit_reads reads = {.ports = entries, .nports = 2};
	struct rk_audit_context context = {.partitions = parts, .sls_in_use = 1};
	struct rk_findings findings = {0};
	const struct rk_finding *found = NULL;

	build(&t, 2, 0, 4);
	t.ports[1][1].remote_node = 0;
	t.ports[0][1].remote_node = 1;
	t.ports[0][1].remote_port = t.ports[1][1].remote_port = 1;
	t.ports[0][1].pkey_enforcement = enforcement;
	for (int e = 0; e < 2; e++) {
		memcpy(entries[e].pkeys, e ? ca : sw, 2 * sizeof(*sw));
		entries[e].npkeys = 32;
		entries[e].sl2vl_status = 1;
	}
	assert_int_equal(rk_audit_tables(&t.fabric, &reads, &context, &findings), 0);
	for (size_t i = 0; i < findings.count; i++)
		if (strcmp(findings.items[i].code, "PARTITION_SWITCH_PORT") == 0) {
			assert_null(found);
			found = &findings.items[i];
		}
	if (!subject) {
		assert_null(found);
	} else {
		assert_non_null(found);
		assert_string_equal(found->subject, subject);
		assert_int_equal(found->severity, RK_SEVERITY_CRITICAL);
		assert_non_null(strstr(found->message, "node0[1] (0x0000000000000101)"));
		assert_int_equal(found->node_guid, 0x100);
		assert_int_equal(found->port, 1);
	}
	rk_findings_free(&findings);
}

/* A switch port set up for partitions (enforcing them, or holding a P_Key besides the
 * default) must hold each P_Key of the CA behind it. */
static void switch_port_p_keys_against_the_ca_behind(void **state)
{
	struct rk_partitions parts;
	const char *p = "partition p (0x0005)";

	(void)state;
	load_partitions("Default=0x7fff : ALL=full ; p=0x5 : 0x201=limited ;", &parts, NULL);
	expect_switch_port(&parts, (uint16_t[]){0xffff, 0x0005}, (uint16_t[]){0xffff, 0x0005}, 0, 0,
			   NULL);
	expect_switch_port(&parts, (uint16_t[]){0xffff, 0}, (uint16_t[]){0xffff, 0x0005},
			   RK_PKEY_ENFORCE_INBOUND, 0, p);
	/* not set up for partitions: the SM enforces none there (no_partition_enforcement) */
	expect_switch_port(&parts, (uint16_t[]){0xffff, 0}, (uint16_t[]){0xffff, 0x0005}, 0, 0,
			   NULL);
	/* membership is not compared: one full member on either side makes a match */
	expect_switch_port(&parts, (uint16_t[]){0xffff, 0x0005}, (uint16_t[]){0xffff, 0x8005}, 0, 0,
			   NULL);
	expect_switch_port(&parts, (uint16_t[]){0xffff, 0x0003}, (uint16_t[]){0xffff, 0x0005}, 0, 0,
			   p);
	expect_switch_port(&parts, (uint16_t[]){0xffff, 0}, (uint16_t[]){0xffff, 0x0005},
			   RK_PKEY_ENFORCE_INBOUND, -ETIMEDOUT, NULL); /* not read: no verdict */
	rk_partitions_free(&parts);
}

static void sl_in_use_off_the_port_vls(void **state)
{
	struct two t;
	struct rk_audit_port entry = {.node = 1, .port = 1, .pkey_status = 1};
	struct rk_audit_reads reads = {.ports = &entry, .nports = 1};
	struct rk_audit_context context = {.sls_in_use = 1u | 1u << 5};
	struct rk_findings findings = {0};

	(void)state;
	build(&t, 2, 0, 4);
	t.ports[1][1].oper_vls = 3; /* VL0-3 */
	entry.vl_of_sl[5] = 4;
	entry.vl_of_sl[9] = 15; /* SL 9: no traffic uses it */
	assert_int_equal(rk_audit_tables(&t.fabric, &reads, &context, &findings), 0);
	assert_int_equal(findings.count, 1);
	assert_string_equal(findings.items[0].code, "SL_TO_VL_INVALID");
	assert_string_equal(findings.items[0].subject, "node1");
	assert_non_null(strstr(findings.items[0].message, "port 1: SL 5 to VL4 (it runs VL0-3)"));
	rk_findings_free(&findings);
	t.ports[1][1].oper_vls = 0; /* OperVLs unknown: no verdict */
	assert_int_equal(rk_audit_tables(&t.fabric, &reads, &context, &findings), 0);
	assert_int_equal(findings.count, 0);
}

static void guid_behind_a_second_port(void **state)
{
	struct two t;
	struct rk_audit_twin twins[] = {
	    {.node = 0, .port = 1, .status = 0, .node_guid = 0x200, .port_guid = 0x999},
	    {.node = 0, .port = 1, .status = 0, .node_guid = 0x300, .port_guid = 0x301},
	    {.node = 0, .port = 1, .status = -ETIMEDOUT}};
	struct rk_audit_reads reads = {.twins = twins, .ntwins = 3};
	struct rk_audit_context context = {.sls_in_use = 1};
	struct rk_findings findings = {0};

	(void)state;
	build(&t, 2, 0, 4);
	assert_int_equal(rk_audit_tables(&t.fabric, &reads, &context, &findings), 0);
	assert_int_equal(findings.count, 1); /* 0x300 is new, not a twin; no answer, no verdict */
	assert_string_equal(findings.items[0].code, "DUPLICATE_GUID");
	assert_string_equal(findings.items[0].subject, "GUID 0x0000000000000200");
	assert_non_null(strstr(findings.items[0].message, "node GUID of node1 answers again behind "
							  "node0[1]"));
	rk_findings_free(&findings);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(healthy_is_quiet),
	    cmocka_unit_test(lids_checked),
	    cmocka_unit_test(half_up_port_named_with_its_path),
	    cmocka_unit_test(partitions_as_opensm_makes_them),
	    cmocka_unit_test(p_key_tables_against_the_partitions),
	    cmocka_unit_test(switch_port_p_keys_against_the_ca_behind),
	    cmocka_unit_test(sl_in_use_off_the_port_vls),
	    cmocka_unit_test(guid_behind_a_second_port),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
