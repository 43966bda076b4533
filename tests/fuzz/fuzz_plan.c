/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: a fabric plan (rdmakit's format, ibnetdiscover's, an NDT or an
 * ibfabricconf.xml, told apart by the content), parsed, written back and read again (the same
 * plan), then compared with itself (no finding); a plan that names its nodes is also placed on
 * a fabric described by its own names and a small node name map. */
#include "fuzz_util.h"
#include "plan_internal.h"
#include "rdmakit/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nodes of the fabric a named plan is placed on: its first names, some twice. */
#define NAMED_NODES 64

/* The plan written by rk_plan_write and read back. */
static struct rk_plan *round_trip(const struct rk_plan *plan)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	struct rk_plan *again = NULL;
	unsigned errors;

	if (!out || rk_plan_write(out, plan) != 0)
		abort();
	fclose(out);
	out = fmemopen(text, size, "r");
	if (!out || rk_plan_parse(out, "written", &again, &errors) != 0 || errors)
		abort();
	fclose(out);
	free(text);
	return again;
}

/* A node name map giving one name a GUID outside the fabric and another to two GUIDs. */
static struct rk_name_map *small_map(void)
{
	static const char text[] = "0x1001 \"Leaf1\"\n0x1002 \"dup\"\n0x1003 \"DUP\"\n";
	char path[4096];
	struct rk_name_map *names = NULL;

	snprintf(path, sizeof(path), "%s/plan-names", fuzz_scratch_dir());
	if (fuzz_write_file(path, (const uint8_t *)text, sizeof(text) - 1) != 0 ||
	    rk_name_map_load(path, &names) != 0)
		abort();
	return names;
}

/* A fabric of switches described by the names of the plan's first links, GUIDs 1, 2, ... */
static struct rk_fabric *described_by(const struct rk_plan_named *named)
{
	size_t n = 2 * named->nlinks < NAMED_NODES ? 2 * named->nlinks : NAMED_NODES;
	struct rk_fabric *fabric = calloc(1, sizeof(*fabric));

	if (!fabric || !(fabric->nodes = calloc(n + 1, sizeof(*fabric->nodes))))
		abort();
	for (size_t i = 0; i < n; i++) {
		const struct plan_named_link *l = &named->links[i / 2];
		struct rk_fabric_node *node = &fabric->nodes[fabric->nnodes++];

		node->guid = i + 1;
		node->type = RK_NODE_SWITCH;
		node->nports = 36;
		snprintf(node->description, sizeof(node->description), "%s",
			 i % 2 ? l->name_b : l->name_a);
		if (!(node->ports = calloc(37, sizeof(*node->ports))))
			abort();
	}
	return fabric;
}

/* Place a plan that names its nodes: every link placed or counted, never more. */
static void place(const struct rk_plan *plan)
{
	static struct rk_name_map *names;
	struct rk_fabric *fabric = described_by(plan->named);
	struct rk_findings findings = {0};
	unsigned unplaced;

	if (!names)
		names = small_map();
	if (rk_plan_compare(fabric, plan, names, RK_LOG_DEBUG, &unplaced, &findings) != 0 ||
	    unplaced > rk_plan_named_links(plan))
		abort();
	rk_findings_free(&findings);
	rk_fabric_free(fabric);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rk_findings findings = {0};
	struct rk_plan *plan, *again;
	FILE *in;
	int err;

	fuzz_quiet_log();
	if (!(in = fmemopen((void *)data, size, "r")))
		return 0;
	err = rk_plan_parse(in, "fuzz", &plan, NULL);
	fclose(in);
	if (err == -E2BIG || err == -EBADMSG)
		return 0;
	if (err)
		abort();
	again = round_trip(plan);
	if (again->nnodes != plan->nnodes || again->nlinks != plan->nlinks)
		abort();
	if (rk_plan_diff(again, plan, NULL, &findings) != 0 || findings.count != 0)
		abort();
	if (plan->named)
		place(plan);
	rk_findings_free(&findings);
	rk_plan_free(again);
	rk_plan_free(plan);
	return 0;
}
