/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the audit reads beyond the discovery, by directed routes: NodeInfo behind switch ports
 * the discovery did not take, SL-to-VL maps and CA ports' P_Key tables. */
#include "rdmakit/audit.h"

#include "rdmakit/array.h"
#include "rdmakit/clock.h"
#include "rdmakit/route.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdlib.h>
#include <string.h>

#define PKEYS_PER_BLOCK 32

/* The feed over what to read: each port's P_Key blocks, then its map; then the twins. */
struct audit_run {
	const struct rk_fabric *fabric;
	const struct rk_route_tree *tree;
	struct rk_audit_reads *reads;
	int local_port;
	size_t next;	/* the feed's next port (then twin: next - nports) */
	unsigned block; /* ... and its next P_Key block, RK_AUDIT_MAX_PKEYS / 32 for the map */
};

/* The directed route to port p of node: the local port itself, or the route to the switch
 * at its other end and out of that switch's port; false when there is none. */
static bool port_path(const struct audit_run *run, int n, int p, uint8_t *path, uint8_t *hops)
{
	const struct rk_fabric_port *port = &run->fabric->nodes[n].ports[p];
	const struct rk_fabric_node *remote;

	if (n == run->fabric->local_node && p == run->local_port) {
		*hops = 0;
		return true;
	}
	if (port->remote_node < 0)
		return false;
	remote = &run->fabric->nodes[port->remote_node];
	if (remote->type != RK_NODE_SWITCH ||
	    !rk_route_tree_path(run->tree, port->remote_node, path, hops) ||
	    *hops >= RK_MAD_MAX_HOPS)
		return false;
	path[++*hops] = (uint8_t)port->remote_port;
	return true;
}

/* P_Key blocks of a port's table: a CA's PartitionCap, a switch port's PartitionEnforcementCap. */
static unsigned pkey_blocks(const struct rk_fabric_node *node)
{
	unsigned entries = node->type == RK_NODE_SWITCH ? node->partition_enforce_cap
			   : node->partition_cap	? node->partition_cap
							: PKEYS_PER_BLOCK;

	if (entries > RK_AUDIT_MAX_PKEYS)
		entries = RK_AUDIT_MAX_PKEYS;
	return (entries + PKEYS_PER_BLOCK - 1) / PKEYS_PER_BLOCK;
}

static void smp_get(struct rk_mad_request *r, uint16_t attr, uint32_t mod, size_t user)
{
	r->route = RK_MAD_DIRECTED;
	r->method = RK_MAD_METHOD_GET;
	r->attr_id = attr;
	r->attr_mod = mod;
	r->user = (void *)(uintptr_t)user;
}

/* The next read of port entry i into r; false when the entry has none left (or no route). */
static bool port_next(struct audit_run *run, size_t i, struct rk_mad_request *r)
{
	struct rk_audit_port *entry = &run->reads->ports[i];
	const struct rk_fabric_node *node = &run->fabric->nodes[entry->node];
	bool is_switch = node->type == RK_NODE_SWITCH;

	if (run->block > RK_AUDIT_MAX_PKEYS / PKEYS_PER_BLOCK)
		return false;
	if (is_switch ? !rk_route_tree_path(run->tree, entry->node, r->path, &r->hops)
		      : !port_path(run, entry->node, entry->port, r->path, &r->hops)) {
		entry->pkey_status = entry->pkey_status == 1 ? 1 : -EHOSTUNREACH;
		entry->sl2vl_status = -EHOSTUNREACH;
		return false;
	}
	if (entry->pkey_status != 1 && run->block < pkey_blocks(node)) {
		/* a switch's: its block of output port's table (IBA 14.2.5.7) */
		smp_get(r, RK_SMP_ATTR_PKEY_TABLE,
			run->block++ | (is_switch ? (uint32_t)entry->port << 16 : 0), i);
		return true;
	}
	run->block = RK_AUDIT_MAX_PKEYS / PKEYS_PER_BLOCK + 1; /* the map is the last read */
	smp_get(r, RK_SMP_ATTR_SL_TO_VL,
		is_switch ? (uint32_t)(entry->in_port << 8 | entry->port) : 0, i);
	return true;
}

static bool twin_next(struct audit_run *run, size_t t, struct rk_mad_request *r)
{
	const struct rk_audit_twin *twin = &run->reads->twins[t];

	if (!rk_route_tree_path(run->tree, twin->node, r->path, &r->hops) ||
	    r->hops >= RK_MAD_MAX_HOPS)
		return false;
	r->path[++r->hops] = (uint8_t)twin->port;
	smp_get(r, RK_SMP_ATTR_NODE_INFO, 0, run->reads->nports + t);
	return true;
}

