/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The bench client: one rdma_cm connection per QP and size, parameters and keys in the private
 * data, warm-up, the timed run, then the data read back and checked. */
#include "bench_int.h"

#include "rdmakit/host.h"
#include "rdmakit/log.h"
#include "rdmakit/verbs.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct client {
	const struct rk_bench_client_options *o;
	struct rk_bench_context *context;
	struct sockaddr_storage dst;
	struct rdma_event_channel *channel;
	struct bench_run run;
	uint32_t run_id;
	bool described; /* context filled (on the first size) */
	double timeout;
};

/* Wait for the next CM event of the channel; -ETIMEDOUT after timeout seconds. */
static int next_event(struct client *c, struct rdma_cm_event **event)
{
	struct pollfd pfd = {.fd = c->channel->fd, .events = POLLIN};
	int n = poll(&pfd, 1, (int)(c->timeout * 1000));

	if (n == 0)
		return -ETIMEDOUT;
	if (n < 0 || rdma_get_cm_event(c->channel, event) != 0)
		return -errno;
	return 0;
}

static int refused(struct client *c, const struct rdma_cm_event *event)
{
	struct wire_reply reply;

	if (wire_decode_reply(event->param.conn.private_data, event->param.conn.private_data_len,
			      &reply) == 0) {
		rk_log(RK_LOG_ERR, "bench: %s:%u refused the run: %s", c->o->host, c->o->port,
		       wire_status_text(reply.status));
		return reply.status == WIRE_BUSY ? -EBUSY : -EINVAL;
	}
	rk_log(RK_LOG_ERR,
	       "bench: no rdmakit bench server at %s:%u: the connection was rejected (nothing "
	       "listens there; start: rdmakit bench server --bind %s)",
	       c->o->host, c->o->port, c->o->host);
	return -ECONNREFUSED;
}

/* Wait for want; anything else is explained and fails. */
static int expect_event(struct client *c, enum rdma_cm_event_type want, const char *what,
			struct wire_reply *reply)
{
	struct rdma_cm_event *event;
	int err = next_event(c, &event);

	if (err == -ETIMEDOUT) {
		rk_log(RK_LOG_ERR,
		       "bench: no answer from %s:%u within %.0f s while %s (is the "
		       "server running and reachable?)",
		       c->o->host, c->o->port, c->timeout, what);
		return err;
	}
	if (err)
		return err;
	if (event->event == want) {
		if (reply)
			err = wire_decode_reply(event->param.conn.private_data,
						event->param.conn.private_data_len, reply);
		if (err)
			rk_log(RK_LOG_ERR, "bench: %s:%u is not an rdmakit bench server",
			       c->o->host, c->o->port);
	} else if (event->event == RDMA_CM_EVENT_REJECTED) {
		err = refused(c, event);
	} else {
		rk_log(RK_LOG_ERR, "bench: %s %s:%u: %s (status %d)", what, c->o->host, c->o->port,
		       rdma_event_str(event->event), event->status);
		err = event->status < 0 ? event->status : -EHOSTUNREACH;
	}
	rdma_ack_cm_event(event);
	return err;
}

static int resolve_host(struct client *c)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res;
	char service[8];
	int err;

	snprintf(service, sizeof(service), "%u", c->o->port);
	err = getaddrinfo(c->o->host, service, &hints, &res);
	if (err) {
		rk_log(RK_LOG_ERR, "bench: cannot resolve \"%s\": %s", c->o->host,
		       gai_strerror(err));
		return -EHOSTUNREACH;
	}
	memcpy(&c->dst, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return 0;
}

static int read_cpulist(int node, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -EINVAL;
}

static int parse_cpulist(const char *list, cpu_set_t *set)
{
	const char *s = list;

	CPU_ZERO(set);
	while (*s) {
		char *end;
		long first = strtol(s, &end, 10), last = first;

		if (end == s || first < 0)
			return -EINVAL;
		if (*end == '-')
			last = strtol(end + 1, &end, 10);
		for (long cpu = first; cpu <= last && cpu < CPU_SETSIZE; cpu++)
			CPU_SET((int)cpu, set);
		s = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\0')
			return -EINVAL;
	}
	return 0;
}

