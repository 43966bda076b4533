/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/sweep.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"
#include "rdmakit/rdma_stack.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdlib.h>
#include <string.h>

#define ATTR_CLASS_PORT_INFO   0x0001
#define ATTR_PORT_SAMPLES_CTL  0x0010
#define ATTR_PORT_COUNTERS     0x0012
#define ATTR_PORT_COUNTERS_EXT 0x001d
#define ATTR_NODE_INFO	       0x0011 /* an SMP's */
#define METHOD_GET	       0x01
#define METHOD_SET	       0x02
/* PerfMgt ClassPortInfo CapabilityMask: PortSelect 0xFF (the sum of every port) answered;
 * PortCountersExtended (IETF or not). */
#define PM_CAP_ALL_PORT_SELECT	0x0100
#define PM_CAP_EXT_WIDTH	0x0200
#define PM_CAP_EXT_WIDTH_NOIETF 0x0400
#define ALL_PORTS		0xFF
/* CapabilityMask2: PortCountersExtended has the additional (64-bit error and wait) counters. */
#define PM_CAP2_ADDL_EXT 0x0002

static int compare_ports(const void *a, const void *b)
{
	const struct rk_sweep_port *x = a, *y = b;

	if (x->node_guid != y->node_guid)
		return x->node_guid < y->node_guid ? -1 : 1;
	return (int)x->port - (int)y->port;
}

static struct rk_sweep_port *find_port(const struct rk_sweep *sweep, uint64_t guid, int port)
{
	struct rk_sweep_port key = {.node_guid = guid, .port = (uint8_t)port};

	return sweep->ports ? bsearch(&key, sweep->ports, sweep->count, sizeof(key), compare_ports)
			    : NULL;
}

/* Every switch port (a down one is worth reporting); CA ports that have a LID. */
static bool port_wanted(const struct rk_fabric_node *node, int p)
{
	const struct rk_fabric_port *port = &node->ports[p];

	if (!port->present)
		return false;
	return node->type == RK_NODE_SWITCH || (port->lid != 0 && port->state > 1);
}

static size_t count_wanted(const struct rk_fabric *fabric)
{
	size_t count = 0;

	for (size_t n = 0; n < fabric->nnodes; n++)
		for (int p = 1; p <= fabric->nodes[n].nports; p++)
			count += port_wanted(&fabric->nodes[n], p);
	return count;
}

int rk_sweep_prepare(struct rk_sweep *sweep, const struct rk_fabric *fabric)
{
	size_t count = count_wanted(fabric), i = 0;
	struct rk_sweep_port *ports = calloc(count ? count : 1, sizeof(*ports));

	if (!ports)
		return -ENOMEM;
	for (size_t n = 0; n < fabric->nnodes; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];

		for (int p = 1; p <= node->nports; p++) {
			const struct rk_sweep_port *known = find_port(sweep, node->guid, p);

			if (!port_wanted(node, p))
				continue;
			if (known)
				ports[i] = *known;
			ports[i].node_guid = node->guid;
			ports[i].node = (int)n;
			ports[i].port = (uint8_t)p;
			ports[i].lid = node->ports[p].lid;
			if (!known) {
				ports[i].xmit_wait = -1;
				ports[i].since_rise = UINT8_MAX;
			}
			i++;
		}
	}
	qsort(ports, count, sizeof(*ports), compare_ports);
	free(sweep->ports);
	sweep->ports = ports;
	sweep->count = count;
	return 0;
}

void rk_sweep_free(struct rk_sweep *sweep)
{
	free(sweep->ports);
	memset(sweep, 0, sizeof(*sweep));
}

static void read_port(const struct rk_sweep_port *port, struct rk_sweep_reading *out)
{
	*out = (struct rk_sweep_reading){.node_guid = port->node_guid,
					 .node = port->node,
					 .status = port->status,
					 .counted = port->counted,
					 .port = port->port,
					 .sampled = port->sampled,
					 .xmit_wait = port->xmit_wait,
					 .went_back_at = port->went_back_at};
	memcpy(out->state, port->state, sizeof(out->state));
	for (size_t c = 0; c < RK_SWEEP_COUNTERS; c++)
		out->value[c] = rk_sweep_value(port, c);
}

