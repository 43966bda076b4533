/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A rediscovery that sees less than the last whole view: what it missed is unreachable now, not
 * gone, until the fabric says so (the peer port went down) or it stays unseen for a while. */
#include "rdmakit/fabric_cache.h"

#include "rdmakit/array.h"

#include <errno.h>
#include <stdlib.h>

#define PORT_STATE_DOWN 1

/* When (guid, port) was first missed, or now. */
static double first_missed(const struct rk_unseen *before, uint64_t guid, int port, double now)
{
	for (size_t i = 0; i < before->count; i++)
		if (before->items[i].guid == guid && before->items[i].port == port)
			return before->items[i].since;
	return now;
}

static int note_unseen(struct rk_unseen *unseen, const struct rk_unseen *before, uint64_t guid,
		       int port, double now)
{
	struct rk_unseen_entry *items =
	    rk_array_room(unseen->items, &unseen->capacity, unseen->count, sizeof(*items), 16);

	if (!items)
		return -ENOMEM;
	unseen->items = items;
	items[unseen->count++] =
	    (struct rk_unseen_entry){guid, port, first_missed(before, guid, port, now)};
	return 0;
}

/* Whether the fresh view knows for sure what is behind this node's port now: the port is down,
 * or cabled to a node it reached (which the caller knows is not the one before). */
static bool port_known_in(const struct rk_fabric *fresh, uint64_t guid, int port)
{
	int n = rk_fabric_find_node(fresh, guid);
	const struct rk_fabric_port *p;

	if (n < 0 || port < 0 || port > fresh->nodes[n].nports)
		return false;
	p = &fresh->nodes[n].ports[port];
	return p->present && (p->state == PORT_STATE_DOWN || p->remote_node >= 0);
}

/* A node gone for sure: a neighbour in the fresh view has the port to it down or cabled
 * elsewhere. */
static bool peer_says_gone(const struct rk_fabric *kept, const struct rk_fabric *fresh,
			   const struct rk_fabric_node *node)
{
	for (int p = 1; p <= node->nports; p++) {
		const struct rk_fabric_port *port = &node->ports[p];

		if (port->present && port->remote_node >= 0 &&
		    port_known_in(fresh, kept->nodes[port->remote_node].guid, port->remote_port))
			return true;
	}
	return false;
}

/* Whether port of node guid leads, in the fresh view, to port peer_port of node peer. */
static bool cabled_to(const struct rk_fabric *fresh, uint64_t guid, int port, uint64_t peer,
		      int peer_port)
{
	int n = rk_fabric_find_node(fresh, guid);
	const struct rk_fabric_port *p;

	if (n < 0 || port < 0 || port > fresh->nodes[n].nports)
		return false;
	p = &fresh->nodes[n].ports[port];
	return p->present && p->remote_node >= 0 && p->remote_port == peer_port &&
	       fresh->nodes[p->remote_node].guid == peer;
}

/* A link of the kept view that the fresh one has too, seen from either end. */
static bool link_seen(const struct rk_fabric *fresh, uint64_t guid_a, int port_a, uint64_t guid_b,
		      int port_b)
{
	return cabled_to(fresh, guid_a, port_a, guid_b, port_b) ||
	       cabled_to(fresh, guid_b, port_b, guid_a, port_a);
}

/* Note each kept node the fresh view lacks and no neighbour says is gone. */
static int note_unseen_nodes(const struct rk_fabric *kept, const struct rk_fabric *fresh,
			     const struct rk_unseen *before, struct rk_unseen *unseen, double now)
{
	int err = 0;

	for (size_t i = 0; i < kept->nnodes && !err; i++) {
		const struct rk_fabric_node *node = &kept->nodes[i];

		if (rk_fabric_find_node(fresh, node->guid) < 0 &&
		    !peer_says_gone(kept, fresh, node))
			err = note_unseen(unseen, before, node->guid, 0, now);
	}
	return err;
}

/* Note each kept link between two nodes the fresh view has, that it lacks, with neither end
 * down or cabled elsewhere. */
static int note_unseen_links(const struct rk_fabric *kept, const struct rk_fabric *fresh,
			     const struct rk_unseen *before, struct rk_unseen *unseen, double now)
{
	int err = 0;

	for (size_t i = 0; i < kept->nlinks && !err; i++) {
		const struct rk_fabric_link *l = &kept->links[i];
		uint64_t a = kept->nodes[l->node_a].guid, b = kept->nodes[l->node_b].guid;

		if (rk_fabric_find_node(fresh, a) < 0 || rk_fabric_find_node(fresh, b) < 0 ||
		    link_seen(fresh, a, l->port_a, b, l->port_b) ||
		    port_known_in(fresh, a, l->port_a) || port_known_in(fresh, b, l->port_b))
			continue;
		err = note_unseen(unseen, before, a, l->port_a, now);
	}
	return err;
}

int rk_unseen_update(struct rk_unseen *unseen, const struct rk_fabric *kept,
		     const struct rk_fabric *fresh, double now, double hold_seconds, size_t *held)
{
	struct rk_unseen next = {0};
	int err = note_unseen_nodes(kept, fresh, unseen, &next, now);

	if (!err)
		err = note_unseen_links(kept, fresh, unseen, &next, now);
	if (err) {
		rk_unseen_free(&next);
		return err;
	}
	*held = 0;
	for (size_t i = 0; i < next.count; i++)
		*held += now - next.items[i].since < hold_seconds;
	rk_unseen_free(unseen);
	*unseen = next;
	return 0;
}

void rk_unseen_free(struct rk_unseen *unseen)
{
	free(unseen->items);
	*unseen = (struct rk_unseen){0};
}
