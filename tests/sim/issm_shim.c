/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * issm_shim.so - a test-only preload, before ibsim's umad2sim, that makes one process the SM-side
 * client of its simulated node once its umad port is open: after libibumad's umad_open_port
 * succeeds in a process whose name (/proc/self/comm) is RK_ISSM_COMM, it opens the node's
 * /dev/infiniband/issm0 through the shim at the process's first umad_recv. ibsim hands an
 * unsolicited MAD (an SA Report) only to such a client, so this is how rdmakit receives Reports
 * under the simulator. Setting the shim's own SIM_SET_ISSM instead makes the client SM-side as it
 * connects, before its device exists, and the first unsolicited MAD (OpenSM's SMInfo query of the
 * new IsSM port) crashes the shim's receiver thread. Side effect: the port advertises IsSM, so
 * OpenSM queries its SMInfo (a standby that takes over waits for an answer from every IsSM port
 * before it becomes master): this preload answers those queries itself, as an SM that is NOT-ACTIVE
 * (IBA 14.4.1), and the process never sees them. Built by tests/CMakeLists.txt.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_NEXT */
#endif
#include <dlfcn.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*open_port_fn)(const char *, int);
typedef int (*recv_fn)(int, void *, int *, int);

#define ATTR_SM_INFO	    0x20
#define SM_STATE_NOT_ACTIVE 0

/* Whether this process is the one named by RK_ISSM_COMM. */
static int chosen(void)
{
	const char *want = getenv("RK_ISSM_COMM");
	char comm[64] = "";
	FILE *f = fopen("/proc/self/comm", "r");

	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
	}
	comm[strcspn(comm, "\n")] = '\0';
	return want && strcmp(comm, want) == 0;
}

/* Set when the chosen process opened its port: the issm device is opened at its first receive,
 * once it has registered its agents. Opened before (the port made IsSM, OpenSM's SMInfo query
 * on its way) a MAD of a class the process has no agent for yet crashes umad2sim's receiver
 * thread (a NULL mutex; seen under ASan, where the gap between the open and the agents is
 * wider). */
static int issm_pending;

int umad_open_port(const char *ca_name, int portnum)
{
	static open_port_fn next;
	int fd;

	if (!next)
		next = (open_port_fn)dlsym(RTLD_NEXT, "umad_open_port");
	fd = next ? next(ca_name, portnum) : -1;
	if (fd >= 0 && chosen())
		issm_pending = 1;
	return fd;
}

/* Whether the MAD is an SMInfo Get to this port (LID or directed routed). */
static int is_sminfo_get(const uint8_t *mad)
{
	int cls = (int)mad_get_field((void *)mad, 0, IB_MAD_MGMTCLASS_F);

	return (cls == IB_SMI_CLASS || cls == IB_SMI_DIRECT_CLASS) &&
	       !mad_get_field((void *)mad, 0, IB_MAD_RESPONSE_F) &&
	       mad_get_field((void *)mad, 0, IB_MAD_METHOD_F) == IB_MAD_METHOD_GET &&
	       mad_get_field((void *)mad, 0, IB_MAD_ATTRID_F) == ATTR_SM_INFO;
}

/* Answer an SMInfo Get in umad: this port's SM is NOT-ACTIVE, priority 0. */
static void answer_sminfo(int fd, void *umad)
{
	uint8_t *mad = umad_get_mad(umad);
	uint8_t *data = mad + IB_SMP_DATA_OFFS;

	mad_set_field(mad, 0, IB_MAD_RESPONSE_F, 1);
	if (mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F) == IB_SMI_DIRECT_CLASS)
		mad_set_field(mad, 0, IB_DRSMP_DIRECTION_F, 1);
	umad_port_t port;

	memset(data, 0, IB_SMP_DATA_SIZE);
	if (umad_get_port(NULL, 0, &port) == 0) { /* the port GUID OpenSM checks the answer by */
		mad_set_field64(data, 0, IB_SMINFO_GUID_F, be64toh(port.port_guid));
		umad_release_port(&port);
	}
	mad_set_field(data, 0, IB_SMINFO_STATE_F, SM_STATE_NOT_ACTIVE);
	umad_send(fd, ((struct ib_user_mad *)umad)->agent_id, umad, IB_MAD_SIZE, 0, 0);
}

int umad_recv(int fd, void *umad, int *length, int timeout_ms)
{
	static recv_fn next;
	int rc;

	if (!next)
		next = (recv_fn)dlsym(RTLD_NEXT, "umad_recv");
	if (issm_pending) {
		issm_pending = 0;
		if (open("/dev/infiniband/issm0", O_RDWR) < 0)
			fprintf(stderr, "issm_shim: cannot open the issm device\n");
	}
	rc = next ? next(fd, umad, length, timeout_ms) : -EIO;

	if (rc == 0 && *length >= IB_MAD_SIZE && is_sminfo_get(umad_get_mad(umad))) {
		answer_sminfo(fd, umad);
		return -EAGAIN; /* the process never sees it */
	}
	return rc;
}
