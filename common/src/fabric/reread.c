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
	int local_port; /* directed routes from this local port; 0: by LID */
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

/* A directed route from the local port to node into r (route, path, hops), a random one of
 * the shortest; false when there is none. */
static bool directed_to(const struct rk_fabric *fabric, int local_port, int node,
			struct rk_mad_request *r)
{
	if (rk_route_directed(fabric, local_port, (unsigned)rand(), node, r->path, &r->hops) != 0)
		return false;
	r->route = RK_MAD_DIRECTED;
	return true;
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
	if (r->local_port && !directed_to(r->fabric, r->local_port, c->peer_node, &request))
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
		     const struct rk_notice *notice, int local_port, rk_reread_fn fn, void *ctx)
{
	int node = rk_route_lid_owner(fabric, notice->lid, NULL);
	const struct rk_fabric_node *sw = node >= 0 ? &fabric->nodes[node] : NULL;
	struct rk_mad_request route = {0};
	struct reread *r;

	if (sw && local_port && !directed_to(fabric, local_port, node, &route))
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
			     .local_port = local_port,
			     .node = node,
			     .status = -EIO,
			     .fn = fn,
			     .ctx = ctx};
	r->open = 1; /* held until every request is queued */
	for (int p = 1; p <= sw->nports; p++) {
		struct rk_mad_request request = port_info_request(sw->lid, p, node);

		if (local_port) { /* the same directed route for each port */
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
