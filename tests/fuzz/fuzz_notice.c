/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: a Report from the SA (rk_notice_decode, then the subject and the names of
 * what it decoded): any bytes, any length, never read past them. */
#include "fuzz_util.h"
#include "rdmakit/notice.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *mad = malloc(size ? size : 1);
	struct rk_notice notice;
	const char *why = NULL;
	char subject[128];

	fuzz_quiet_log();
	if (!mad)
		abort();
	memcpy(mad, data, size);
	if (rk_notice_decode(mad, size, &notice, &why) == 0) {
		rk_notice_subject(&notice, NULL, subject, sizeof(subject));
		if (!rk_trap_name(notice.trap) || !subject[0])
			abort();
		rk_trap_meaning(notice.trap);
	} else if (!why) {
		abort(); /* a refusal always says why */
	}
	free(mad);
	return 0;
}
