/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Plugin instances of fabric nodes: the node name map's name made safe, or the node GUID. */
#ifndef RDMAKIT_CD_NAMES_H
#define RDMAKIT_CD_NAMES_H

#include "rdmakit/fabric.h"

#include <stddef.h>

/* Room for a node's part of a plugin instance; "-PORT" follows it. */
#define CD_NODE_NAME_MAX 101

typedef char cd_node_name[CD_NODE_NAME_MAX];

/** Copy name keeping A-Z a-z 0-9 . _ - and writing '_' for any other byte ("a b/c" -> "a_b_c"). */
void cd_safe_name(const char *name, char *out, size_t size);

/** The name of a node that is not in the current topology: its mapped name made safe, else
 * "0x" and its 16-digit GUID (map may be NULL). */
void cd_node_name_of(const struct rk_name_map *map, uint64_t guid, char *out);

/** Name every node of fabric (names[i] for node i): its mapped name made safe when no other node
 * has the same, else "0x" and its 16-digit GUID. Returns how many nodes lost a shared name. */
size_t cd_node_names(const struct rk_fabric *fabric, const struct rk_name_map *map,
		     cd_node_name *names);

#endif
