/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the multicast audit reads: the switches' multicast forwarding tables, by directed
 * routes, and the SA's members of each MLID they forward, one MCMemberRecord Get per group and
 * CA port (a multi-record GetTable needs RMPP, which the simulator does not carry). */
#include "rdmakit/audit.h"

#include "rdmakit/array.h"
#include "rdmakit/limits.h"
#include "rdmakit/route.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <infiniband/umad_sa_mcm.h>
#include <stdlib.h>
#include <string.h>

#define MFT_MAX_BLOCKS	 512 /* the attribute modifier's 9-bit block number */
#define JOIN_FULL_MEMBER 1
#define USER_TABLE_SHIFT 16
#define USER_BLOCK_SHIFT 4

/* The feeds' positions: tables (block, word), then members (group, CA port). */
struct mcast_run {
	struct rk_mad_queue *queue; /* every read's, a feed after another */
	const struct rk_fabric *fabric;
	const struct rk_route_tree *tree;
	struct rk_audit_mcast *out;
	unsigned *from, *to; /* each table's blocks to read this round: [from, to) */
	size_t table;
	unsigned block, word;
	size_t group, ca;
	bool others; /* the second pass: other join states, for ports a table leads to */
	uint16_t sa_lid;
};

static unsigned table_words(const struct rk_fabric_node *node)
{
	return (unsigned)node->nports / RK_MFT_PORTS_PER_MASK + 1;
}

/* The blocks a table's MulticastFDBTop says are in use; -1 when the switch keeps no top. */
static int blocks_by_top(const struct rk_fabric_node *node)
{
	unsigned cap = node->mcast_fdb_cap / RK_MFT_MLIDS_PER_BLOCK, top = node->mcast_fdb_top;

	if (!top)
		return -1;
	if (top < RK_MLID_FIRST)
		return 0; /* 0xbfff: none in use */
	top = (top - RK_MLID_FIRST) / RK_MFT_MLIDS_PER_BLOCK + 1;
	return (int)(top < cap ? top : cap);
}

static unsigned cap_blocks(const struct rk_fabric_node *node)
{
	unsigned cap = node->mcast_fdb_cap / RK_MFT_MLIDS_PER_BLOCK;

	return cap < MFT_MAX_BLOCKS ? cap : MFT_MAX_BLOCKS;
}

/* Port masks the tables hold once grown to this round's blocks. */
static size_t entries_wanted(const struct mcast_run *run)
{
	size_t total = 0;

	for (size_t i = 0; i < run->out->nmfts; i++)
		total += (size_t)run->to[i] * RK_MFT_MLIDS_PER_BLOCK * run->out->mfts[i].words;
	return total;
}

/* Grow each table to its round's last block, zeroed. Past RK_AUDIT_MFT_ENTRIES_MAX in all (a
 * fabric of switches whose every block holds entries), the tables still to grow are not read
 * (-EFBIG: the multicast checks are left out). */
static int grow_tables(struct mcast_run *run)
{
	bool too_big = entries_wanted(run) > RK_AUDIT_MFT_ENTRIES_MAX;

	for (size_t i = 0; i < run->out->nmfts; i++) {
		struct rk_audit_mft *t = &run->out->mfts[i];
		size_t had = (size_t)t->blocks * RK_MFT_MLIDS_PER_BLOCK * t->words;
		size_t entries = (size_t)run->to[i] * RK_MFT_MLIDS_PER_BLOCK * t->words;
		uint16_t *masks;

		if (run->to[i] <= t->blocks)
			continue;
		if (too_big) {
			t->status = -EFBIG;
			run->to[i] = run->from[i] = t->blocks;
			continue;
		}
		masks = realloc(t->masks, entries * sizeof(*masks));
		if (!masks)
			return -ENOMEM;
		memset(masks + had, 0, (entries - had) * sizeof(*masks));
		t->masks = masks;
		t->blocks = run->to[i];
	}
	return 0;
}

