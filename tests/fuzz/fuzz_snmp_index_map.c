/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: the subagent's index map file (ak_index_map_load), from a file with the
 * input's bytes. Whatever the file holds, the numbers a loaded map gives are distinct in their
 * group, a name keeps its number, and a saved map loads back with the same numbers. */
#include "ak_index_map.h"

#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const devices[] = {"mlx5_0", "mlx5_1", "mlx4_0", "rxe0"};
static const char *const counters[] = {"out_of_buffer", "lifespan", "rx_write_requests"};

/* The numbers of every name above, as the map gives them (0: none). */
static void numbers_of(struct ak_index_map *map, uint32_t *out)
{
	size_t n = 0;

	for (size_t d = 0; d < 4; d++) {
		out[n++] = ak_index_map_device(map, devices[d]);
		for (size_t c = 0; c < 3; c++)
			out[n++] = ak_index_map_counter(map, devices[d], 2, counters[c]);
	}
}

static void check_distinct(const uint32_t *numbers)
{
	for (size_t i = 0; i < 16; i += 4)
		for (size_t j = i + 4; j < 16; j += 4)
			if (numbers[i] && numbers[i] == numbers[j])
				abort(); /* two devices with one number */
	for (size_t d = 0; d < 16; d += 4)
		for (size_t i = 1; i < 4; i++)
			for (size_t j = i + 1; j < 4; j++)
				if (numbers[d + i] && numbers[d + i] == numbers[d + j])
					abort(); /* two counters of a directory with one number */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[96];
	struct ak_index_map map;
	uint32_t first[16], again[16], loaded[16];

	fuzz_quiet_log();
	snprintf(path, sizeof(path), "%s/%s", fuzz_scratch_dir(), AK_INDEX_MAP_FILE);
	if (fuzz_write_file(path, data, size) != 0 || ak_index_map_load(&map, fuzz_scratch_dir()))
		abort();
	numbers_of(&map, first);
	numbers_of(&map, again);
	check_distinct(first);
	for (size_t i = 0; i < 16; i++)
		if (first[i] != again[i])
			abort(); /* a name that changed its number */
	ak_index_map_save(&map);
	ak_index_map_free(&map);
	if (ak_index_map_load(&map, fuzz_scratch_dir()))
		abort();
	numbers_of(&map, loaded);
	for (size_t i = 0; i < 16; i++)
		if (loaded[i] != first[i])
			abort(); /* the saved map does not load back as it was */
	ak_index_map_free(&map);
	return 0;
}
