/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Plugin instances of fabric nodes: the node name map's name made safe, or the GUID. */
#include "cd_names.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cd_safe_name(const char *name, char *out, size_t size)
{
	size_t i = 0;

	for (; name[i] && i + 1 < size; i++) {
		char c = name[i];
		bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';

		out[i] = keep ? c : '_';
	}
	out[i] = '\0';
}

static void guid_name(uint64_t guid, char *out)
{
	rk_format_guid(guid, out, CD_NODE_NAME_MAX);
}

void cd_node_name_of(const struct rk_name_map *map, uint64_t guid, char *out)
{
	const char *mapped = map ? rk_name_map_lookup(map, guid) : NULL;

	if (mapped)
		cd_safe_name(mapped, out, CD_NODE_NAME_MAX);
	else
		guid_name(guid, out);
}

/* Sort nodes by their name; qsort gives no context, so the names travel with the index. */
struct named {
	const char *name;
	size_t node;
	bool shared;
};

static int compare_named(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

/* A mapped name shared by several nodes identifies none of them: they get their GUIDs. */
static size_t unshare(const struct rk_fabric *fabric, cd_node_name *names, struct named *sorted,
		      size_t count)
{
	size_t lost = 0;

	qsort(sorted, count, sizeof(*sorted), compare_named);
	for (size_t i = 1; i < count; i++) {
		if (strcmp(sorted[i].name, sorted[i - 1].name) == 0)
			sorted[i].shared = sorted[i - 1].shared = true;
	}
	for (size_t i = 0; i < count; i++) {
		if (!sorted[i].shared)
			continue;
		guid_name(fabric->nodes[sorted[i].node].guid, names[sorted[i].node]);
		lost++;
	}
	return lost;
}

size_t cd_node_names(const struct rk_fabric *fabric, const struct rk_name_map *map,
		     cd_node_name *names)
{
	struct named *sorted = calloc(fabric->nnodes ? fabric->nnodes : 1, sizeof(*sorted));
	size_t count = 0, lost;

	for (size_t i = 0; i < fabric->nnodes; i++) {
		const char *mapped = map ? rk_name_map_lookup(map, fabric->nodes[i].guid) : NULL;

		if (!mapped || !sorted) {
			guid_name(fabric->nodes[i].guid, names[i]);
			continue;
		}
		cd_safe_name(mapped, names[i], CD_NODE_NAME_MAX);
		sorted[count++] = (struct named){names[i], i, false};
	}
	lost = sorted ? unshare(fabric, names, sorted, count) : 0;
	free(sorted);
	return lost;
}