static bool table_next(struct rk_mad_request *r, void *ctx)
{
	struct mcast_run *run = ctx;

	for (; run->table < run->out->nmfts; run->table++, run->block = 0, run->word = 0) {
		struct rk_audit_mft *t = &run->out->mfts[run->table];
		unsigned block = run->from[run->table] + run->block;

		if (block >= run->to[run->table])
			continue;
		memset(r, 0, sizeof(*r));
		if (!rk_route_tree_path(run->tree, t->node, r->path, &r->hops)) {
			t->status = -EHOSTUNREACH;
			continue;
		}
		r->route = RK_MAD_DIRECTED;
		r->method = RK_MAD_METHOD_GET;
		r->attr_id = RK_SMP_ATTR_MFT;
		r->attr_mod = (uint32_t)run->word << 28 | block;
		r->user = (void *)(uintptr_t)(run->table << USER_TABLE_SHIFT |
					      block << USER_BLOCK_SHIFT | run->word);
		if (++run->word == t->words) {
			run->word = 0;
			run->block++;
		}
		return true;
	}
	return false;
}

static void table_done(struct rk_mad_request *r, void *ctx)
{
	struct mcast_run *run = ctx;
	uintptr_t user = (uintptr_t)r->user;
	struct rk_audit_mft *t = &run->out->mfts[user >> USER_TABLE_SHIFT];
	unsigned block = (unsigned)(user >> USER_BLOCK_SHIFT) & (MFT_MAX_BLOCKS - 1);
	unsigned word = (unsigned)user & (RK_MFT_PORTS_PER_MASK - 1);
	const uint8_t *data = rk_mad_reply_data(r);

	if (r->status) {
		t->status = t->status ? t->status : r->status;
		return;
	}
	for (size_t k = 0; k < RK_MFT_MLIDS_PER_BLOCK; k++)
		t->masks[((size_t)block * RK_MFT_MLIDS_PER_BLOCK + k) * t->words + word] =
		    (uint16_t)(data[2 * k] << 8 | data[2 * k + 1]);
}

static bool block_used(const struct rk_audit_mft *t, unsigned block)
{
	size_t first = (size_t)block * RK_MFT_MLIDS_PER_BLOCK * t->words;

	for (size_t k = 0; block < t->blocks && k < RK_MFT_MLIDS_PER_BLOCK * t->words; k++)
		if (t->masks[first + k])
			return true;
	return false;
}

/* The next round of the switches that keep no top and were read whole so far: the block after
 * the last, while some switch forwarded an MLID of it; false when there is none. */
static bool next_round(struct mcast_run *run, unsigned last)
{
	bool used = false;

	for (size_t i = 0; i < run->out->nmfts; i++)
		used |= blocks_by_top(&run->fabric->nodes[run->out->mfts[i].node]) < 0 &&
			block_used(&run->out->mfts[i], last);
	for (size_t i = 0; i < run->out->nmfts; i++) {
		const struct rk_fabric_node *node = &run->fabric->nodes[run->out->mfts[i].node];

		run->from[i] = run->to[i];
		if (used && run->out->mfts[i].status == 0 && blocks_by_top(node) < 0 &&
		    last + 1 < cap_blocks(node))
			run->to[i] = last + 2;
	}
	for (size_t i = 0; i < run->out->nmfts; i++)
		if (run->to[i] > run->from[i])
			return true;
	return false;
}

/* Run one feed on the read's queue to its end. */
static int run_feed(struct mcast_run *run, rk_mad_next_fn next, rk_mad_done_fn done)
{
	int err = rk_mad_queue_feed(run->queue, next, done, run);

	return err ? err : rk_mad_queue_run(run->queue, 0);
}

static int list_tables(const struct rk_fabric *fabric, struct rk_audit_mcast *out)
{
	size_t capacity = 0;

	for (size_t n = 0; n < fabric->nnodes; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];
		struct rk_audit_mft *mfts;

		if (node->type != RK_NODE_SWITCH || cap_blocks(node) == 0)
			continue;
		mfts = rk_array_room(out->mfts, &capacity, out->nmfts, sizeof(*mfts), 16);
		if (!mfts)
			return -ENOMEM;
		out->mfts = mfts;
		mfts[out->nmfts++] =
		    (struct rk_audit_mft){.node = (int)n, .words = table_words(node)};
	}
	return 0;
}

