/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The data path: bandwidth streams, latency ping-pongs, and the server's answers. */
#include "bench_int.h"

#include "rdmakit/log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#define PROGRESS_NS  250000000ull
#define CLOCK_ROUNDS 1024 /* loop rounds between two reads of the clock */
/* Round trips between two reads of the clock: a round trip costs far more than a clock read,
 * and a slow link (soft RoCE on a loaded host: milliseconds a trip) still ends on time. */
#define LAT_CLOCK_TRIPS 16

static struct bench_conn *conn_of(struct bench_run *run, uint64_t index)
{
	return index < run->nconns ? &run->conns[index] : NULL;
}

static int repost_receive(struct bench_run *run, struct bench_conn *conn)
{
	struct ibv_sge sge = {
	    .addr = (uintptr_t)bench_region(run, conn, REGION_DEST),
	    .length = run->params.size,
	    .lkey = conn->mr->lkey,
	};
	struct ibv_recv_wr wr = {
	    .wr_id = (uint64_t)(conn - run->conns), .sg_list = &sge, .num_sge = 1};
	struct ibv_recv_wr *bad;
	int err = ibv_post_recv(conn->id->qp, &wr, &bad);

	if (err)
		rk_log(RK_LOG_ERR, "bench: ibv_post_recv: %s", strerror(err));
	return -err;
}

/* A completion: receives are counted and reposted, sends retire their work requests. */
static int handle_completion(struct bench_run *run, const struct ibv_wc *wc, int *recv_conn)
{
	struct bench_conn *conn;

	if (wc->status != IBV_WC_SUCCESS) {
		rk_log(RK_LOG_ERR, "bench: completion with status %s (%d)",
		       ibv_wc_status_str(wc->status), wc->status);
		return -EIO;
	}
	if (wc->opcode & IBV_WC_RECV) {
		conn = conn_of(run, wc->wr_id);
		if (!conn)
			return -EIO;
		if ((wc->wc_flags & IBV_WC_WITH_IMM) && ntohl(wc->imm_data) == WIRE_DONE_IMM)
			conn->peer_done = true;
		else
			conn->received++;
		if (recv_conn)
			*recv_conn = (int)wc->wr_id;
		return repost_receive(run, conn);
	}
	conn = conn_of(run, wc->wr_id >> 32);
	if (!conn)
		return -EIO;
	conn->outstanding -= (uint32_t)(wc->wr_id & 0xffffffffu);
	conn->completed += wc->wr_id & 0xffffffffu;
	return 0;
}

int bench_poll(struct bench_run *run, int *recv_conn)
{
	struct ibv_wc wcs[16];
	int n = ibv_poll_cq(run->cq, 16, wcs);

	if (n < 0) {
		rk_log(RK_LOG_ERR, "bench: ibv_poll_cq failed");
		return -EIO;
	}
	for (int i = 0; i < n; i++) {
		int err = handle_completion(run, &wcs[i], recv_conn);

		if (err)
			return err;
	}
	return n;
}

static enum ibv_wr_opcode opcode_of(enum rk_bench_test test)
{
	switch (test) {
	case RK_BENCH_READ_BW:
	case RK_BENCH_READ_LAT:
		return IBV_WR_RDMA_READ;
	case RK_BENCH_SEND_BW:
	case RK_BENCH_SEND_LAT:
		return IBV_WR_SEND;
	default:
		return IBV_WR_RDMA_WRITE;
	}
}

/* Post one work request by itself, as perftest does by default (its post list of 1). On soft
 * RoCE a post is a system call that carries the message through the kernel there and then; a
 * list of many is more than one call may do, and the rest falls to the kernel's softirq thread,
 * which then competes for a CPU with this busy-polling loop (0.60 to 0.73 of perftest's
 * bandwidth at 64 KiB on a loaded host). */
static int post_one(struct bench_conn *conn, struct ibv_sge *sge, enum ibv_wr_opcode opcode,
		    unsigned flags, uint64_t wr_id)
{
	struct ibv_send_wr wr = {
	    .wr_id = wr_id,
	    .sg_list = sge,
	    .num_sge = 1,
	    .opcode = opcode,
	    .send_flags = flags,
	    .wr.rdma = {.remote_addr = conn->remote_addr, .rkey = conn->remote_rkey},
	};
	struct ibv_send_wr *bad;
	int err = ibv_post_send(conn->id->qp, &wr, &bad);

	if (err)
		rk_log(RK_LOG_ERR, "bench: ibv_post_send: %s", strerror(err));
	return -err;
}

