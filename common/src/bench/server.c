/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The bench server: listens on one address, serves one client run at a time (its QPs share a
 * run id), answers pings and keeps receives posted; refuses other clients meanwhile. */
#include "bench_int.h"

#include "rdmakit/log.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

struct server {
	const struct rk_bench_server_options *o;
	struct rdma_event_channel *channel;
	struct rdma_cm_id *listener;
	struct bench_run run;
	bool active, last, finished;
	bool stopped; /* the run's data path failed: wait for the disconnects */
	uint32_t run_id, accepted, established, gone;
};

static int listen_on(struct server *s)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res;
	char service[8];
	int err;

	snprintf(service, sizeof(service), "%u", s->o->port);
	err = getaddrinfo(s->o->bind, service, &hints, &res);
	if (err) {
		rk_log(RK_LOG_ERR, "bench: cannot resolve \"%s\": %s", s->o->bind,
		       gai_strerror(err));
		return -EINVAL;
	}
	err = rdma_bind_addr(s->listener, res->ai_addr) ? -errno : 0;
	freeaddrinfo(res);
	if (err) {
		rk_log(RK_LOG_ERR,
		       "bench: cannot listen on %s port %u: %s (no RDMA device has that "
		       "address, or the port is taken)",
		       s->o->bind ? s->o->bind : "every address", s->o->port, strerror(-err));
		return err;
	}
	if (rdma_listen(s->listener, 8) != 0)
		return -errno;
	rk_log(RK_LOG_INFO, "bench: listening on %s port %u",
	       s->o->bind ? s->o->bind : "every address", s->o->port);
	return 0;
}

static void reject(struct rdma_cm_id *id, enum wire_status status)
{
	struct wire_reply reply;

	wire_encode_reply(status, NULL, &reply);
	rdma_reject(id, &reply, sizeof(reply));
}

static bool is_passive(const struct bench_run *run)
{
	enum rk_bench_test t = run->params.test;

	return t == RK_BENCH_WRITE_BW || t == RK_BENCH_READ_BW || t == RK_BENCH_READ_LAT;
}

static int start_session(struct server *s, const struct rk_bench_params *params, uint32_t run_id,
			 bool last, struct rdma_cm_id *id)
{
	struct bench_run *run = &s->run;
	struct ibv_port_attr attr;

	memset(run, 0, sizeof(*run));
	run->params = *params;
	run->nconns = params->qps;
	run->is_server = true;
	run->rx_depth = params->test == RK_BENCH_SEND_BW    ? 512
			: params->test == RK_BENCH_SEND_LAT ? 16
							    : 0;
	if (ibv_query_port(id->verbs, id->port_num, &attr) == 0 && params->size > attr.max_msg_sz) {
		rk_log(RK_LOG_WARNING, "bench: refused %u bytes: beyond the limit of %u",
		       params->size, attr.max_msg_sz);
		return WIRE_TOO_BIG;
	}
	if (bench_run_setup(run, id->verbs) != 0) {
		bench_run_free(run);
		return WIRE_NO_RESOURCES;
	}
	s->active = true;
	s->run_id = run_id;
	s->last = last;
	s->accepted = s->established = s->gone = 0;
	s->stopped = false;
	rk_log(RK_LOG_INFO, "bench: run %08x: %s, %u bytes, %u QP(s)", run_id,
	       rk_bench_test_name(params->test), params->size, params->qps);
	return WIRE_OK;
}

static int accept_conn(struct server *s, struct rdma_cm_id *id, uint8_t index, uint64_t addr,
		       uint32_t rkey)
{
	struct bench_run *run = &s->run;
	struct bench_conn *conn = &run->conns[index];
	struct rdma_conn_param param;
	struct wire_reply reply;

	if (index >= run->nconns || conn->id)
		return WIRE_BAD_PARAMS;
	if (bench_conn_setup(run, conn, id) != 0) {
		conn->id = NULL; /* the caller destroys the id it rejects */
		bench_conn_free(conn);
		return WIRE_NO_RESOURCES;
	}
	if (run->params.test == RK_BENCH_READ_BW || run->params.test == RK_BENCH_READ_LAT)
		bench_fill_pattern(bench_region(run, conn, REGION_DEST), run->params.size,
				   bench_server_seed(run->params.size));
	conn->remote_addr = addr;
	conn->remote_rkey = rkey;
	wire_encode_reply(WIRE_OK, conn, &reply);
	bench_conn_param(run, &param);
	param.private_data = &reply;
	param.private_data_len = sizeof(reply);
	if (rdma_accept(id, &param) != 0) {
		rk_log(RK_LOG_WARNING, "bench: rdma_accept: %s", strerror(errno));
		conn->id = NULL;
		bench_conn_free(conn);
		return WIRE_NO_RESOURCES;
	}
	s->accepted++;
	return WIRE_OK;
}