/* Bind this process to the CPUs of the device's NUMA node. */
static void bind_numa(struct client *c)
{
	struct rk_bench_context *ctx = c->context;
	char cpus[sizeof(ctx->cpu_binding) - 16];
	cpu_set_t set;

	if (!c->o->bind_numa) {
		snprintf(ctx->cpu_binding, sizeof(ctx->cpu_binding), "none (asked)");
	} else if (ctx->numa_node < 0) {
		snprintf(ctx->cpu_binding, sizeof(ctx->cpu_binding), "none (no NUMA node)");
	} else if (read_cpulist(ctx->numa_node, cpus, sizeof(cpus)) != 0 ||
		   parse_cpulist(cpus, &set) != 0 || sched_setaffinity(0, sizeof(set), &set) != 0) {
		rk_log(RK_LOG_WARNING, "bench: cannot bind to NUMA node %d's CPUs", ctx->numa_node);
		snprintf(ctx->cpu_binding, sizeof(ctx->cpu_binding), "none (binding failed)");
	} else {
		snprintf(ctx->cpu_binding, sizeof(ctx->cpu_binding), "node %d: CPUs %s",
			 ctx->numa_node, cpus);
	}
}

/* PCIe ceiling and NUMA node from sysfs (the host module). */
static void describe_pci(struct rk_bench_context *ctx)
{
	struct rk_host *host;
	const struct rk_device *dev;

	ctx->numa_node = -1;
	ctx->pcie_data_gbps = -1;
	if (rk_host_open("/sys", &host) != 0)
		return;
	dev = rk_host_find_device(host, ctx->device);
	if (dev) {
		ctx->numa_node = dev->pci.numa_node;
		ctx->pcie_data_gbps = rk_pcie_data_gbps(dev->pci.cur_speed_gts, dev->pci.cur_width);
	}
	rk_host_close(host);
}

static void describe_gid(struct rk_bench_context *ctx, const struct rk_verbs_port *port,
			 const struct rdma_cm_id *id)
{
	char gid[40];

	rk_format_gid(id->route.addr.addr.ibaddr.sgid.raw, gid, sizeof(gid));
	snprintf(ctx->gid_type, sizeof(ctx->gid_type), "?");
	for (size_t i = 0; i < port->ngids; i++) {
		/* RoCE v1 and v2 entries share addresses; rdma_cm's default is v2. */
		if (strcmp(port->gids[i].gid, gid) == 0 &&
		    (strcmp(ctx->gid_type, "?") == 0 || port->gids[i].type == RK_GID_ROCE_V2))
			snprintf(ctx->gid_type, sizeof(ctx->gid_type), "%s",
				 rk_gid_type_name(port->gids[i].type));
	}
}

/* The device, port and limits the route goes through; refuses a port that is not ACTIVE. */
static int describe(struct client *c, const struct rdma_cm_id *id)
{
	struct rk_bench_context *ctx = c->context;
	struct rk_verbs_device dev;
	const struct rk_verbs_port *port;
	struct ibv_port_attr attr;
	int err = rk_verbs_query_context(id->verbs, &dev);

	if (err)
		return err;
	port = rk_verbs_find_port(&dev, id->port_num);
	if (!port || ibv_query_port(id->verbs, id->port_num, &attr) != 0) {
		rk_log(RK_LOG_ERR, "bench: cannot query port %u of %s", id->port_num, dev.name);
		rk_verbs_device_free(&dev);
		return -ENODEV;
	}
	snprintf(ctx->device, sizeof(ctx->device), "%s", dev.name);
	snprintf(ctx->fw_ver, sizeof(ctx->fw_ver), "%s", dev.fw_ver);
	snprintf(ctx->link_layer, sizeof(ctx->link_layer), "%s", port->link_layer);
	ctx->port = port->num;
	ctx->mtu = port->active_mtu;
	ctx->max_msg_size = attr.max_msg_sz;
	ctx->link_data_gbps = port->data_gbps;
	describe_gid(ctx, port, id);
	if (port->state != IBV_PORT_ACTIVE) {
		rk_log(RK_LOG_ERR, "bench: port %u of %s is %s, not ACTIVE", port->num, dev.name,
		       rk_port_state_name(port->state));
		err = -ENETDOWN;
	}
	rk_verbs_device_free(&dev);
	if (!err) {
		describe_pci(ctx);
		bind_numa(c);
		c->described = true;
	}
	return err;
}