static bool audit_next(struct rk_mad_request *r, void *ctx)
{
	struct audit_run *run = ctx;
	size_t nports = run->reads->nports, total = nports + run->reads->ntwins;

	for (; run->next < total; run->next++, run->block = 0) {
		memset(r, 0, sizeof(*r));
		if (run->next < nports ? port_next(run, run->next, r)
				       : run->block++ == 0 && twin_next(run, run->next - nports, r))
			return true;
	}
	return false;
}

static void pkeys_done(struct rk_audit_port *entry, const struct rk_mad_request *r)
{
	const uint8_t *data = rk_mad_reply_data(r);
	size_t first = (size_t)(r->attr_mod & 0xffff) * PKEYS_PER_BLOCK;

	if (entry->pkey_status)
		return;
	if (r->status) {
		entry->pkey_status = r->status;
		return;
	}
	for (size_t k = 0; k < PKEYS_PER_BLOCK && first + k < RK_AUDIT_MAX_PKEYS; k++)
		entry->pkeys[first + k] = (uint16_t)(data[2 * k] << 8 | data[2 * k + 1]);
	if (first + PKEYS_PER_BLOCK > entry->npkeys)
		entry->npkeys = first + PKEYS_PER_BLOCK;
}

static void sl2vl_done(struct rk_audit_port *entry, const struct rk_mad_request *r)
{
	const uint8_t *data = rk_mad_reply_data(r);

	entry->sl2vl_status = r->status;
	for (int sl = 0; sl < 16 && !r->status; sl++)
		entry->vl_of_sl[sl] = (data[sl / 2] >> (sl % 2 ? 0 : 4)) & 0xf;
}

static void audit_done(struct rk_mad_request *r, void *ctx)
{
	struct audit_run *run = ctx;
	size_t i = (uintptr_t)r->user;

	if (i >= run->reads->nports) {
		struct rk_audit_twin *twin = &run->reads->twins[i - run->reads->nports];
		void *info = (void *)rk_mad_reply_data(r);

		twin->status = r->status;
		twin->node_guid = r->status ? 0 : mad_get_field64(info, 0, IB_NODE_GUID_F);
		twin->port_guid = r->status ? 0 : mad_get_field64(info, 0, IB_NODE_PORT_GUID_F);
	} else if (r->attr_id == RK_SMP_ATTR_PKEY_TABLE) {
		pkeys_done(&run->reads->ports[i], r);
	} else {
		sl2vl_done(&run->reads->ports[i], r);
	}
}

/* A switch's input port for the map of output port out: its first other ACTIVE port. */
static int input_port(const struct rk_fabric_node *node, int out)
{
	for (int p = 1; p <= node->nports; p++)
		if (p != out && node->ports[p].present && node->ports[p].state == 4)
			return p;
	return out;
}

static int add_port(struct rk_audit_reads *reads, size_t *capacity, int n, int p, int in_port,
		    bool pkeys)
{
	struct rk_audit_port *ports =
	    rk_array_room(reads->ports, capacity, reads->nports, sizeof(*ports), 64);

	if (!ports)
		return -ENOMEM;
	reads->ports = ports;
	ports[reads->nports++] = (struct rk_audit_port){.node = n,
							.port = p,
							.in_port = in_port,
							.pkey_status = pkeys ? 0 : 1,
							.sl2vl_status = -ENOENT};
	return 0;
}

static int add_twin(struct rk_audit_reads *reads, size_t *capacity, int n, int p)
{
	struct rk_audit_twin *twins =
	    rk_array_room(reads->twins, capacity, reads->ntwins, sizeof(*twins), 8);

	if (!twins)
		return -ENOMEM;
	reads->twins = twins;
	twins[reads->ntwins++] = (struct rk_audit_twin){.node = n, .port = p, .status = -ENOENT};
	return 0;
}

/* Whose P_Key tables the partitions check reads: every CA port, and the switch ports that
 * can enforce partitions and lead to a CA. */
static bool has_pkeys_to_check(const struct rk_fabric *fabric, const struct rk_fabric_node *node,
			       int p)
{
	int peer = node->ports[p].remote_node;

	if (node->type == RK_NODE_CA)
		return true;
	return node->type == RK_NODE_SWITCH && node->partition_enforce_cap > 0 && peer >= 0 &&
	       fabric->nodes[peer].type == RK_NODE_CA;
}

/* What to read of the fabric: its ACTIVE ports, and the switch ports that lead to no node. */
static int list_reads(const struct rk_fabric *fabric, bool pkeys, struct rk_audit_reads *reads)
{
	size_t port_cap = 0, twin_cap = 0;
	int err = 0;

	for (size_t n = 0; n < fabric->nnodes && !err; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];
		bool is_switch = node->type == RK_NODE_SWITCH;

		for (int p = 1; p <= node->nports && !err; p++) {
			if (is_switch && rk_fabric_port_unreached(node, p))
				err = add_twin(reads, &twin_cap, (int)n, p);
			else if (node->ports[p].present && node->ports[p].state == 4)
				err = add_port(reads, &port_cap, (int)n, p,
					       is_switch ? input_port(node, p) : 0,
					       pkeys && has_pkeys_to_check(fabric, node, p));
		}
	}
	return err;
}

