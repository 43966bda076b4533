/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: tune's opensm.conf audit against the installed OpenSM's keys (a real
 * `opensm -c`, once per process). A form feed in the input splits it into two instances' files
 * (the cross-instance checks); then a change of sm_priority is planned on the first file. */
#include "fuzz_util.h"
#include "rdmakit/tune_opensm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct rk_opensm_keys *keys;
	static const char *const settings[] = {"sm_priority=5"};
	char first[96], second[96];
	const char *confs[] = {first, second};
	const uint8_t *split = memchr(data, '\f', size);
	size_t first_len = split ? (size_t)(split - data) : size;
	struct rk_tune_audit audit = {0};
	struct rk_tune_plan plan = {0};

	fuzz_quiet_log();
	if (!keys && rk_opensm_keys_load(NULL, &keys) != 0)
		abort(); /* no OpenSM: nothing to audit against */
	snprintf(first, sizeof(first), "%s/opensm.conf", fuzz_scratch_dir());
	snprintf(second, sizeof(second), "%s/opensm2.conf", fuzz_scratch_dir());
	if (fuzz_write_file(first, data, first_len) != 0 ||
	    (split && fuzz_write_file(second, split + 1, size - first_len - 1) != 0))
		abort();
	rk_tune_audit_opensm("/", confs, split ? 2 : 1, keys, &audit);
	rk_tune_audit_free(&audit);
	rk_tune_plan_opensm_set("/", first, settings, 1, keys, &plan);
	rk_tune_plan_free(&plan);
	return 0;
}
