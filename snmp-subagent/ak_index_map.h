/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Index numbers that never move: a device's number (rdmakitDeviceIndex) and a driver counter's
 * number in its directory (rdmakitDcIndex) are kept by name. A name seen for the first time
 * takes 1 + the highest number its group has given; a number is never given twice. The map is
 * kept in STATE_DIR/index (one "device NAME N" or "counter DEVICE PORT NAME N" line each),
 * rewritten atomically when a name is added; a file that cannot be read is logged and the map
 * is built again. */
#ifndef AK_INDEX_MAP_H
#define AK_INDEX_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AK_INDEX_MAP_FILE   "index"
#define AK_INDEX_NUMBER_MAX 65535u
#define AK_INDEX_NAME_MAX   64

/* One name and its number. */
struct ak_index_name {
	char name[AK_INDEX_NAME_MAX];
	uint32_t number;
};

/* The names of one group: the devices (port_key -1) or one directory of driver counters. */
struct ak_index_group {
	char device[AK_INDEX_NAME_MAX];
	int port_key; /* -1: the devices; 0: the device's counters; N + 1: port N's */
	struct ak_index_name *names;
	size_t count;
	uint32_t highest;
};

/* Every group, and where they are kept. */
struct ak_index_map {
	struct ak_index_group *groups;
	size_t ngroups;
	char *path;	 /* NULL: kept in memory only */
	bool dirty;	 /* names were added since the file was written */
	int write_error; /* the last write's errno, logged once */
};

/** Load STATE_DIR/index into an empty map (state_dir NULL: memory only). A missing file starts
 * an empty map; a corrupt one is logged, ignored and replaced at the next save. -ENOMEM. */
int ak_index_map_load(struct ak_index_map *map, const char *state_dir);

/** The number of a device by name, given now if it has none; 0 when it cannot have one. */
uint32_t ak_index_map_device(struct ak_index_map *map, const char *device);

/** The number of a driver counter in its directory (port_key as rdmakitDcPort), given now if
 * it has none; 0 when it cannot have one. */
uint32_t ak_index_map_counter(struct ak_index_map *map, const char *device, unsigned port_key,
			      const char *counter);

/** Write the map atomically if names were added and it is kept in a file; a failure is logged
 * (once per errno) and retried at the next save. */
void ak_index_map_save(struct ak_index_map *map);

/** Free the map. */
void ak_index_map_free(struct ak_index_map *map);

#endif