int rk_sweep_readings_make(const struct rk_sweep *sweep, struct rk_sweep_readings *out)
{
	*out = (struct rk_sweep_readings){
	    .answered = sweep->answered, .failed = sweep->failed, .seconds = sweep->seconds};
	if (sweep->count == 0)
		return 0;
	out->ports = malloc(sweep->count * sizeof(*out->ports));
	if (!out->ports) {
		memset(out, 0, sizeof(*out));
		return -ENOMEM;
	}
	out->count = sweep->count;
	for (size_t i = 0; i < sweep->count; i++)
		read_port(&sweep->ports[i], &out->ports[i]);
	return 0;
}

void rk_sweep_readings_free(struct rk_sweep_readings *readings)
{
	free(readings->ports);
	memset(readings, 0, sizeof(*readings));
}

/* Requests built and sent at a time: bounds memory on large fabrics. */
#define CHUNK 1024

/* State of one sweep while its MADs are in flight. */
struct sweep_run {
	struct rk_sweep *sweep;
	const struct rk_fabric *fabric;
	const struct rk_metric *pma;
	uint8_t *got;	/* per port: 1 PortCounters, 2 extended */
	int *pc_status; /* per port: status of PortCounters */
	size_t done, total;
	rk_sweep_progress_fn progress;
	void *ctx;
};

#define GOT_PC	  1
#define GOT_EXT	  2
#define GOT_CLEAN 4 /* errors_only: its switch's sum over every port has no error */

/* What a counter request asks (the low bits of its user word, above them a port's index). */
enum ask { ASK_PC, ASK_EXT, ASK_SUM };
#define ASK_BITS 2

/* Run count requests (each completion to done with ctx), adding their MADs to the sweep's. */
static int run_chunk(struct rk_mad_port *port, struct rk_sweep *sweep,
		     struct rk_mad_request *requests, size_t count,
		     const struct rk_mad_options *options, rk_mad_done_fn done, void *ctx)
{
	struct rk_mad_stats stats;
	int err = rk_mad_run(port, requests, count, options, done, ctx, &stats);

	rk_mad_stats_add(&sweep->stats, &stats);
	return err;
}

static void pma_request(struct rk_mad_request *r, uint16_t lid, uint16_t attr, int port_field,
			int port, uintptr_t user)
{
	memset(r, 0, sizeof(*r));
	r->route = RK_MAD_LID;
	r->mgmt_class = RK_MAD_CLASS_PERF;
	r->lid = lid;
	r->method = METHOD_GET;
	r->attr_id = attr;
	r->user = (void *)user;
	if (port_field)
		mad_set_field(r->data, 0, (enum MAD_FIELDS)port_field, (uint32_t)port);
}

static bool node_has_ext(const struct rk_fabric_node *node)
{
	return node->pm_known && (node->pm_cap_mask & (PM_CAP_EXT_WIDTH | PM_CAP_EXT_WIDTH_NOIETF));
}

/* Whether the port's PortCountersExtended has counter m (its additional counters only where
 * the node says so: elsewhere those bytes are reserved). */
static bool ext_has(const struct sweep_run *run, size_t i, const struct rk_metric *m)
{
	const struct rk_fabric_node *node = &run->fabric->nodes[run->sweep->ports[i].node];

	return m->pma_ext_field &&
	       (!m->pma_ext_additional || (node->pm_cap_mask2 & PM_CAP2_ADDL_EXT));
}

/* Decode an answer straight into the port's raw[]; extended data wins over 32-bit data. */
static void store_counters(struct sweep_run *run, size_t i, const uint8_t *data, bool ext)
{
	struct rk_sweep_port *p = &run->sweep->ports[i];

	for (size_t c = 0; c < RK_SWEEP_COUNTERS; c++) {
		const struct rk_metric *m = &run->pma[c];
		bool in_ext = ext_has(run, i, m);

		if (ext && in_ext)
			p->raw[c] =
			    mad_get_field64((void *)data, 0, (enum MAD_FIELDS)m->pma_ext_field);
		else if (!ext && m->pma_field && !(in_ext && (run->got[i] & GOT_EXT)))
			p->raw[c] = mad_get_field((void *)data, 0, (enum MAD_FIELDS)m->pma_field);
	}
	run->got[i] |= ext ? GOT_EXT : GOT_PC;
}

/* Whether a PortCounters answer has any error counter above zero. */
static bool answer_has_errors(const struct sweep_run *run, const uint8_t *data)
{
	for (size_t c = 0; c < RK_SWEEP_COUNTERS; c++) {
		const struct rk_metric *m = &run->pma[c];

		if (m->is_error && m->pma_field &&
		    mad_get_field((void *)data, 0, (enum MAD_FIELDS)m->pma_field))
			return true;
	}
	return false;
}

