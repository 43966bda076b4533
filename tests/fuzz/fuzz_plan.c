/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: a fabric plan (rdmakit's format or ibnetdiscover's), parsed, written
 * back and read again (the same plan), then compared with itself (no finding). */
#include "fuzz_util.h"
#include "rdmakit/plan.h"

#include <stdio.h>
#include <stdlib.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rk_findings findings = {0};
	struct rk_plan *plan, *again;
	FILE *in;

	fuzz_quiet_log();
	if (!(in = fmemopen((void *)data, size, "r")))
		return 0;
	if (rk_plan_parse(in, "fuzz", &plan, NULL) != 0) {
		fclose(in);
		return 0;
	}
	fclose(in);
	again = round_trip(plan);
	if (again->nnodes != plan->nnodes || again->nlinks != plan->nlinks)
		abort();
	if (rk_plan_diff(again, plan, NULL, &findings) != 0 || findings.count != 0)
		abort();
	rk_findings_free(&findings);
	rk_plan_free(again);
	rk_plan_free(plan);
	return 0;
}
