/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/mad.h"

#include "rdmakit/log.h"
#include "rdmakit/rdma_stack.h"

#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <limits.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAD_HDR_SIZE	24  /* common MAD header: what the kernel hands back on a send timeout */
#define DRAIN_MAX	256 /* MADs read in a row before deadlines are looked at again */
#define SEND_BURST	4   /* MADs sent in a row before what has arrived is read */
#define PACE_WAIT_MS	1   /* after a burst, the wait for an answer when more are in flight */
#define NSEC_PER_MSEC	1000000ULL
#define CLASS_VERSION_1 1

/* The agents registered on the port, one per management class this engine sends. */
enum agent_kind {
	AGENT_SMP,  /* LID-routed SMP, QP0 */
	AGENT_DR,   /* directed-route SMP, QP0 */
	AGENT_PERF, /* PerfMgt (PMA), QP1 */
	AGENT_KINDS,
};

static const int agent_class[AGENT_KINDS] = {IB_SMI_CLASS, IB_SMI_DIRECT_CLASS,
					     IB_PERFORMANCE_CLASS};

struct rk_mad_port {
	int fd; /* libibumad's port id (the umad fd) */
	int agent[AGENT_KINDS];
	char ca[UMAD_CA_NAME_LEN];
	int portnum;
	uint32_t next_tid; /* first transaction id (low 32 bits) of the next run */
};

/* One umad port per process: under ibsim's shim a second one steals the first's answers. */
static atomic_flag port_in_use = ATOMIC_FLAG_INIT;

/* A MAD in flight. */
struct slot {
	bool busy;
	size_t index;	   /* the request's index in the run */
	uint64_t deadline; /* CLOCK_MONOTONIC ns: end of the current attempt */
	int agent;
	uint8_t *umad; /* umad header + MAD, built once per request; each attempt sets its TID */
};

#define NO_DEST UINT32_MAX /* a malformed request's destination: it is never sent */

/* Where requests go: one entry per destination agent (rk_mad_request's LID and class, or its
 * directed-route path), with the requests waiting for room there, in order. */
struct dest {
	uint64_t key;
	bool used;
	unsigned in_flight;   /* sent, or picked to go next (on the ready ring) */
	uint32_t first, last; /* the waiting requests: index + 1, linked by next_waiting */
};