/* A switch's sum over every port with no error: each of its swept ports is clean. */
static void mark_clean(struct sweep_run *run, size_t first)
{
	const struct rk_sweep *sweep = run->sweep;

	for (size_t i = first; i < sweep->count && sweep->ports[i].node == sweep->ports[first].node;
	     i++)
		run->got[i] |= GOT_CLEAN;
}

static void counters_done(struct rk_mad_request *request, void *ctx)
{
	struct sweep_run *run = ctx;
	uintptr_t user = (uintptr_t)request->user;
	size_t i = user >> ASK_BITS;
	enum ask ask = (enum ask)(user & ((1u << ASK_BITS) - 1));

	if (ask == ASK_SUM) {
		if (request->status == 0 && !answer_has_errors(run, rk_mad_reply_data(request)))
			mark_clean(run, i);
	} else if (request->status == 0) {
		store_counters(run, i, rk_mad_reply_data(request), ask == ASK_EXT);
	} else if (ask == ASK_PC) {
		run->pc_status[i] = request->status;
	}
	if (run->progress)
		run->progress(++run->done, run->total, run->ctx);
}

/* ClassPortInfo's CapabilityMask, or PortSamplesControl's Tick (what a PortXmitWait tick is). */
static void capability_done(struct rk_mad_request *request, void *ctx)
{
	struct rk_fabric_node *node = (struct rk_fabric_node *)request->user;
	void *data = (void *)rk_mad_reply_data(request);

	(void)ctx;
	if (request->status != 0)
		return;
	if (request->attr_id == ATTR_PORT_SAMPLES_CTL) {
		node->pm_tick = (uint16_t)(mad_get_field(data, 0, IB_PSC_TICK_F) + 1);
		return;
	}
	node->pm_known = true;
	node->pm_cap_mask = (uint16_t)mad_get_field(data, 0, IB_CPI_CAPMASK_F);
	node->pm_cap_mask2 = mad_get_field(data, 0, IB_CPI_CAPMASK2_F);
}

/* ClassPortInfo and PortSamplesControl of every node not asked yet: does it have
 * PortCountersExtended, and how long is its PortXmitWait tick? */
static int query_capabilities(struct rk_mad_port *port, struct rk_fabric *fabric,
			      struct rk_sweep *sweep, const struct rk_mad_options *options,
			      struct rk_mad_request *requests)
{
	/* ibsim has no PortSamplesControl: it hands the MAD to a client of the node's, and
	 * disconnects that client (OpenSM) when it cannot take it. */
	bool samples_control = !rk_rdma_stack_simulated();
	size_t count = 0;
	int err = 0;

	for (size_t i = 0; i < sweep->count && !err; i++) {
		struct rk_fabric_node *node = &fabric->nodes[sweep->ports[i].node];

		if (!node->pm_known && sweep->ports[i].lid &&
		    (i == 0 || sweep->ports[i - 1].node != sweep->ports[i].node)) {
			pma_request(&requests[count++], sweep->ports[i].lid, ATTR_CLASS_PORT_INFO,
				    0, 0, (uintptr_t)node);
			if (samples_control)
				pma_request(&requests[count++], sweep->ports[i].lid,
					    ATTR_PORT_SAMPLES_CTL, IB_PSC_PORT_SELECT_F,
					    sweep->ports[i].port, (uintptr_t)node);
		}
		if (count >= CHUNK - 1 || (i + 1 == sweep->count && count)) {
			err =
			    run_chunk(port, sweep, requests, count, options, capability_done, NULL);
			count = 0;
		}
	}
	return err;
}

/* Whether the port's PortCountersExtended is asked for in this pass (errors_only: the second
 * pass, of ports that answered PortCounters with errors; else the one pass, of every port). */
static bool wants_ext(const struct sweep_run *run, size_t i, bool second)
{
	const struct rk_sweep *sweep = run->sweep;

	if (!sweep->ports[i].lid || !node_has_ext(&run->fabric->nodes[sweep->ports[i].node]) ||
	    second != sweep->errors_only)
		return false;
	return !second || ((run->got[i] & GOT_PC) && rk_sweep_port_has_errors(&sweep->ports[i]));
}

