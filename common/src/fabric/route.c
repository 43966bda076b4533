/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Reading every switch's linear forwarding table, and following one route through them. */
#include "rdmakit/route.h"

#include "rdmakit/array.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdlib.h>
#include <string.h>

static int index_links(const struct rk_fabric *fabric, struct rk_routes *out)
{
	size_t total = 0;

	out->port_base = calloc(fabric->nnodes ? fabric->nnodes : 1, sizeof(*out->port_base));
	for (size_t n = 0; out->port_base && n < fabric->nnodes; n++) {
		out->port_base[n] = total;
		total += (size_t)fabric->nodes[n].nports + 1;
	}
	out->link_at = out->port_base ? malloc((total ? total : 1) * sizeof(*out->link_at)) : NULL;
	if (!out->link_at)
		return -ENOMEM;
	out->nlink_at = total;
	for (size_t i = 0; i < total; i++)
		out->link_at[i] = -1;
	for (size_t i = 0; i < fabric->nlinks; i++) {
		const struct rk_fabric_link *l = &fabric->links[i];

		out->link_at[out->port_base[l->node_a] + (size_t)l->port_a] = (int)i;
		out->link_at[out->port_base[l->node_b] + (size_t)l->port_b] = (int)i;
	}
	return 0;
}

int rk_routes_init(const struct rk_fabric *fabric, struct rk_routes *out)
{
	size_t switches = 0;

	memset(out, 0, sizeof(*out));
	for (size_t n = 0; n < fabric->nnodes; n++)
		switches += fabric->nodes[n].type == RK_NODE_SWITCH;
	out->nnodes = fabric->nnodes;
	out->tables = calloc(switches ? switches : 1, sizeof(*out->tables));
	out->table_of = calloc(fabric->nnodes ? fabric->nnodes : 1, sizeof(*out->table_of));
	if (!out->tables || !out->table_of || index_links(fabric, out)) {
		rk_routes_free(out);
		return -ENOMEM;
	}
	for (size_t n = 0; n < fabric->nnodes; n++) {
		out->table_of[n] = -1;
		if (fabric->nodes[n].type != RK_NODE_SWITCH)
			continue;
		out->table_of[n] = (int)out->count;
		out->tables[out->count++] =
		    (struct rk_route_table){.node = (int)n, .status = -ENOENT};
	}
	return 0;
}

int rk_route_table_size(struct rk_route_table *table, unsigned top)
{
	uint8_t *ports;

	if (top > RK_UNICAST_LID_MAX)
		return -ERANGE;
	ports = malloc((size_t)top + 1);
	if (!ports)
		return -ENOMEM;
	memset(ports, RK_ROUTE_NO_PORT, (size_t)top + 1);
	free(table->ports);
	table->ports = ports;
	table->top = (uint16_t)top;
	return 0;
}

void rk_routes_free(struct rk_routes *routes)
{
	for (size_t i = 0; routes->tables && i < routes->count; i++)
		free(routes->tables[i].ports);
	free(routes->tables);
	free(routes->table_of);
	free(routes->port_base);
	free(routes->link_at);
	memset(routes, 0, sizeof(*routes));
}

const struct rk_route_table *rk_routes_table(const struct rk_routes *routes, int node)
{
	const struct rk_route_table *table;

	if (node < 0 || (size_t)node >= routes->nnodes || routes->table_of[node] < 0)
		return NULL;
	table = &routes->tables[routes->table_of[node]];
	return table->status == 0 ? table : NULL;
}

int rk_routes_link_at(const struct rk_routes *routes, int node, int port)
{
	size_t end;

	if (node < 0 || (size_t)node >= routes->nnodes || port < 0)
		return -1;
	end = (size_t)node + 1 < routes->nnodes ? routes->port_base[node + 1] : routes->nlink_at;
	if (routes->port_base[node] + (size_t)port >= end)
		return -1;
	return routes->link_at[routes->port_base[node] + (size_t)port];
}

/* ---- directed-route paths along the discovered links ---------------------------------- */

/* A port a directed-route SMP can leave by: its link is up and leads to a node. */
static bool port_usable(const struct rk_fabric_port *port)
{
	return port->present && port->state >= 2 && port->remote_node >= 0;
}

/* BFS from the local node; parent[n] and via[n] (the parent's out port) give each path. */
/* rotate: each node's ports are looked at from port 1 + rotate % nports on, so that another
 * rotate may take another of the shortest ways. */
