/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The MAD engine: a queue of requests sent with a window, per-agent caps, timeouts and retries. */
#include "mad_port.h"

#include "rdmakit/log.h"

#include <endian.h>
#include <errno.h>
#include <infiniband/mad.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAD_HDR_SIZE  24   /* common MAD header: what the kernel hands back on a send timeout */
#define DRAIN_MAX     256  /* MADs read in a row before deadlines are looked at again */
#define SEND_BURST    4	   /* MADs sent in a row before what has arrived is read */
#define PACE_WAIT_MS  1	   /* after a burst, the wait for an answer when more are in flight */
#define WAITING_MAX   4096 /* a feed's requests held back at full destinations, at most */
#define ENTRY_BLOCK   256  /* requests allocated at a time */
#define NSEC_PER_MSEC 1000000ULL

/*
 * Transaction ids (the low 32 bits; the kernel owns the high ones): a slot number in the low
 * SLOT_BITS, above it the port's send number, counted up at every send (never 0). A slot knows
 * the send numbers of its request's first and latest attempts, so an answer maps back to its
 * request in O(1); a late answer to an earlier attempt of a request still in flight is still an
 * answer to the same query (taken); a kernel timeout of an earlier attempt cannot end the
 * current one; anything for a request completed, or from an earlier queue, is ignored (the
 * kernel drops answers after its own timeout, long before the send numbers come round).
 */
#define SLOT_BITS 13
#define SEND_MASK ((UINT32_C(1) << (32 - SLOT_BITS)) - 1)
#define SLOTS_MAX (1u << SLOT_BITS)

enum mad_kind { KIND_GMP, KIND_SMP, KINDS };

/* A request in the queue: the engine's copy, and the list it is on. */
struct entry {
	struct rk_mad_request req;
	rk_mad_done_fn done;
	void *ctx;
	struct entry *next;
	uint64_t key; /* its destination */
	int agent;    /* enum agent_kind, or -1 when malformed */
	enum mad_kind kind;
};

struct list {
	struct entry *head, *tail;
	size_t length;
};

/* Where requests go: one per destination agent (a LID and class, or a directed-route path),
 * with the requests waiting for room there, in order. */
struct dest {
	uint64_t key;
	bool used;
	unsigned in_flight; /* sent, or picked to go next (on a ready list) */
	struct list waiting;
};

/* A MAD in flight. */
struct slot {
	struct entry *entry;  /* NULL: free */
	uint32_t first, last; /* send numbers of its first and latest attempts */
	uint64_t deadline;    /* CLOCK_MONOTONIC ns: end of the current attempt */
	uint8_t *umad;	      /* umad header + MAD, built once per request */
};

struct entry_block {
	struct entry_block *next;
	struct entry entries[ENTRY_BLOCK];
};

struct rk_mad_queue {
	struct rk_mad_port *port;
	struct rk_mad_options opt;
	unsigned max_attempts, window[KINDS], in_flight[KINDS];
	struct rk_mad_stats stats;
	struct slot *slots;
	unsigned nslots, nfree;
	unsigned *free_slots; /* stack of free slot numbers */
	uint8_t *buffers;     /* the slots' send buffers, then the receive buffer */
	uint8_t *recv;
	struct dest *dests; /* open addressing, dest_mask + 1 entries */
	size_t dest_mask, ndests, waiting;
	struct list queued;	  /* added, not looked at yet */
	struct list ready[KINDS]; /* their destination has room for them */
	struct list spare;	  /* free entries */
	struct entry_block *blocks;
	size_t open; /* added or fed, not completed */
	rk_mad_next_fn next;
	rk_mad_done_fn feed_done;
	void *feed_ctx;
	bool running;
	size_t invalid, send_failures; /* logged once, then summed up */
	/* MADs left in flight when the open requests were aborted: their answers are waited for
	 * at the close (settle) */
	uint64_t settle_until;
	size_t settle_pending, settle_ignored; /* how many, and stats.ignored when they were */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static size_t umad_buffer_size(void)
{
	return umad_size() + IB_MAD_SIZE;
}

/* ---- lists and entries ------------------------------------------------------------------- */

static void list_push(struct list *list, struct entry *e)
{
	e->next = NULL;
	if (list->tail)
		list->tail->next = e;
	else
		list->head = e;
	list->tail = e;
	list->length++;
}

static struct entry *list_pop(struct list *list)
{
	struct entry *e = list->head;

	if (!e)
		return NULL;
	list->head = e->next;
	if (!list->head)
		list->tail = NULL;
	list->length--;
	return e;
}

static struct entry *entry_new(struct rk_mad_queue *q)
{
	struct entry_block *block;