/* Whether the port's PortCounters is asked for in the first pass: not when its switch's sum
 * showed no error. */
static bool wants_pc(const struct sweep_run *run, size_t i, bool second)
{
	return !second && run->sweep->ports[i].lid && !(run->got[i] & GOT_CLEAN);
}

/* MADs of one pass: PortCounters wants_pc in the first, the extended ones wants_ext. */
static size_t count_pass_mads(const struct sweep_run *run, bool second)
{
	size_t total = 0;

	for (size_t i = 0; i < run->sweep->count; i++)
		total += wants_pc(run, i, second) + wants_ext(run, i, second);
	return total;
}

/* errors_only: whether port i is the first swept port of a switch worth asking for the sum
 * of every port (one MAD instead of one per port: it answers them, and has several swept). */
static bool wants_sum(const struct sweep_run *run, size_t i)
{
	const struct rk_sweep *sweep = run->sweep;
	const struct rk_fabric_node *node = &run->fabric->nodes[sweep->ports[i].node];

	return sweep->errors_only && node->type == RK_NODE_SWITCH && node->pm_known &&
	       (node->pm_cap_mask & PM_CAP_ALL_PORT_SELECT) &&
	       (i == 0 || sweep->ports[i - 1].node != sweep->ports[i].node) &&
	       i + 1 < sweep->count && sweep->ports[i + 1].node == sweep->ports[i].node;
}

/* errors_only: each switch's PortCounters summed over every port (PortSelect 0xFF, as
 * ibqueryerrors asks); a switch whose sum has no error needs no MAD per port. */
static int query_sums(struct rk_mad_port *port, struct sweep_run *run,
		      const struct rk_mad_options *options, struct rk_mad_request *requests)
{
	const struct rk_sweep *sweep = run->sweep;
	size_t count = 0;
	int err = 0;

	for (size_t i = 0; i < sweep->count && !err; i++) {
		if (wants_sum(run, i))
			pma_request(&requests[count++], sweep->ports[i].lid, ATTR_PORT_COUNTERS,
				    IB_PC_PORT_SELECT_F, ALL_PORTS, i << ASK_BITS | ASK_SUM);
		if (count && (count == CHUNK || i + 1 == sweep->count)) {
			err = run_chunk(port, run->sweep, requests, count, options, counters_done,
					run);
			count = 0;
		}
	}
	return err;
}

/* One pass over every port, a chunk at a time: PortCounters (first pass only) and
 * PortCountersExtended where wants_ext. */
static int query_pass(struct rk_mad_port *port, struct sweep_run *run,
		      const struct rk_mad_options *options, struct rk_mad_request *requests,
		      bool second)
{
	const struct rk_sweep *sweep = run->sweep;
	size_t count = 0;
	int err = 0;

	for (size_t i = 0; i < sweep->count && !err; i++) {
		const struct rk_sweep_port *p = &sweep->ports[i];

		if (wants_pc(run, i, second))
			pma_request(&requests[count++], p->lid, ATTR_PORT_COUNTERS,
				    IB_PC_PORT_SELECT_F, p->port, i << ASK_BITS | ASK_PC);
		if (wants_ext(run, i, second))
			pma_request(&requests[count++], p->lid, ATTR_PORT_COUNTERS_EXT,
				    IB_PC_EXT_PORT_SELECT_F, p->port, i << ASK_BITS | ASK_EXT);
		if (count && (count >= CHUNK - 1 || i + 1 == sweep->count)) {
			err = run_chunk(port, run->sweep, requests, count, options, counters_done,
					run);
			count = 0;
		}
	}
	return err;
}

/* PortCounters of every port and PortCountersExtended where supported; with errors_only
 * first each switch's sum, then PortCounters of the ports the sums did not clear, and the
 * extended ones in a second pass, of the ports whose error counters are not all zero. */
static int query_counters(struct rk_mad_port *port, struct sweep_run *run,
			  const struct rk_mad_options *options, struct rk_mad_request *requests)
{
	int err = 0;

	for (size_t i = 0; i < run->sweep->count; i++)
		run->total += wants_sum(run, i);
	if (run->total)
		err = query_sums(port, run, options, requests);
	if (err)
		return err;
	run->total += count_pass_mads(run, false);
	err = query_pass(port, run, options, requests, false);
	if (err || !run->sweep->errors_only)
		return err;
	run->total += count_pass_mads(run, true);
	return query_pass(port, run, options, requests, true);
}