static int check_size(struct client *c)
{
	if (c->run.params.size <= c->context->max_msg_size)
		return 0;
	rk_log(RK_LOG_ERR,
	       "bench: a size of %u bytes is beyond %s's limit of %u bytes (max_msg_sz)",
	       c->run.params.size, c->context->device, c->context->max_msg_size);
	return -EMSGSIZE;
}

/* Resolve the address and route of one connection; the first also sets up the run. */
static int resolve(struct client *c, struct bench_conn *conn)
{
	struct rdma_cm_id *id;
	int timeout_ms = (int)(c->timeout * 1000);
	int err;

	if (rdma_create_id(c->channel, &id, NULL, RDMA_PS_TCP) != 0)
		return -errno;
	conn->id = id;
	if (rdma_resolve_addr(id, NULL, (struct sockaddr *)&c->dst, timeout_ms) != 0) {
		rk_log(RK_LOG_ERR, "bench: no RDMA route to %s: %s", c->o->host, strerror(errno));
		return -errno;
	}
	err = expect_event(c, RDMA_CM_EVENT_ADDR_RESOLVED, "resolving the address of", NULL);
	if (!err && !c->described)
		err = describe(c, id);
	if (!err)
		err = check_size(c);
	if (!err && !c->run.pd)
		err = bench_run_setup(&c->run, id->verbs);
	if (!err && rdma_resolve_route(id, timeout_ms) != 0)
		err = -errno;
	if (!err)
		err = expect_event(c, RDMA_CM_EVENT_ROUTE_RESOLVED, "finding the route to", NULL);
	return err;
}

static int connect_one(struct client *c, uint8_t index, bool last)
{
	struct bench_conn *conn = &c->run.conns[index];
	struct rdma_conn_param param;
	struct wire_request req;
	struct wire_reply reply;
	int err = resolve(c, conn);
	struct rdma_cm_id *id = conn->id;

	if (!err)
		err = bench_conn_setup(&c->run, conn, id);
	if (err)
		return err;
	bench_fill_pattern(bench_region(&c->run, conn, REGION_SOURCE), c->run.params.size,
			   bench_client_seed(c->run.params.size));
	wire_encode_request(&c->run.params, c->run_id, index, last, conn, &req);
	bench_conn_param(&c->run, &param);
	param.private_data = &req;
	param.private_data_len = sizeof(req);
	if (rdma_connect(id, &param) != 0)
		return -errno;
	err = expect_event(c, RDMA_CM_EVENT_ESTABLISHED, "connecting to", &reply);
	if (err)
		return err;
	conn->remote_addr = reply.addr;
	conn->remote_rkey = reply.rkey;
	conn->established = true;
	return 0;
}

/* Read the server's DEST region back and compare with what should be there. */
static int verify_conn(struct client *c, struct bench_conn *conn, bool *ok)
{
	struct bench_run *run = &c->run;
	uint32_t size = run->params.size;
	bool read_test =
	    run->params.test == RK_BENCH_READ_BW || run->params.test == RK_BENCH_READ_LAT;
	uint8_t *expected = malloc(size);
	struct ibv_sge sge = {.addr = (uintptr_t)bench_region(run, conn, REGION_VERIFY),
			      .length = size,
			      .lkey = conn->mr->lkey};
	struct ibv_send_wr wr = {
	    .wr_id = ((uint64_t)(conn - run->conns) << 32) | 1,
	    .sg_list = &sge,
	    .num_sge = 1,
	    .opcode = IBV_WR_RDMA_READ,
	    .send_flags = IBV_SEND_SIGNALED,
	    .wr.rdma = {.remote_addr = conn->remote_addr, .rkey = conn->remote_rkey}};
	struct ibv_send_wr *bad;
	uint64_t want = conn->completed + 1;
	int err = 0;

	if (!expected)
		return -ENOMEM;
	if (read_test) /* what the reads brought is in DEST; it must be the server's pattern */
		bench_fill_pattern(expected, size, bench_server_seed(size));
	else
		memcpy(expected, bench_region(run, conn, REGION_SOURCE), size);
	if (!read_test && (err = -ibv_post_send(conn->id->qp, &wr, &bad)) == 0) {
		conn->outstanding++;
		while (!err && conn->completed < want)
			err = bench_poll(run, NULL) < 0 ? -EIO : 0;
	}
	*ok = *ok && !err &&
	      memcmp(bench_region(run, conn, read_test ? REGION_DEST : REGION_VERIFY), expected,
		     size) == 0;
	free(expected);
	return err;
}