	if (q->spare.head)
		return list_pop(&q->spare);
	block = calloc(1, sizeof(*block));
	if (!block)
		return NULL;
	block->next = q->blocks;
	q->blocks = block;
	for (size_t i = 1; i < ENTRY_BLOCK; i++)
		list_push(&q->spare, &block->entries[i]);
	return &block->entries[0];
}

/* ---- options ----------------------------------------------------------------------------- */

void rk_mad_options_defaults(struct rk_mad_options *options)
{
	options->window = RK_MAD_DEFAULT_WINDOW;
	options->timeout_ms = RK_MAD_DEFAULT_TIMEOUT_MS;
	options->retries = RK_MAD_DEFAULT_RETRIES;
	options->cancel = NULL;
}

static int check_option(enum rk_setting setting, const char *name, unsigned value)
{
	char msg[96];

	if (rk_limit_check(setting, value, msg, sizeof(msg)) == 0)
		return 0;
	rk_log(RK_LOG_ERR, "MAD options: %s %u: %s", name, value, msg);
	return -EINVAL;
}

static int resolve_options(const struct rk_mad_options *in, struct rk_mad_options *out)
{
	rk_mad_options_defaults(out);
	if (!in)
		return 0;
	if (in->window)
		out->window = in->window;
	if (in->timeout_ms)
		out->timeout_ms = in->timeout_ms;
	out->retries = in->retries;
	out->cancel = in->cancel;
	if (check_option(RK_SETTING_WINDOW, "window", out->window) ||
	    check_option(RK_SETTING_TIMEOUT_MS, "timeout (ms)", out->timeout_ms) ||
	    check_option(RK_SETTING_RETRIES, "retries", out->retries))
		return -EINVAL;
	return 0;
}

/* ---- requests ---------------------------------------------------------------------------- */

/* The agent a request goes out on, or -1 when the request is malformed. */
static int request_agent(const struct rk_mad_request *req)
{
	if (req->method != RK_MAD_METHOD_GET && req->method != RK_MAD_METHOD_SET)
		return -1;
	if (req->route == RK_MAD_DIRECTED)
		return req->hops <= RK_MAD_MAX_HOPS ? AGENT_DR : -1;
	if (req->route != RK_MAD_LID || !rk_lid_is_unicast(req->lid))
		return -1;
	if (req->mgmt_class == RK_MAD_CLASS_SMP)
		return AGENT_SMP;
	if (req->mgmt_class == RK_MAD_CLASS_PERF)
		return AGENT_PERF;
	if (req->mgmt_class == RK_MAD_CLASS_SA)
		return AGENT_SA;
	return -1;
}

/* Encode the request into a umad buffer with libibmad (addresses, header, DR path, data). */
static int build_umad(uint8_t *umad, struct rk_mad_request *req, int agent)
{
	ib_rpc_t rpc;
	ib_portid_t dport;

	memset(umad, 0, umad_buffer_size());
	memset(&rpc, 0, sizeof(rpc));
	memset(&dport, 0, sizeof(dport));
	rpc.method = req->method;
	rpc.attr.id = req->attr_id;
	rpc.attr.mod = req->attr_mod;
	rpc.dataoffs = RK_MAD_DATA_OFFSET;
	rpc.datasz = IB_SMP_DATA_SIZE;
	rpc.trid = 1; /* nonzero: libibmad would draw one; each attempt sets its own */
	if (agent == AGENT_DR) {
		rpc.mgtclass = IB_SMI_DIRECT_CLASS;
		rpc.mkey = req->mkey;
		dport.drpath.cnt = req->hops;
		memcpy(dport.drpath.p, req->path, (size_t)req->hops + 1);
		dport.drpath.p[0] = 0;
		dport.drpath.drslid = 0xffff;
		dport.drpath.drdlid = 0xffff;
	} else if (agent == AGENT_SMP) {
		rpc.mgtclass = IB_SMI_CLASS;
		rpc.mkey = req->mkey;
		dport.lid = req->lid;
		dport.qp = 0;
	} else {
		rpc.mgtclass = agent == AGENT_SA ? IB_SA_CLASS : IB_PERFORMANCE_CLASS;
		rpc.datasz = IB_PC_DATA_SZ;
		if (agent == AGENT_SA) {
			rpc.dataoffs = RK_SA_DATA_OFFSET;
			rpc.datasz = IB_SA_DATA_SIZE; /* to the MAD's end, not past it */
			rpc.mask = req->component_mask;
		}
		dport.lid = req->lid;
		dport.qp = 1;
		dport.qkey = IB_DEFAULT_QP1_QKEY;
	}
	return mad_build_pkt(umad, &rpc, &dport, NULL, req->data) < 0 ? -EINVAL : 0;
}

static uint64_t mix(uint64_t hash, uint64_t value)
{
	return (hash ^ value) * 0x100000001b3ULL; /* FNV-1a's prime */
}

/* Who answers a request: the agent kind and LID, or the directed-route path. Two destinations
 * with the same key share one cap, which is only stricter. */
static uint64_t dest_key(const struct rk_mad_request *req, int agent)
{
	uint64_t key = mix(0xcbf29ce484222325ULL, (uint64_t)agent);

	if (agent != AGENT_DR)
		return mix(key, req->lid);
	key = mix(key, req->hops);
	for (unsigned h = 1; h <= req->hops; h++)
		key = mix(key, req->path[h]);
	return key;
}

/* Fill in what the engine keeps of a new request, and count it open. */
static void enlist(struct rk_mad_queue *q, struct entry *e, rk_mad_done_fn done, void *ctx)
{
	e->done = done;
	e->ctx = ctx;
	e->agent = request_agent(&e->req);
	e->kind = e->agent == AGENT_PERF || e->agent == AGENT_SA ? KIND_GMP : KIND_SMP;
	e->key = e->agent < 0 ? 0 : dest_key(&e->req, e->agent);
	e->req.attempts = 0;
	e->req.mad_status = 0;
	e->req.status = -EINPROGRESS;
	memset(e->req.reply, 0, sizeof(e->req.reply));
	q->open++;
}

/* ---- destinations ------------------------------------------------------------------------ */

static struct dest *dest_slot(struct dest *table, size_t mask, uint64_t key)
{
	size_t at = (size_t)(key ^ (key >> 29)) & mask;

