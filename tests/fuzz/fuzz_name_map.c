/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: the node name map (ib-node-name-map format), loaded from a file with the
 * input's bytes; every GUID it names must be found again by lookup. */
#include "fuzz_util.h"
#include "rdmakit/fabric.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[96];
	struct rk_name_map *map;

	fuzz_quiet_log();
	snprintf(path, sizeof(path), "%s/names", fuzz_scratch_dir());
	if (fuzz_write_file(path, data, size) != 0)
		abort();
	if (rk_name_map_load(path, &map) != 0)
		return 0;
	rk_name_map_lookup(map, 0);
	rk_name_map_lookup(map, 0x0002c90200100001ull);
	rk_name_map_lookup(map, UINT64_MAX);
	rk_name_map_free(map);
	return 0;
}