/* A connection request: ours to serve, or refused with the reason. True when accepted. */
static bool on_request(struct server *s, struct rdma_cm_event *event)
{
	struct rk_bench_params params;
	uint32_t run_id, rkey;
	uint8_t index;
	uint64_t addr;
	bool last;
	int status = WIRE_OK;

	if (wire_decode_request(event->param.conn.private_data, event->param.conn.private_data_len,
				&params, &run_id, &index, &last, &addr, &rkey) != 0)
		status = WIRE_BAD_PARAMS;
	else if (s->active && run_id != s->run_id)
		status = WIRE_BUSY;
	else if (!s->active)
		status = start_session(s, &params, run_id, last, event->id);
	if (status == WIRE_OK)
		status = accept_conn(s, event->id, index, addr, rkey);
	if (status == WIRE_BUSY)
		rk_log(RK_LOG_INFO, "bench: refused a second client while run %08x goes on",
		       s->run_id);
	if (status != WIRE_OK)
		reject(event->id, (enum wire_status)status);
	if (status != WIRE_OK && s->active && s->accepted == 0) {
		bench_run_free(&s->run);
		s->active = false;
	}
	return status == WIRE_OK;
}

static struct bench_conn *conn_of_id(struct server *s, const struct rdma_cm_id *id)
{
	for (uint32_t i = 0; s->active && i < s->run.nconns; i++)
		if (s->run.conns[i].id == id)
			return &s->run.conns[i];
	return NULL;
}

static void end_session(struct server *s)
{
	bench_run_free(&s->run);
	s->active = false;
	if (s->last && s->o->once)
		s->finished = true;
	rk_log(RK_LOG_INFO, "bench: run %08x done", s->run_id);
}

/* The server's own load of a bidirectional run, as the client's. */
static void send_back(struct server *s)
{
	struct bench_run *run = &s->run;
	uint64_t messages;
	double seconds;
	int err = run->params.warmup
		      ? bench_bw_loop(run, run->params.warmup, 0, false, &messages, &seconds)
		      : 0;

	if (!err)
		err = bench_bw_loop(run, run->params.iters, run->params.duration, false, &messages,
				    &seconds);
	if (!err)
		err = bench_send_done(run);
	if (err)
		rk_log(RK_LOG_INFO, "bench: the reverse direction stopped early");
}

static void on_established(struct server *s, struct rdma_cm_event *event)
{
	struct bench_conn *conn = conn_of_id(s, event->id);

	if (!conn)
		return;
	conn->established = true;
	if (++s->established == s->run.nconns && s->run.params.bidir)
		send_back(s);
}

/* Handle one event; the ids to destroy are destroyed after the event is acknowledged. */
static void handle_event(struct server *s, struct rdma_cm_event *event)
{
	struct rdma_cm_id *destroy = NULL;
	struct bench_conn *conn;
	enum rdma_cm_event_type type = event->event;

	if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
		if (!on_request(s, event))
			destroy = event->id;
		rdma_ack_cm_event(event);
	} else if (type == RDMA_CM_EVENT_ESTABLISHED) {
		on_established(s, event);
		rdma_ack_cm_event(event);
	} else if (type == RDMA_CM_EVENT_DISCONNECTED || type == RDMA_CM_EVENT_REJECTED ||
		   type == RDMA_CM_EVENT_CONNECT_ERROR || type == RDMA_CM_EVENT_UNREACHABLE) {
		conn = conn_of_id(s, event->id);
		if (type == RDMA_CM_EVENT_DISCONNECTED)
			rdma_disconnect(event->id);
		rdma_ack_cm_event(event);
		if (conn) {
			bench_conn_free(conn);
			if (++s->gone == s->accepted)
				end_session(s);
		}
	} else {
		rdma_ack_cm_event(event);
	}
	if (destroy)
		rdma_destroy_id(destroy);
}

static int drain_events(struct server *s)
{
	struct rdma_cm_event *event;

	while (rdma_get_cm_event(s->channel, &event) == 0)
		handle_event(s, event);
	return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
}

/* Answer pings and repost receives until an event is due; a failed completion ends the run
 * (the client went away). */
static void serve_data(struct server *s)
{
	struct pollfd pfd = {.fd = s->channel->fd, .events = POLLIN};

	for (unsigned i = 0;; i++) {
		if (bench_serve_step(&s->run) < 0) {
			rk_log(RK_LOG_INFO, "bench: run %08x: the client stopped", s->run_id);
			s->stopped = true;
			return;
		}
		if ((i & 1023) == 0 && poll(&pfd, 1, 0) > 0)
			return;
	}
}

static int serve_loop(struct server *s)
{
	struct pollfd pfd = {.fd = s->channel->fd, .events = POLLIN};
	int err = 0;

	while (!err && !s->finished) {
		bool busy = s->active && !s->stopped && s->established == s->run.nconns &&
			    !is_passive(&s->run);

		if (busy)
			serve_data(s);
		else if (poll(&pfd, 1, 1000) < 0 && errno != EINTR)
			err = -errno;
		if (!err)
			err = drain_events(s);
	}
	return err;
}

int rk_bench_serve(const struct rk_bench_server_options *o)
{
	struct server s = {.o = o};
	int err;

	s.channel = bench_open_channel();
	if (!s.channel)
		return -errno;
	err =
	    fcntl(s.channel->fd, F_SETFL, fcntl(s.channel->fd, F_GETFL) | O_NONBLOCK) ? -errno : 0;
	if (!err && rdma_create_id(s.channel, &s.listener, NULL, RDMA_PS_TCP) != 0)
		err = -errno;
	if (!err)
		err = listen_on(&s);
	if (!err)
		err = serve_loop(&s);
	for (uint32_t i = 0; s.active && i < s.run.nconns; i++)
		bench_conn_free(&s.run.conns[i]);
	if (s.active)
		bench_run_free(&s.run);
	if (s.listener)
		rdma_destroy_id(s.listener);
	rdma_destroy_event_channel(s.channel);
	return err;
}
