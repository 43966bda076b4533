/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the monitor's umad port across an HCA reset, through a fake libibumad (this
 * file defines its device side; the buffer accessors stay libibumad's): every MAD sent is
 * answered with status 0 until the device resets, in the middle of a sweep with MADs in
 * flight; from then on the descriptor that was open fails every send and receive with EIO for
 * good, as ib_umad's does once its device is gone, and only a port opened afterwards works. */
#include "fixture_util.h"
#include "rdmakit/clock.h"
#include "rdmakit/monitor.h"

#include <errno.h>
#include <fcntl.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define QUEUE_MAX 64
#define UMAD_MAX  512 /* room for libibumad's header and a MAD */

/* The fake device: which opened descriptor is alive, and the answers waiting on it. */
static struct {
	int pipe[2]; /* readable while answers wait (the engine polls umad_get_fd) */
	int opens, alive_id;
	int sends_before_reset; /* > 0: the device resets after that many more sends */
	uint8_t queue[QUEUE_MAX][UMAD_MAX];
	size_t head, count;
} dev = {.pipe = {-1, -1}, .alive_id = -1};

static size_t umad_bytes(void)
{
	return umad_size() + IB_MAD_SIZE;
}

int umad_init(void)
{
	return 0;
}

int umad_get_port(const char *ca_name, int portnum, umad_port_t *port)
{
	(void)ca_name;
	memset(port, 0, sizeof(*port));
	snprintf(port->ca_name, sizeof(port->ca_name), "mlx5_0");
	port->portnum = portnum ? portnum : 1;
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
	if (dev.pipe[0] < 0)
		assert_int_equal(pipe2(dev.pipe, O_NONBLOCK | O_CLOEXEC), 0);
	dev.alive_id = 10 + dev.opens++;
	return dev.alive_id;
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
	(void)mgmt_version;
	(void)rmpp_version;
	(void)method_mask;
	return mgmt_class;
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
	return dev.pipe[0];
}

/* The request, answered: response bit set, status 0, the data as sent (zero counters). */
int umad_send(int portid, int agentid, void *umad, int length, int timeout_ms, int retries)
{
	uint8_t *slot = dev.queue[(dev.head + dev.count) % QUEUE_MAX];

	(void)agentid;
	(void)length;
	(void)timeout_ms;
	(void)retries;
	if (portid != dev.alive_id) {
		errno = EIO;
		return -EIO;
	}
	if (dev.sends_before_reset > 0 && --dev.sends_before_reset == 0)
		dev.alive_id = -1; /* this one is in flight when the device goes */
	assert_true(dev.count < QUEUE_MAX);
	memcpy(slot, umad, umad_bytes());
	((struct ib_user_mad *)slot)->status = 0;
	mad_set_field(umad_get_mad(slot), 0, IB_MAD_RESPONSE_F, 1);
	dev.count++;
	assert_int_equal(write(dev.pipe[1], "", 1), 1);
	return 0;
}

int umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	char byte;

	(void)timeout_ms;
	if (portid != dev.alive_id)
		return -EIO; /* the device behind this descriptor is gone */
	if (dev.count == 0)
		return -EAGAIN;
	assert_int_equal(read(dev.pipe[0], &byte, 1), 1);
	memcpy(umad, dev.queue[dev.head], umad_bytes());
	*length = IB_MAD_SIZE;
	dev.head = (dev.head + 1) % QUEUE_MAX;
	dev.count--;
	return 0;
}

/* Two CAs (LIDs 1 and 2), cabled to each other. */
static struct rk_fabric *two_cas(void)
{
	struct rk_fabric *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->nodes = calloc(2, sizeof(*f->nodes));
	assert_non_null(f->nodes);
	f->nnodes = 2;
	for (int n = 0; n < 2; n++) {
		struct rk_fabric_node *node = &f->nodes[n];

		node->guid = 0x0002c90300000010ull + (uint64_t)n;
		node->type = RK_NODE_CA;
		node->nports = 1;
		node->lid = (uint16_t)(n + 1);
		node->ports = calloc(2, sizeof(*node->ports));
		assert_non_null(node->ports);
		node->ports[1] = (struct rk_fabric_port){.num = 1,
							 .present = true,
							 .guid = node->guid,
							 .lid = node->lid,
							 .state = 4, /* ACTIVE */
							 .remote_node = 1 - n,
							 .remote_port = 1};
	}
	return f;
}

/* A monitor of a fabric discovered just now, which it never rediscovers. */
static void watch(struct rk_monitor *monitor)
{
	struct rk_monitor_options options;

	rk_monitor_options_set(&options, NULL, 0, 4, 5, NULL);
	rk_monitor_init(monitor, &options);
	monitor->fabric = two_cas();
	monitor->discovered_at = rk_monotonic_seconds();
	assert_int_equal(rk_sweep_prepare(&monitor->sweep, monitor->fabric), 0);
}

static void test_sweeps_resume_after_an_hca_reset(void **state)
{
	struct rk_monitor monitor;

	(void)state;
	watch(&monitor);
	assert_int_equal(rk_monitor_sweep(&monitor, NULL, NULL), 0);
	assert_int_equal(monitor.sweep.answered, 2);
	assert_int_equal(dev.opens, 1);
	dev.sends_before_reset = 2; /* the HCA resets during the next sweep (2 MADs) */
	log_capture_start();
	assert_int_equal(rk_monitor_sweep(&monitor, NULL, NULL), -EIO);
	assert_int_equal(log_capture_count("cannot receive MADs: Input/output error"), 1);
	assert_int_equal(log_capture_count("the umad port failed (Input/output error): closed; "
					   "the next sweep or SM query opens it again"),
			 1);
	assert_null(monitor.port);
	assert_int_equal(rk_monitor_sweep(&monitor, NULL, NULL), 0); /* on a new descriptor */
	assert_int_equal(dev.opens, 2);
	assert_int_equal(monitor.sweep.answered, 2);
	assert_int_equal(monitor.sweep.failed, 0);
	assert_int_equal(monitor.discoveries, 0); /* the same topology: no rediscovery needed */
	rk_monitor_close(&monitor);
}

/* A sweep that fails for another reason (here a bad option) keeps its port. */
static void test_other_errors_keep_the_port(void **state)
{
	struct rk_monitor monitor;

	(void)state;
	watch(&monitor);
	assert_int_equal(rk_monitor_sweep(&monitor, NULL, NULL), 0);
	assert_non_null(monitor.port);
	monitor.options.mad.retries = 1000; /* refused by the engine: -EINVAL */
	log_capture_start();
	assert_int_equal(rk_monitor_sweep(&monitor, NULL, NULL), -EINVAL);
	assert_int_equal(log_capture_count("the umad port failed"), 0);
	assert_non_null(monitor.port);
	rk_monitor_close(&monitor);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sweeps_resume_after_an_hca_reset),
	    cmocka_unit_test(test_other_errors_keep_the_port),
	};

	return cmocka_run_group_tests_name("monitor_port", tests, NULL, NULL);
}