	while (table[at].used && table[at].key != key)
		at = (at + 1) & mask;
	return &table[at];
}

/* Double the table (it is kept at most half full); false when out of memory. */
static bool dests_grow(struct rk_mad_queue *q)
{
	size_t size = (q->dest_mask + 1) * 2;
	struct dest *table = calloc(size, sizeof(*table));

	if (!table)
		return false;
	for (size_t i = 0; i <= q->dest_mask; i++)
		if (q->dests[i].used)
			*dest_slot(table, size - 1, q->dests[i].key) = q->dests[i];
	free(q->dests);
	q->dests = table;
	q->dest_mask = size - 1;
	return true;
}

/* The destination of key, made when new; NULL when out of memory. */
static struct dest *dest_of(struct rk_mad_queue *q, uint64_t key)
{
	struct dest *d = dest_slot(q->dests, q->dest_mask, key);

	if (d->used)
		return d;
	if (2 * (q->ndests + 1) > q->dest_mask + 1) {
		if (!dests_grow(q))
			return NULL;
		d = dest_slot(q->dests, q->dest_mask, key);
	}
	d->used = true;
	d->key = key;
	q->ndests++;
	return d;
}

static unsigned per_agent_cap(enum mad_kind kind)
{
	return kind == KIND_SMP ? RK_MAD_SMP_MAX_PER_AGENT : RK_MAD_MAX_PER_AGENT;
}

/* ---- completing -------------------------------------------------------------------------- */

static void finish(struct rk_mad_queue *q, struct entry *e, int status)
{
	e->req.status = status;
	if (status == 0)
		q->stats.answered++;
	else if (status == -ETIMEDOUT)
		q->stats.timeouts++;
	else
		q->stats.errors++;
	q->open--;
	if (e->done)
		e->done(&e->req, e->ctx);
	list_push(&q->spare, e);
}

static void reject(struct rk_mad_queue *q, struct entry *e, const char *why)
{
	const struct rk_mad_request *req = &e->req;

	if (q->invalid++ == 0)
		rk_log(RK_LOG_WARNING,
		       "MAD request (route %d, class 0x%02x, lid %u, hops %u, method 0x%02x, attr "
		       "0x%04x) not sent: %s",
		       (int)req->route, (unsigned)req->mgmt_class, (unsigned)req->lid,
		       (unsigned)req->hops, (unsigned)req->method, (unsigned)req->attr_id, why);
	finish(q, e, -EINVAL);
}

/* A request that went to its destination is over: the first one waiting there goes next. */
static void leave_dest(struct rk_mad_queue *q, const struct entry *e)
{
	struct dest *d = dest_slot(q->dests, q->dest_mask, e->key);
	struct entry *waiting = list_pop(&d->waiting);

	if (!waiting) {
		d->in_flight--;
		return;
	}
	q->waiting--;
	list_push(&q->ready[waiting->kind], waiting);
}

/* Release a slot and complete its request. */
static void finish_slot(struct rk_mad_queue *q, unsigned s, int status)
{
	struct entry *e = q->slots[s].entry;

	q->slots[s].entry = NULL;
	q->free_slots[q->nfree++] = s;
	q->in_flight[e->kind]--;
	leave_dest(q, e);
	finish(q, e, status);
}

/* ---- starting ---------------------------------------------------------------------------- */

/* The next request added, or else fed, not placed anywhere yet; NULL when there is none (or
 * no memory for a fed one: the feed ends, logged). */
static struct entry *take_raw(struct rk_mad_queue *q)
{
	struct entry *e = list_pop(&q->queued);

