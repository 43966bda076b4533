/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The umad port as the MAD engine sees it: its agents, listeners and send numbers. */
#ifndef RDMAKIT_MAD_PORT_H
#define RDMAKIT_MAD_PORT_H

#include "rdmakit/mad.h"

#include <infiniband/umad.h>

/* The agents registered on the port, one per management class this engine sends. */
enum agent_kind {
	AGENT_SMP,  /* LID-routed SMP, QP0 */
	AGENT_DR,   /* directed-route SMP, QP0 */
	AGENT_PERF, /* PerfMgt (PMA), QP1 */
	AGENT_SA,   /* SubnAdm, QP1: registered at its first request (or a listener's) */
	AGENT_KINDS,
};

#define MAD_LISTENERS_MAX 4

/* One rk_mad_listen: unsolicited MADs of a class and method go to fn. */
struct mad_listener {
	int agent; /* the umad agent asking the kernel for them */
	uint8_t mgmt_class, method;
	rk_mad_unsolicited_fn fn;
	void *ctx;
};

struct rk_mad_port {
	int fd; /* libibumad's port id (the umad fd) */
	int agent[AGENT_KINDS];
	char ca[UMAD_CA_NAME_LEN];
	int portnum;
	uint32_t next_send; /* the number of the next send (see mad_queue.c's TIDs) */
	struct mad_listener listeners[MAD_LISTENERS_MAX];
	size_t nlisteners;
};

/** The umad agent of a kind, registered now if it is the SA's and is not yet; -errno. */
int mad_port_agent(struct rk_mad_port *port, enum agent_kind kind);

/** The listener of an unsolicited MAD's class and method, or NULL. */
const struct mad_listener *mad_port_listener(const struct rk_mad_port *port, uint8_t mgmt_class,
					     uint8_t method);

#endif
