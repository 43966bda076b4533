/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/sweep.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"
#include "rdmakit/rdma_stack.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdlib.h>
#include <string.h>

/* PerfMgt ClassPortInfo CapabilityMask: PortSelect 0xFF (the sum of every port) answered;
 * PortCountersExtended (IETF or not). */
#define PM_CAP_ALL_PORT_SELECT	0x0100
#define PM_CAP_EXT_WIDTH	0x0200
#define PM_CAP_EXT_WIDTH_NOIETF 0x0400
#define ALL_PORTS		0xFF
/* CapabilityMask2: PortCountersExtended has the additional (64-bit error and wait) counters. */
#define PM_CAP2_ADDL_EXT 0x0002
/* PortSamplesControl OptionMask: the node has PortVLXmitWaitCounters. */
#define PSC_OPTION_VL_XMIT_WAIT (UINT64_C(1) << 23)

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
	return node->type == RK_NODE_SWITCH || (rk_lid_is_unicast(port->lid) && port->state > 1);
}

static size_t count_wanted(const struct rk_fabric *fabric)
{
	size_t count = 0;

	for (size_t n = 0; n < fabric->nnodes; n++)
		for (int p = 1; p <= fabric->nodes[n].nports; p++)
			count += port_wanted(&fabric->nodes[n], p);
	return count;
}

static int compare_lids(const void *a, const void *b)
{
	const struct rk_sweep_port *x = a, *y = b;

	if (x->lid != y->lid)
		return x->lid < y->lid ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Flag the ports whose LID another node's port has too (a LID the SM moved, or gave twice):
 * an answer through it may be either's. Sorts the ports by LID and node. */
static void mark_shared_lids(struct rk_sweep_port *ports, size_t count)
{
	qsort(ports, count, sizeof(*ports), compare_lids);
	for (size_t first = 0, end; first < count; first = end) {
		bool shared = false;

		for (end = first + 1; end < count && ports[end].lid == ports[first].lid; end++)
			shared |= ports[end].node != ports[first].node;
		for (size_t i = first; i < end; i++)
			ports[i].lid_shared = shared && ports[first].lid != 0;
	}
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
			ports[i].lid =
			    rk_lid_is_unicast(node->ports[p].lid) ? node->ports[p].lid : 0;
			if (!known) {
				ports[i].xmit_wait = ports[i].lost_gbps = -1;
				ports[i].since_rise = UINT8_MAX;
			}
			i++;
		}
	}
	mark_shared_lids(ports, count);
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
					 .lost_gbps = port->lost_gbps,
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

/* What a request asks, for its completion. */
enum ask { ASK_PC, ASK_EXT, ASK_SUM, ASK_CAPABILITY, ASK_SAMPLES, ASK_IDENTITY, ASK_VL_WAIT, ASKS };
#define ASK_BITS 3
_Static_assert(ASKS <= 1 << ASK_BITS, "an ask fits in ASK_BITS");

/* A phase's requests of port i: the ask-th one (0, 1, ...) into *r; false when it has none. */
struct sweep_run;
typedef bool (*port_request_fn)(struct sweep_run *run, size_t i, unsigned ask,
				struct rk_mad_request *r);
#define REQUESTS_PER_PORT 2

/* State of one sweep while its MADs are in flight. */
struct sweep_run {
	struct rk_sweep *sweep;
	const struct rk_fabric *fabric;
	const struct rk_metric *pma;
	const struct rk_metric *vl_wait; /* the catalog's port_vl_xmit_wait */
	size_t wait;			 /* port_xmit_wait's index in pma */
	size_t data[2];			 /* port_xmit_data's and port_rcv_data's */
	struct rk_mad_queue *queue;
	uint8_t *got;	/* per port: GOT_* */
	int *pc_status; /* per port: status of PortCounters */
	size_t done, total;
	rk_sweep_progress_fn progress;
	void *ctx;
	/* the phase being fed: its requests of each port in order */
	port_request_fn phase;
	size_t at;
	unsigned ask;
	int last_node; /* identities: the node asked last */
	bool samples_control;
};