/* An answer that may be another node's: a counter that does not wrap read less than the port's
 * sample before (the node rebooted, or the SM gave its LID to another node). */
static bool answer_suspect(const struct sweep_run *run, size_t i)
{
	const struct rk_sweep_port *p = &run->sweep->ports[i];

	if (!(run->got[i] & GOT_PC) || !p->sampled || p->status != 0)
		return false;
	for (size_t c = 0; c < RK_SWEEP_COUNTERS; c++)
		if (!run->pma[c].wraps && p->raw[c] < p->prev[c])
			return true;
	return false;
}

static void node_info_request(struct rk_mad_request *r, uint16_t lid, size_t i)
{
	*r = (struct rk_mad_request){.route = RK_MAD_LID,
				     .mgmt_class = RK_MAD_CLASS_SMP,
				     .lid = lid,
				     .method = METHOD_GET,
				     .attr_id = ATTR_NODE_INFO,
				     .user = (void *)(uintptr_t)i};
}

/* The node whose LID answered for another: none of this sweep's answers of its ports count. */
static void drop_node_answers(struct sweep_run *run, size_t first)
{
	struct rk_sweep *sweep = run->sweep;
	int node = sweep->ports[first].node;

	rk_log(RK_LOG_WARNING,
	       "LID %u answers for another node than %s: its counters are not credited, and "
	       "the fabric is discovered again",
	       sweep->ports[first].lid, run->fabric->nodes[node].name);
	for (size_t i = first; i < sweep->count && sweep->ports[i].node == node; i++) {
		run->got[i] &= (uint8_t) ~(GOT_PC | GOT_EXT);
		run->pc_status[i] = -ESTALE;
	}
	sweep->topology_stale = true;
}

/* A NodeInfo answer: the GUID must be the node's (none has GUID 0: such an answer says
 * nothing). */
static void identity_done(struct rk_mad_request *request, void *ctx)
{
	struct sweep_run *run = ctx;
	size_t at = (uintptr_t)request->user;
	uint64_t guid = mad_get_field64((void *)rk_mad_reply_data(request), 0, IB_NODE_GUID_F);

	if (request->status == 0 && guid && guid != run->sweep->ports[at].node_guid)
		drop_node_answers(run, at);
}

/* NodeInfo through the LID of each node with a suspect answer. */
static int check_identities(struct rk_mad_port *port, struct sweep_run *run,
			    const struct rk_mad_options *options, struct rk_mad_request *requests)
{
	const struct rk_sweep *sweep = run->sweep;
	size_t count = 0;
	int err = 0;

	for (size_t i = 0; i < sweep->count && !err; i++) {
		bool first_of_node =
		    count == 0 ||
		    sweep->ports[(uintptr_t)requests[count - 1].user].node != sweep->ports[i].node;

		if (first_of_node && answer_suspect(run, i))
			node_info_request(&requests[count++], sweep->ports[i].lid, i);
		if (count && (count == CHUNK || i + 1 == sweep->count)) {
			err = run_chunk(port, run->sweep, requests, count, options, identity_done,
					run);
			count = 0;
		}
	}
	return err;
}

bool rk_sweep_port_has_errors(const struct rk_sweep_port *port)
{
	size_t count;
	const struct rk_metric *pma = rk_catalog_pma(&count);

	for (size_t c = 0; c < count; c++)
		if (pma[c].is_error && port->raw[c])
			return true;
	return false;
}

uint64_t rk_sweep_value(const struct rk_sweep_port *port, size_t c)
{
	size_t count;

	return port->raw[c] * rk_catalog_pma(&count)[c].scale;
}

bool rk_sweep_delta_known(const struct rk_sweep_port *port, size_t c)
{
	return port->has_delta && port->state[c] != RK_VALUE_UNAVAILABLE &&
	       port->prev_state[c] != RK_VALUE_UNAVAILABLE;
}

uint64_t rk_sweep_delta(const struct rk_sweep_port *port, size_t c)
{
	size_t count;
	const struct rk_metric *m = &rk_catalog_pma(&count)[c];

	if (!rk_sweep_delta_known(port, c))
		return 0;
	return rk_counter_raw_delta(m, port->prev[c], port->raw[c]) * m->scale;
}

