/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A plan that names its nodes (an NDT, an ibfabricconf) placed on the live fabric: a name is
 * the GUID the node name map gives it, else the one live node described by it, names compared
 * without regard to case; the links between placed names make a plan by GUID for
 * rk_plan_diff, each one that cannot be placed reported with its file and line. */
#include "plan_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A text a live node answers to: its description, or an NVIDIA switch's system name. */
struct described {
	char text[sizeof(((struct rk_fabric_node *)0)->description)];
	uint64_t guid;
};

/* The live fabric's described texts, sorted by text (any case), then GUID. */
struct descriptions {
	struct described *items;
	size_t count;
};

/* What a name came to: the GUIDs found for it, from the map or the descriptions. */
struct placed {
	size_t count; /* placed when 1 */
	uint64_t guid;
	bool by_map;
};

/* One end of a named link, for placing each name once. */
struct name_ref {
	const char *name;
	size_t end; /* 2 * link + 0 for end a, 1 for end b */
};

static int compare_described(const void *a, const void *b)
{
	const struct described *x = a, *y = b;
	int c = strcasecmp(x->text, y->text);

	return c ? c : (x->guid > y->guid) - (x->guid < y->guid);
}

static int compare_refs(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;

	return strcasecmp(x->name, y->name);
}

/* The system name of a switch NVIDIA firmware describes "MF0;NAME:MODEL/Un" into name; false
 * for another description. */
static bool system_name(const char *description, char *name, size_t size)
{
	const char *end;

	if (strncmp(description, "MF0;", 4) != 0 || !(end = strchr(description + 4, ':')))
		return false;
	snprintf(name, size, "%.*s", (int)(end - description - 4), description + 4);
	return true;
}

/* Index what the live nodes answer to; 0 or -ENOMEM. */
static int index_descriptions(const struct rk_fabric *fabric, struct descriptions *d)
{
	if (!(d->items = calloc(2 * fabric->nnodes + 1, sizeof(*d->items))))
		return -ENOMEM;
	for (size_t i = 0; i < fabric->nnodes; i++) {
		const struct rk_fabric_node *n = &fabric->nodes[i];
		struct described *item = &d->items[d->count];

		snprintf(item->text, sizeof(item->text), "%s", n->description);
		item->guid = n->guid;
		d->count += item->text[0] != '\0';
		item = &d->items[d->count];
		if (system_name(n->description, item->text, sizeof(item->text)) && item->text[0]) {
			item->guid = n->guid;
			d->count++;
		}
	}
	if (d->count)
		qsort(d->items, d->count, sizeof(*d->items), compare_described);
	return 0;
}

/* The nodes described by name. */
static struct placed find_described(const struct descriptions *d, const char *name)
{
	struct placed found = {0};
	size_t lo = 0, hi = d->count;