#define GOT_PC	   1
#define GOT_EXT	   2
#define GOT_CLEAN  4 /* errors_only: its switch's sum over every port has no error */
#define GOT_SUMMED 8 /* errors_only: its switch's sum is asked for (not the port's own) */

static void pma_request(struct rk_mad_request *r, uint16_t lid, uint16_t attr, int port_field,
			int port, size_t i, enum ask ask)
{
	memset(r, 0, sizeof(*r));
	r->route = RK_MAD_LID;
	r->mgmt_class = RK_MAD_CLASS_PERF;
	r->lid = lid;
	r->method = RK_MAD_METHOD_GET;
	r->attr_id = attr;
	r->user = (void *)(i << ASK_BITS | ask);
	if (port_field)
		mad_set_field(r->data, 0, (enum MAD_FIELDS)port_field, (uint32_t)port);
}

static size_t port_of(const struct rk_mad_request *r)
{
	return (uintptr_t)r->user >> ASK_BITS;
}

static enum ask ask_of(const struct rk_mad_request *r)
{
	return (enum ask)((uintptr_t)r->user & ((1u << ASK_BITS) - 1));
}

/* The feed of the phase: every port's requests in order. */
static bool phase_next(struct rk_mad_request *r, void *ctx)
{
	struct sweep_run *run = ctx;

	for (; run->at < run->sweep->count; run->at++, run->ask = 0)
		while (run->ask < REQUESTS_PER_PORT)
			if (run->phase(run, run->at, run->ask++, r))
				return true;
	return false;
}

/* Send the phase's requests through the sweep's queue, each completion to done. */
static int run_phase(struct sweep_run *run, port_request_fn phase, rk_mad_done_fn done)
{
	run->phase = phase;
	run->at = 0;
	run->ask = 0;
	run->last_node = -1;
	rk_mad_queue_feed(run->queue, phase_next, done, run);
	return rk_mad_queue_run(run->queue, 0);
}

/* Add one request from a completion; a failure to add it counts as the request failing. */
static void add_request(struct sweep_run *run, const struct rk_mad_request *r, rk_mad_done_fn done)
{
	int err = rk_mad_queue_add(run->queue, r, done, run);

	if (err) {
		rk_log(RK_LOG_ERR, "sweep: cannot queue a MAD: %s", strerror(-err));
		if (ask_of(r) == ASK_PC)
			run->pc_status[port_of(r)] = err;
		return;
	}
	run->total++;
}

