/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: the bench's connection parameters, the private data of a connect request
 * (wire_decode_request) and of a reply (wire_decode_reply). First byte: 0 request, else reply;
 * the rest is the private data. A request that is accepted must encode back to parameters that
 * decode to the same values. */
#include "bench_int.h"

#include "fuzz_util.h"

#include <stdlib.h>
#include <string.h>

static void check_round_trip(const struct rk_bench_params *p, uint32_t run_id, uint8_t qp_index,
			     bool last, uint64_t addr, uint32_t rkey)
{
	struct ibv_mr mr = {.rkey = rkey};
	struct bench_conn conn = {.mr = &mr, .local_addr = addr};
	struct wire_request req;
	struct rk_bench_params again;
	uint32_t run_id2, rkey2;
	uint8_t qp_index2;
	bool last2;
	uint64_t addr2;

	wire_encode_request(p, run_id, qp_index, last, &conn, &req);
	if (wire_decode_request(&req, sizeof(req), &again, &run_id2, &qp_index2, &last2, &addr2,
				&rkey2) != 0)
		abort();
	if (again.test != p->test || again.size != p->size || again.iters != p->iters ||
	    again.qps != p->qps || again.warmup != p->warmup || again.tx_depth != p->tx_depth ||
	    again.inline_size != p->inline_size || again.cq_mod != p->cq_mod ||
	    again.bidir != p->bidir || again.duration != p->duration || run_id2 != run_id ||
	    qp_index2 != qp_index || last2 != last || addr2 != addr || rkey2 != rkey)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rk_bench_params params;
	struct wire_reply reply;
	uint32_t run_id, rkey;
	uint8_t qp_index;
	bool last;
	uint64_t addr;

	fuzz_quiet_log();
	if (size == 0)
		return 0;
	if (data[0] == 0) {
		if (wire_decode_request(data + 1, size - 1, &params, &run_id, &qp_index, &last,
					&addr, &rkey) == 0)
			check_round_trip(&params, run_id, qp_index, last, addr, rkey);
	} else if (wire_decode_reply(data + 1, size - 1, &reply) == 0) {
		wire_status_text(reply.status);
	}
	return 0;
}