	if (e || !q->next)
		return e;
	e = entry_new(q);
	if (!e || !q->next(&e->req, q->feed_ctx)) {
		if (!e)
			rk_log(RK_LOG_ERR, "MAD queue: out of memory: its feed ends early");
		else
			list_push(&q->spare, e);
		q->next = NULL;
		return NULL;
	}
	enlist(q, e, q->feed_done, q->feed_ctx);
	return e;
}

/* Place the next request added or fed: ready, or queued at its full destination; false when
 * there is none. */
static bool take_next(struct rk_mad_queue *q)
{
	struct entry *e = take_raw(q);
	struct dest *d;

	if (!e)
		return false;
	if (e->agent < 0) {
		reject(q, e, "bad route, class, LID, hop count or method");
		return true;
	}
	d = dest_of(q, e->key);
	if (!d) {
		finish(q, e, -ENOMEM);
		return true;
	}
	if (d->in_flight < per_agent_cap(e->kind)) {
		d->in_flight++;
		if (d->in_flight > q->stats.most_to_one_agent)
			q->stats.most_to_one_agent = d->in_flight;
		list_push(&q->ready[e->kind], e);
	} else {
		list_push(&d->waiting, e);
		q->waiting++;
	}
	return true;
}

/* The next request to send now (its kind's window and its destination have room); NULL when
 * none can go. Requests are looked at in order until enough are ready to fill the slots. */
static struct entry *next_startable(struct rk_mad_queue *q)
{
	for (;;) {
		for (int k = 0; k < KINDS; k++)
			if (q->ready[k].head && q->in_flight[k] < q->window[k])
				return list_pop(&q->ready[k]);
		if (q->ready[KIND_GMP].length + q->ready[KIND_SMP].length >= q->nslots ||
		    q->waiting >= WAITING_MAX || !take_next(q))
			return NULL;
	}
}

static uint32_t next_send(struct rk_mad_port *port)
{
	uint32_t send = port->next_send;

	port->next_send = (port->next_send + 1) & SEND_MASK;
	if (port->next_send == 0)
		port->next_send = 1;
	return send;
}

static void send_attempt(struct rk_mad_queue *q, unsigned s)
{
	struct slot *slot = &q->slots[s];
	struct entry *e = slot->entry;

	slot->last = next_send(q->port);
	if (e->req.attempts++ == 0)
		slot->first = slot->last;
	mad_set_field64(umad_get_mad(slot->umad), 0, IB_MAD_TRID_F,
			(uint64_t)slot->last << SLOT_BITS | s);
	slot->deadline = now_ns() + q->opt.timeout_ms * NSEC_PER_MSEC;
	/* The kernel timeout makes it hand the MAD back with status ETIMEDOUT (and match the
	 * answer to the send at all: with 0 it drops answers); our deadline covers the rest. */
	if (umad_send(q->port->fd, mad_port_agent(q->port, (enum agent_kind)e->agent), slot->umad,
		      IB_MAD_SIZE, (int)q->opt.timeout_ms, 0) < 0) {
		int err = errno ? errno : EIO;

		if (q->send_failures++ == 0)
			rk_log(RK_LOG_WARNING, "MAD request (lid %u, hops %u): send failed: %s",
			       (unsigned)e->req.lid, (unsigned)e->req.hops, strerror(err));
		finish_slot(q, s, -EIO);
		return;
	}
	q->stats.sent++;
	if (q->nslots - q->nfree > q->stats.most_in_flight)
		q->stats.most_in_flight = q->nslots - q->nfree;
}

static void start(struct rk_mad_queue *q, struct entry *e)
{
	unsigned s = q->free_slots[--q->nfree];

	if (mad_port_agent(q->port, (enum agent_kind)e->agent) < 0 ||
	    build_umad(q->slots[s].umad, &e->req, e->agent) < 0) {
		q->free_slots[q->nfree++] = s;
		leave_dest(q, e);
		reject(q, e, "no agent for its class, or libibmad cannot encode it");
		return;
	}
	q->slots[s].entry = e;
	q->in_flight[e->kind]++;
	send_attempt(q, s);
}

/* ---- receiving --------------------------------------------------------------------------- */

/* The current attempt got no answer (our deadline, or the kernel's timeout): retry or give up. */
static void attempt_failed(struct rk_mad_queue *q, unsigned s, int umad_status)
{
	if (q->slots[s].entry->req.attempts < q->max_attempts) {
		q->stats.retried++;
		send_attempt(q, s);
		return;
	}
	finish_slot(q, s, umad_status == ETIMEDOUT ? -ETIMEDOUT : -EIO);
}

/* An answer to what the slot sent: a response of the same class and attribute. */
static bool answers(const struct slot *slot, uint8_t *mad)
{
	uint8_t *sent = umad_get_mad(slot->umad);

	return mad_get_field(mad, 0, IB_MAD_RESPONSE_F) == 1 &&
	       mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F) ==
		   mad_get_field(sent, 0, IB_MAD_MGMTCLASS_F) &&
	       mad_get_field(mad, 0, IB_MAD_ATTRID_F) == mad_get_field(sent, 0, IB_MAD_ATTRID_F);
}