/* Keep the last sample as the previous one before answers overwrite raw[]. */
static void start_port(struct rk_sweep_port *p)
{
	memcpy(p->prev, p->raw, sizeof(p->prev));
	memcpy(p->prev_state, p->state, sizeof(p->prev_state));
}

/* A port that was down at discovery and now receives packets leads somewhere unknown. */
static bool came_up(const struct sweep_run *run, const struct rk_sweep_port *p)
{
	int rcv_packets = rk_catalog_pma_index("port_rcv_packets");

	return run->fabric->nodes[p->node].ports[p->port].state <= 1 &&
	       rk_sweep_delta(p, (size_t)rcv_packets) > 0;
}

/* The data counters came from the other MAD than the sample before (64 against 32 bits):
 * no delta of them this time. */
static void forget_other_width(const struct sweep_run *run, struct rk_sweep_port *p)
{
	bool extended = run->got[p - run->sweep->ports] & GOT_EXT;

	if (extended != p->extended)
		for (size_t c = 0; c < RK_SWEEP_COUNTERS; c++)
			if (ext_has(run, (size_t)(p - run->sweep->ports), &run->pma[c]))
				p->prev_state[c] = RK_VALUE_UNAVAILABLE;
	p->extended = extended;
}

/* A port its switch's sum cleared: every error counter zero, the others not read this time
 * (their last sample kept, no rate of them). */
static void finish_clean_port(struct sweep_run *run, struct rk_sweep_port *p)
{
	for (size_t c = 0; c < RK_SWEEP_COUNTERS; c++) {
		const struct rk_metric *m = &run->pma[c];

		if (m->is_error && m->pma_field) {
			p->raw[c] = 0;
			p->state[c] = rk_counter_classify(m, 0);
		} else {
			p->raw[c] = p->prev[c];
			p->state[c] = RK_VALUE_UNAVAILABLE;
		}
	}
}

/* Whether an error counter rose since the sample before. */
static bool errors_rose(const struct sweep_run *run, const struct rk_sweep_port *p)
{
	for (size_t c = 0; c < RK_SWEEP_COUNTERS; c++)
		if (run->pma[c].is_error && rk_sweep_delta(p, c))
			return true;
	return false;
}

/* Whether a counter that does not wrap read less than the sample before: the node rebooted, or
 * its counters were cleared (the delta then counts what came after, never a wrap). */
static bool counters_went_back(const struct sweep_run *run, const struct rk_sweep_port *p)
{
	for (size_t c = 0; c < RK_SWEEP_COUNTERS; c++)
		if (!run->pma[c].wraps && rk_sweep_delta_known(p, c) && p->raw[c] < p->prev[c])
			return true;
	return false;
}

/* Classify one port's new values; a port that did not answer keeps its last sample. */
static void finish_port(struct sweep_run *run, size_t i)
{
	struct rk_sweep_port *p = &run->sweep->ports[i];
	bool had = p->sampled && p->status == 0, answered = run->got[i] & (GOT_PC | GOT_CLEAN);

	p->status = answered		? 0
		    : !p->lid		? -EADDRNOTAVAIL
		    : run->pc_status[i] ? run->pc_status[i]
					: -ETIMEDOUT;
	if (!answered) {
		memcpy(p->raw, p->prev, sizeof(p->raw));
		p->has_delta = false;
		p->unanswered += p->unanswered < UINT8_MAX;
		run->sweep->topology_stale |= had; /* it answered before */
		return;
	}
	p->has_delta = had;
	p->sampled = true;
	p->unanswered = 0;
	if (!(run->got[i] & GOT_PC)) {
		finish_clean_port(run, p);
		return;
	}
	forget_other_width(run, p);
	for (size_t c = 0; c < RK_SWEEP_COUNTERS; c++) {
		const struct rk_metric *m = &run->pma[c];
		bool available = m->pma_field || (p->extended && ext_has(run, i, m));

		p->state[c] = available ? rk_counter_classify(m, p->raw[c]) : RK_VALUE_UNAVAILABLE;
		if (available && p->raw[c])
			p->counted |= UINT32_C(1) << c;
	}
	run->sweep->topology_stale |= came_up(run, p);
	if (p->has_delta && counters_went_back(run, p))
		p->went_back_at = rk_monotonic_seconds();
	if (p->has_delta)
		p->since_rise = errors_rose(run, p)	    ? 0
				: p->since_rise < UINT8_MAX ? p->since_rise + 1
							    : UINT8_MAX;
}