/* The state of one rk_mad_run. */
struct run {
	struct rk_mad_port *port;
	struct rk_mad_request *requests;
	size_t count;
	struct rk_mad_options opt;
	unsigned max_attempts;
	rk_mad_done_fn done;
	void *ctx;
	struct rk_mad_stats stats;
	struct slot *slots;
	unsigned nslots;
	unsigned *free_slots; /* stack of free slot numbers */
	unsigned nfree;
	uint32_t *slot_of; /* request index -> slot number + 1; 0: not in flight */
	uint8_t *buffers;  /* the slots' send buffers, then the receive buffer */
	uint8_t *recv;
	struct dest *dests; /* open addressing, dest_mask + 1 entries */
	size_t dest_mask;
	uint32_t *dest_of;	/* request index -> its entry in dests, or NO_DEST */
	uint32_t *next_waiting; /* request index -> the next waiting for its destination + 1 */
	uint32_t *ready; /* ring of nslots: waiting requests their destination has room for */
	unsigned ready_head, ready_count;
	size_t next; /* first request not looked at yet */
	size_t completed;
	uint32_t tid_base;
	size_t invalid, send_failures; /* logged once, then summed up */
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

/* ---- the port ---------------------------------------------------------------------------- */

static uint32_t first_tid(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	/* Differs between processes only to make traces readable; the kernel keeps agents
	 * apart with the TID's high 32 bits. Never 0 (libibmad would draw its own). */
	return (((uint32_t)ts.tv_nsec ^ ((uint32_t)getpid() << 12)) & 0x7fffffffU) | 1U;
}

static void unregister_agents(struct rk_mad_port *port)
{
	for (int k = 0; k < AGENT_KINDS; k++) {
		if (port->agent[k] >= 0)
			umad_unregister(port->fd, port->agent[k]);
		port->agent[k] = -1;
	}
}

static int register_agents(struct rk_mad_port *port)
{
	for (int k = 0; k < AGENT_KINDS; k++) {
		int agent = umad_register(port->fd, agent_class[k], CLASS_VERSION_1, 0, NULL);

		if (agent < 0) {
			rk_log(RK_LOG_ERR,
			       "%s:%d: cannot register a MAD agent for class 0x%02x: %s", port->ca,
			       port->portnum, agent_class[k], strerror(-agent));
			unregister_agents(port);
			return agent;
		}
		port->agent[k] = agent;
	}
	return 0;
}

#define UMAD_SYSFS_DIR "/sys/class/infiniband_mad"

/* The first line of umadN/name under the directory dfd, into buf ("" when unreadable). */
static void read_umad_attr(int dfd, const char *umad, const char *name, char *buf, size_t size)
{
	char rel[300];
	ssize_t n;
	int fd;

	snprintf(rel, sizeof(rel), "%s/%s", umad, name);
	fd = openat(dfd, rel, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	n = fd >= 0 ? read(fd, buf, size - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* Whether umad device name (umadN) belongs to ca (NULL: any) and port (0: any). */
static bool umad_matches(int dfd, const char *name, const char *ca, int port)
{
	char ibdev[UMAD_CA_NAME_LEN], text[16];

	read_umad_attr(dfd, name, "ibdev", ibdev, sizeof(ibdev));
	read_umad_attr(dfd, name, "port", text, sizeof(text));
	return ibdev[0] && (!ca || strcmp(ca, ibdev) == 0) &&
	       (port == 0 || strtol(text, NULL, 10) == port);
}

/* The umad devices of ca (NULL: any) and port (0: any): how many, how many refuse this user,
 * the first refusing one's path. openat, fdopendir and faccessat, never open or opendir: ibsim's
 * umad shim wraps those, and the first call starts its connection to the simulator. */
struct umad_scan {
	size_t matching, refused;
	char first_refused[300];
};

static void scan_umad(const char *ca, int port, struct umad_scan *scan)
{
	char device[300];
	struct dirent *entry;
	int dfd = openat(AT_FDCWD, UMAD_SYSFS_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;

	memset(scan, 0, sizeof(*scan));
	if (!dir) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((entry = readdir(dir)) != NULL) {
		if (strncmp(entry->d_name, "umad", 4) != 0 ||
		    !umad_matches(dfd, entry->d_name, ca, port))
			continue;
		scan->matching++;
		snprintf(device, sizeof(device), "/dev/infiniband/%s", entry->d_name);
		if (faccessat(AT_FDCWD, device, R_OK | W_OK, AT_EACCESS) != 0 &&
		    (errno == EACCES || errno == EPERM) && scan->refused++ == 0)
			snprintf(scan->first_refused, sizeof(scan->first_refused), "%s", device);
	}
	closedir(dir);
}

/* Log why there is no umad port of ca and port, when sysfs tells (not under ibsim's shim, whose
 * devices sysfs does not have); whether it did. */
static bool explain_no_umad(const char *ca, int port)
{
	struct rk_rdma_stack stack;
	struct umad_scan scan;
	char which[24] = "any port";
	const char *why;

	if (rk_rdma_stack_simulated())
		return false;
	rk_rdma_stack_read("/sys", "/dev", &stack);
	why = rk_rdma_stack_no_umad(&stack);
	if (why) {
		rk_log(RK_LOG_ERR, "cannot send MADs: %s", why);
		return true;
	}
	scan_umad(ca, port, &scan);
	if (scan.matching)
		return false;
	if (port)
		snprintf(which, sizeof(which), "port %d", port);
	rk_log(RK_LOG_ERR,
	       "cannot send MADs: no umad device of %s, %s on this host: choose another CA or port "
	       "(ibstat -l lists the CAs)",
	       ca ? ca : "any CA", which);
	return true;
}

/* -EACCES, logged, when every umad device of ca and port refuses this user; else 0. */
static int check_permission(const char *ca, int port)
{
	struct umad_scan scan;

	scan_umad(ca, port, &scan);
	if (!scan.matching || scan.refused < scan.matching)
		return 0;
	rk_log(RK_LOG_ERR,
	       "cannot open %s%s: permission denied; MADs (fabric, sm, sweep) need root, or "
	       "read-write access to that device (membership of its group, or an ACL)",
	       scan.first_refused, scan.refused > 1 ? " (nor the other umad devices)" : "");
	return -EACCES;
}

int rk_mad_check_access(const char *ca, int port)
{
	if (explain_no_umad(ca, port))
		return -ENODEV;
	return check_permission(ca, port);
}

static int resolve_port(const char *ca, int portnum, struct rk_mad_port *port)
{
	umad_port_t info;
	int err;

	if (umad_init() < 0) {
		rk_log(RK_LOG_ERR, "cannot initialise libibumad");
		return -ENODEV;
	}
	err = umad_get_port(ca, portnum, &info);
	if (err < 0) {
		if (!explain_no_umad(ca, portnum))
			rk_log(RK_LOG_ERR, "%s:%d: no such umad port: %s", ca ? ca : "(first CA)",
			       portnum, strerror(-err));
		return err;
	}
	snprintf(port->ca, sizeof(port->ca), "%s", info.ca_name);
	port->portnum = info.portnum;
	umad_release_port(&info);
	return 0;
}

static int open_port(const char *ca, int portnum, struct rk_mad_port **out)
{
	struct rk_mad_port *port = calloc(1, sizeof(*port));
	int err;

	if (!port)
		return -ENOMEM;
	for (int k = 0; k < AGENT_KINDS; k++)
		port->agent[k] = -1;
	err = check_permission(ca, portnum);
	if (!err)
		err = resolve_port(ca, portnum, port);
	if (err)
		goto fail;
	port->fd = umad_open_port(port->ca, port->portnum);
	if (port->fd < 0) {
		err = port->fd;
		rk_log(RK_LOG_ERR, "%s:%d: cannot open the umad port: %s", port->ca, port->portnum,
		       strerror(-err));
		goto fail;
	}
	err = register_agents(port);
	if (err) {
		umad_close_port(port->fd);
		goto fail;
	}
	port->next_tid = first_tid();
	*out = port;
	return 0;
fail:
	free(port);
	return err;
}

int rk_mad_port_open(const char *ca, int port, struct rk_mad_port **out)
{
	int err;

	if (atomic_flag_test_and_set(&port_in_use)) {
		rk_log(RK_LOG_ERR, "a umad port is already open in this process (one per process)");
		return -EBUSY;
	}
	err = open_port(ca, port, out);
	if (err)
		atomic_flag_clear(&port_in_use);
	return err;
}

void rk_mad_port_close(struct rk_mad_port *port)
{
	if (!port)
		return;
	unregister_agents(port);
	umad_close_port(port->fd);
	free(port);
	atomic_flag_clear(&port_in_use);
}

int rk_mad_port_local(const struct rk_mad_port *port, struct rk_mad_local *local)
{
	umad_port_t info;
	int err = umad_get_port(port->ca, port->portnum, &info);

	if (err < 0) {
		rk_log(RK_LOG_ERR, "%s:%d: cannot read the port: %s", port->ca, port->portnum,
		       strerror(-err));
		return err;
	}
	memset(local, 0, sizeof(*local));
	snprintf(local->ca, sizeof(local->ca), "%s", info.ca_name);
	local->port = info.portnum;
	local->lid = (uint16_t)info.base_lid;
	local->sm_lid = (uint16_t)info.sm_lid;
	local->sm_sl = (uint8_t)info.sm_sl;
	local->port_guid = be64toh(info.port_guid);
	local->state = (int)info.state;
	umad_release_port(&info);
	return 0;
}

/* ---- options and transaction ids --------------------------------------------------------- */

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

/*
 * Every attempt of every request of a run gets its own TID (low 32 bits; the kernel owns the
 * high ones): base + index * max_attempts + attempt - 1. So an answer maps back to its request
 * in O(1), a late answer to an earlier attempt of a request still in flight is still an answer
 * to the same query (taken), a kernel timeout of an earlier attempt cannot end the current one,
 * and anything for a request already completed or from an earlier run is ignored. Ranges never
 * contain 0 and never wrap.
 */
static int reserve_tids(struct rk_mad_port *port, size_t count, unsigned attempts, uint32_t *base)
{
	uint64_t span = (uint64_t)count * attempts;

	if (count >= UINT32_MAX || span >= UINT32_MAX) {
		rk_log(RK_LOG_ERR, "too many MADs in one run: %zu requests x %u attempts", count,
		       attempts);
		return -E2BIG;
	}
	if ((uint64_t)port->next_tid + span > UINT32_MAX)
		port->next_tid = 1;
	*base = port->next_tid;
	port->next_tid += (uint32_t)span;
	return 0;
}

static uint32_t tid_of(const struct run *r, size_t index, unsigned attempt)
{
	return r->tid_base + (uint32_t)(index * r->max_attempts) + (attempt - 1);
}

/* ---- requests ---------------------------------------------------------------------------- */

/* The agent a request goes out on, or -1 when the request is malformed. */
static int request_agent(const struct rk_mad_request *req)
{
	if (req->method != RK_MAD_METHOD_GET && req->method != RK_MAD_METHOD_SET)
		return -1;
	if (req->route == RK_MAD_DIRECTED)
		return req->hops <= RK_MAD_MAX_HOPS ? AGENT_DR : -1;
	if (req->route != RK_MAD_LID || req->lid == 0 || req->lid >= 0xc000)
		return -1;
	if (req->mgmt_class == RK_MAD_CLASS_SMP)
		return AGENT_SMP;
	if (req->mgmt_class == RK_MAD_CLASS_PERF)
		return AGENT_PERF;
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
		rpc.mgtclass = IB_PERFORMANCE_CLASS;
		rpc.datasz = IB_PC_DATA_SZ;
		dport.lid = req->lid;
		dport.qp = 1;
		dport.qkey = IB_DEFAULT_QP1_QKEY;
	}
	return mad_build_pkt(umad, &rpc, &dport, NULL, req->data) < 0 ? -EINVAL : 0;
}

/* ---- destinations ------------------------------------------------------------------------ */

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

/* The entry of key in the run's table, made when new (the table has room for every request). */
static uint32_t dest_entry(struct run *r, uint64_t key)
{
	size_t at = (size_t)(key ^ (key >> 29)) & r->dest_mask;

	while (r->dests[at].used && r->dests[at].key != key)
		at = (at + 1) & r->dest_mask;
	r->dests[at].used = true;
	r->dests[at].key = key;
	return (uint32_t)at;
}

static size_t dest_table_size(size_t count)
{
	size_t size = 16;

	while (size < 2 * count)
		size *= 2;
	return size;
}

static void note_dest_peak(struct run *r, const struct dest *d)
{
	if (d->in_flight > r->stats.most_to_one_agent)
		r->stats.most_to_one_agent = d->in_flight;
}

/* A request whose destination is full: reset its results and queue it there. */
static void wait_for_room(struct run *r, size_t index)
{
	struct rk_mad_request *req = &r->requests[index];
	struct dest *d = &r->dests[r->dest_of[index]];

	req->attempts = 0;
	req->mad_status = 0;
	req->status = -EINPROGRESS;
	memset(req->reply, 0, sizeof(req->reply));
	r->next_waiting[index] = 0;
	if (d->last)
		r->next_waiting[d->last - 1] = (uint32_t)index + 1;
	else
		d->first = (uint32_t)index + 1;
	d->last = (uint32_t)index + 1;
}

/* A request that went to its destination is over: the first one waiting there goes next. */
static void leave_dest(struct run *r, size_t index)
{
	struct dest *d;
	size_t waiting;

	if (r->dest_of[index] == NO_DEST)
		return;
	d = &r->dests[r->dest_of[index]];
	d->in_flight--;
	if (!d->first)
		return;
	waiting = d->first - 1;
	d->first = r->next_waiting[waiting];
	if (!d->first)
		d->last = 0;
	d->in_flight++;
	r->ready[(r->ready_head + r->ready_count++) % r->nslots] = (uint32_t)waiting;
}

/* The next request to start: one its destination made room for, else the next in order whose
 * destination has room (the others wait there); SIZE_MAX when none is left to start. */
static size_t next_startable(struct run *r)
{
	if (r->ready_count) {
		size_t index = r->ready[r->ready_head];

		r->ready_head = (r->ready_head + 1) % r->nslots;
		r->ready_count--;
		return index;
	}
	while (r->next < r->count) {
		size_t index = r->next++;
		struct dest *d;

		if (r->dest_of[index] == NO_DEST)
			return index;
		d = &r->dests[r->dest_of[index]];
		if (d->in_flight < RK_MAD_MAX_PER_AGENT) {
			d->in_flight++;
			note_dest_peak(r, d);
			return index;
		}
		wait_for_room(r, index);
	}
	return SIZE_MAX;
}

/* Fill in every request's destination. */
static void map_dests(struct run *r)
{
	for (size_t i = 0; i < r->count; i++) {
		int agent = request_agent(&r->requests[i]);

		r->dest_of[i] =
		    agent < 0 ? NO_DEST : dest_entry(r, dest_key(&r->requests[i], agent));
	}
}

/* ---- a run ------------------------------------------------------------------------------- */

static void finish(struct run *r, size_t index, int status)
{
	struct rk_mad_request *req = &r->requests[index];

	req->status = status;
	if (status == 0)
		r->stats.answered++;
	else if (status == -ETIMEDOUT)
		r->stats.timeouts++;
	else
		r->stats.errors++;
	r->completed++;
	if (r->done)
		r->done(req, r->ctx);
}

static void release_slot(struct run *r, unsigned s)
{
	r->slots[s].busy = false;
	r->slot_of[r->slots[s].index] = 0;
	r->free_slots[r->nfree++] = s;
}

/* Release a slot and complete its request. */
static void finish_slot(struct run *r, unsigned s, int status)
{
	size_t index = r->slots[s].index;

	release_slot(r, s);
	leave_dest(r, index);
	finish(r, index, status);
}

static void send_attempt(struct run *r, unsigned s)
{
	struct slot *slot = &r->slots[s];
	struct rk_mad_request *req = &r->requests[slot->index];

	req->attempts++;
	mad_set_field64(umad_get_mad(slot->umad), 0, IB_MAD_TRID_F,
			tid_of(r, slot->index, req->attempts));
	slot->deadline = now_ns() + r->opt.timeout_ms * NSEC_PER_MSEC;
	/* The kernel timeout makes it hand the MAD back with status ETIMEDOUT (and match the
	 * answer to the send at all: with 0 it drops answers); our deadline covers the rest. */
	if (umad_send(r->port->fd, slot->agent, slot->umad, IB_MAD_SIZE, (int)r->opt.timeout_ms,
		      0) < 0) {
		int err = errno ? errno : EIO;

		if (r->send_failures++ == 0)
			rk_log(RK_LOG_WARNING, "MAD request %zu (lid %u, hops %u): send failed: %s",
			       slot->index, (unsigned)req->lid, (unsigned)req->hops, strerror(err));
		finish_slot(r, s, -EIO);
		return;
	}
	r->stats.sent++;
	if (r->nslots - r->nfree > r->stats.most_in_flight)
		r->stats.most_in_flight = r->nslots - r->nfree;
}

static void reject(struct run *r, size_t index, const char *why)
{
	const struct rk_mad_request *req = &r->requests[index];

	if (r->invalid++ == 0)
		rk_log(RK_LOG_WARNING,
		       "MAD request %zu (route %d, class 0x%02x, lid %u, hops %u, "
		       "method 0x%02x, attr 0x%04x) not sent: %s",
		       index, (int)req->route, (unsigned)req->mgmt_class, (unsigned)req->lid,
		       (unsigned)req->hops, (unsigned)req->method, (unsigned)req->attr_id, why);
	finish(r, index, -EINVAL);
}

static void start(struct run *r, size_t index)
{
	struct rk_mad_request *req = &r->requests[index];
	int agent = request_agent(req);
	unsigned s;

	req->attempts = 0;
	req->mad_status = 0;
	req->status = -EINPROGRESS;
	memset(req->reply, 0, sizeof(req->reply));
	if (agent < 0) {
		reject(r, index, "bad route, class, LID, hop count or method");
		return;
	}
	s = r->free_slots[--r->nfree];
	if (build_umad(r->slots[s].umad, req, agent) < 0) {
		r->free_slots[r->nfree++] = s;
		leave_dest(r, index);
		reject(r, index, "libibmad cannot encode it");
		return;
	}
	r->slots[s].busy = true;
	r->slots[s].index = index;
	r->slots[s].agent = r->port->agent[agent];
	r->slot_of[index] = s + 1;
	send_attempt(r, s);
}

static int wait_and_drain(struct run *r, int wait_ms);

/*
 * Start requests while slots are free, SEND_BURST sends at a time, and after each burst read
 * what has arrived (waiting up to PACE_WAIT_MS for an answer while more than a burst is in
 * flight): answers never pile up behind a long run of sends. Under ibsim's umad shim they
 * must not: its send holds the lock its receiver thread needs to take an answer in, so once
 * the simulator is blocked handing over answers nobody reads, the next send never returns.
 */
static int fill_window(struct run *r)
{
	for (;;) {
		size_t sent = r->stats.sent, index = 0;

		while (r->stats.sent - sent < SEND_BURST && r->nfree > 0 &&
		       (index = next_startable(r)) != SIZE_MAX)
			start(r, index);
		if (r->nfree == 0 || index == SIZE_MAX)
			return 0;
		int err = wait_and_drain(r, r->nslots - r->nfree > SEND_BURST ? PACE_WAIT_MS : 0);
		if (err)
			return err;
	}
}

/* The current attempt got no answer (our deadline, or the kernel's timeout): retry or give up. */
static void attempt_failed(struct run *r, unsigned s, int umad_status)
{
	struct rk_mad_request *req = &r->requests[r->slots[s].index];

	if (req->attempts < r->max_attempts) {
		r->stats.retried++;
		send_attempt(r, s);
		return;
	}
	finish_slot(r, s, umad_status == ETIMEDOUT ? -ETIMEDOUT : -EIO);
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

static void take_answer(struct run *r, unsigned s, uint8_t *mad, int len)
{
	struct rk_mad_request *req = &r->requests[r->slots[s].index];
	size_t n = len < RK_MAD_SIZE ? (size_t)len : RK_MAD_SIZE;

	memcpy(req->reply, mad, n);
	if (mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F) == IB_SMI_DIRECT_CLASS)
		req->mad_status = (uint16_t)mad_get_field(mad, 0, IB_DRSMP_STATUS_F); /* no D bit */
	else
		req->mad_status = (uint16_t)mad_get_field(mad, 0, IB_MAD_STATUS_F);
	finish_slot(r, s, req->mad_status ? -EIO : 0);
}

/* One received MAD: an answer, a send handed back with an error status, or something stale. */
static void handle_mad(struct run *r, int len)
{
	uint8_t *mad = umad_get_mad(r->recv);
	int status = umad_status(r->recv);
	uint32_t off, tid;
	size_t index;
	unsigned attempt, s;

	if (len < MAD_HDR_SIZE)
		goto ignore;
	tid = (uint32_t)mad_get_field64(mad, 0, IB_MAD_TRID_F);
	off = tid - r->tid_base;
	if (off >= (uint64_t)r->count * r->max_attempts)
		goto ignore;
	index = off / r->max_attempts;
	attempt = off % r->max_attempts + 1;
	if (!r->slot_of[index])
		goto ignore; /* completed already */
	s = r->slot_of[index] - 1;
	if (status) {
		/* Only the current attempt's failure counts; an earlier one was already retried. */
		if (attempt != r->requests[index].attempts)
			goto ignore;
		attempt_failed(r, s, status);
		return;
	}
	if (!answers(&r->slots[s], mad))
		goto ignore;
	take_answer(r, s, mad, len);
	return;
ignore:
	r->stats.ignored++;
}

/* Read every MAD queued on the port (bounded). */
static int drain(struct run *r)
{
	for (int i = 0; i < DRAIN_MAX; i++) {
		int len = IB_MAD_SIZE;
		int rc = umad_recv(r->port->fd, r->recv, &len, 0);

		if (rc == -EAGAIN || rc == -EINTR)
			return 0;
		if (rc < 0) {
			rk_log(RK_LOG_ERR, "%s:%d: cannot receive MADs: %s", r->port->ca,
			       r->port->portnum, strerror(-rc));
			return rc;
		}
		handle_mad(r, len);
	}
	return 0;
}

/* Milliseconds between two looks at a run's cancel token while it waits for MADs. */
#define CANCEL_CHECK_MS 100

/* Wait for MADs and read them; -ECANCELED once the run's token is raised (looked at every
 * CANCEL_CHECK_MS: the umad descriptor stays alone in its poll, as preloaded shims expect). */
static int wait_and_drain(struct run *r, int wait_ms)
{
	struct pollfd pfd = {.fd = umad_get_fd(r->port->fd), .events = POLLIN};
	int n;

	if (r->opt.cancel && wait_ms > CANCEL_CHECK_MS)
		wait_ms = CANCEL_CHECK_MS;
	errno = 0;
	n = poll(&pfd, 1, wait_ms);
	if (rk_cancel_raised(r->opt.cancel))
		return -ECANCELED;
	if (n < 0) {
		/* ibsim's shim may return -1 without errno on a spurious wakeup */
		if (errno == EINTR || errno == 0)
			return 0;
		rk_log(RK_LOG_ERR, "%s:%d: poll on the umad port: %s", r->port->ca,
		       r->port->portnum, strerror(errno));
		return -errno;
	}
	return n > 0 ? drain(r) : 0;
}

/* Retry or give up on attempts past their deadline, reading what has arrived after each
 * SEND_BURST resends; *earliest: the earliest deadline left (UINT64_MAX: none). */
static int expire(struct run *r, uint64_t now, uint64_t *earliest)
{
	size_t sent = r->stats.sent;

	*earliest = UINT64_MAX;
	for (unsigned s = 0; s < r->nslots; s++) {
		if (r->slots[s].busy && r->slots[s].deadline <= now)
			attempt_failed(r, s, ETIMEDOUT);
		if (r->stats.sent - sent >= SEND_BURST) {
			int err = wait_and_drain(r, 0);

			if (err)
				return err;
			sent = r->stats.sent;
		}
	}
	for (unsigned s = 0; s < r->nslots; s++)
		if (r->slots[s].busy && r->slots[s].deadline < *earliest)
			*earliest = r->slots[s].deadline;
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

/* The run cannot go on: complete everything still open with err (in flight, waiting for
 * room at its destination, or not looked at yet). */
static void abort_run(struct run *r, int err)
{
	for (unsigned s = 0; s < r->nslots; s++)
		if (r->slots[s].busy)
			finish_slot(r, s, err);
	for (size_t i = 0; i < r->next; i++)
		if (r->requests[i].status == -EINPROGRESS)
			finish(r, i, err);
	while (r->next < r->count) {
		struct rk_mad_request *req = &r->requests[r->next];

		req->attempts = 0;
		req->mad_status = 0;
		memset(req->reply, 0, sizeof(req->reply));
		finish(r, r->next++, err);
	}
}

static void run_free(struct run *r)
{
	free(r->slots);
	free(r->free_slots);
	free(r->slot_of);
	free(r->buffers);
	free(r->dests);
	free(r->dest_of);
	free(r->next_waiting);
	free(r->ready);
}

static int run_init(struct run *r, struct rk_mad_port *port, struct rk_mad_request *requests,
		    size_t count, const struct rk_mad_options *options)
{
	int err;

	memset(r, 0, sizeof(*r));
	r->port = port;
	r->requests = requests;
	r->count = count;
	err = resolve_options(options, &r->opt);
	if (err)
		return err;
	r->max_attempts = r->opt.retries + 1;
	err = reserve_tids(port, count, r->max_attempts, &r->tid_base);
	if (err)
		return err;
	r->nslots = count < r->opt.window ? (unsigned)count : r->opt.window;
	r->slots = calloc(r->nslots, sizeof(*r->slots));
	r->free_slots = calloc(r->nslots, sizeof(*r->free_slots));
	r->slot_of = calloc(count, sizeof(*r->slot_of));
	r->buffers = calloc((size_t)r->nslots + 1, umad_buffer_size());
	r->dest_mask = dest_table_size(count) - 1;
	r->dests = calloc(r->dest_mask + 1, sizeof(*r->dests));
	r->dest_of = calloc(count, sizeof(*r->dest_of));
	r->next_waiting = calloc(count, sizeof(*r->next_waiting));
	r->ready = calloc(r->nslots, sizeof(*r->ready));
	if (!r->slots || !r->free_slots || !r->slot_of || !r->buffers || !r->dests || !r->dest_of ||
	    !r->next_waiting || !r->ready) {
		run_free(r);
		return -ENOMEM;
	}
	for (unsigned s = 0; s < r->nslots; s++) {
		r->slots[s].umad = r->buffers + (size_t)s * umad_buffer_size();
		r->free_slots[r->nfree++] = r->nslots - 1 - s;
	}
	r->recv = r->buffers + (size_t)r->nslots * umad_buffer_size();
	map_dests(r);
	return 0;
}

static int run_step(struct run *r)
{
	uint64_t now = now_ns(), earliest;
	int err = expire(r, now, &earliest);

	if (!err)
		err = fill_window(r);
	if (err || r->completed == r->count)
		return err;
	if (earliest == UINT64_MAX)
		earliest = now + r->opt.timeout_ms * NSEC_PER_MSEC;
	return wait_and_drain(r, ms_until(earliest, now_ns()));
}

static int run_loop(struct run *r)
{
	int err = fill_window(r);

	while (!err && r->completed < r->count)
		err = run_step(r);
	if (err)
		abort_run(r, err);
	return err;
}

static void log_summary(const struct run *r)
{
	if (r->invalid > 1)
		rk_log(RK_LOG_WARNING, "%zu malformed MAD requests were not sent", r->invalid);
	if (r->send_failures > 1)
		rk_log(RK_LOG_WARNING, "%zu MAD sends failed", r->send_failures);
	rk_log(RK_LOG_DEBUG,
	       "MAD run: %zu requests, window %u, timeout %u ms, retries %u: sent %zu, answered "
	       "%zu, timeouts %zu, retried %zu, errors %zu, ignored %zu",
	       r->count, r->nslots, r->opt.timeout_ms, r->opt.retries, r->stats.sent,
	       r->stats.answered, r->stats.timeouts, r->stats.retried, r->stats.errors,
	       r->stats.ignored);
}

int rk_mad_run(struct rk_mad_port *port, struct rk_mad_request *requests, size_t count,
	       const struct rk_mad_options *options, rk_mad_done_fn done, void *ctx,
	       struct rk_mad_stats *stats)
{
	struct run r;
	int err;

	if (stats)
		memset(stats, 0, sizeof(*stats));
	if (!port || (!requests && count))
		return -EINVAL;
	if (count == 0)
		return resolve_options(options, &r.opt);
	if (options && rk_cancel_raised(options->cancel))
		return -ECANCELED;
	err = run_init(&r, port, requests, count, options);
	if (err)
		return err;
	r.done = done;
	r.ctx = ctx;
	err = run_loop(&r);
	log_summary(&r);
	if (stats)
		*stats = r.stats;
	run_free(&r);
	return err;
}

void rk_mad_stats_add(struct rk_mad_stats *total, const struct rk_mad_stats *part)
{
	total->sent += part->sent;
	total->answered += part->answered;
	total->timeouts += part->timeouts;
	total->retried += part->retried;
	total->errors += part->errors;
	total->ignored += part->ignored;
	if (part->most_in_flight > total->most_in_flight)
		total->most_in_flight = part->most_in_flight;
	if (part->most_to_one_agent > total->most_to_one_agent)
		total->most_to_one_agent = part->most_to_one_agent;
}