int rk_audit_read(struct rk_mad_port *port, const struct rk_fabric *fabric,
		  const struct rk_mad_options *options, bool pkeys, struct rk_audit_reads *out)
{
	double start = rk_monotonic_seconds();
	struct rk_route_tree tree;
	struct rk_mad_local local;
	struct rk_mad_queue *queue = NULL;
	struct audit_run run = {.fabric = fabric, .tree = &tree, .reads = out};
	int err = rk_mad_port_local(port, &local);

	*out = (struct rk_audit_reads){0};
	if (err)
		return err;
	run.local_port = local.port;
	err = rk_route_tree_build(fabric, local.port, &tree);
	if (!err)
		err = list_reads(fabric, pkeys, out);
	if (!err)
		err = rk_mad_queue_open(port, options, &queue);
	if (!err)
		err = rk_mad_queue_feed(queue, audit_next, audit_done, &run);
	if (!err)
		err = rk_mad_queue_run(queue, 0);
	if (queue)
		rk_mad_queue_stats(queue, &out->stats);
	rk_mad_queue_close(queue);
	rk_route_tree_free(&tree);
	out->seconds = rk_monotonic_seconds() - start;
	if (err)
		rk_audit_reads_free(out);
	return err;
}

void rk_audit_reads_free(struct rk_audit_reads *reads)
{
	free(reads->ports);
	free(reads->twins);
	*reads = (struct rk_audit_reads){0};
}

/* What the checks compare with: SELF is the port that answers to the local port's SM LID;
 * the SLs in use are SL 0, the SM's and the partitions' sl= flags. */
static void audit_context(struct rk_mad_port *port, const struct rk_fabric *fabric,
			  const struct rk_partitions *partitions, struct rk_audit_context *out)
{
	struct rk_mad_local local;
	int p = 0, n;

	*out = (struct rk_audit_context){.partitions = partitions, .sls_in_use = 1};
	for (size_t i = 0; partitions && i < partitions->count; i++)
		if (partitions->items[i].sl >= 0)
			out->sls_in_use |= (uint16_t)(1u << partitions->items[i].sl);
	if (rk_mad_port_local(port, &local) != 0 || !local.sm_lid)
		return;
	out->sls_in_use |= (uint16_t)(1u << (local.sm_sl & 15));
	n = rk_route_lid_owner(fabric, local.sm_lid, &p);
	out->sm_port_guid = n < 0 ? 0 : fabric->nodes[n].ports[p].guid;
}

/* The multicast reads and checks, counted into summary. */
static int audit_mcast(struct rk_mad_port *port, const struct rk_fabric *fabric,
		       const struct rk_mad_options *options, struct rk_findings *findings,
		       struct rk_audit_summary *summary)
{
	struct rk_audit_mcast mcast;
	struct rk_mad_local local;
	int err = rk_mad_port_local(port, &local);

	if (!err)
		err = rk_audit_mcast_read(port, fabric, options, local.sm_lid, &mcast);
	if (err)
		return err;
	err = rk_audit_mcast_check(fabric, &mcast, findings, &summary->mcast_checked);
	summary->mcast_tables = mcast.nmfts;
	for (size_t i = 0; i < mcast.nmfts; i++)
		summary->mcast_unread += mcast.mfts[i].status != 0;
	summary->mcast_groups = mcast.nmlids;
	summary->mcast_unchecked = mcast.nmlids - mcast.nasked;
	for (size_t k = 0; mcast.membership && k < mcast.nasked * mcast.nca_ports; k++)
		summary->mcast_members += mcast.membership[k] == RK_MEMBER_FULL;
	rk_audit_mcast_free(&mcast);
	return err;
}

int rk_audit_run(struct rk_mad_port *port, const struct rk_fabric *fabric,
		 const struct rk_mad_options *options, const struct rk_partitions *partitions,
		 struct rk_findings *findings, struct rk_audit_summary *summary)
{
	struct rk_audit_summary unused;
	struct rk_audit_reads reads;
	struct rk_audit_context context;
	int err = rk_audit_fabric(fabric, findings);

	summary = summary ? summary : &unused;
	*summary = (struct rk_audit_summary){0};
	if (!err)
		err = rk_audit_read(port, fabric, options, partitions != NULL, &reads);
	if (err)
		return err;
	audit_context(port, fabric, partitions, &context);
	err = rk_audit_tables(fabric, &reads, &context, findings);
	rk_audit_reads_free(&reads);
	return err ? err : audit_mcast(port, fabric, options, findings, summary);
}