static void find_paths(const struct rk_fabric *fabric, int local_port, unsigned rotate, int *parent,
		       int *via, int *queue)
{
	size_t head = 0, tail = 0;
	int start = fabric->local_node;

	for (size_t n = 0; n < fabric->nnodes; n++)
		parent[n] = -2;
	if (start < 0 || (size_t)start >= fabric->nnodes)
		return;
	parent[start] = -1;
	queue[tail++] = start;
	while (head < tail) {
		int n = queue[head++];
		const struct rk_fabric_node *node = &fabric->nodes[n];

		if (n != start && node->type != RK_NODE_SWITCH)
			continue; /* only switches forward */
		for (int k = 0; k < node->nports; k++) {
			int p = 1 + (int)((k + rotate) % (unsigned)node->nports);
			const struct rk_fabric_port *port = &node->ports[p];

			if (n == start && node->type != RK_NODE_SWITCH && local_port &&
			    p != local_port)
				continue;
			if (!port_usable(port) || parent[port->remote_node] != -2)
				continue;
			parent[port->remote_node] = n;
			via[port->remote_node] = p;
			queue[tail++] = port->remote_node;
		}
	}
}

/* The directed route to node into path[1..]; false when there is none or it is too long. */
static bool dr_path(const int *parent, const int *via, int node, uint8_t *path, uint8_t *hops)
{
	uint8_t reversed[RK_MAD_MAX_HOPS + 1];
	int h = 0;

	if (parent[node] == -2)
		return false;
	for (int n = node; parent[n] >= 0; n = parent[n]) {
		if (h >= RK_MAD_MAX_HOPS)
			return false;
		reversed[h++] = (uint8_t)via[n];
	}
	for (int i = 0; i < h; i++)
		path[i + 1] = reversed[h - 1 - i];
	*hops = (uint8_t)h;
	return true;
}

/* The tree of routes from the local port, each node's ports looked at from 1 + rotate on. */
static int build_tree(const struct rk_fabric *fabric, int local_port, unsigned rotate,
		      struct rk_route_tree *out)
{
	int *scratch = malloc((3 * fabric->nnodes + 1) * sizeof(*scratch));

	*out = (struct rk_route_tree){0};
	if (!scratch)
		return -ENOMEM;
	find_paths(fabric, local_port, rotate, scratch, scratch + fabric->nnodes,
		   scratch + 2 * fabric->nnodes);
	*out = (struct rk_route_tree){scratch, scratch + fabric->nnodes, fabric->nnodes};
	return 0;
}

int rk_route_tree_build(const struct rk_fabric *fabric, int local_port, struct rk_route_tree *out)
{
	return build_tree(fabric, local_port, 0, out);
}

bool rk_route_tree_path(const struct rk_route_tree *tree, int node, uint8_t *path, uint8_t *hops)
{
	return node >= 0 && (size_t)node < tree->count &&
	       dr_path(tree->parent, tree->via, node, path, hops);
}

void rk_route_tree_free(struct rk_route_tree *tree)
{
	free(tree->parent);
	*tree = (struct rk_route_tree){0};
}

int rk_route_directed(const struct rk_fabric *fabric, int local_port, unsigned rotate, int node,
		      uint8_t *path, uint8_t *hops)
{
	struct rk_route_tree tree;
	int err = build_tree(fabric, local_port, rotate, &tree);

	if (!err && !rk_route_tree_path(&tree, node, path, hops))
		err = -ENOENT;
	rk_route_tree_free(&tree);
	return err;
}

/* ---- reading --------------------------------------------------------------------------- */

struct read_run {
	const struct rk_fabric *fabric;
	struct rk_routes *routes;
	const int *parent, *via;
	size_t table;	/* the feed's next table */
	unsigned block; /* ... and its next block */
};

static void smp_request(struct rk_mad_request *r, const struct read_run *run, size_t t,
			uint16_t attr, uint32_t mod)
{
	memset(r, 0, sizeof(*r));
	r->route = RK_MAD_DIRECTED;
	r->method = RK_MAD_METHOD_GET;
	r->attr_id = attr;
	r->attr_mod = mod;
	r->user = (void *)(uintptr_t)t;
	dr_path(run->parent, run->via, run->routes->tables[t].node, r->path, &r->hops);
}

