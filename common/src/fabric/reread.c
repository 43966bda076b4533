/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Targeted reads after a notice: a switch's ports after its trap 128, instead of a discovery. */
#include "rdmakit/fabric.h"
#include "rdmakit/notice.h"
#include "rdmakit/route.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One switch being read: what changed so far, and how many answers are still to come. */
struct reread {
	struct rk_notice notice;
	struct rk_fabric *fabric;
	struct rk_mad_queue *queue;
	struct rk_reread_from from; /* directed routes from there (node -1: by LID) */
	int node;
	size_t open, failed, asked;
	int status;
	rk_reread_fn fn;
	void *ctx;
	size_t nchanges;
	struct rk_port_change changes[]; /* one a port and one a peer at most */
};

static void finish(struct reread *r)
{
	int status = !r->asked ? -ENOENT : r->failed == r->asked ? r->status : 0;

	r->fn(&r->notice, r->changes, r->nchanges, status, r->ctx);
	free(r);
}

/* Breadth first from the local port over the links that are up, each node's ports looked at
 * from a random one on (so that two calls may take two equally short ways); parent[n] is -1
 * for the local node, -2 for one not reached. */
static void walk_links(const struct rk_fabric *fabric, const struct rk_reread_from *from,
		       int *parent, int *via, int *queue)
{
	size_t head = 0, tail = 0;

	for (size_t n = 0; n < fabric->nnodes; n++)
		parent[n] = -2;
	parent[from->node] = -1;
	queue[tail++] = from->node;
	while (head < tail) {
		int n = queue[head++];
		const struct rk_fabric_node *node = &fabric->nodes[n];
		int first = node->nports ? rand() % node->nports : 0;

		for (int k = 0; k < node->nports; k++) {
			int p = 1 + (first + k) % node->nports;
			const struct rk_fabric_port *port = &node->ports[p];

			if (n == from->node && p != from->port)
				continue; /* out through the local port only */
			if (!port->present || port->remote_node < 0 || port->state <= 1 ||
			    parent[port->remote_node] != -2)
				continue;
			parent[port->remote_node] = n;
			via[port->remote_node] = p;
			queue[tail++] = port->remote_node;
		}
	}
}

/* A directed route from the local port to node into r: false when there is none. */
static bool directed_to(const struct rk_fabric *fabric, const struct rk_reread_from *from, int node,
			struct rk_mad_request *r)
{
	int *scratch = malloc(3 * fabric->nnodes * sizeof(*scratch));
	int *parent = scratch, *via = scratch + fabric->nnodes, hops = 0;
	uint8_t reversed[RK_MAD_MAX_HOPS + 1];
	bool found = false;

	if (!scratch)
		return false;
	walk_links(fabric, from, parent, via, scratch + 2 * fabric->nnodes);
	for (int n = node; parent[n] >= 0 && hops < RK_MAD_MAX_HOPS; n = parent[n])
		reversed[hops++] = (uint8_t)via[n];
	if (parent[node] != -2 && node != from->node && hops < RK_MAD_MAX_HOPS) {
		for (int h = 0; h < hops; h++)
			r->path[h + 1] = reversed[hops - 1 - h];
		r->hops = (uint8_t)hops;
		r->route = RK_MAD_DIRECTED;
		found = true;
	}
	free(scratch);
	return found;
}

static struct rk_mad_request port_info_request(uint16_t lid, int port, int node)
{
	return (struct rk_mad_request){.route = RK_MAD_LID,
				       .mgmt_class = RK_MAD_CLASS_SMP,
				       .lid = lid,
				       .method = RK_MAD_METHOD_GET,
				       .attr_id = RK_SMP_ATTR_PORT_INFO,
				       .attr_mod = (uint32_t)port,
				       .user = (void *)(intptr_t)node};
}

static void port_read(struct rk_mad_request *request, void *ctx);

/* A switch port that changed leads to another switch: that end changed too (its own trap may
 * be lost, or come later: its read then finds nothing new). Read it with the same reread. */
static void read_peer(struct reread *r, const struct rk_port_change *c)
{
	const struct rk_fabric_node *peer;
	struct rk_mad_request request;

	if (c->peer_node < 0)
		return;
	peer = &r->fabric->nodes[c->peer_node];
	if (peer->type != RK_NODE_SWITCH || !peer->lid || c->peer_port < 1 ||
	    c->peer_port > peer->nports)
		return;
	request = port_info_request(peer->lid, c->peer_port, c->peer_node);
	if (r->from.node >= 0 && !directed_to(r->fabric, &r->from, c->peer_node, &request))
		return;
	if (rk_mad_queue_add(r->queue, &request, port_read, r) == 0)
		r->open++;
}

static void port_read(struct rk_mad_request *request, void *ctx)
{
	struct reread *r = ctx;
	int node = (int)(intptr_t)request->user;
	struct rk_fabric_port *port = &r->fabric->nodes[node].ports[request->attr_mod];
	void *data = (void *)rk_mad_reply_data(request);
	struct rk_port_change *c;
	int now;

	if (request->status) {
		r->failed += node == r->node;
		r->status = request->status;
	} else if ((now = (int)mad_get_field(data, 0, IB_PORT_STATE_F)) != port->state) {
		c = &r->changes[r->nchanges++];
		*c = (struct rk_port_change){.node = node,
					     .port = (int)request->attr_mod,
					     .was = port->state,
					     .now = now,
					     .peer_node = port->remote_node,
					     .peer_port = port->remote_port};
		port->state = now;
		port->phys_state = (int)mad_get_field(data, 0, IB_PORT_PHYS_STATE_F);
		if (node == r->node)
			read_peer(r, c);
	}
	if (--r->open == 0)
		finish(r);
}

int rk_reread_switch(struct rk_mad_queue *queue, struct rk_fabric *fabric,
		     const struct rk_notice *notice, const struct rk_reread_from *from,
		     rk_reread_fn fn, void *ctx)
{
	int node = rk_route_lid_owner(fabric, notice->lid, NULL);
	const struct rk_fabric_node *sw = node >= 0 ? &fabric->nodes[node] : NULL;
	struct rk_mad_request route = {0};
	struct reread *r;

	if (sw && from && !directed_to(fabric, from, node, &route))
		sw = NULL;
	if (!sw || sw->type != RK_NODE_SWITCH || sw->nports < 1) {
		fn(notice, NULL, 0, -ENOENT, ctx);
		return 0;
	}
	r = calloc(1, sizeof(*r) + 2 * (size_t)sw->nports * sizeof(r->changes[0]));
	if (!r)
		return -ENOMEM;
	*r = (struct reread){.notice = *notice,
			     .fabric = fabric,
			     .queue = queue,
			     .from = from ? *from : (struct rk_reread_from){.node = -1},
			     .node = node,
			     .status = -EIO,
			     .fn = fn,
			     .ctx = ctx};
	r->open = 1; /* held until every request is queued */
	for (int p = 1; p <= sw->nports; p++) {
		struct rk_mad_request request = port_info_request(sw->lid, p, node);

		if (from) { /* the same directed route for each port */
			request.route = RK_MAD_DIRECTED;
			request.hops = route.hops;
			memcpy(request.path, route.path, sizeof(request.path));
		}
		if (!sw->ports[p].present || rk_mad_queue_add(queue, &request, port_read, r) != 0)
			continue;
		r->open++;
		r->asked++;
	}
	if (--r->open == 0)
		finish(r);
	return 0;
}