static int measure(struct client *c, struct rk_bench_result *result)
{
	struct bench_run *run = &c->run;
	const struct rk_bench_params *p = &run->params;
	uint64_t messages;
	double *samples;
	size_t cap, count;
	int err;

	if (!rk_bench_is_latency(p->test)) {
		err = p->warmup
			  ? bench_bw_loop(run, p->warmup, 0, false, &messages, &result->seconds)
			  : 0;
		if (!err)
			err = bench_bw_loop(run, p->iters, p->duration, true, &messages,
					    &result->seconds);
		result->iters = messages;
		result->gbps = (double)messages * p->size * 8 / result->seconds / 1e9;
		result->msg_per_second = (double)messages / result->seconds;
		return err;
	}
	cap = p->iters ? p->iters : (size_t)(p->duration * 2e6) + 1;
	samples = malloc(cap * sizeof(*samples));
	if (!samples)
		return -ENOMEM;
	err = bench_lat_client(run, samples, cap, &count, &result->seconds);
	rk_latency_stats_compute(samples, count, &result->latency);
	result->iters = count;
	free(samples);
	return err;
}

static void disconnect_all(struct client *c)
{
	struct rdma_cm_event *event;
	uint32_t pending = 0;

	for (uint32_t i = 0; i < c->run.nconns; i++)
		if (c->run.conns[i].established && rdma_disconnect(c->run.conns[i].id) == 0)
			pending++;
	c->timeout = 2;
	while (pending > 0 && next_event(c, &event) == 0) {
		if (event->event == RDMA_CM_EVENT_DISCONNECTED)
			pending--;
		rdma_ack_cm_event(event);
	}
	for (uint32_t i = 0; i < c->run.nconns; i++)
		bench_conn_free(&c->run.conns[i]);
	bench_run_free(&c->run);
}

/* Receives to keep posted: pongs, the server's sends (bidir), or its final "done". */
static uint32_t client_rx_depth(const struct rk_bench_params *p)
{
	if (p->test == RK_BENCH_SEND_LAT)
		return 16;
	if (!p->bidir)
		return 0;
	return p->test == RK_BENCH_SEND_BW ? 512 : 1;
}

static int run_size(struct client *c, uint32_t size, bool last, struct rk_bench_result *result)
{
	struct bench_run *run = &c->run;
	int err = 0;

	memset(run, 0, sizeof(*run));
	run->params = c->o->params;
	run->params.size = size;
	run->nconns = run->params.qps;
	run->rx_depth = client_rx_depth(&run->params);
	run->progress = c->o->progress;
	run->progress_ctx = c->o->progress_ctx;
	memset(result, 0, sizeof(*result));
	result->size = size;
	c->timeout = c->o->timeout > 0 ? c->o->timeout : 10;
	c->channel = bench_open_channel();
	if (!c->channel)
		return -errno;
	for (uint32_t i = 0; i < run->nconns && !err; i++)
		err = connect_one(c, (uint8_t)i, last);
	if (!err)
		err = measure(c, result);
	if (!err && run->params.bidir)
		err = bench_wait_done(run, c->timeout + 10 * result->seconds);
	result->verified = !err;
	for (uint32_t i = 0; i < run->nconns && !err; i++)
		err = verify_conn(c, &run->conns[i], &result->verified);
	if (!err && !result->verified)
		rk_log(RK_LOG_ERR, "bench: %s %u bytes: the data that arrived is wrong",
		       rk_bench_test_name(run->params.test), size);
	disconnect_all(c);
	rdma_destroy_event_channel(c->channel);
	return err ? err : result->verified ? 0 : -EIO;
}

int rk_bench_client_run(const struct rk_bench_client_options *o, struct rk_bench_context *context,
			struct rk_bench_result *results)
{
	struct client c = {.o = o, .context = context};
	struct rk_bench_params check = o->params;
	int err;

	memset(context, 0, sizeof(*context));
	check.size = o->nsizes ? o->sizes[0] : 0;
	err = bench_check_params(&check);
	if (!err)
		err = resolve_host(&c);
	c.run_id = (uint32_t)getpid() ^ (uint32_t)rk_bench_now_ns();
	for (size_t i = 0; i < o->nsizes && !err; i++)
		err = run_size(&c, o->sizes[i], i + 1 == o->nsizes, &results[i]);
	return err;
}