static void switch_info_done(struct rk_mad_request *r, void *ctx)
{
	struct read_run *run = ctx;
	struct rk_route_table *table = &run->routes->tables[(uintptr_t)r->user];
	const struct rk_fabric_node *node = &run->fabric->nodes[table->node];
	unsigned top;

	table->status = r->status;
	if (r->status)
		return;
	top = mad_get_field((void *)rk_mad_reply_data(r), 0, IB_SW_LINEAR_FDB_TOP_F);
	table->status = rk_route_table_size(table, top);
	if (table->status == -ERANGE)
		rk_log(RK_LOG_WARNING,
		       "switch %s: LinearFDBTop %u is past the unicast LID range (0x%x): its "
		       "table is not read",
		       node->name, top, RK_UNICAST_LID_MAX);
}

static void block_done(struct rk_mad_request *r, void *ctx)
{
	struct read_run *run = ctx;
	struct rk_route_table *table = &run->routes->tables[(uintptr_t)r->user];
	size_t first = (size_t)r->attr_mod * RK_ROUTE_BLOCK, n = RK_ROUTE_BLOCK;

	if (table->status)
		return;
	if (r->status) {
		table->status = r->status;
		return;
	}
	if (first + n > (size_t)table->top + 1)
		n = (size_t)table->top + 1 - first;
	memcpy(table->ports + first, rk_mad_reply_data(r), n);
}

/* The feed of SwitchInfo: each switch a directed route reaches (the others stay -ENOENT). */
static bool switch_info_next(struct rk_mad_request *r, void *ctx)
{
	struct read_run *run = ctx;

	while (run->table < run->routes->count) {
		size_t t = run->table++;

		if (run->parent[run->routes->tables[t].node] != -2) {
			smp_request(r, run, t, RK_SMP_ATTR_SWITCH_INFO, 0);
			return true;
		}
	}
	return false;
}

/* The feed of forwarding table blocks: every block of each switch whose SwitchInfo was read. */
static bool block_next(struct rk_mad_request *r, void *ctx)
{
	struct read_run *run = ctx;

	for (; run->table < run->routes->count; run->table++, run->block = 0) {
		const struct rk_route_table *table = &run->routes->tables[run->table];

		if (table->status == 0 && run->block <= table->top / RK_ROUTE_BLOCK) {
			smp_request(r, run, run->table, RK_SMP_ATTR_LFT, run->block++);
			return true;
		}
	}
	return false;
}

/* SwitchInfo of every switch, then the blocks of its table. */
static int read_switches(struct rk_mad_queue *queue, struct read_run *run)
{
	int err;

	rk_mad_queue_feed(queue, switch_info_next, switch_info_done, run);
	err = rk_mad_queue_run(queue, 0);
	run->table = 0;
	if (!err)
		rk_mad_queue_feed(queue, block_next, block_done, run);
	return err ? err : rk_mad_queue_run(queue, 0);
}

static int read_tables(struct rk_mad_port *port, const struct rk_fabric *fabric,
		       const struct rk_mad_options *options, struct rk_routes *out, int *scratch)
{
	struct rk_mad_local local;
	struct rk_mad_queue *queue;
	struct read_run run = {.fabric = fabric, .routes = out};
	int *parent = scratch, *via = scratch + fabric->nnodes;
	int err = rk_mad_port_local(port, &local);

	if (err)
		return err;
	err = rk_mad_queue_open(port, options, &queue);
	if (err)
		return err;
	find_paths(fabric, local.port, 0, parent, via, scratch + 2 * fabric->nnodes);
	run.parent = parent;
	run.via = via;
	err = read_switches(queue, &run);
	rk_mad_queue_stats(queue, &out->stats);
	rk_mad_queue_close(queue);
	return err;
}

int rk_routes_read(struct rk_mad_port *port, const struct rk_fabric *fabric,
		   const struct rk_mad_options *options, struct rk_routes *out)
{
	double start = rk_monotonic_seconds();
	int *scratch;
	int err = rk_routes_init(fabric, out);

	if (err)
		return err;
	scratch = malloc((3 * fabric->nnodes + 1) * sizeof(*scratch));
	err = scratch ? read_tables(port, fabric, options, out, scratch) : -ENOMEM;
	free(scratch);
	out->seconds = rk_monotonic_seconds() - start;
	if (err)
		rk_routes_free(out);
	return err;
}

/* ---- following a route ----------------------------------------------------------------- */

/* Whether lid is one of a port's LIDs (base LID .. base + 2^LMC - 1). */
static bool port_has_lid(const struct rk_fabric_port *port, uint16_t lid)
{
	unsigned lmc = port->lmc > 7 ? 7 : port->lmc;

	return rk_lid_is_unicast(port->lid) && lid >= port->lid && lid < port->lid + (1u << lmc);
}

