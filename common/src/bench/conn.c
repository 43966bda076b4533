/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The private-data wire format and the verbs resources of a bench connection. */
#include "bench_int.h"

#include "rdmakit/log.h"
#include "rdmakit/rdma_stack.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void wire_encode_request(const struct rk_bench_params *p, uint32_t run_id, uint8_t qp_index,
			 bool last, const struct bench_conn *conn, struct wire_request *req)
{
	memset(req, 0, sizeof(*req));
	req->magic = htonl(WIRE_MAGIC);
	req->version = WIRE_VERSION;
	req->test = (uint8_t)p->test;
	req->flags = (uint8_t)((p->bidir ? WIRE_FLAG_BIDIR : 0) | (last ? WIRE_FLAG_LAST : 0));
	req->nqps = (uint8_t)p->qps;
	req->qp_index = qp_index;
	req->run_id = htonl(run_id);
	req->size = htonl(p->size);
	req->iters = htonl(p->iters);
	req->duration_ms = htonl((uint32_t)(p->duration * 1000.0 + 0.5));
	req->warmup = htonl(p->warmup);
	req->tx_depth = htons((uint16_t)p->tx_depth);
	req->inline_size = htons((uint16_t)p->inline_size);
	req->cq_mod = htons((uint16_t)p->cq_mod);
	req->addr = htobe64(conn->local_addr);
	req->rkey = htonl(conn->mr->rkey);
}

int wire_decode_request(const void *data, size_t len, struct rk_bench_params *p, uint32_t *run_id,
			uint8_t *qp_index, bool *last, uint64_t *addr, uint32_t *rkey)
{
	struct wire_request req;

	if (!data || len < sizeof(req)) {
		rk_log(RK_LOG_WARNING, "bench: a connection request without rdmakit's parameters");
		return -EINVAL;
	}
	memcpy(&req, data, sizeof(req));
	if (ntohl(req.magic) != WIRE_MAGIC || req.version != WIRE_VERSION) {
		rk_log(RK_LOG_WARNING, "bench: a connection request from another tool or version");
		return -EINVAL;
	}
	memset(p, 0, sizeof(*p));
	p->test = (enum rk_bench_test)req.test;
	p->bidir = (req.flags & WIRE_FLAG_BIDIR) != 0;
	p->qps = req.nqps;
	p->size = ntohl(req.size);
	p->iters = ntohl(req.iters);
	p->duration = ntohl(req.duration_ms) / 1000.0;
	p->warmup = ntohl(req.warmup);
	p->tx_depth = ntohs(req.tx_depth);
	p->inline_size = ntohs(req.inline_size);
	p->cq_mod = ntohs(req.cq_mod);
	*run_id = ntohl(req.run_id);
	*qp_index = req.qp_index;
	*last = (req.flags & WIRE_FLAG_LAST) != 0;
	*addr = be64toh(req.addr);
	*rkey = ntohl(req.rkey);
	return bench_check_params(p);
}

void wire_encode_reply(enum wire_status status, const struct bench_conn *conn,
		       struct wire_reply *reply)
{
	memset(reply, 0, sizeof(*reply));
	reply->magic = htonl(WIRE_MAGIC);
	reply->status = (uint8_t)status;
	if (conn && conn->mr) {
		reply->addr = htobe64(conn->local_addr);
		reply->rkey = htonl(conn->mr->rkey);
	}
}

int wire_decode_reply(const void *data, size_t len, struct wire_reply *reply)
{
	if (!data || len < sizeof(*reply))
		return -EINVAL;
	memcpy(reply, data, sizeof(*reply));
	if (ntohl(reply->magic) != WIRE_MAGIC)
		return -EINVAL;
	reply->addr = be64toh(reply->addr);
	reply->rkey = ntohl(reply->rkey);
	return 0;
}

