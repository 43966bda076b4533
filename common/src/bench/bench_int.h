/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Inside the bench module: the private-data wire format, connections and the data loops. */
#ifndef RDMAKIT_BENCH_INT_H
#define RDMAKIT_BENCH_INT_H

#include "rdmakit/bench.h"

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define WIRE_MAGIC   0x524b4231u /* "RKB1" */
#define WIRE_VERSION 1

enum { WIRE_FLAG_BIDIR = 1, WIRE_FLAG_LAST = 2 };

/* The immediate of the zero-byte send that ends the server's half of a bidirectional run. */
#define WIRE_DONE_IMM 0x52444f4eu /* "RDON" */

/* Why a server refused a connection (in the reply's status). */
enum wire_status {
	WIRE_OK,
	WIRE_BUSY,
	WIRE_BAD_PARAMS,
	WIRE_TOO_BIG,
	WIRE_NO_RESOURCES,
};

/* The client's connect private data (big-endian fields; fits the 56 bytes of a REQ). */
struct wire_request {
	uint32_t magic;
	uint8_t version, test, flags, nqps, qp_index, pad[3];
	uint32_t run_id, size, iters, duration_ms, warmup;
	uint16_t tx_depth, inline_size, cq_mod, pad2;
	uint64_t addr;
	uint32_t rkey;
} __attribute__((packed));

/* The server's accept (or reject) private data. */
struct wire_reply {
	uint32_t magic;
	uint8_t status, pad[3];
	uint64_t addr;
	uint32_t rkey;
} __attribute__((packed));

/* Regions of a connection's buffer, each params.size bytes. */
enum { REGION_SOURCE, REGION_DEST, REGION_VERIFY, REGIONS };

/* One RC connection: its cm_id, QP, buffer and the peer's buffer. */
struct bench_conn {
	struct rdma_cm_id *id;
	struct ibv_mr *mr;
	uint8_t *buf;
	uint64_t local_addr; /* what the peer reads and writes: the DEST region */
	uint64_t remote_addr;
	uint32_t remote_rkey;
	uint32_t outstanding; /* send work requests not yet completed */
	uint32_t unsignalled; /* posted since the last signalled one */
	uint64_t posted, completed, received;
	uint8_t seq;	/* write_lat: the last sequence byte seen */
	bool peer_done; /* bidir: the server's load is over */
	bool established;
};

/* What every connection of a run shares: device, PD, CQ, parameters. */
struct bench_run {
	struct rk_bench_params params;
	struct ibv_context *verbs;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct bench_conn conns[RK_BENCH_MAX_QPS];
	uint32_t nconns;
	uint32_t rx_depth;
	bool is_server; /* its own reads (bidir) land in VERIFY, not in what it offers */
	rk_bench_progress_fn progress;
	void *progress_ctx;
};

/** Encode params into a request (fields to network order). */
void wire_encode_request(const struct rk_bench_params *params, uint32_t run_id, uint8_t qp_index,
			 bool last, const struct bench_conn *conn, struct wire_request *req);

/** Decode and check a request; -EINVAL (with a message) when it is not one of ours. */
int wire_decode_request(const void *data, size_t len, struct rk_bench_params *params,
			uint32_t *run_id, uint8_t *qp_index, bool *last, uint64_t *addr,
			uint32_t *rkey);

/** Encode a reply (conn NULL when refusing). */
void wire_encode_reply(enum wire_status status, const struct bench_conn *conn,
		       struct wire_reply *reply);

/** Decode a reply; -EINVAL when it is not one of ours. */
int wire_decode_reply(const void *data, size_t len, struct wire_reply *reply);

/** Why a server refused, for people. */
const char *wire_status_text(uint8_t status);

/** Check parameters both sides accept; -EINVAL with a message otherwise. */
int bench_check_params(const struct rk_bench_params *params);

/** The RDMA CM's event channel; NULL with errno set, logged with what is missing. */
struct rdma_event_channel *bench_open_channel(void);

/** PD and CQ for a run on verbs (once per run). */
int bench_run_setup(struct bench_run *run, struct ibv_context *verbs);

/** Buffer, MR and QP for one connection (receives posted for the send tests). */
int bench_conn_setup(struct bench_run *run, struct bench_conn *conn, struct rdma_cm_id *id);

/** Free a connection's QP, MR and buffer and destroy its cm_id. */
void bench_conn_free(struct bench_conn *conn);

/** Free a run's CQ and PD (after its connections). */
void bench_run_free(struct bench_run *run);

/** The RC connection parameters both sides use (private data set by the caller). */
void bench_conn_param(const struct bench_run *run, struct rdma_conn_param *param);

/** A region of a connection's buffer. */
uint8_t *bench_region(const struct bench_run *run, const struct bench_conn *conn, int region);

/** The pattern a side fills its buffer with, from a seed. */
void bench_fill_pattern(uint8_t *buf, size_t size, uint8_t seed);

/** The seed of what the client writes or sends, and of what the server offers to reads. */
uint8_t bench_client_seed(uint32_t size);
uint8_t bench_server_seed(uint32_t size);

/** BW loop: iters per QP (or for duration s when iters is 0) of the run's test, from every
 * connection; counts messages and time. timed: report progress. */
int bench_bw_loop(struct bench_run *run, uint32_t iters, double duration, bool timed,
		  uint64_t *messages, double *seconds);

/** Client latency loop: warmup + iters (or duration) ping-pongs on the first connection;
 * samples_ns gets the timed ones (*count of them; capacity cap). */
int bench_lat_client(struct bench_run *run, double *samples_ns, size_t cap, size_t *count,
		     double *seconds);

/** One step of the server's side of a run: answer pings, repost receives; -EIO on error. */
int bench_serve_step(struct bench_run *run);

/** Bidir server: tell every connection that the reverse load is over. */
int bench_send_done(struct bench_run *run);

/** Bidir client: wait until the server said its load is over; -ETIMEDOUT after seconds. */
int bench_wait_done(struct bench_run *run, double seconds);

/** Poll the CQ once; handle receives (repost) and send completions; -EIO on a bad one. */
int bench_poll(struct bench_run *run, int *recv_conn);

#endif