/* Every table: the switches with a top all at once, the others a block a round. */
static int read_tables(struct mcast_run *run)
{
	size_t count = run->out->nmfts;
	unsigned round = 0;
	int err = 0;

	run->from = calloc(count ? count : 1, sizeof(*run->from));
	run->to = calloc(count ? count : 1, sizeof(*run->to));
	if (!run->from || !run->to)
		return -ENOMEM;
	for (size_t i = 0; i < count; i++) {
		int top = blocks_by_top(&run->fabric->nodes[run->out->mfts[i].node]);

		run->to[i] = top >= 0 ? (unsigned)top : 1;
	}
	do {
		run->table = run->block = run->word = 0;
		err = grow_tables(run);
		if (!err)
			err = run_feed(run, table_next, table_done);
	} while (!err && next_round(run, round++));
	return err;
}

/* The MLIDs some table forwards, in order. */
static int list_mlids(struct rk_audit_mcast *out)
{
	size_t capacity = 0, most = 0;

	for (size_t i = 0; i < out->nmfts; i++)
		if (out->mfts[i].blocks * RK_MFT_MLIDS_PER_BLOCK > most)
			most = out->mfts[i].blocks * RK_MFT_MLIDS_PER_BLOCK;
	for (size_t m = 0; m < most; m++) {
		bool used = false;

		for (size_t i = 0; i < out->nmfts && !used; i++) {
			const struct rk_audit_mft *t = &out->mfts[i];

			for (unsigned w = 0; m < t->blocks * RK_MFT_MLIDS_PER_BLOCK && w < t->words;
			     w++)
				used |= t->masks[m * t->words + w] != 0;
		}
		if (!used)
			continue;
		uint16_t *mlids =
		    rk_array_room(out->mlids, &capacity, out->nmlids, sizeof(*mlids), 8);
		if (!mlids)
			return -ENOMEM;
		out->mlids = mlids;
		mlids[out->nmlids++] = (uint16_t)(RK_MLID_FIRST + m);
	}
	return 0;
}

static int list_ca_ports(const struct rk_fabric *fabric, struct rk_audit_mcast *out)
{
	size_t capacity = 0;

	for (size_t n = 0; n < fabric->nnodes; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];

		for (int p = 1; node->type == RK_NODE_CA && p <= node->nports; p++) {
			int *pairs;

			if (!node->ports[p].present || node->ports[p].state != 4 ||
			    !node->ports[p].guid)
				continue;
			pairs = rk_array_room(out->ca_ports, &capacity, 2 * out->nca_ports,
					      sizeof(*pairs), 64);
			if (!pairs)
				return -ENOMEM;
			out->ca_ports = pairs;
			pairs[2 * out->nca_ports] = (int)n;
			pairs[2 * out->nca_ports++ + 1] = p;
		}
	}
	return 0;
}

/* Whether the switch at the other end of CA port c forwards MLID g to it. */
static bool led_to(const struct mcast_run *run, size_t g, size_t c)
{
	const struct rk_fabric_port *ca =
	    &run->fabric->nodes[run->out->ca_ports[2 * c]].ports[run->out->ca_ports[2 * c + 1]];
	size_t m = (size_t)(run->out->mlids[g] - RK_MLID_FIRST);

	for (size_t i = 0; i < run->out->nmfts; i++)
		if (run->out->mfts[i].node == ca->remote_node)
			return rk_audit_mft_forwards(&run->out->mfts[i], m, ca->remote_port);
	return false;
}