const char *wire_status_text(uint8_t status)
{
	switch (status) {
	case WIRE_OK:
		return "accepted";
	case WIRE_BUSY:
		return "the server is serving another client's run; try again when it ends";
	case WIRE_BAD_PARAMS:
		return "the server refused the parameters";
	case WIRE_TOO_BIG:
		return "the message size is beyond the server device's limit";
	default:
		return "the server could not allocate the resources";
	}
}

int bench_check_params(const struct rk_bench_params *p)
{
	const char *why = NULL;

	if (p->test >= RK_BENCH_TESTS)
		why = "unknown test";
	else if (p->size == 0)
		why = "the message size must be at least 1 byte";
	else if (p->qps == 0 || p->qps > RK_BENCH_MAX_QPS)
		why = "the number of QPs must be 1 to 64";
	else if (rk_bench_is_latency(p->test) && p->qps != 1)
		why = "latency tests use one QP";
	else if (p->bidir && rk_bench_is_latency(p->test))
		why = "--bidir is for the bandwidth tests";
	else if (p->tx_depth == 0 || p->tx_depth > 8192)
		why = "the TX depth must be 1 to 8192";
	else if (p->cq_mod == 0 || p->cq_mod > p->tx_depth)
		why = "CQ moderation must be 1 to the TX depth";
	else if (p->inline_size > 1024)
		why = "the inline size must be 0 to 1024 bytes";
	else if (p->iters == 0 && p->duration <= 0)
		why = "give a number of iterations or a duration";
	if (why)
		rk_log(RK_LOG_ERR, "bench: %s", why);
	return why ? -EINVAL : 0;
}

struct rdma_event_channel *bench_open_channel(void)
{
	struct rdma_event_channel *channel = rdma_create_event_channel();
	struct rk_rdma_stack stack;
	const char *why;
	int err = errno;

	if (channel)
		return channel;
	rk_rdma_stack_read("/sys", "/dev", &stack);
	why = rk_rdma_stack_no_verbs(&stack);
	rk_log(RK_LOG_ERR, "bench: no RDMA connection manager: %s; %s", strerror(err),
	       why ? why : "is rdma_ucm loaded? (modprobe rdma_ucm)");
	errno = err;
	return NULL;
}

int bench_run_setup(struct bench_run *run, struct ibv_context *verbs)
{
	const struct rk_bench_params *p = &run->params;
	int cqe = (int)((p->tx_depth + run->rx_depth) * p->qps + 16);

	run->verbs = verbs;
	run->pd = ibv_alloc_pd(verbs);
	if (!run->pd) {
		rk_log(RK_LOG_ERR, "bench: ibv_alloc_pd: %s", strerror(errno));
		return -errno;
	}
	run->cq = ibv_create_cq(verbs, cqe, NULL, NULL, 0);
	if (!run->cq) {
		rk_log(RK_LOG_ERR, "bench: ibv_create_cq of %d entries: %s", cqe, strerror(errno));
		return -errno;
	}
	return 0;
}

static int post_receive(struct bench_run *run, struct bench_conn *conn, uint32_t index)
{
	struct ibv_sge sge = {
	    .addr = (uintptr_t)bench_region(run, conn, REGION_DEST),
	    .length = run->params.size,
	    .lkey = conn->mr->lkey,
	};
	struct ibv_recv_wr wr = {.wr_id = index, .sg_list = &sge, .num_sge = 1}, *bad;

	return -ibv_post_recv(conn->id->qp, &wr, &bad);
}

static int create_qp(struct bench_run *run, struct rdma_cm_id *id)
{
	const struct rk_bench_params *p = &run->params;
	struct ibv_qp_init_attr attr = {
	    .send_cq = run->cq,
	    .recv_cq = run->cq,
	    .qp_type = IBV_QPT_RC,
	    .cap = {.max_send_wr = p->tx_depth + 1,
		    .max_recv_wr = run->rx_depth ? run->rx_depth : 1,
		    .max_send_sge = 1,
		    .max_recv_sge = 1,
		    .max_inline_data = p->inline_size},
	};

	if (rdma_create_qp(id, run->pd, &attr) == 0)
		return 0;
	rk_log(RK_LOG_ERR,
	       "bench: cannot create a QP (TX depth %u, inline %u bytes): %s; lower --tx-depth "
	       "or --inline",
	       p->tx_depth, p->inline_size, strerror(errno));
	return -errno;
}