/* Post count work requests, one post each; every cq_mod-th of the connection is signalled, for
 * all since the previous one, and with last the final one too. */
static int post_chunk(struct bench_run *run, struct bench_conn *conn, int local_region,
		      uint32_t count, bool last)
{
	const struct rk_bench_params *p = &run->params;
	enum ibv_wr_opcode opcode = opcode_of(p->test);
	unsigned flags =
	    opcode != IBV_WR_RDMA_READ && p->size <= p->inline_size ? IBV_SEND_INLINE : 0;
	uint64_t index = (uint64_t)(conn - run->conns);
	struct ibv_sge sge = {
	    .addr = (uintptr_t)bench_region(run, conn, local_region),
	    .length = p->size,
	    .lkey = conn->mr->lkey,
	};

	for (uint32_t i = 0; i < count; i++) {
		bool signalled = ++conn->unsignalled == p->cq_mod || (last && i + 1 == count);
		int err = post_one(conn, &sge, opcode, flags | (signalled ? IBV_SEND_SIGNALED : 0),
				   (index << 32) | conn->unsignalled);

		if (err)
			return err;
		if (signalled)
			conn->unsignalled = 0;
		conn->outstanding++;
		conn->posted++;
	}
	return 0;
}

static int local_region_of(const struct bench_run *run)
{
	if (opcode_of(run->params.test) != IBV_WR_RDMA_READ)
		return REGION_SOURCE;
	return run->is_server ? REGION_VERIFY : REGION_DEST;
}

/* Keep every connection's send queue full up to the TX depth; once stopped, one more signalled
 * request retires the unsignalled ones still in flight. */
static int post_more(struct bench_run *run, uint32_t iters, bool stop)
{
	const struct rk_bench_params *p = &run->params;
	int err = 0;

	for (uint32_t c = 0; c < run->nconns && !err; c++) {
		struct bench_conn *conn = &run->conns[c];
		uint32_t room = p->tx_depth - conn->outstanding;
		uint64_t left = iters ? iters - conn->posted : room;
		uint32_t count = left < room ? (uint32_t)left : room;

		if (stop && conn->unsignalled > 0 && room > 0)
			err = post_chunk(run, conn, local_region_of(run), 1, true);
		else if (!stop && count > 0)
			err = post_chunk(run, conn, local_region_of(run), count,
					 iters && conn->posted + count == iters);
	}
	return err;
}

static bool all_done(const struct bench_run *run, uint32_t iters, bool stop)
{
	for (uint32_t c = 0; c < run->nconns; c++) {
		const struct bench_conn *conn = &run->conns[c];

		if (conn->outstanding > 0 || conn->unsignalled > 0 ||
		    (!stop && (iters == 0 || conn->posted < iters)))
			return false;
	}
	return true;
}

static void report_progress(struct bench_run *run, uint64_t start, uint64_t now, uint32_t iters,
			    double duration)
{
	double elapsed = (double)(now - start) / 1e9;
	uint64_t done = 0;
	double fraction;

	for (uint32_t c = 0; c < run->nconns; c++)
		done += run->conns[c].completed;
	fraction = iters ? (double)done / ((double)iters * run->nconns) : elapsed / duration;
	run->progress(&run->params, fraction > 1 ? 1 : fraction, elapsed, run->progress_ctx);
}

static uint64_t total_posted(const struct bench_run *run)
{
	uint64_t posted = 0;

	for (uint32_t c = 0; c < run->nconns; c++)
		posted += run->conns[c].posted;
	return posted;
}

