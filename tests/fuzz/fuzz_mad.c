/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: MAD replies, through a fake libibumad. This file defines the device side
 * of libibumad (init, ports, agents, send, receive; the buffer accessors stay libibumad's),
 * so the core's MAD engine runs unchanged while the input decides, for every MAD sent, what
 * comes back: nothing, an answer with the input's status and data, a kernel timeout, a
 * garbage MAD of the input's length, a duplicate, a stale TID, or a failed send. An SM query
 * and two counter sweeps of a small fabric run on those answers, then the SM and sweep rules:
 * nothing may read out of bounds, and every request must end. */
#include "fuzz_util.h"
#include "rdmakit/health.h"
#include "rdmakit/mad.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define QUEUE_MAX 256
#define UMAD_MAX  512 /* room for libibumad's header and a MAD */

enum reply_kind { DROP, ANSWER, KERNEL_TIMEOUT, GARBAGE, DUPLICATE, STALE, SEND_FAILS, KINDS };

/* What the fake device holds: the input, and the MADs waiting to be received. */
static struct {
	const uint8_t *data;
	size_t size, at;
	int pipe[2]; /* readable while replies wait (the engine polls umad_get_fd) */
	uint8_t queue[QUEUE_MAX][UMAD_MAX];
	int lengths[QUEUE_MAX];
	size_t head, count;
	int next_agent;
} fake = {.pipe = {-1, -1}};

/* A umad buffer as the engine allocates it: libibumad's header, then the MAD. */
static size_t umad_bytes(void)
{
	return umad_size() + IB_MAD_SIZE;
}

static uint8_t take(void)
{
	return fake.at < fake.size ? fake.data[fake.at++] : 0;
}

int umad_init(void)
{
	return 0;
}

int umad_get_port(const char *ca_name, int portnum, umad_port_t *port)
{
	(void)ca_name;
	memset(port, 0, sizeof(*port));
	snprintf(port->ca_name, sizeof(port->ca_name), "fuzz0");
	port->portnum = portnum ? portnum : 1;
	port->base_lid = 1;
	port->sm_lid = 2;
	port->state = 4;
	port->port_guid = htobe64(0x0002c90300000011ull);
	return 0;
}

int umad_release_port(umad_port_t *port)
{
	(void)port;
	return 0;
}

int umad_open_port(const char *ca_name, int portnum)
{
	(void)ca_name;
	(void)portnum;
	if (fake.pipe[0] < 0 && pipe2(fake.pipe, O_NONBLOCK | O_CLOEXEC) != 0)
		abort();
	return 3;
}

int umad_close_port(int portid)
{
	(void)portid;
	return 0;
}

int umad_register(int portid, int mgmt_class, int mgmt_version, uint8_t rmpp_version,
		  long method_mask[16 / sizeof(long)])
{
	(void)portid;
	(void)mgmt_class;
	(void)mgmt_version;
	(void)rmpp_version;
	(void)method_mask;
	return fake.next_agent++;
}

int umad_unregister(int portid, int agentid)
{
	(void)portid;
	(void)agentid;
	return 0;
}

int umad_get_fd(int portid)
{
	(void)portid;
	return fake.pipe[0];
}

static void queue_reply(const uint8_t *umad, int length, uint32_t status)
{
	size_t slot = (fake.head + fake.count) % QUEUE_MAX;

	if (fake.count == QUEUE_MAX)
		return; /* a full receive queue drops, as the kernel's does */
	memcpy(fake.queue[slot], umad, umad_bytes());
	((struct ib_user_mad *)fake.queue[slot])->status = status;
	fake.lengths[slot] = length;
	fake.count++;
	if (write(fake.pipe[1], "", 1) != 1)
		abort();
}

/* The sent MAD turned into an answer: response bit, the input's status and data. */
static void make_answer(uint8_t *umad)
{
	uint8_t *mad = umad_get_mad(umad);
	size_t len = take();

	mad_set_field(mad, 0, IB_MAD_RESPONSE_F, 1);
	mad_set_field(mad, 0, IB_MAD_METHOD_F, 0x81);
	mad_set_field(mad, 0, IB_MAD_STATUS_F, take() & 1 ? (uint32_t)take() << 8 | take() : 0);
	if (len > fake.size - fake.at)
		len = fake.size - fake.at;
	if (len > IB_MAD_SIZE - 64)
		len = IB_MAD_SIZE - 64;
	memcpy(mad + 64, fake.data + fake.at, len);
	fake.at += len;
}

int umad_send(int portid, int agentid, void *umad, int length, int timeout_ms, int retries)
{
	uint8_t reply[UMAD_MAX];
	enum reply_kind kind = (enum reply_kind)(take() % KINDS);
	size_t len;

	(void)portid;
	(void)agentid;
	(void)timeout_ms;
	(void)retries;
	memcpy(reply, umad, umad_bytes());
	switch (kind) {
	case DROP:
		return 0;
	case SEND_FAILS:
		return -EIO;
	case KERNEL_TIMEOUT:
		queue_reply(reply, length, ETIMEDOUT);
		return 0;
	case GARBAGE:
		len = take();
		memset(umad_get_mad(reply), take(), IB_MAD_SIZE);
		queue_reply(reply, (int)len, 0);
		return 0;
	case STALE:
		make_answer(reply);
		mad_set_field64(umad_get_mad(reply), 0, IB_MAD_TRID_F, (uint64_t)take() << 3);
		queue_reply(reply, IB_MAD_SIZE, 0);
		return 0;
	default:
		make_answer(reply);
		queue_reply(reply, IB_MAD_SIZE, 0);
		if (kind == DUPLICATE)
			queue_reply(reply, IB_MAD_SIZE, 0);
		return 0;
	}
}

int umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	char byte;

	(void)portid;
	(void)timeout_ms;
	if (fake.count == 0)
		return -EAGAIN;
	if (read(fake.pipe[0], &byte, 1) != 1)
		abort();
	memcpy(umad, fake.queue[fake.head], umad_bytes());
	*length = fake.lengths[fake.head] < *length ? fake.lengths[fake.head] : *length;
	fake.head = (fake.head + 1) % QUEUE_MAX;
	fake.count--;
	return 0;
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
	char byte;

	fuzz_quiet_log();
	fake.data = data;
	fake.size = size;
	fake.at = 0;
	if (rk_mad_port_open(NULL, 0, &port) != 0)
		abort();
	run_queries(port);
	rk_mad_port_close(port);
	while (fake.count) { /* what nobody received is gone with the port */
		fake.count--;
		if (read(fake.pipe[0], &byte, 1) != 1)
			abort();
	}
	fake.head = 0;
	return 0;
}