static void take_answer(struct rk_mad_queue *q, unsigned s, uint8_t *mad, int len)
{
	struct rk_mad_request *req = &q->slots[s].entry->req;
	size_t n = len < RK_MAD_SIZE ? (size_t)len : RK_MAD_SIZE;

	memcpy(req->reply, mad, n);
	if (mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F) == IB_SMI_DIRECT_CLASS)
		req->mad_status = (uint16_t)mad_get_field(mad, 0, IB_DRSMP_STATUS_F); /* no D bit */
	else
		req->mad_status = (uint16_t)mad_get_field(mad, 0, IB_MAD_STATUS_F);
	finish_slot(q, s, req->mad_status ? -EIO : 0);
}

/* A MAD nobody asked for: to the listener of its class and method, if there is one. */
static bool deliver_unsolicited(struct rk_mad_queue *q, uint8_t *mad, int len)
{
	const struct ib_user_mad *umad = (const struct ib_user_mad *)q->recv;
	const struct mad_listener *listener =
	    mad_port_listener(q->port, (uint8_t)mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F),
			      (uint8_t)mad_get_field(mad, 0, IB_MAD_METHOD_F));
	struct rk_mad_received received = {.mad = mad,
					   .length = (size_t)len,
					   .slid = be16toh(umad->addr.lid),
					   .sl = umad->addr.sl,
					   .qpn = be32toh(umad->addr.qpn),
					   .qkey = be32toh(umad->addr.qkey)};

	if (!listener)
		return false;
	q->stats.unsolicited++;
	listener->fn(&received, listener->ctx);
	return true;
}

/* The slot an answer's TID names, with the attempt it answers in *latest; -1 when none. */
static int slot_of_tid(const struct rk_mad_queue *q, uint32_t tid, bool *latest)
{
	unsigned s = tid & (SLOTS_MAX - 1);
	uint32_t send = tid >> SLOT_BITS;
	const struct slot *slot;

	if (s >= q->nslots)
		return -1;
	slot = &q->slots[s];
	if (!slot->entry ||
	    ((send - slot->first) & SEND_MASK) > ((slot->last - slot->first) & SEND_MASK))
		return -1;
	*latest = send == slot->last;
	return (int)s;
}

/* One received MAD: an answer, a send handed back with an error status, an unsolicited MAD,
 * or something stale. */
static void handle_mad(struct rk_mad_queue *q, int len)
{
	uint8_t *mad = umad_get_mad(q->recv);
	int status = umad_status(q->recv), s;
	bool latest;

	if (len < MAD_HDR_SIZE)
		goto ignore;
	if (!status && !mad_get_field(mad, 0, IB_MAD_RESPONSE_F)) {
		if (deliver_unsolicited(q, mad, len))
			return;
		goto ignore;
	}
	s = slot_of_tid(q, (uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F), &latest);
	if (s < 0)
		goto ignore;
	if (status) {
		/* Only the current attempt's failure counts; an earlier one was already retried. */
		if (!latest)
			goto ignore;
		attempt_failed(q, (unsigned)s, status);
		return;
	}
	if (!answers(&q->slots[s], mad))
		goto ignore;
	take_answer(q, (unsigned)s, mad, len);
	return;
ignore:
	q->stats.ignored++;
}

