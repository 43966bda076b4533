/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: tune's strict partitions.conf parser (rk_tune_audit_partitions) and the
 * IPoIB MTU lookup of the Default partition and of P_Key 0x8001, on a file with the input's
 * bytes. */
#include "fuzz_util.h"
#include "rdmakit/tune_opensm.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[96];
	struct rk_tune_audit audit = {0};
	unsigned mtu;

	fuzz_quiet_log();
	snprintf(path, sizeof(path), "%s/partitions.conf", fuzz_scratch_dir());
	if (fuzz_write_file(path, data, size) != 0)
		abort();
	rk_tune_audit_partitions("/", path, &audit);
	rk_tune_audit_free(&audit);
	rk_tune_partitions_ipoib_mtu("/", path, 0x7fff, &mtu);
	rk_tune_partitions_ipoib_mtu("/", path, 0x8001, &mtu);
	return 0;
}