int bench_bw_loop(struct bench_run *run, uint32_t iters, double duration, bool timed,
		  uint64_t *messages, double *seconds)
{
	uint64_t start = rk_bench_now_ns(), now = start, last_progress = start;
	uint64_t deadline = iters ? 0 : start + (uint64_t)(duration * 1e9);
	bool stop = false;
	int err = 0;

	for (uint32_t c = 0; c < run->nconns; c++)
		run->conns[c].posted = run->conns[c].completed = run->conns[c].unsignalled = 0;
	for (unsigned round = 1; !err && !all_done(run, iters, stop); round++) {
		uint64_t posted = total_posted(run);

		err = post_more(run, iters, stop);
		if (!err)
			err = bench_poll(run, NULL);
		err = err < 0 ? err : 0;
		/* A clock read can be a system call (HPET in a VM): read it when this round posted
		 * (a post is a system call on soft RoCE, the read is small beside it) or now and
		 * then while only polling. */
		if (total_posted(run) == posted && round % CLOCK_ROUNDS != 0)
			continue;
		now = rk_bench_now_ns();
		stop = stop || (deadline && now >= deadline);
		if (timed && run->progress && now - last_progress >= PROGRESS_NS) {
			report_progress(run, start, now, iters, duration);
			last_progress = now;
		}
	}
	now = rk_bench_now_ns();
	*seconds = (double)(now - start) / 1e9;
	*messages = 0;
	for (uint32_t c = 0; c < run->nconns; c++)
		*messages += run->conns[c].completed;
	return err;
}

/* Wait until cond holds on conn, reaping completions meanwhile. */
static int wait_received(struct bench_run *run, struct bench_conn *conn, uint64_t want)
{
	while (conn->received < want) {
		int n = bench_poll(run, NULL);

		if (n < 0)
			return n;
	}
	return 0;
}

static int wait_completed(struct bench_run *run, struct bench_conn *conn, uint64_t want)
{
	while (conn->completed < want) {
		int n = bench_poll(run, NULL);

		if (n < 0)
			return n;
	}
	return 0;
}

static int wait_sequence(struct bench_run *run, struct bench_conn *conn, uint8_t seq)
{
	volatile uint8_t *last = bench_region(run, conn, REGION_DEST) + run->params.size - 1;

	while (*last != seq) {
		int n = bench_poll(run, NULL);

		if (n < 0)
			return n;
	}
	return 0;
}

/* Keep a free send slot: reap completions while the queue is full. */
static int make_room(struct bench_run *run, struct bench_conn *conn)
{
	while (conn->outstanding >= run->params.tx_depth) {
		int n = bench_poll(run, NULL);

		if (n < 0)
			return n;
	}
	return 0;
}

static uint8_t sequence_of(uint64_t i)
{
	return (uint8_t)(i % 255 + 1);
}

/* One ping-pong (or one read); the latency clock's ticks it took. */
static int ping(struct bench_run *run, struct bench_conn *conn, uint64_t i, uint64_t *ticks)
{
	uint64_t start;
	int err = make_room(run, conn);

	if (err)
		return err;
	if (run->params.test == RK_BENCH_WRITE_LAT)
		bench_region(run, conn, REGION_SOURCE)[run->params.size - 1] = sequence_of(i);
	start = rk_bench_ticks();
	err = post_chunk(run, conn, local_region_of(run), 1, true);
	if (!err && run->params.test == RK_BENCH_SEND_LAT)
		err = wait_received(run, conn, i + 1);
	else if (!err && run->params.test == RK_BENCH_WRITE_LAT)
		err = wait_sequence(run, conn, sequence_of(i));
	else if (!err)
		err = wait_completed(run, conn, i + 1);
	*ticks = rk_bench_ticks() - start;
	return err;
}

/* Ticks to nanoseconds, calibrated against CLOCK_MONOTONIC_RAW over the timed phase. */
static void ticks_to_ns(double *samples, size_t count, uint64_t ticks, uint64_t ns)
{
	double ns_per_tick = ticks ? (double)ns / (double)ticks : 1;

	for (size_t i = 0; i < count; i++)
		samples[i] *= ns_per_tick;
}

static bool lat_done(const struct rk_bench_params *p, size_t count, size_t cap, uint64_t i,
		     uint64_t deadline)
{
	if (p->iters)
		return count >= p->iters;
	if (count >= cap)
		return true;
	return (i % LAT_CLOCK_TRIPS) == 0 && rk_bench_now_ns() >= deadline;
}