static bool first_of_node(const struct rk_sweep *sweep, size_t i)
{
	return i == 0 || sweep->ports[i - 1].node != sweep->ports[i].node;
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

/* ---- capabilities ------------------------------------------------------------------------ */

/* ClassPortInfo's CapabilityMask, or PortSamplesControl's Tick (what a PortXmitWait tick is). */
static void capability_done(struct rk_mad_request *request, void *ctx)
{
	struct sweep_run *run = ctx;
	struct rk_fabric_node *node = &run->fabric->nodes[run->sweep->ports[port_of(request)].node];
	void *data = (void *)rk_mad_reply_data(request);

	if (request->status != 0)
		return;
	if (ask_of(request) == ASK_SAMPLES) {
		node->pm_tick = (uint16_t)(mad_get_field(data, 0, IB_PSC_TICK_F) + 1);
		node->pm_vl_wait =
		    mad_get_field64(data, 0, IB_PSC_OPTION_MASK_F) & PSC_OPTION_VL_XMIT_WAIT
			? RK_PM_SUPPORTED
			: RK_PM_UNSUPPORTED;
		return;
	}
	node->pm_known = true;
	node->pm_cap_mask = (uint16_t)mad_get_field(data, 0, IB_CPI_CAPMASK_F);
	node->pm_cap_mask2 = mad_get_field(data, 0, IB_CPI_CAPMASK2_F);
}

/* ClassPortInfo and PortSamplesControl of every node not asked yet: does it have
 * PortCountersExtended, how long is its PortXmitWait tick, and does it count the wait of each
 * VL (PortVLXmitWaitCounters, an optional attribute no capability bit announces)? (ibsim has no
 * PortSamplesControl: it hands the MAD to a client of the node's, and disconnects that client,
 * OpenSM, when it cannot take it.) */
static bool capability_request(struct sweep_run *run, size_t i, unsigned ask,
			       struct rk_mad_request *r)
{
	const struct rk_sweep_port *p = &run->sweep->ports[i];

	if (run->fabric->nodes[p->node].pm_known || !p->lid || !first_of_node(run->sweep, i))
		return false;
	if (ask == 0)
		pma_request(r, p->lid, RK_PMA_ATTR_CLASS_PORT_INFO, 0, 0, i, ASK_CAPABILITY);
	else if (run->samples_control)
		pma_request(r, p->lid, RK_PMA_ATTR_PORT_SAMPLES_CONTROL, IB_PSC_PORT_SELECT_F,
			    p->port, i, ASK_SAMPLES);
	else
		return false;
	return true;
}

/* ---- counters ---------------------------------------------------------------------------- */

/* errors_only: whether port i is the first swept port of a switch worth asking for the sum
 * of every port (one MAD instead of one per port: it answers them, and has several swept). */
static bool wants_sum(const struct sweep_run *run, size_t i)
{
	const struct rk_sweep *sweep = run->sweep;
	const struct rk_fabric_node *node = &run->fabric->nodes[sweep->ports[i].node];

	return sweep->errors_only && node->type == RK_NODE_SWITCH && node->pm_known &&
	       (node->pm_cap_mask & PM_CAP_ALL_PORT_SELECT) && first_of_node(sweep, i) &&
	       i + 1 < sweep->count && sweep->ports[i + 1].node == sweep->ports[i].node;
}

static void pc_request(const struct sweep_run *run, size_t i, struct rk_mad_request *r)
{
	const struct rk_sweep_port *p = &run->sweep->ports[i];

	pma_request(r, p->lid, RK_PMA_ATTR_PORT_COUNTERS, IB_PC_PORT_SELECT_F, p->port, i, ASK_PC);
}

static void ext_request(const struct sweep_run *run, size_t i, struct rk_mad_request *r)
{
	const struct rk_sweep_port *p = &run->sweep->ports[i];

	pma_request(r, p->lid, RK_PMA_ATTR_PORT_COUNTERS_EXTENDED, IB_PC_EXT_PORT_SELECT_F, p->port,
		    i, ASK_EXT);
}

static void counters_done(struct rk_mad_request *request, void *ctx);

/* A switch's sum answered: clean, each of its swept ports is clean; else (errors, or no
 * answer) each port is asked on its own. */
static void sum_done(struct sweep_run *run, size_t first, const struct rk_mad_request *request)
{
	const struct rk_sweep *sweep = run->sweep;
	bool clean = request->status == 0 && !answer_has_errors(run, rk_mad_reply_data(request));
	struct rk_mad_request r;

	for (size_t i = first; i < sweep->count && sweep->ports[i].node == sweep->ports[first].node;
	     i++) {
		if (!sweep->ports[i].lid)
			continue;
		if (clean) {
			run->got[i] |= GOT_CLEAN;
			continue;
		}
		pc_request(run, i, &r);
		add_request(run, &r, counters_done);
	}
}

/* errors_only: a port whose PortCounters show errors gets its PortCountersExtended asked. */
static void pc_done(struct sweep_run *run, size_t i)
{
	struct rk_mad_request r;

	if (run->sweep->errors_only &&
	    node_has_ext(&run->fabric->nodes[run->sweep->ports[i].node]) &&
	    rk_sweep_port_has_errors(&run->sweep->ports[i])) {
		ext_request(run, i, &r);
		add_request(run, &r, counters_done);
	}
}

static void counters_done(struct rk_mad_request *request, void *ctx)
{
	struct sweep_run *run = ctx;
	size_t i = port_of(request);
	enum ask ask = ask_of(request);

	if (ask == ASK_SUM) {
		sum_done(run, i, request);
	} else if (request->status == 0) {
		store_counters(run, i, rk_mad_reply_data(request), ask == ASK_EXT);
		if (ask == ASK_PC)
			pc_done(run, i);
	} else if (ask == ASK_PC) {
		run->pc_status[i] = request->status;
	}
	if (run->progress)
		run->progress(++run->done, run->total, run->ctx);
}

/* The counter requests of port i: its switch's sum (errors_only, on its first port), else
 * its PortCounters, and PortCountersExtended where supported (errors_only: asked from the
 * completion of a PortCounters with errors). */
static bool counter_request(struct sweep_run *run, size_t i, unsigned ask, struct rk_mad_request *r)
{
	const struct rk_sweep_port *p = &run->sweep->ports[i];

	if (!p->lid)
		return false;
	if (ask == 0 && wants_sum(run, i)) {
		for (size_t j = i; j < run->sweep->count && run->sweep->ports[j].node == p->node;
		     j++)
			run->got[j] |= GOT_SUMMED;
		pma_request(r, p->lid, RK_PMA_ATTR_PORT_COUNTERS, IB_PC_PORT_SELECT_F, ALL_PORTS, i,
			    ASK_SUM);
	} else if (run->got[i] & GOT_SUMMED) {
		return false;
	} else if (ask == 0) {
		pc_request(run, i, r);
	} else if (!run->sweep->errors_only && node_has_ext(&run->fabric->nodes[p->node])) {
		ext_request(run, i, r);
	} else {
		return false;
	}
	run->total++;
	return true;
}

/* ---- identities -------------------------------------------------------------------------- */

/* Whether the port's data counters rose by more than twice what its link carries since the
 * start of the sweep before, or went back in 64 bits (which never wrap in practice); both
 * samples of the same width. */
static bool data_jumped(const struct sweep_run *run, size_t i)
{
	const struct rk_sweep_port *p = &run->sweep->ports[i];
	const struct rk_sweep *sweep = run->sweep;
	bool extended = run->got[i] & GOT_EXT;
	double most;

	if (extended != p->extended || sweep->last_time <= 0)
		return false;
	most = 2 * rk_fabric_port_data_gbps(&run->fabric->nodes[p->node], p->port) * 1e9 / 8 *
	       (rk_monotonic_seconds() - (sweep->last_time - sweep->seconds));
	for (size_t k = 0; k < 2; k++) {
		size_t c = run->data[k];

		if (p->prev_state[c] == RK_VALUE_UNAVAILABLE)
			continue;
		if (p->raw[c] < p->prev[c]) {
			if (extended)
				return true;
		} else if (most > 0 &&
			   (double)(p->raw[c] - p->prev[c]) * run->pma[c].scale > most) {
			return true;
		}
	}
	return false;
}

/* An answer that may be another node's: through a LID another node of the view has too; with
 * a counter that does not wrap less than the port's sample before (the node rebooted, or the
 * SM gave its LID to another node); with data beyond what its link carries; or with errors
 * that rose (before an operator is told of them: a node the view does not know may have the
 * LID now). */
static bool answer_suspect(const struct sweep_run *run, size_t i)
{
	const struct rk_sweep_port *p = &run->sweep->ports[i];

	if (p->lid_shared && (run->got[i] & (GOT_PC | GOT_CLEAN)))
		return true;
	if (!(run->got[i] & GOT_PC) || !p->sampled)
		return false; /* after a sweep without its answer, against the last one credited */
	for (size_t c = 0; c < RK_SWEEP_COUNTERS; c++) {
		const struct rk_metric *m = &run->pma[c];

		if (!m->wraps && p->raw[c] < p->prev[c])
			return true; /* went back */
		if (m->is_error && m->pma_field && p->prev_state[c] != RK_VALUE_UNAVAILABLE &&
		    p->raw[c] > p->prev[c])
			return true; /* errors rose */
	}
	return data_jumped(run, i);
}

/* NodeInfo through the LID of each node with a suspect answer (once a node). */
static bool identity_request(struct sweep_run *run, size_t i, unsigned ask,
			     struct rk_mad_request *r)
{
	const struct rk_sweep_port *p = &run->sweep->ports[i];

	if (ask != 0 || p->node == run->last_node || !answer_suspect(run, i))
		return false;
	run->last_node = p->node;
	*r = (struct rk_mad_request){.route = RK_MAD_LID,
				     .mgmt_class = RK_MAD_CLASS_SMP,
				     .lid = p->lid,
				     .method = RK_MAD_METHOD_GET,
				     .attr_id = RK_SMP_ATTR_NODE_INFO,
				     .user = (void *)(i << ASK_BITS | ASK_IDENTITY)};
	return true;
}

/* The node whose LID answered for another: none of this sweep's answers of its ports count.
 * A LID the view gives another node too is not news to a rediscovery (said once, while it
 * lasts); any other is. */
static void drop_node_answers(struct sweep_run *run, size_t first)
{
	struct rk_sweep *sweep = run->sweep;
	const struct rk_sweep_port *p = &sweep->ports[first];
	int node = p->node;

	if (!p->lid_shared)
		rk_log(RK_LOG_WARNING,
		       "LID %u answers for another node than %s: its counters are not credited, "
		       "and the fabric is discovered again",
		       p->lid, run->fabric->nodes[node].name);
	else if (p->status != -ESTALE)
		rk_log(RK_LOG_WARNING,
		       "LID %u of %s is another node's too, and answers for that one: its counters "
		       "are not credited while the SM gives the LID twice",
		       p->lid, run->fabric->nodes[node].name);
	sweep->topology_stale |= !p->lid_shared;
	for (size_t i = first; i < sweep->count && sweep->ports[i].node == node; i++) {
		run->got[i] &= (uint8_t) ~(GOT_PC | GOT_EXT | GOT_CLEAN);
		run->pc_status[i] = -ESTALE;
	}
}

/* A NodeInfo answer: the GUID must be the node's (none has GUID 0: such an answer says
 * nothing); else every port of the node is dropped. */
static void identity_done(struct rk_mad_request *request, void *ctx)
{
	struct sweep_run *run = ctx;
	size_t at = port_of(request);
	uint64_t guid = mad_get_field64((void *)rk_mad_reply_data(request), 0, IB_NODE_GUID_F);

	if (request->status != 0 || !guid || guid == run->sweep->ports[at].node_guid)
		return;
	while (!first_of_node(run->sweep, at))
		at--;
	drop_node_answers(run, at);
}

/* ---- waits per VL ------------------------------------------------------------------------ */

/* Whether the port's wait may have risen since its VL counters were read last: a VL waits only
 * while its port does, so where the port's wait did not rise every VL's rise is 0 and its last
 * reading still holds. */
static bool vl_wait_wanted(const struct sweep_run *run, const struct rk_sweep_port *p)
{
	return !p->vl_current || !rk_sweep_delta_known(p, run->wait) ||
	       p->state[run->wait] == RK_VALUE_SATURATED || rk_sweep_delta(p, run->wait) > 0;
}

/* PortVLXmitWaitCounters of each port that answered, whose node may have them and whose wait
 * rose; the others' VL waits are settled here: none where the port's wait did not rise,
 * unknown where the port is not asked. */
static bool vl_wait_request(struct sweep_run *run, size_t i, unsigned ask, struct rk_mad_request *r)
{
	struct rk_sweep_port *p = &run->sweep->ports[i];
	bool asked = p->status == 0 && run->fabric->nodes[p->node].pm_vl_wait != RK_PM_UNSUPPORTED;

	if (ask != 0)
		return false;
	if (asked && vl_wait_wanted(run, p)) {
		pma_request(r, p->lid, RK_PMA_ATTR_PORT_VL_XMIT_WAIT, IB_PC_PORT_SELECT_F, p->port,
			    i, ASK_VL_WAIT);
		run->total++;
		return true;
	}
	p->vl_current = p->vl_known = asked;
	memset(p->vl_rise, 0, sizeof(p->vl_rise));
	p->vl_saturated = 0;
	return false;
}

/* Each VL's rise since the port's last reading (the VL counters stick at their maximum). */
static void store_vl_waits(const struct rk_metric *m, struct rk_sweep_port *p, const uint8_t *data)
{
	p->vl_saturated = 0;
	for (unsigned v = 0; v < RK_SWEEP_VLS; v++) {
		uint16_t now = (uint16_t)mad_get_field((void *)data, 0,
						       (enum MAD_FIELDS)(m->pma_field + (int)v));

		p->vl_rise[v] =
		    p->vl_current ? (uint16_t)rk_counter_raw_delta(m, p->vl_raw[v], now) : 0;
		if (rk_counter_classify(m, now) == RK_VALUE_SATURATED)
			p->vl_saturated |= (uint16_t)(1u << v);
		p->vl_raw[v] = now;
	}
	p->vl_known = p->vl_current;
	p->vl_current = true;
}

/* A VL answer; a node whose PMA refuses the attribute (an answer with a MAD status) is not
 * asked again until the fabric is discovered anew. */
static void vl_wait_done(struct rk_mad_request *request, void *ctx)
{
	struct sweep_run *run = ctx;
	struct rk_sweep_port *p = &run->sweep->ports[port_of(request)];
	struct rk_fabric_node *node = &run->fabric->nodes[p->node];

	if (request->status == 0) {
		node->pm_vl_wait = RK_PM_SUPPORTED;
		store_vl_waits(run->vl_wait, p, rk_mad_reply_data(request));
	} else {
		if (request->status == -EIO && request->mad_status)
			node->pm_vl_wait = RK_PM_UNSUPPORTED;
		p->vl_current = p->vl_known = false;
	}
	if (run->progress)
		run->progress(++run->done, run->total, run->ctx);
}

int rk_sweep_vl_waits(const struct rk_sweep_port *port, struct rk_vl_wait out[RK_SWEEP_VLS])
{
	int n = 0;

	if (!port->vl_known)
		return -1;
	for (unsigned v = 0; v < RK_SWEEP_VLS; v++) {
		bool saturated = port->vl_saturated >> v & 1;

		if (port->vl_rise[v] || saturated)
			out[n++] = (struct rk_vl_wait){
			    .vl = (uint8_t)v, .ticks = port->vl_rise[v], .saturated = saturated};
	}
	return n;
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

/* sweeps << flaps, the flaps capped at RK_FLAP_DOUBLINGS_MAX. */
static unsigned damped(unsigned sweeps, uint8_t flaps)
{
	return sweeps << (flaps < RK_FLAP_DOUBLINGS_MAX ? flaps : RK_FLAP_DOUBLINGS_MAX);
}

unsigned rk_sweep_no_answer_raise_sweeps(const struct rk_sweep_port *port)
{
	return damped(RK_NO_ANSWER_SWEEPS, port->no_answer_flaps);
}

unsigned rk_sweep_no_answer_clear_sweeps(const struct rk_sweep_port *port)
{
	return damped(RK_NO_ANSWER_CLEAR_SWEEPS, port->no_answer_flaps);
}

unsigned rk_sweep_errors_quiet_sweeps(const struct rk_sweep_port *port)
{
	return damped(RK_ERRORS_QUIET_SWEEPS, port->rise_flaps);
}

/* An answer: a port that was PORT_NO_ANSWER keeps the finding until it has answered
 * rk_sweep_no_answer_clear_sweeps() sweeps in a row, and is then on probation; one on
 * probation forgets its flaps after RK_NO_ANSWER_PROBATION_SWEEPS answers in a row. */
static void hold_no_answer(struct rk_sweep_port *p)
{
	if (p->unanswered >= rk_sweep_no_answer_raise_sweeps(p))
		p->no_answer_held = true;
	p->unanswered = 0;
	if (p->no_answer_held) {
		if (++p->answered_again < rk_sweep_no_answer_clear_sweeps(p))
			return;
		p->no_answer_held = false;
		p->probation = RK_NO_ANSWER_PROBATION_SWEEPS;
	} else if (p->probation && --p->probation == 0) {
		p->no_answer_flaps = 0;
	}
}

/* One more time the port answered and then failed again (saturating). */
static void count_flap(struct rk_sweep_port *p)
{
	if (p->no_answer_flaps < UINT8_MAX)
		p->no_answer_flaps++;
}

/* A port that did not answer: a flap when it had answered since PORT_NO_ANSWER was raised, or
 * fails again on probation; a new outage otherwise. */
static void count_no_answer(struct rk_sweep_port *p)
{
	bool answered_before = p->unanswered == 0;

	p->unanswered += p->unanswered < UINT8_MAX;
	if (p->no_answer_held) {
		if (p->answered_again)
			count_flap(p);
	} else if (p->probation) {
		if (answered_before)
			count_flap(p);
		p->probation = RK_NO_ANSWER_PROBATION_SWEEPS;
	} else {
		p->no_answer_flaps = 0;
	}
	p->answered_again = 0;
}

/* Sweeps since the port's error counters last rose; a rise after a quiet sweep while
 * ERRORS_RISING is raised is a flap. */
static void count_quiet_sweeps(struct rk_sweep_port *p, bool rose)
{
	bool raised = p->since_rise < rk_sweep_errors_quiet_sweeps(p);

	if (!rose) {
		p->since_rise += p->since_rise < UINT8_MAX;
		return;
	}
	if (!raised)
		p->rise_flaps = 0;
	else if (p->since_rise > 0 && p->rise_flaps < UINT8_MAX)
		p->rise_flaps++;
	p->since_rise = 0;
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
		count_no_answer(p);
		p->last_failure = p->status;
		run->sweep->topology_stale |= had; /* it answered before */
		return;
	}
	p->has_delta = had;
	p->sampled = true;
	hold_no_answer(p);
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
		count_quiet_sweeps(p, errors_rose(run, p));
}

/* Classify every port's answers, and count them. */
static void finish_ports(struct sweep_run *run)
{
	struct rk_sweep *sweep = run->sweep;

	sweep->answered = sweep->failed = 0;
	sweep->topology_stale = false;
	for (size_t i = 0; i < sweep->count; i++) {
		finish_port(run, i);
		if (sweep->ports[i].status == 0)
			sweep->answered++;
		else
			sweep->failed++;
	}
}

static void finish_sweep(struct rk_sweep *sweep, double start)
{
	double now = rk_monotonic_seconds();

	sweep->interval = sweep->last_time > 0 ? now - sweep->last_time : 0;
	sweep->last_time = now;
	sweep->seconds = now - start;
}

static int alloc_run(struct sweep_run *run, struct rk_sweep *sweep)
{
	size_t n = sweep->count ? sweep->count : 1;

	run->sweep = sweep;
	run->got = calloc(n, sizeof(*run->got));
	run->pc_status = calloc(n, sizeof(*run->pc_status));
	return run->got && run->pc_status ? 0 : -ENOMEM;
}

/* Capabilities, then counters, then the identity of nodes whose counters went back; the ports
 * classified, the VL waits of those whose wait rose where the caller asks for them. */
static int run_phases(struct sweep_run *run)
{
	int err = run_phase(run, capability_request, capability_done);

	for (size_t i = 0; !err && i < run->sweep->count; i++)
		start_port(&run->sweep->ports[i]);
	if (!err)
		err = run_phase(run, counter_request, counters_done);
	if (!err)
		err = run_phase(run, identity_request, identity_done);
	if (!err)
		finish_ports(run);
	if (!err && run->sweep->vl_wait)
		err = run_phase(run, vl_wait_request, vl_wait_done);
	return err;
}

int rk_sweep_run(struct rk_mad_port *port, struct rk_fabric *fabric, struct rk_sweep *sweep,
		 const struct rk_mad_options *options, rk_sweep_progress_fn progress, void *ctx)
{
	struct sweep_run run = {.fabric = fabric,
				.progress = progress,
				.ctx = ctx,
				.samples_control = !rk_rdma_stack_simulated()};
	double start = rk_monotonic_seconds();
	size_t ignored;
	int err = alloc_run(&run, sweep);

	run.pma = rk_catalog_pma(&ignored);
	run.vl_wait = rk_catalog_find(RK_SRC_PORT_VL_COUNTERS, "port_vl_xmit_wait");
	run.wait = (size_t)rk_catalog_pma_index("port_xmit_wait");
	run.data[0] = (size_t)rk_catalog_pma_index("port_xmit_data");
	run.data[1] = (size_t)rk_catalog_pma_index("port_rcv_data");
	memset(&sweep->stats, 0, sizeof(sweep->stats));
	if (!err)
		err = rk_mad_queue_open(port, options, &run.queue);
	if (!err) {
		err = run_phases(&run);
		rk_mad_queue_stats(run.queue, &sweep->stats);
		rk_mad_queue_close(run.queue);
	}
	if (!err)
		finish_sweep(sweep, start);
	free(run.got);
	free(run.pc_status);
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
		return "no LID: its PortInfo was not read, or the SM has not given it one";
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

/* rk_sweep_reset's feed: a PortCounters Set of each port, clearing the selected counters. */
struct reset_run {
	const struct rk_sweep *sweep;
	uint32_t select_mask;
	size_t next, failed;
};

static bool reset_next(struct rk_mad_request *r, void *ctx)
{
	struct reset_run *run = ctx;
	const struct rk_sweep_port *p;

	if (run->next == run->sweep->count)
		return false;
	p = &run->sweep->ports[run->next];
	pma_request(r, p->lid, RK_PMA_ATTR_PORT_COUNTERS, IB_PC_PORT_SELECT_F, p->port, run->next,
		    ASK_PC);
	r->method = RK_MAD_METHOD_SET;
	mad_set_field(r->data, 0, IB_PC_COUNTER_SELECT_F, run->select_mask);
	run->next++;
	return true;
}

static void reset_done(struct rk_mad_request *r, void *ctx)
{
	((struct reset_run *)ctx)->failed += r->status != 0;
}

int rk_sweep_reset(struct rk_mad_port *port, const struct rk_sweep *sweep, uint32_t select_mask,
		   const struct rk_mad_options *options, size_t *failed)
{
	struct reset_run run = {.sweep = sweep, .select_mask = select_mask};
	struct rk_mad_queue *queue;
	int err = rk_mad_queue_open(port, options, &queue);

	*failed = 0;
	if (err)
		return err;
	rk_mad_queue_feed(queue, reset_next, reset_done, &run);
	err = rk_mad_queue_run(queue, 0);
	rk_mad_queue_close(queue);
	if (!err)
		*failed = run.failed;
	return err;
}