	while (lo < hi) { /* the first item not before name */
		size_t mid = lo + (hi - lo) / 2;

		if (strcasecmp(d->items[mid].text, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < d->count && strcasecmp(d->items[i].text, name) == 0; i++)
		if (!found.count || d->items[i].guid != found.guid) {
			found.guid = d->items[i].guid;
			found.count++;
		}
	return found;
}

/* Where name is: the node name map's GUID for it, else the described nodes. */
static struct placed place_name(const char *name, const struct descriptions *d,
				const struct rk_name_map *names)
{
	struct placed found = {.by_map = true};

	if (names && (found.count = rk_name_map_find(names, name, &found.guid)))
		return found;
	return find_described(d, name);
}

/* The placed name's node into the plan, its type and port count the live node's when the
 * fabric has it. */
static int add_placed_node(struct plan_parser *q, const struct rk_fabric *fabric, const char *name,
			   uint64_t guid)
{
	int i = rk_fabric_find_node(fabric, guid);

	if (i < 0)
		return plan_add_node(q, guid, (enum rk_node_type)0, 0, name);
	return plan_add_node(q, guid, fabric->nodes[i].type, fabric->nodes[i].nports, name);
}

/* Place every name once into placed (by end), adding each placed node to the plan. */
static int place_names(struct plan_parser *q, const struct rk_plan_named *named,
		       const struct rk_fabric *fabric, const struct rk_name_map *names,
		       struct placed *placed)
{
	size_t n = 2 * named->nlinks;
	struct name_ref *refs = calloc(n + 1, sizeof(*refs));
	struct descriptions d = {0};
	int err = refs ? index_descriptions(fabric, &d) : -ENOMEM;

	for (size_t i = 0; !err && i < named->nlinks; i++) {
		refs[2 * i] = (struct name_ref){named->links[i].name_a, 2 * i};
		refs[2 * i + 1] = (struct name_ref){named->links[i].name_b, 2 * i + 1};
	}
	if (!err && n)
		qsort(refs, n, sizeof(*refs), compare_refs);
	for (size_t i = 0, run; !err && i < n; i = run) {
		struct placed found = place_name(refs[i].name, &d, names);

		for (run = i; run < n && strcasecmp(refs[run].name, refs[i].name) == 0; run++)
			placed[refs[run].end] = found;
		if (found.count == 1)
			err = add_placed_node(q, fabric, refs[i].name, found.guid);
	}
	free(refs);
	free(d.items);
	return err;
}

/* Why a name was not placed, into why. */
static void not_placed(const char *name, const struct placed *p, char *why, size_t size)
{
	if (!p->count)
		snprintf(why, size,
			 "\"%s\" is not in the node name map and no node of the fabric is "
			 "described so",
			 name);
	else if (p->by_map)
		snprintf(why, size, "the node name map gives \"%s\" to %zu GUIDs", name, p->count);
	else
		snprintf(why, size,
			 "%zu nodes of the fabric are described \"%s\": give each its own name in "
			 "the node name map",
			 p->count, name);
}

/* The named link l as a link by GUID, or reported when an end was not placed. */
static int add_placed_link(struct plan_parser *q, const struct plan_named_link *l,
			   const struct placed *ends)
{
	char why[256];

	q->line = l->line;
	if (ends[0].count == 1 && ends[1].count == 1)
		return plan_add_link(q, ends[0].guid, l->port_a, ends[1].guid, l->port_b, l->width,
				     l->speed);
	if (ends[0].count != 1)
		not_placed(l->name_a, &ends[0], why, sizeof(why));
	else
		not_placed(l->name_b, &ends[1], why, sizeof(why));
	plan_bad(q, "%s", why);
	return 0;
}

/* The links and nodes of the placed plan, checked as a read plan's are. */
static int place_links(struct plan_parser *q, const struct rk_plan *plan,
		       const struct rk_fabric *fabric, const struct rk_name_map *names)
{
	const struct rk_plan_named *named = plan->named;
	struct placed *placed = calloc(2 * named->nlinks + 1, sizeof(*placed));
	int err = placed ? place_names(q, named, fabric, names, placed) : -ENOMEM;

	for (size_t i = 0; !err && i < named->nlinks; i++)
		err = add_placed_link(q, &named->links[i], &placed[2 * i]);
	free(placed);
	if (!err && q->too_big) {
		rk_log(RK_LOG_ERR, "%s: more than %d nodes placed on the fabric, plan refused",
		       named->origin, RK_PLAN_MAX_NODES);
		err = -E2BIG;
	}
	if (!err) {
		plan_finish_nodes(q, false);
		err = plan_finish_links(q);
	}
	return err;
}

int plan_place(const struct rk_plan *plan, const struct rk_fabric *fabric,
	       const struct rk_name_map *names, enum rk_log_level level, struct rk_plan **out,
	       unsigned *unplaced)
{
	struct plan_parser q = {.origin = plan->named->origin,
				.unit = plan->named->unit,
				.level = level,
				.current = -1};
	int err;

	*out = NULL;
	*unplaced = 0;
	if (!(q.plan = calloc(1, sizeof(*q.plan))))
		return -ENOMEM;
	err = place_links(&q, plan, fabric, names);
	if (err) {
		rk_plan_free(q.plan);
		return err;
	}
	*out = q.plan;
	*unplaced = q.errors;
	return 0;
}