int rk_route_lid_owner(const struct rk_fabric *fabric, uint16_t lid, int *port)
{
	for (size_t n = 0; lid && n < fabric->nnodes; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];
		int last = node->type == RK_NODE_SWITCH ? 0 : node->nports;

		for (int p = node->type == RK_NODE_SWITCH ? 0 : 1; p <= last; p++)
			if (node->ports[p].present && port_has_lid(&node->ports[p], lid)) {
				if (port)
					*port = p;
				return (int)n;
			}
	}
	return -1;
}

/* A node's LID as a destination: the port's given, a switch's port 0, a CA's first active;
 * 0 when it has no unicast LID. */
static uint16_t node_lid(const struct rk_fabric_node *node, int port)
{
	if (node->type == RK_NODE_SWITCH)
		return node->lid;
	if (port >= 1 && port <= node->nports && rk_lid_is_unicast(node->ports[port].lid))
		return node->ports[port].lid;
	for (int p = 1; p <= node->nports; p++)
		if (node->ports[p].present && rk_lid_is_unicast(node->ports[p].lid) &&
		    node->ports[p].state == 4)
			return node->ports[p].lid;
	return 0;
}

int rk_route_guid_owner(const struct rk_fabric *fabric, uint64_t guid, int *port)
{
	for (size_t n = 0; n < fabric->nnodes; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];

		*port = 0;
		if (node->guid == guid)
			return (int)n;
		for (int p = 0; p <= node->nports; p++)
			if (node->ports[p].present && node->ports[p].guid == guid) {
				*port = p;
				return (int)n;
			}
	}
	return -1;
}

static int find_name(const struct rk_fabric *fabric, const char *name)
{
	for (size_t n = 0; n < fabric->nnodes; n++)
		if (strcmp(fabric->nodes[n].name, name) == 0)
			return (int)n;
	for (size_t n = 0; n < fabric->nnodes; n++)
		if (strcmp(fabric->nodes[n].description, name) == 0)
			return (int)n;
	return -1;
}

int rk_route_resolve(const struct rk_fabric *fabric, const char *text, int *node, uint16_t *lid)
{
	bool hex = strncmp(text, "0x", 2) == 0 || strncmp(text, "0X", 2) == 0;
	size_t digits = strspn(text + (hex ? 2 : 0), hex ? "0123456789abcdefABCDEF" : "0123456789");
	int port = 0;

	*node = -1;
	*lid = 0;
	if (digits && text[(hex ? 2 : 0) + digits] == '\0') {
		unsigned long long value = strtoull(text, NULL, hex ? 16 : 10);

		if (hex && digits > 4) {
			*node = rk_route_guid_owner(fabric, (uint64_t)value, &port);
		} else if (value >= 1 && value <= RK_UNICAST_LID_MAX) {
			*lid = (uint16_t)value;
			*node = rk_route_lid_owner(fabric, *lid, NULL);
			return *node >= 0 ? 0 : -ENOENT;
		}
	} else {
		*node = find_name(fabric, text);
	}
	if (*node < 0)
		return -ENOENT;
	*lid = node_lid(&fabric->nodes[*node], port);
	return *lid ? 0 : -ENOENT;
}

static void add_hop(struct rk_route_path *path, int node, int out_port, int link)
{
	path->hops[path->nhops++] = (struct rk_route_hop){node, out_port, link};
}

/* The out port of lid at a switch; RK_ROUTE_NO_PORT for a hole. */
static int table_port(const struct rk_route_table *table, uint16_t lid)
{
	return lid > table->top ? RK_ROUTE_NO_PORT : table->ports[lid];
}

/* Leave node by out port: the next node, or -1 (a dead end). */
static int take_port(const struct rk_fabric *fabric, const struct rk_routes *routes,
		     struct rk_route_path *path, int node, int out)
{
	const struct rk_fabric_node *n = &fabric->nodes[node];
	int link = rk_routes_link_at(routes, node, out);

	add_hop(path, node, out, out <= n->nports ? link : -1);
	if (out > n->nports || !n->ports[out].present || n->ports[out].state != 4 ||
	    n->ports[out].remote_node < 0)
		return -1;
	if (link >= 0 && !path->degraded && rk_link_degraded(&fabric->links[link])) {
		path->degraded = true;
		path->degraded_link = link;
	}
	return n->ports[out].remote_node;
}

