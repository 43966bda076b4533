/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "fake_umad.h"

#include <errno.h>
#include <fcntl.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define QUEUE_MAX 256

/* The fake device: which opened descriptor is alive, and the MADs waiting on it. */
static struct {
	int pipe[2]; /* readable while MADs wait (the engine polls umad_get_fd) */
	int opens, alive_id, next_agent;
	bool refuse_listeners;
	_Alignas(8) uint8_t queue[QUEUE_MAX][FAKE_UMAD_MAX]; /* umad headers, aligned */
	int lengths[QUEUE_MAX];
	size_t head, count;
} dev = {.pipe = {-1, -1}, .alive_id = -1};

size_t fake_umad_bytes(void)
{
	return umad_size() + IB_MAD_SIZE;
}

uint8_t *fake_umad_reply(const void *umad, uint8_t *reply, uint16_t *lid)
{
	uint8_t *mad = umad_get_mad(reply);

	memcpy(reply, umad, fake_umad_bytes());
	mad_set_field(mad, 0, IB_MAD_RESPONSE_F, 1);
	*lid = be16toh(((const struct ib_user_mad *)umad)->addr.lid);
	return mad;
}

bool fake_umad_queue(const void *umad, int length, uint32_t status)
{
	size_t slot = (dev.head + dev.count) % QUEUE_MAX;

	if (dev.count == QUEUE_MAX)
		return false;
	memcpy(dev.queue[slot], umad, fake_umad_bytes());
	((struct ib_user_mad *)dev.queue[slot])->status = status;
	dev.lengths[slot] = length;
	dev.count++;
	if (write(dev.pipe[1], "", 1) != 1)
		abort();
	return true;
}

void fake_umad_drain(void)
{
	char byte;

	while (dev.count) {
		dev.count--;
		if (read(dev.pipe[0], &byte, 1) != 1)
			abort();
	}
	dev.head = 0;
}

int fake_umad_opens(void)
{
	return dev.opens;
}

void fake_umad_refuse_listeners(bool refuse)
{
	dev.refuse_listeners = refuse;
}

void fake_umad_reset(void)
{
	dev.alive_id = -1;
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
	if (dev.pipe[0] < 0 && pipe2(dev.pipe, O_NONBLOCK | O_CLOEXEC) != 0)
		abort();
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
	(void)mgmt_class;
	(void)mgmt_version;
	(void)rmpp_version;
	if (method_mask && dev.refuse_listeners)
		return -EBUSY;
	return dev.next_agent++;
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

int umad_send(int portid, int agentid, void *umad, int length, int timeout_ms, int retries)
{
	(void)agentid;
	(void)timeout_ms;
	(void)retries;
	if (portid != dev.alive_id) {
		errno = EIO;
		return -EIO;
	}
	return fake_umad_answer(umad, length);
}

int umad_recv(int portid, void *umad, int *length, int timeout_ms)
{
	char byte;

	(void)timeout_ms;
	if (portid != dev.alive_id)
		return -EIO; /* the device behind this descriptor is gone */
	if (dev.count == 0)
		return -EAGAIN;
	if (read(dev.pipe[0], &byte, 1) != 1)
		abort();
	memcpy(umad, dev.queue[dev.head], fake_umad_bytes());
	*length = dev.lengths[dev.head] < *length ? dev.lengths[dev.head] : *length;
	dev.head = (dev.head + 1) % QUEUE_MAX;
	dev.count--;
	return 0;
}