static int alloc_run(struct sweep_run *run, struct rk_sweep *sweep)
{
	size_t n = sweep->count ? sweep->count : 1;

	run->sweep = sweep;
	run->got = calloc(n, sizeof(*run->got));
	run->pc_status = calloc(n, sizeof(*run->pc_status));
	return run->got && run->pc_status ? 0 : -ENOMEM;
}

static void finish_sweep(struct sweep_run *run, double start)
{
	struct rk_sweep *sweep = run->sweep;
	double now = rk_monotonic_seconds();

	sweep->answered = sweep->failed = 0;
	sweep->topology_stale = false;
	for (size_t i = 0; i < sweep->count; i++) {
		finish_port(run, i);
		if (sweep->ports[i].status == 0)
			sweep->answered++;
		else
			sweep->failed++;
	}
	sweep->interval = sweep->last_time > 0 ? now - sweep->last_time : 0;
	sweep->last_time = now;
	sweep->seconds = now - start;
}

int rk_sweep_run(struct rk_mad_port *port, struct rk_fabric *fabric, struct rk_sweep *sweep,
		 const struct rk_mad_options *options, rk_sweep_progress_fn progress, void *ctx)
{
	struct sweep_run run = {.fabric = fabric, .progress = progress, .ctx = ctx};
	struct rk_mad_request *requests = calloc(CHUNK, sizeof(*requests));
	double start = rk_monotonic_seconds();
	size_t ignored;
	int err = requests ? alloc_run(&run, sweep) : -ENOMEM;

	run.pma = rk_catalog_pma(&ignored);
	memset(&sweep->stats, 0, sizeof(sweep->stats));
	if (!err)
		err = query_capabilities(port, fabric, sweep, options, requests);
	for (size_t i = 0; !err && i < sweep->count; i++)
		start_port(&sweep->ports[i]);
	if (!err)
		err = query_counters(port, &run, options, requests);
	if (!err)
		err = check_identities(port, &run, options, requests);
	if (!err)
		finish_sweep(&run, start);
	free(run.got);
	free(run.pc_status);
	free(requests);
	return err;
}

const char *rk_sweep_status_text(int status)
{
	switch (status) {
	case 0:
		return "answered";
	case -ETIMEDOUT:
		return "timeout";
	case -EADDRNOTAVAIL:
		return "no LID: discovery could not read its PortInfo";
	case -ESTALE:
		return "its LID answers for another node now";
	case -EINVAL:
		return "not sent";
	default:
		return "error status";
	}
}

int rk_sweep_reset_mask(const char *names, uint32_t *mask)
{
	char name[64];
	const char *p = names;

	*mask = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		const struct rk_metric *m;

		if (len == 0 || len >= sizeof(name)) {
			rk_log(RK_LOG_ERR, "--reset: empty or overlong counter name in \"%s\"",
			       names);
			return -EINVAL;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		m = rk_catalog_find(RK_SRC_PORT_COUNTERS, name);
		if (!m || m->reset_bit < 0 || !m->is_error) {
			rk_log(RK_LOG_ERR,
			       "--reset: \"%s\" is not an error counter that can be cleared", name);
			return -EINVAL;
		}
		*mask |= 1u << m->reset_bit;
		p += len + (p[len] == ',');
	}
	return *mask ? 0 : -EINVAL;
}

int rk_sweep_reset(struct rk_mad_port *port, const struct rk_sweep *sweep, uint32_t select_mask,
		   const struct rk_mad_options *options, size_t *failed)
{
	struct rk_mad_request *requests = calloc(CHUNK, sizeof(*requests));
	size_t count = 0;
	int err = requests ? 0 : -ENOMEM;

	*failed = 0;
	for (size_t i = 0; i < sweep->count && !err; i++) {
		pma_request(&requests[count], sweep->ports[i].lid, ATTR_PORT_COUNTERS,
			    IB_PC_PORT_SELECT_F, sweep->ports[i].port, i);
		requests[count].method = METHOD_SET;
		mad_set_field(requests[count++].data, 0, IB_PC_COUNTER_SELECT_F, select_mask);
		if (count == CHUNK || i + 1 == sweep->count) {
			err = rk_mad_run(port, requests, count, options, NULL, NULL, NULL);
			for (size_t r = 0; r < count && !err; r++)
				*failed += requests[r].status != 0;
			count = 0;
		}
	}
	free(requests);
	return err;
}
