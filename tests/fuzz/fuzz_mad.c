/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: MAD replies, through the tests' fake libibumad (tests/fakes/fake_umad.c),
 * so the core's MAD engine runs unchanged while the input decides, for every MAD sent, what
 * comes back: nothing, an answer with the input's status and data, a kernel timeout, a
 * garbage MAD of the input's length, a duplicate, a stale TID, or a failed send. An SM query
 * and two counter sweeps of a small fabric run on those answers, then the SM and sweep rules:
 * nothing may read out of bounds, and every request must end. */
#include "fake_umad.h"
#include "fuzz_util.h"
#include "rdmakit/health.h"
#include "rdmakit/mad.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum reply_kind { DROP, ANSWER, KERNEL_TIMEOUT, GARBAGE, DUPLICATE, STALE, SEND_FAILS, KINDS };

/* The input, and how far answers have taken from it. */
static struct {
	const uint8_t *data;
	size_t size, at;
} input;

static uint8_t take(void)
{
	return input.at < input.size ? input.data[input.at++] : 0;
}

/* The sent MAD turned into an answer: response bit, the input's status and data. */
static void make_answer(uint8_t *umad)
{
	uint8_t *mad = umad_get_mad(umad);
	size_t len = take();

	mad_set_field(mad, 0, IB_MAD_RESPONSE_F, 1);
	mad_set_field(mad, 0, IB_MAD_METHOD_F, 0x81);
	mad_set_field(mad, 0, IB_MAD_STATUS_F, take() & 1 ? (uint32_t)take() << 8 | take() : 0);
	if (len > input.size - input.at)
		len = input.size - input.at;
	if (len > IB_MAD_SIZE - 64)
		len = IB_MAD_SIZE - 64;
	memcpy(mad + 64, input.data + input.at, len);
	input.at += len;
}

int fake_umad_answer(void *umad, int length)
{
	uint8_t reply[FAKE_UMAD_MAX];
	enum reply_kind kind = (enum reply_kind)(take() % KINDS);
	size_t len;

	memcpy(reply, umad, fake_umad_bytes());
	switch (kind) {
	case DROP:
		return 0;
	case SEND_FAILS:
		return -EIO;
	case KERNEL_TIMEOUT:
		fake_umad_queue(reply, length, ETIMEDOUT);
		return 0;
	case GARBAGE:
		len = take();
		memset(umad_get_mad(reply), take(), IB_MAD_SIZE);
		fake_umad_queue(reply, (int)len, 0);
		return 0;
	case STALE:
		make_answer(reply);
		mad_set_field64(umad_get_mad(reply), 0, IB_MAD_TRID_F, (uint64_t)take() << 3);
		fake_umad_queue(reply, IB_MAD_SIZE, 0);
		return 0;
	default:
		make_answer(reply);
		fake_umad_queue(reply, IB_MAD_SIZE, 0);
		if (kind == DUPLICATE)
			fake_umad_queue(reply, IB_MAD_SIZE, 0);
		return 0;
	}
}

/* A switch (LID 3, 4 ports) and two CAs (LIDs 1 and 2, the second an SM), cabled. */
static struct rk_fabric *small_fabric(void)
{
	static const int nports[] = {4, 1, 1};
	struct rk_fabric *f = calloc(1, sizeof(*f));

	if (!f || !(f->nodes = calloc(3, sizeof(*f->nodes))))
		abort();
	f->nnodes = 3;
	f->local_node = 1;
	for (int n = 0; n < 3; n++) {
		struct rk_fabric_node *node = &f->nodes[n];

		node->guid = 0x0002c90300000010ull + (uint64_t)n;
		node->type = n ? RK_NODE_CA : RK_NODE_SWITCH;
		node->nports = nports[n];
		node->lid = n ? (uint16_t)n : 3;
		node->is_sm = n == 2;
		node->ports = calloc((size_t)node->nports + 1, sizeof(*node->ports));
		if (!node->ports)
			abort();
		for (int p = n ? 1 : 0; p <= node->nports; p++) {
			node->ports[p] = (struct rk_fabric_port){.num = p,
								 .present = true,
								 .guid = node->guid,
								 .lid = node->lid,
								 .cap_mask = node->is_sm ? 2 : 0,
								 .remote_node = -1};
		}
	}
	snprintf(f->nodes[0].name, sizeof(f->nodes[0].name), "switch");
	return f;
}

static void run_queries(struct rk_mad_port *port)
{
	struct rk_mad_options options = {.window = 4, .timeout_ms = 1, .retries = 1};
	struct rk_fabric *fabric = small_fabric();
	struct rk_findings findings = {0};
	struct rk_sweep sweep = {0};
	struct rk_sm_status sms;

	if (rk_sm_query(port, fabric, &options, &sms) == 0) {
		rk_health_check_sm(NULL, &sms, &findings);
		rk_sm_status_free(&sms);
	}
	if (rk_sweep_prepare(&sweep, fabric) == 0 &&
	    rk_sweep_run(port, fabric, &sweep, &options, NULL, NULL) == 0 &&
	    rk_sweep_run(port, fabric, &sweep, &options, NULL, NULL) == 0) {
		if (sweep.answered + sweep.failed != sweep.count)
			abort(); /* every port ends, answered or not */
		rk_health_check_sweep(fabric, &sweep, &findings);
	}
	rk_findings_free(&findings);
	rk_sweep_free(&sweep);
	rk_fabric_free(fabric);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rk_mad_port *port;

	fuzz_quiet_log();
	input.data = data;
	input.size = size;
	input.at = 0;
	if (rk_mad_port_open(NULL, 0, &port) != 0)
		abort();
	run_queries(port);
	rk_mad_port_close(port);
	fake_umad_drain();
	return 0;
}