/* Read every MAD queued on the port (bounded). */
static int drain(struct rk_mad_queue *q)
{
	for (int i = 0; i < DRAIN_MAX; i++) {
		int len = IB_MAD_SIZE;
		int rc = umad_recv(q->port->fd, q->recv, &len, 0);

		if (rc == -EAGAIN || rc == -EINTR)
			return 0;
		if (rc < 0) {
			rk_log(RK_LOG_ERR, "%s:%d: cannot receive MADs: %s", q->port->ca,
			       q->port->portnum, strerror(-rc));
			return rc;
		}
		handle_mad(q, len);
	}
	return 0;
}

/* Milliseconds between two looks at a queue's cancel token while it waits for MADs. */
#define CANCEL_CHECK_MS 100

/* Wait for MADs and read them; -ECANCELED once the queue's token is raised (looked at every
 * CANCEL_CHECK_MS: the umad descriptor stays alone in its poll, as preloaded shims expect). */
static int wait_and_drain(struct rk_mad_queue *q, int wait_ms)
{
	struct pollfd pfd = {.fd = umad_get_fd(q->port->fd), .events = POLLIN};
	int n;

	if (q->opt.cancel && wait_ms > CANCEL_CHECK_MS)
		wait_ms = CANCEL_CHECK_MS;
	errno = 0;
	n = poll(&pfd, 1, wait_ms);
	if (rk_cancel_raised(q->opt.cancel))
		return -ECANCELED;
	if (n < 0) {
		/* ibsim's shim may return -1 without errno on a spurious wakeup */
		if (errno == EINTR || errno == 0)
			return 0;
		rk_log(RK_LOG_ERR, "%s:%d: poll on the umad port: %s", q->port->ca,
		       q->port->portnum, strerror(errno));
		return -errno;
	}
	return n > 0 ? drain(q) : 0;
}

/*
 * Start requests while slots are free, SEND_BURST sends at a time, and after each burst read
 * what has arrived (waiting up to PACE_WAIT_MS for an answer while more than a burst is in
 * flight): answers never pile up behind a long run of sends. Under ibsim's umad shim they
 * must not: its send holds the lock its receiver thread needs to take an answer in, so once
 * the simulator is blocked handing over answers nobody reads, the next send never returns.
 */
static int fill_window(struct rk_mad_queue *q)
{
	for (;;) {
		size_t sent = q->stats.sent;
		struct entry *e = NULL;

		while (q->stats.sent - sent < SEND_BURST && q->nfree > 0 &&
		       (e = next_startable(q)) != NULL)
			start(q, e);
		if (q->nfree == 0 || !e)
			return 0;
		int err = wait_and_drain(q, q->nslots - q->nfree > SEND_BURST ? PACE_WAIT_MS : 0);
		if (err)
			return err;
	}
}

/* Retry or give up on attempts past their deadline, reading what has arrived after each
 * SEND_BURST resends; *earliest: the earliest deadline left (UINT64_MAX: none). */
static int expire(struct rk_mad_queue *q, uint64_t now, uint64_t *earliest)
{
	size_t sent = q->stats.sent;

	*earliest = UINT64_MAX;
	for (unsigned s = 0; s < q->nslots; s++) {
		if (q->slots[s].entry && q->slots[s].deadline <= now)
			attempt_failed(q, s, ETIMEDOUT);
		if (q->stats.sent - sent >= SEND_BURST) {
			int err = wait_and_drain(q, 0);

			if (err)
				return err;
			sent = q->stats.sent;
		}
	}
	for (unsigned s = 0; s < q->nslots; s++)
		if (q->slots[s].entry && q->slots[s].deadline < *earliest)
			*earliest = q->slots[s].deadline;
	return 0;
}