static bool member_next(struct rk_mad_request *r, void *ctx)
{
	struct mcast_run *run = ctx;
	struct rk_audit_mcast *out = run->out;

	for (; run->group < out->nasked; run->group++, run->ca = 0) {
		for (; run->ca < out->nca_ports; run->ca++) {
			size_t at = run->group * out->nca_ports + run->ca;
			const struct rk_fabric_node *node =
			    &run->fabric->nodes[out->ca_ports[2 * run->ca]];

			if (run->others && (out->membership[at] != RK_MEMBER_NONE ||
					    !led_to(run, run->group, run->ca)))
				continue;
			rk_sa_mcmember_request(r, run->sa_lid, RK_MAD_METHOD_GET,
					       node->ports[out->ca_ports[2 * run->ca + 1]].guid);
			r->component_mask |= UMAD_SA_MCM_COMP_MASK_MLID;
			mad_set_field(r->data, 0, IB_SA_MCM_MLID_F, out->mlids[run->group]);
			if (!run->others) {
				r->component_mask |= UMAD_SA_MCM_COMP_MASK_JOIN_STATE;
				mad_set_field(r->data, 0, IB_SA_MCM_JOIN_STATE_F, JOIN_FULL_MEMBER);
			}
			r->user = (void *)(uintptr_t)at;
			run->ca++;
			return true;
		}
	}
	return false;
}

static void member_done(struct rk_mad_request *r, void *ctx)
{
	struct mcast_run *run = ctx;
	struct rk_audit_mcast *out = run->out;
	size_t at = (uintptr_t)r->user;
	bool none = rk_sa_no_records(r);

	if (r->status == 0) {
		out->membership[at] = run->others ? RK_MEMBER_OTHER : RK_MEMBER_FULL;
		memcpy(out->mgids + 16 * (at / out->nca_ports), r->reply + RK_SA_DATA_OFFSET, 16);
	} else if (none) {
		out->membership[at] = RK_MEMBER_NONE;
	} else {
		out->membership[at] = RK_MEMBER_UNKNOWN;
		out->sa_status = out->sa_status ? out->sa_status : r->status;
	}
}

static int read_members(struct mcast_run *run)
{
	struct rk_audit_mcast *out = run->out;
	int err = list_ca_ports(run->fabric, out);

	if (err || !out->nmlids || !out->nca_ports)
		return err;
	out->nasked = RK_AUDIT_MCAST_QUERIES_MAX / out->nca_ports;
	out->nasked = out->nasked < 1 ? 1 : out->nasked < out->nmlids ? out->nasked : out->nmlids;
	out->membership = calloc(out->nasked * out->nca_ports, sizeof(*out->membership));
	out->mgids = calloc(out->nasked, 16);
	if (!out->membership || !out->mgids)
		return -ENOMEM;
	if (!run->sa_lid) {
		out->sa_status = -EHOSTUNREACH; /* no SM: nobody to ask */
		return 0;
	}
	err = run_feed(run, member_next, member_done);
	run->group = run->ca = 0;
	run->others = true;
	return err ? err : run_feed(run, member_next, member_done);
}

int rk_audit_mcast_read(struct rk_mad_port *port, const struct rk_fabric *fabric,
			const struct rk_mad_options *options, uint16_t sa_lid,
			struct rk_audit_mcast *out)
{
	struct rk_route_tree tree;
	struct rk_mad_local local;
	struct mcast_run run = {.fabric = fabric, .tree = &tree, .out = out, .sa_lid = sa_lid};
	int err = rk_mad_port_local(port, &local);

	*out = (struct rk_audit_mcast){0};
	if (err)
		return err;
	err = rk_route_tree_build(fabric, local.port, &tree);
	if (err)
		return err;
	err = list_tables(fabric, out);
	if (!err)
		err = rk_mad_queue_open(port, options, &run.queue);
	if (!err)
		err = read_tables(&run);
	if (!err)
		err = list_mlids(out);
	if (!err)
		err = read_members(&run);
	rk_mad_queue_close(run.queue);
	free(run.from);
	free(run.to);
	rk_route_tree_free(&tree);
	if (err)
		rk_audit_mcast_free(out);
	return err;
}

void rk_audit_mcast_free(struct rk_audit_mcast *mcast)
{
	for (size_t i = 0; i < mcast->nmfts; i++)
		free(mcast->mfts[i].masks);
	free(mcast->mfts);
	free(mcast->mlids);
	free(mcast->ca_ports);
	free(mcast->membership);
	free(mcast->mgids);
	*mcast = (struct rk_audit_mcast){0};
}