int bench_lat_client(struct bench_run *run, double *samples, size_t cap, size_t *count,
		     double *seconds)
{
	const struct rk_bench_params *p = &run->params;
	struct bench_conn *conn = &run->conns[0];
	bool round_trip_halved = p->test != RK_BENCH_READ_LAT; /* as perftest reports them */
	uint64_t start = 0, start_ticks = 0, deadline = 0, last_progress = 0, ticks;
	int err = 0;

	*count = 0;
	for (uint64_t i = 0; !err; i++) {
		if (i == p->warmup) {
			start = last_progress = rk_bench_now_ns();
			start_ticks = rk_bench_ticks();
			deadline = start + (uint64_t)(p->duration * 1e9);
		}
		if (i >= p->warmup && lat_done(p, *count, cap, i, deadline))
			break;
		err = ping(run, conn, i, &ticks);
		if (!err && i >= p->warmup)
			samples[(*count)++] = round_trip_halved ? (double)ticks / 2 : (double)ticks;
		if (run->progress && i >= p->warmup && i % LAT_CLOCK_TRIPS == 0 &&
		    rk_bench_now_ns() - last_progress >= PROGRESS_NS) {
			report_progress(run, start, rk_bench_now_ns(), p->iters, p->duration);
			last_progress = rk_bench_now_ns();
		}
	}
	ticks = rk_bench_ticks() - start_ticks;
	*seconds = (double)(rk_bench_now_ns() - start) / 1e9;
	ticks_to_ns(samples, *count, ticks, (uint64_t)(*seconds * 1e9));
	return err;
}

/* Answer a ping on conn: send or write the DEST region back. */
static int answer(struct bench_run *run, struct bench_conn *conn)
{
	int err = make_room(run, conn);

	return err ? err : post_chunk(run, conn, REGION_DEST, 1, true);
}

static int serve_write_lat(struct bench_run *run, struct bench_conn *conn)
{
	volatile uint8_t *last = bench_region(run, conn, REGION_DEST) + run->params.size - 1;
	uint8_t next = (uint8_t)(conn->seq % 255 + 1);

	if (*last != next)
		return 0;
	conn->seq = next;
	return answer(run, conn);
}

int bench_serve_step(struct bench_run *run)
{
	int recv_conn = -1;
	int n;

	if (run->params.test == RK_BENCH_WRITE_LAT) {
		for (uint32_t c = 0; c < run->nconns; c++) {
			int err = serve_write_lat(run, &run->conns[c]);

			if (err)
				return err;
		}
	}
	n = bench_poll(run, &recv_conn);
	if (n < 0)
		return n;
	if (run->params.test == RK_BENCH_SEND_LAT && recv_conn >= 0)
		return answer(run, &run->conns[recv_conn]);
	return 0;
}

int bench_send_done(struct bench_run *run)
{
	for (uint32_t c = 0; c < run->nconns; c++) {
		struct bench_conn *conn = &run->conns[c];
		struct ibv_send_wr wr = {
		    .wr_id = ((uint64_t)c << 32) | 1,
		    .opcode = IBV_WR_SEND_WITH_IMM,
		    .send_flags = IBV_SEND_SIGNALED,
		    .imm_data = htonl(WIRE_DONE_IMM),
		};
		struct ibv_send_wr *bad;
		int err = make_room(run, conn);

		if (!err)
			err = -ibv_post_send(conn->id->qp, &wr, &bad);
		if (err)
			return err;
		conn->outstanding++;
	}
	for (uint32_t c = 0; c < run->nconns; c++)
		while (run->conns[c].outstanding > 0)
			if (bench_poll(run, NULL) < 0)
				return -EIO;
	return 0;
}

int bench_wait_done(struct bench_run *run, double seconds)
{
	uint64_t deadline = rk_bench_now_ns() + (uint64_t)(seconds * 1e9);

	for (uint32_t c = 0; c < run->nconns; c++) {
		while (!run->conns[c].peer_done) {
			if (bench_poll(run, NULL) < 0)
				return -EIO;
			if (rk_bench_now_ns() > deadline) {
				rk_log(RK_LOG_ERR,
				       "bench: the server's half of the bidirectional "
				       "run did not end within %.0f s",
				       seconds);
				return -ETIMEDOUT;
			}
		}
	}
	return 0;
}