/* 4.096 us x 2^14 = 67 ms before a lost packet is sent again, as perftest sets it; rdma_cm's
 * default on RoCE is about a second, which turns one drop into a stall. */
#define ACK_TIMEOUT 14

static void set_ack_timeout(struct rdma_cm_id *id)
{
	uint8_t timeout = ACK_TIMEOUT;

	if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &timeout,
			    sizeof(timeout)) != 0)
		rk_log(RK_LOG_DEBUG, "bench: rdma_cm keeps its own ACK timeout: %s",
		       strerror(errno));
}

int bench_conn_setup(struct bench_run *run, struct bench_conn *conn, struct rdma_cm_id *id)
{
	size_t bytes = (size_t)run->params.size * REGIONS;
	int err;

	conn->id = id;
	conn->buf = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
	if (!conn->buf)
		return -ENOMEM;
	memset(conn->buf, 0, bytes);
	conn->local_addr = (uintptr_t)bench_region(run, conn, REGION_DEST);
	conn->mr =
	    ibv_reg_mr(run->pd, conn->buf, bytes,
		       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	if (!conn->mr) {
		rk_log(RK_LOG_ERR, "bench: ibv_reg_mr of %zu bytes: %s (memlock limit: ulimit -l)",
		       bytes, strerror(errno));
		return -errno;
	}
	set_ack_timeout(id);
	err = create_qp(run, id);
	for (uint32_t i = 0; !err && i < run->rx_depth; i++)
		err = post_receive(run, conn, (uint32_t)(conn - run->conns));
	if (err)
		rk_log(RK_LOG_ERR, "bench: cannot post receives: %s", strerror(-err));
	return err;
}

void bench_conn_free(struct bench_conn *conn)
{
	if (conn->id && conn->id->qp)
		rdma_destroy_qp(conn->id);
	if (conn->mr)
		ibv_dereg_mr(conn->mr);
	free(conn->buf);
	if (conn->id)
		rdma_destroy_id(conn->id);
	memset(conn, 0, sizeof(*conn));
}

void bench_run_free(struct bench_run *run)
{
	if (run->cq)
		ibv_destroy_cq(run->cq);
	if (run->pd)
		ibv_dealloc_pd(run->pd);
	run->cq = NULL;
	run->pd = NULL;
}

void bench_conn_param(const struct bench_run *run, struct rdma_conn_param *param)
{
	struct ibv_device_attr attr;
	uint8_t depth = 16;

	if (ibv_query_device(run->verbs, &attr) == 0 && attr.max_qp_rd_atom < depth)
		depth = (uint8_t)attr.max_qp_rd_atom;
	memset(param, 0, sizeof(*param));
	param->initiator_depth = depth;
	param->responder_resources = depth;
	param->retry_count = 7;
	param->rnr_retry_count = 7;
}

uint8_t *bench_region(const struct bench_run *run, const struct bench_conn *conn, int region)
{
	return conn->buf + (size_t)region * run->params.size;
}

void bench_fill_pattern(uint8_t *buf, size_t size, uint8_t seed)
{
	for (size_t i = 0; i < size; i++)
		buf[i] = (uint8_t)(seed + i * 13 + (i >> 9));
}

uint8_t bench_client_seed(uint32_t size)
{
	return (uint8_t)(0x11 + size * 7);
}

uint8_t bench_server_seed(uint32_t size)
{
	return (uint8_t)(0xc3 + size * 31);
}