static int ms_until(uint64_t deadline, uint64_t now)
{
	uint64_t ms;

	if (deadline <= now)
		return 0;
	ms = (deadline - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

/* ---- a run ------------------------------------------------------------------------------- */

/* Complete everything still open with err: in flight, ready, waiting at a destination, added,
 * and what the feed has left. */
static void abort_open(struct rk_mad_queue *q, int err)
{
	struct entry *e;

	if (!q->settle_pending)
		q->settle_ignored = q->stats.ignored;
	for (unsigned s = 0; s < q->nslots; s++)
		if (q->slots[s].entry) {
			if (err == -ECANCELED && q->slots[s].deadline > q->settle_until)
				q->settle_until = q->slots[s].deadline;
			q->settle_pending += err == -ECANCELED; /* a broken port has no answers */
			finish_slot(q, s, err);
		}
	for (int k = 0; k < KINDS; k++)
		while ((e = list_pop(&q->ready[k])) != NULL) {
			dest_slot(q->dests, q->dest_mask, e->key)->in_flight--;
			finish(q, e, err);
		}
	for (size_t i = 0; i <= q->dest_mask; i++)
		while ((e = list_pop(&q->dests[i].waiting)) != NULL) {
			q->waiting--;
			finish(q, e, err);
		}
	while ((e = take_raw(q)) != NULL)
		finish(q, e, err);
}

/* One turn: retries and timeouts, new sends, then a wait for answers until the next deadline
 * (or until, when nothing is open, *until). */
static int run_step(struct rk_mad_queue *q, uint64_t until)
{
	uint64_t now = now_ns(), earliest;
	int err = expire(q, now, &earliest);

	if (!err)
		err = fill_window(q);
	if (err)
		return err;
	if (q->open == 0 && now_ns() >= until)
		return 0;
	if (earliest == UINT64_MAX)
		earliest = q->open ? now + q->opt.timeout_ms * NSEC_PER_MSEC : until;
	if (until > now && until < earliest)
		earliest = until;
	return wait_and_drain(q, ms_until(earliest, now_ns()));
}

int rk_mad_queue_run(struct rk_mad_queue *queue, unsigned listen_ms)
{
	uint64_t until = now_ns() + listen_ms * NSEC_PER_MSEC;
	int err = 0;

	if (queue->running)
		return -EBUSY;
	queue->running = true;
	if (rk_cancel_raised(queue->opt.cancel))
		err = -ECANCELED;
	while (!err && (queue->open || queue->queued.head || queue->next || now_ns() < until))
		err = run_step(queue, until);
	if (err)
		abort_open(queue, err);
	queue->running = false;
	return err;
}

int rk_mad_queue_add(struct rk_mad_queue *queue, const struct rk_mad_request *request,
		     rk_mad_done_fn done, void *ctx)
{
	struct entry *e = entry_new(queue);

	if (!e)
		return -ENOMEM;
	e->req = *request;
	enlist(queue, e, done, ctx);
	list_push(&queue->queued, e);
	return 0;
}

int rk_mad_queue_feed(struct rk_mad_queue *queue, rk_mad_next_fn next, rk_mad_done_fn done,
		      void *ctx)
{
	if (queue->next)
		return -EBUSY;
	queue->next = next;
	queue->feed_done = done;
	queue->feed_ctx = ctx;
	return 0;
}

void rk_mad_queue_stats(const struct rk_mad_queue *queue, struct rk_mad_stats *stats)
{
	*stats = queue->stats;
}

/* ---- the queue's life -------------------------------------------------------------------- */

static void queue_free(struct rk_mad_queue *q)
{
	while (q->blocks) {
		struct entry_block *next = q->blocks->next;

		free(q->blocks);
		q->blocks = next;
	}
	free(q->slots);
	free(q->free_slots);
	free(q->buffers);
	free(q->dests);
	free(q);
}

static int queue_init(struct rk_mad_queue *q, struct rk_mad_port *port,
		      const struct rk_mad_options *options)
{
	int err = resolve_options(options, &q->opt);

	if (err)
		return err;
	q->port = port;
	q->max_attempts = q->opt.retries + 1;
	q->window[KIND_GMP] = q->opt.window;
	q->window[KIND_SMP] = q->opt.window < RK_MAD_SMP_WINDOW ? q->opt.window : RK_MAD_SMP_WINDOW;
	q->nslots = q->window[KIND_GMP] + q->window[KIND_SMP];
	if (q->nslots > SLOTS_MAX)
		q->nslots = SLOTS_MAX;
	q->slots = calloc(q->nslots, sizeof(*q->slots));
	q->free_slots = calloc(q->nslots, sizeof(*q->free_slots));
	q->buffers = calloc((size_t)q->nslots + 1, umad_buffer_size());
	q->dest_mask = 63;
	q->dests = calloc(q->dest_mask + 1, sizeof(*q->dests));
	if (!q->slots || !q->free_slots || !q->buffers || !q->dests)
		return -ENOMEM;
	for (unsigned s = 0; s < q->nslots; s++) {
		q->slots[s].umad = q->buffers + (size_t)s * umad_buffer_size();
		q->free_slots[q->nfree++] = q->nslots - 1 - s;
	}
	q->recv = q->buffers + (size_t)q->nslots * umad_buffer_size();
	return 0;
}

int rk_mad_queue_open(struct rk_mad_port *port, const struct rk_mad_options *options,
		      struct rk_mad_queue **out)
{
	struct rk_mad_queue *q = calloc(1, sizeof(*q));
	int err = q ? queue_init(q, port, options) : -ENOMEM;

	if (err) {
		if (q)
			queue_free(q);
		return err;
	}
	*out = q;
	return 0;
}

static void log_summary(const struct rk_mad_queue *q)
{
	if (q->invalid > 1)
		rk_log(RK_LOG_WARNING, "%zu malformed MAD requests were not sent", q->invalid);
	if (q->send_failures > 1)
		rk_log(RK_LOG_WARNING, "%zu MAD sends failed", q->send_failures);
	rk_log(RK_LOG_DEBUG,
	       "MAD queue: window %u (SMPs %u), timeout %u ms, retries %u: sent %zu, answered "
	       "%zu, timeouts %zu, retried %zu, errors %zu, ignored %zu, unsolicited %zu",
	       q->window[KIND_GMP], q->window[KIND_SMP], q->opt.timeout_ms, q->opt.retries,
	       q->stats.sent, q->stats.answered, q->stats.timeouts, q->stats.retried,
	       q->stats.errors, q->stats.ignored, q->stats.unsolicited);
}

/* Wait, at most until the last aborted attempt's deadline, for the answers of what was in flight
 * when the open requests were aborted (they are ignored): the kernel drops an answer that comes
 * after the port's agents are gone, but ibsim's umad shim crashes on one (TESTBEDS §1), and an
 * agent may be registered again with the same id. Nothing is sent; the cancel token is not
 * looked at. */
static void settle(struct rk_mad_queue *q)
{
	struct pollfd pfd = {.fd = umad_get_fd(q->port->fd), .events = POLLIN};
	uint64_t now;

	while (q->stats.ignored - q->settle_ignored < q->settle_pending &&
	       (now = now_ns()) < q->settle_until) {
		int n = poll(&pfd, 1, ms_until(q->settle_until, now));

		if ((n < 0 && errno != EINTR && errno != 0) || (n > 0 && drain(q) != 0))
			return;
	}
}

void rk_mad_queue_close(struct rk_mad_queue *queue)
{
	if (!queue)
		return;
	abort_open(queue, -ECANCELED);
	settle(queue);
	log_summary(queue);
	queue_free(queue);
}

/* ---- an array through a queue ------------------------------------------------------------ */

/* rk_mad_run's feed: the array's requests in order, each copy's user its index. */
struct array_feed {
	struct rk_mad_request *requests;
	size_t count, next;
	rk_mad_done_fn done;
	void *ctx;
};

static bool array_next(struct rk_mad_request *request, void *ctx)
{
	struct array_feed *feed = ctx;

	if (feed->next == feed->count)
		return false;
	*request = feed->requests[feed->next];
	request->user = (void *)(uintptr_t)feed->next++;
	return true;
}

/* The results back into the array's element, then the caller's done with it. */
static void array_done(struct rk_mad_request *copy, void *ctx)
{
	struct array_feed *feed = ctx;
	struct rk_mad_request *request = &feed->requests[(uintptr_t)copy->user];

	request->status = copy->status;
	request->mad_status = copy->mad_status;
	request->attempts = copy->attempts;
	memcpy(request->reply, copy->reply, sizeof(request->reply));
	if (feed->done)
		feed->done(request, feed->ctx);
}

int rk_mad_run(struct rk_mad_port *port, struct rk_mad_request *requests, size_t count,
	       const struct rk_mad_options *options, rk_mad_done_fn done, void *ctx,
	       struct rk_mad_stats *stats)
{
	struct array_feed feed = {.requests = requests, .count = count, .done = done, .ctx = ctx};
	struct rk_mad_queue *queue;
	int err;

	if (stats)
		memset(stats, 0, sizeof(*stats));
	if (!port || (!requests && count))
		return -EINVAL;
	err = rk_mad_queue_open(port, options, &queue);
	if (err)
		return err;
	if (count && rk_cancel_raised(queue->opt.cancel)) {
		rk_mad_queue_close(queue);
		return -ECANCELED;
	}
	rk_mad_queue_feed(queue, array_next, array_done, &feed);
	err = rk_mad_queue_run(queue, 0);
	if (stats)
		rk_mad_queue_stats(queue, stats);
	rk_mad_queue_close(queue);
	return err;
}