/* Whether a CA reached through its port in_port owns lid. */
static bool ca_reached(const struct rk_fabric *fabric, int node, int in_port, uint16_t lid)
{
	const struct rk_fabric_node *n = &fabric->nodes[node];

	return in_port >= 1 && in_port <= n->nports && port_has_lid(&n->ports[in_port], lid);
}

/* One switch's step; returns the next node or -1 when the route ended (path->end set). */
static int switch_step(const struct rk_fabric *fabric, const struct rk_routes *routes,
		       struct rk_route_path *path, int node, uint16_t lid)
{
	const struct rk_route_table *table = rk_routes_table(routes, node);
	int out, next;

	path->end_node = node;
	if (port_has_lid(&fabric->nodes[node].ports[0], lid)) {
		add_hop(path, node, 0, -1);
		path->end = RK_ROUTE_REACHES;
		return -1;
	}
	if (!table) {
		add_hop(path, node, -1, -1);
		path->end = RK_ROUTE_UNKNOWN;
		return -1;
	}
	out = table_port(table, lid);
	if (out == RK_ROUTE_NO_PORT) {
		add_hop(path, node, RK_ROUTE_NO_PORT, -1);
		path->end = RK_ROUTE_HOLE;
		return -1;
	}
	next = out == 0 ? -1 : take_port(fabric, routes, path, node, out);
	if (out == 0)
		add_hop(path, node, 0, -1);
	if (next < 0)
		path->end = RK_ROUTE_DEAD_END;
	return next;
}

/* Where a route ends at a node that is not a switch. */
static void arrive_at(const struct rk_fabric *fabric, struct rk_route_path *path, int node,
		      int in_port, uint16_t lid)
{
	path->end_node = node;
	add_hop(path, node, 0, -1);
	path->end = ca_reached(fabric, node, in_port, lid) ? RK_ROUTE_REACHES : RK_ROUTE_DEAD_END;
}

static bool seen_before(const struct rk_route_path *path, int node)
{
	for (size_t i = 0; i < path->nhops; i++)
		if (path->hops[i].node == node)
			return true;
	return false;
}

/* From a CA: out through its port that has a LID (the first active one) to its switch. */
static int leave_ca(const struct rk_fabric *fabric, const struct rk_routes *routes,
		    struct rk_route_path *path, int node, uint16_t lid)
{
	const struct rk_fabric_node *n = &fabric->nodes[node];

	for (int p = 1; p <= n->nports; p++)
		if (port_has_lid(&n->ports[p], lid)) {
			path->end_node = node;
			add_hop(path, node, 0, -1);
			path->end = RK_ROUTE_REACHES;
			return -1;
		}
	for (int p = 1; p <= n->nports; p++)
		if (n->ports[p].present && n->ports[p].state == 4)
			return take_port(fabric, routes, path, node, p);
	path->end_node = node;
	add_hop(path, node, -1, -1);
	path->end = RK_ROUTE_DEAD_END;
	return -1;
}

void rk_route_follow(const struct rk_fabric *fabric, const struct rk_routes *routes, int node,
		     uint16_t lid, struct rk_route_path *path)
{
	path->nhops = 0; /* hops[] is written as it goes: a check follows many routes */
	path->end = RK_ROUTE_UNKNOWN;
	path->degraded = false;
	path->degraded_link = -1;
	path->end_node = node;
	if (fabric->nodes[node].type != RK_NODE_SWITCH)
		node = leave_ca(fabric, routes, path, node, lid);
	while (node >= 0) {
		int in_port = path->nhops ? fabric->nodes[path->hops[path->nhops - 1].node]
						.ports[path->hops[path->nhops - 1].out_port]
						.remote_port
					  : 0;

		if (fabric->nodes[node].type != RK_NODE_SWITCH) {
			arrive_at(fabric, path, node, in_port, lid);
			return;
		}
		if (seen_before(path, node) || path->nhops >= RK_ROUTE_MAX_HOPS) {
			path->end_node = node;
			path->end = RK_ROUTE_LOOP;
			return;
		}
		node = switch_step(fabric, routes, path, node, lid);
	}
}

const char *rk_route_end_name(enum rk_route_end end)
{
	static const char *const names[] = {
	    [RK_ROUTE_REACHES] = "reaches",
	    [RK_ROUTE_HOLE] = "hole",
	    [RK_ROUTE_LOOP] = "loop",
	    [RK_ROUTE_DEAD_END] = "dead end",
	};

	return RK_NAME_IN(names, end, "unknown");
}
