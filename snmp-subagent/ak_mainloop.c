/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The subagent's main loop: net-snmp's agent_check_and_process(), then the request's internal
 * hops handed on without a select() each.
 *
 * A net-snmp AgentX subagent passes every request from the AgentX session to its agent, and
 * the answer back, through two callback sessions, each hop a PDU queued for the receiving
 * session plus one byte written to that session's pipe; agent_check_and_process() finds each
 * byte with a select() of its own, three per request. After a read the loop here looks at the
 * queue itself and reads at once each session it holds a PDU for whose pipe holds a byte (so
 * the read cannot block): a request costs one select() instead of three. */
#include "ak_mainloop.h"

#include <net-snmp/net-snmp-config.h>

#include <net-snmp/net-snmp-includes.h>

#include <net-snmp/agent/net-snmp-agent-includes.h>
#include <net-snmp/library/snmpCallbackDomain.h>

#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/select.h>

/* From net-snmp's snmplib/transports/snmpCallbackDomain.c (5.x), exported by libnetsnmp but not
 * declared in its headers: the queue of PDUs passed between callback sessions, the receive
 * function that marks a callback transport, and the list of open sessions (snmp_api.c). */
struct ak_callback_queue {
	int callback_num;
	netsnmp_callback_pass *item;
	struct ak_callback_queue *next, *prev;
};
extern struct ak_callback_queue *thequeue;
extern int netsnmp_callback_recv(netsnmp_transport *transport, void *buf, int size, void **opaque,
				 int *olength);
extern struct session_list *Sessions;

/* More hops than a request takes (two) end the drain: the select() of the next pass goes on. */
#define AK_MAX_INTERNAL_HOPS 8

/* Whether a PDU is queued for callback session number callback_num. */
static bool pdu_queued_for(int callback_num)
{
	for (const struct ak_callback_queue *entry = thequeue; entry; entry = entry->next)
		if (entry->callback_num == callback_num)
			return true;
	return false;
}

/* Whether a read of fd would find a byte at once. */
static bool byte_waiting(int fd)
{
	int waiting = 0;

	return ioctl(fd, FIONREAD, &waiting) == 0 && waiting > 0;
}

/* Adds to fds every callback session's pipe that a queued PDU has written to; false if none. */
static bool queued_callback_fds(fd_set *fds)
{
	bool any = false;

	FD_ZERO(fds);
	for (const struct session_list *s = Sessions; s; s = s->next) {
		const netsnmp_transport *t = s->transport;
		const netsnmp_callback_info *info;

		if (!t || t->f_recv != netsnmp_callback_recv || !t->data)
			continue;
		info = t->data;
		if (t->sock >= 0 && t->sock < FD_SETSIZE && pdu_queued_for(info->callback_num) &&
		    byte_waiting(t->sock)) {
			FD_SET(t->sock, fds);
			any = true;
		}
	}
	return any;
}

void ak_mainloop_pass(void)
{
	fd_set fds;

	agent_check_and_process(1);
	for (int hop = 0; hop < AK_MAX_INTERNAL_HOPS && thequeue && queued_callback_fds(&fds);
	     hop++) {
		snmp_read(&fds);
		netsnmp_check_outstanding_agent_requests();
	}
}
