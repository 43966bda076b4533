/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The loopback probe: two RC QPs of one process connected to each other on one port, an RDMA
 * write, an RDMA read and a send/receive, the data checked and every step timed. */
#include "rdmakit/verbs.h"

#include "rdmakit/clock.h"
#include "rdmakit/host.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <infiniband/verbs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* The buffer holds four regions of size bytes each. */
enum { REGION_SOURCE, REGION_TARGET, REGION_READ, REGION_RECV, REGIONS };

struct probe {
	struct rk_probe_result *result;
	struct rk_verbs_device dev;
	const struct rk_verbs_port *port;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp[2];
	uint8_t *buf;
	size_t size;
	double timeout;
};

static const char *const step_names[RK_PROBE_STEPS] = {
    "open", "port", "pd", "mr", "cq", "qp", "init", "rtr", "rts", "write", "read", "send",
};

const char *rk_probe_step_name(int step)
{
	return step >= 0 && step < RK_PROBE_STEPS ? step_names[step] : "?";
}

/* Record the failure of a step: what failed (printf-style) and what to check. */
static int fail(struct probe *p, int step, int error, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int fail(struct probe *p, int step, int error, const char *hint, const char *fmt, ...)
{
	va_list ap;

	p->result->failed_step = step;
	p->result->error = error;
	va_start(ap, fmt);
	vsnprintf(p->result->message, sizeof(p->result->message), fmt, ap);
	va_end(ap);
	snprintf(p->result->hint, sizeof(p->result->hint), "%s", hint);
	return -1;
}

static uint8_t *region(struct probe *p, int which)
{
	return p->buf + (size_t)which * p->size;
}

static int ibv_mtu_of(unsigned bytes)
{
	int mtu = IBV_MTU_256;

	while (mtu < IBV_MTU_4096 && rk_mtu_bytes(mtu) < bytes)
		mtu++;
	return mtu;
}

static int check_port(struct probe *p)
{
	struct rk_probe_result *r = p->result;
	bool ethernet;

	p->port = rk_verbs_find_port(&p->dev, r->port);
	snprintf(r->link_layer, sizeof(r->link_layer), "%s", p->port->link_layer);
	ethernet = strcmp(p->port->link_layer, "Ethernet") == 0;
	if (p->port->state != IBV_PORT_ACTIVE)
		return fail(p, RK_PROBE_PORT, ENETDOWN,
			    ethernet ? "check the link of the network device behind the port "
				       "(ip link) and its cable"
				     : "check the cable, and that a subnet manager runs (sminfo); "
				       "an INIT port has a link but no SM",
			    "port %u is %s, not ACTIVE", r->port,
			    rk_port_state_name(p->port->state));
	r->mtu = p->port->active_mtu;
	if (!ethernet) {
		r->gid_index = -1;
		r->gid_type = RK_GID_IB;
		if (p->port->lid == 0)
			return fail(p, RK_PROBE_PORT, EADDRNOTAVAIL,
				    "no subnet manager has given the port a LID: start opensm",
				    "port %u has LID 0", r->port);
		return 0;
	}
	r->gid_index = rk_verbs_pick_gid(p->port, true, RK_GID_ROCE_V2);
	if (r->gid_index < 0)
		return fail(p, RK_PROBE_PORT, EADDRNOTAVAIL,
			    "RoCE GIDs follow the network device's addresses: give it an IP "
			    "address (ip addr add)",
			    "port %u has no RoCE GID", r->port);
	for (size_t i = 0; i < p->port->ngids; i++)
		if ((int)p->port->gids[i].index == r->gid_index)
			r->gid_type = p->port->gids[i].type;
	return 0;
}

static int register_memory(struct probe *p)
{
	struct rlimit limit;
	char hint[256];
	size_t bytes = p->size * REGIONS;

	p->buf = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
	if (!p->buf)
		return fail(p, RK_PROBE_MR, ENOMEM, "free some memory", "cannot allocate %zu bytes",
			    bytes);
	memset(p->buf, 0, bytes);
	p->mr =
	    ibv_reg_mr(p->pd, p->buf, bytes,
		       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (p->mr)
		return 0;
	if (getrlimit(RLIMIT_MEMLOCK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
		snprintf(
		    hint, sizeof(hint),
		    "the memlock limit (ulimit -l) is %llu KiB and the MR needs %zu KiB: raise "
		    "it (limits.conf memlock, systemd LimitMEMLOCK)",
		    (unsigned long long)limit.rlim_cur / 1024, (bytes + 1023) / 1024);
	else
		snprintf(hint, sizeof(hint), "check the memlock limit (ulimit -l) and free memory");
	return fail(p, RK_PROBE_MR, errno, hint, "ibv_reg_mr of %zu bytes: %s", bytes,
		    strerror(errno));
}

static int create_qps(struct probe *p)
{
	struct ibv_qp_init_attr attr = {
	    .send_cq = p->cq,
	    .recv_cq = p->cq,
	    .qp_type = IBV_QPT_RC,
	    .cap = {.max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1},
	};

	for (int i = 0; i < 2; i++) {
		p->qp[i] = ibv_create_qp(p->pd, &attr);
		if (!p->qp[i])
			return fail(p, RK_PROBE_QP, errno,
				    "check the device's max_qp (rdmakit status)",
				    "ibv_create_qp: %s", strerror(errno));
	}
	return 0;
}

static int to_init(struct probe *p, struct ibv_qp *qp)
{
	struct ibv_qp_attr attr = {
	    .qp_state = IBV_QPS_INIT,
	    .port_num = (uint8_t)p->result->port,
	    .qp_access_flags =
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
	};
	int err = ibv_modify_qp(
	    qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);

	return err ? fail(p, RK_PROBE_INIT, err, "check the port number and its P_Key table",
			  "ibv_modify_qp to INIT: %s", strerror(err))
		   : 0;
}

static int to_rtr(struct probe *p, struct ibv_qp *qp, uint32_t dest_qpn)
{
	struct ibv_qp_attr attr = {
	    .qp_state = IBV_QPS_RTR,
	    .path_mtu = ibv_mtu_of(p->result->mtu),
	    .dest_qp_num = dest_qpn,
	    .max_dest_rd_atomic = 1,
	    .min_rnr_timer = 12,
	    .ah_attr = {.dlid = p->port->lid, .port_num = (uint8_t)p->result->port},
	};
	int err;

	if (p->result->gid_index >= 0) {
		attr.ah_attr.is_global = 1;
		attr.ah_attr.grh.hop_limit = 1;
		attr.ah_attr.grh.sgid_index = (uint8_t)p->result->gid_index;
		err = ibv_query_gid(p->ctx, (uint8_t)p->result->port, p->result->gid_index,
				    &attr.ah_attr.grh.dgid);
		if (err)
			return fail(p, RK_PROBE_RTR, errno, "the GID table changed: run again",
				    "ibv_query_gid %d: %s", p->result->gid_index, strerror(errno));
	}
	err = ibv_modify_qp(qp, &attr,
			    IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	return err ? fail(p, RK_PROBE_RTR, err,
			  "check the GID (RoCE: the network device's address) or the LID (IB: a "
			  "subnet manager)",
			  "ibv_modify_qp to RTR: %s", strerror(err))
		   : 0;
}

static int to_rts(struct probe *p, struct ibv_qp *qp)
{
	struct ibv_qp_attr attr = {
	    .qp_state = IBV_QPS_RTS,
	    .timeout = 14,
	    .retry_cnt = 7,
	    .rnr_retry = 7,
	    .max_rd_atomic = 1,
	};
	int err = ibv_modify_qp(qp, &attr,
				IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				    IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);

	return err ? fail(p, RK_PROBE_RTS, err, "check the device's max_qp_rd_atom",
			  "ibv_modify_qp to RTS: %s", strerror(err))
		   : 0;
}

/* Wait for count completions on the CQ; the first bad one fails the step. */
static int wait_completions(struct probe *p, int step, int count)
{
	double deadline = rk_monotonic_seconds() + p->timeout;
	struct ibv_wc wc;

	while (count > 0) {
		int n = ibv_poll_cq(p->cq, 1, &wc);

		if (n < 0)
			return fail(p, step, EIO, "the device may have gone away",
				    "ibv_poll_cq failed");
		if (n == 0 && rk_monotonic_seconds() > deadline)
			return fail(p, step, ETIMEDOUT,
				    "the port lost its link, or (RoCE) the network device drops "
				    "the device's own UDP packets (firewall, rp_filter)",
				    "no completion within %.1f s", p->timeout);
		if (n == 0)
			continue;
		if (wc.status != IBV_WC_SUCCESS) {
			p->result->wc_status = wc.status;
			snprintf(p->result->wc_status_text, sizeof(p->result->wc_status_text), "%s",
				 ibv_wc_status_str(wc.status));
			return fail(
			    p, step, EIO,
			    "retry and RNR errors mean the packets did not come back: check "
			    "the GID, the MTU and the link",
			    "completion status %s (%d)", ibv_wc_status_str(wc.status), wc.status);
		}
		count--;
	}
	return 0;
}

static int post_send(struct probe *p, int step, enum ibv_wr_opcode opcode, int local, int remote)
{
	struct ibv_sge sge = {
	    .addr = (uintptr_t)region(p, local),
	    .length = (uint32_t)p->size,
	    .lkey = p->mr->lkey,
	};
	struct ibv_send_wr wr = {
	    .wr_id = (uint64_t)step,
	    .sg_list = &sge,
	    .num_sge = 1,
	    .opcode = opcode,
	    .send_flags = IBV_SEND_SIGNALED,
	    .wr.rdma = {.remote_addr = (uintptr_t)region(p, remote), .rkey = p->mr->rkey},
	};
	struct ibv_send_wr *bad;
	int err = ibv_post_send(p->qp[0], &wr, &bad);

	return err ? fail(p, step, err, "check the QP's state and limits", "ibv_post_send: %s",
			  strerror(err))
		   : 0;
}

static int post_recv(struct probe *p)
{
	struct ibv_sge sge = {
	    .addr = (uintptr_t)region(p, REGION_RECV),
	    .length = (uint32_t)p->size,
	    .lkey = p->mr->lkey,
	};
	struct ibv_recv_wr wr = {.wr_id = RK_PROBE_SEND, .sg_list = &sge, .num_sge = 1};
	struct ibv_recv_wr *bad;
	int err = ibv_post_recv(p->qp[1], &wr, &bad);

	return err ? fail(p, RK_PROBE_SEND, err, "check the QP's limits", "ibv_post_recv: %s",
			  strerror(err))
		   : 0;
}

static void fill_pattern(uint8_t *buf, size_t size, uint8_t seed)
{
	for (size_t i = 0; i < size; i++)
		buf[i] = (uint8_t)(seed + i * 7 + (i >> 8));
}

static int check_data(struct probe *p, int step, int got, uint8_t seed)
{
	uint8_t *want = malloc(p->size);
	size_t bad = 0;

	if (!want)
		return fail(p, step, ENOMEM, "free some memory", "cannot allocate %zu bytes",
			    p->size);
	fill_pattern(want, p->size, seed);
	while (bad < p->size && region(p, got)[bad] == want[bad])
		bad++;
	free(want);
	if (bad == p->size)
		return 0;
	return fail(p, step, EIO, "the device or its driver corrupts data: report it to the vendor",
		    "the data arrived wrong from byte %zu on", bad);
}

static int move_data(struct probe *p)
{
	double start = rk_monotonic_seconds();

	fill_pattern(region(p, REGION_SOURCE), p->size, 1);
	if (post_send(p, RK_PROBE_WRITE, IBV_WR_RDMA_WRITE, REGION_SOURCE, REGION_TARGET) ||
	    wait_completions(p, RK_PROBE_WRITE, 1) ||
	    check_data(p, RK_PROBE_WRITE, REGION_TARGET, 1))
		return -1;
	p->result->seconds[RK_PROBE_WRITE] = rk_monotonic_seconds() - start;
	start = rk_monotonic_seconds();
	if (post_send(p, RK_PROBE_READ, IBV_WR_RDMA_READ, REGION_READ, REGION_TARGET) ||
	    wait_completions(p, RK_PROBE_READ, 1) || check_data(p, RK_PROBE_READ, REGION_READ, 1))
		return -1;
	p->result->seconds[RK_PROBE_READ] = rk_monotonic_seconds() - start;
	start = rk_monotonic_seconds();
	fill_pattern(region(p, REGION_SOURCE), p->size, 0x5a);
	if (post_recv(p) || post_send(p, RK_PROBE_SEND, IBV_WR_SEND, REGION_SOURCE, REGION_RECV) ||
	    wait_completions(p, RK_PROBE_SEND, 2))
		return -1;
	p->result->rtt_seconds = rk_monotonic_seconds() - start;
	if (check_data(p, RK_PROBE_SEND, REGION_RECV, 0x5a))
		return -1;
	p->result->seconds[RK_PROBE_SEND] = rk_monotonic_seconds() - start;
	return 0;
}

/* Each setup step, timed; stops at the first that fails. */
static int set_up(struct probe *p)
{
	double *t = p->result->seconds;
	double start = rk_monotonic_seconds();

	if (check_port(p))
		return -1;
	t[RK_PROBE_PORT] = rk_monotonic_seconds() - start;
	start = rk_monotonic_seconds();
	p->pd = ibv_alloc_pd(p->ctx);
	if (!p->pd)
		return fail(p, RK_PROBE_PD, errno, "check the device's max_pd", "ibv_alloc_pd: %s",
			    strerror(errno));
	t[RK_PROBE_PD] = rk_monotonic_seconds() - start;
	start = rk_monotonic_seconds();
	if (register_memory(p))
		return -1;
	t[RK_PROBE_MR] = rk_monotonic_seconds() - start;
	start = rk_monotonic_seconds();
	p->cq = ibv_create_cq(p->ctx, 16, NULL, NULL, 0);
	if (!p->cq)
		return fail(p, RK_PROBE_CQ, errno, "check the device's max_cq", "ibv_create_cq: %s",
			    strerror(errno));
	t[RK_PROBE_CQ] = rk_monotonic_seconds() - start;
	start = rk_monotonic_seconds();
	if (create_qps(p))
		return -1;
	t[RK_PROBE_QP] = rk_monotonic_seconds() - start;
	start = rk_monotonic_seconds();
	if (to_init(p, p->qp[0]) || to_init(p, p->qp[1]))
		return -1;
	t[RK_PROBE_INIT] = rk_monotonic_seconds() - start;
	start = rk_monotonic_seconds();
	if (to_rtr(p, p->qp[0], p->qp[1]->qp_num) || to_rtr(p, p->qp[1], p->qp[0]->qp_num))
		return -1;
	t[RK_PROBE_RTR] = rk_monotonic_seconds() - start;
	start = rk_monotonic_seconds();
	if (to_rts(p, p->qp[0]) || to_rts(p, p->qp[1]))
		return -1;
	t[RK_PROBE_RTS] = rk_monotonic_seconds() - start;
	return 0;
}

static void tear_down(struct probe *p)
{
	for (int i = 0; i < 2; i++)
		if (p->qp[i])
			ibv_destroy_qp(p->qp[i]);
	if (p->cq)
		ibv_destroy_cq(p->cq);
	if (p->mr)
		ibv_dereg_mr(p->mr);
	free(p->buf);
	if (p->pd)
		ibv_dealloc_pd(p->pd);
	rk_verbs_device_free(&p->dev);
	if (p->ctx)
		ibv_close_device(p->ctx);
}

static void init_result(const struct rk_probe_options *options, struct rk_probe_result *r)
{
	memset(r, 0, sizeof(*r));
	r->port = options->port;
	r->size = options->size ? options->size : 4096;
	r->failed_step = -1;
	r->wc_status = -1;
	r->gid_index = -1;
}

int rk_probe_run(const struct rk_probe_options *options, struct rk_probe_result *result)
{
	struct probe p = {.result = result};
	double start = rk_monotonic_seconds();
	int err;

	init_result(options, result);
	p.size = result->size;
	p.timeout = options->timeout > 0 ? options->timeout : 5.0;
	err = rk_verbs_open(options->device, &p.ctx);
	if (!err)
		err = rk_verbs_query_context(p.ctx, &p.dev);
	if (err) {
		tear_down(&p);
		return err;
	}
	snprintf(result->device, sizeof(result->device), "%s", p.dev.name);
	if (result->port == 0)
		result->port = p.dev.nports ? p.dev.ports[0].num : 1;
	if (!rk_verbs_find_port(&p.dev, result->port)) {
		rk_log(RK_LOG_ERR, "%s has no port %u", p.dev.name, result->port);
		tear_down(&p);
		return -ENODEV;
	}
	result->seconds[RK_PROBE_OPEN] = rk_monotonic_seconds() - start;
	result->passed = set_up(&p) == 0 && move_data(&p) == 0;
	if (!result->passed)
		rk_log(RK_LOG_DEBUG, "probe %s:%u failed at %s: %s", result->device, result->port,
		       rk_probe_step_name(result->failed_step), result->message);
	tear_down(&p);
	return 0;
}
