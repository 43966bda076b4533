/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric events from the subnet manager: the SA subscription (InformInfo) and its Reports. */
#ifndef RDMAKIT_NOTICE_H
#define RDMAKIT_NOTICE_H

#include "rdmakit/findings.h"
#include "rdmakit/mad.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Generic traps (IBA 14.2.5.1, 13.4.8.2) rdmakit names. */
enum rk_trap {
	RK_TRAP_GID_IN_SERVICE = 64,
	RK_TRAP_GID_OUT_OF_SERVICE = 65,
	RK_TRAP_MCAST_CREATED = 66,
	RK_TRAP_MCAST_DELETED = 67,
	RK_TRAP_LINK_STATE = 128,
	RK_TRAP_LINK_INTEGRITY = 129,
	RK_TRAP_BUFFER_OVERRUN = 130,
	RK_TRAP_FLOW_WATCHDOG = 131,
	RK_TRAP_CAPABILITY_CHANGED = 144,
	RK_TRAP_SYSTEM_IMAGE_CHANGED = 145,
	RK_TRAP_BAD_MKEY = 256,
	RK_TRAP_BAD_PKEY = 257,
	RK_TRAP_BAD_QKEY = 258,
	RK_TRAP_BAD_SWITCH_PKEY = 259,
};

/* One Notice, decoded from a Report. Subject fields are 0 when the trap carries none. */
struct rk_notice {
	uint16_t trap;	     /* TrapNumber (generic notices only) */
	uint8_t type;	     /* 0 fatal, 1 urgent, 2 security, 3 SM, 4 informational */
	uint32_t producer;   /* ProducerType: 1 CA, 2 switch, 3 router, 4 subnet management */
	uint16_t issuer_lid; /* who raised it (the SM's LID for 64-67) */
	uint16_t lid;	     /* the port it is about: 128 the switch, 129-131 and 144-145 the node,
			      * 256-259 the first LID involved */
	uint8_t port;	     /* 129-131: the port of that node */
	uint64_t guid;	     /* 64/65: the port GUID of the GID; 145: the new system image GUID */
	uint32_t tid;	     /* the Report's transaction id (low 32 bits) */
};

/** Decode a received Report of a Notice: 0, or -EBADMSG (not a Report of a generic Notice: a
 * short MAD, another class, method or attribute, a vendor notice) with *why saying what. */
int rk_notice_decode(const uint8_t *mad, size_t length, struct rk_notice *out, const char **why);

/** What a trap means to an operator, and what to check; NULL for one rdmakit does not name. */
const char *rk_trap_meaning(uint16_t trap);

/** A short name of a trap ("link state change"); "trap" for an unnamed one. */
const char *rk_trap_name(uint16_t trap);

struct rk_fabric;

/** The port a notice is about, named from fabric (may be NULL): "name[port]", or with a LID
 * or GUID the fabric does not have, "LID n" or "port 0x..." as the notice says. */
void rk_notice_subject(const struct rk_notice *notice, const struct rk_fabric *fabric, char *out,
		       size_t size);

/** The Set(InformInfo) that subscribes (or, with subscribe false, unsubscribes) this port to
 * every generic trap of the whole subnet, sent to the SA at sa_lid. */
void rk_notice_subscription(struct rk_mad_request *request, uint16_t sa_lid, bool subscribe);

/* Called for each new notice (a duplicate Report, or one from another LID than the SA's, is
 * not passed on). */
typedef void (*rk_notice_fn)(const struct rk_notice *notice, void *ctx);

#define RK_NOTICE_RECENT 64 /* Report TIDs remembered to drop the SA's resends */

/* A subscription to the SA's Reports on one port, kept across master SM changes. */
struct rk_subscription {
	struct rk_mad_port *port;
	rk_notice_fn fn;
	void *ctx;
	uint16_t sa_lid;	    /* the SA last asked (the master SM's LID then); 0: none yet */
	double subscribed_at;	    /* monotonic seconds of the last Set sent */
	double looked_at;	    /* ... of the last look at the master SM's LID */
	struct rk_mad_queue *queue; /* the queue of the last refresh */
	bool looking;		    /* that look is on its way */
	bool in_flight;		    /* a Set is on its way */
	bool active;		    /* the SA at sa_lid took the last Set */
	int status;		    /* the last Set's: 0, -ETIMEDOUT, -EIO (refused: mad_status) */
	uint16_t mad_status;
	bool said_unavailable; /* logged once until events work again */
	uint32_t recent[RK_NOTICE_RECENT];
	size_t next_recent;
	size_t reports, duplicates, malformed, foreign;
};

/** Listen for Reports on the port (rk_mad_listen). -EBUSY: another agent on the host takes
 * them; the subscription then stays unavailable (rk_subscription_findings says so). */
int rk_subscription_start(struct rk_subscription *subscription, struct rk_mad_port *port,
			  rk_notice_fn fn, void *ctx);

/** Every RK_EVENTS_MASTER_CHECK_S, read the local port's PortInfo through the queue, and
 * subscribe when its master SM is a new one, or RK_EVENTS_REFRESH_S passed since the last
 * attempt (a restarted SM forgets its subscribers; a refused one is asked again). Call it at
 * each turn of the loop that runs the queue. 0 or -errno. */
int rk_subscription_refresh(struct rk_subscription *subscription, struct rk_mad_queue *queue);

/** Unsubscribe from the SA (when subscribed) and wait for its answer: an SA keeps sending
 * Reports to a subscriber that is gone otherwise. 0 or -errno. */
int rk_subscription_stop(struct rk_subscription *subscription, struct rk_mad_queue *queue);

/** EVENTS_UNAVAILABLE when the port cannot have events, with why and what to do. 0, -ENOMEM. */
int rk_subscription_findings(const struct rk_subscription *subscription,
			     struct rk_findings *findings);

/* A port a targeted read after a notice found changed. */
struct rk_port_change {
	int node, port;		  /* in the fabric */
	int was, now;		  /* PortState: 1 DOWN .. 4 ACTIVE */
	int peer_node, peer_port; /* the other end as the fabric knows it, or -1 */
};

/* Called once a targeted read is over: status 0 with the ports that changed (none: the state
 * changed back before it was read), or -ENOENT (the notice's LID is not a switch the fabric
 * has: rediscover) or the MAD error of every port. */
typedef void (*rk_reread_fn)(const struct rk_notice *notice, const struct rk_port_change *changes,
			     size_t count, int status, void *ctx);

/** After a trap 128, read the PortInfo of every port of the switch at notice->lid through the
 * queue (one SMP a port, and one for the switch at the other end of a port that changed; never
 * a rediscovery), update fabric's port states, then call fn. By LID when local_port is 0; else
 * by a directed route from that local port over links that are up, a random one of the shortest
 * (the LID routes may go through the cable that went down until the SM routes around it, and a
 * second try takes another way). 0 or -ENOMEM; fn is called in every case (at once for
 * -ENOENT: the LID is not a switch of the fabric, or no way to it is known). */
int rk_reread_switch(struct rk_mad_queue *queue, struct rk_fabric *fabric,
		     const struct rk_notice *notice, int local_port, rk_reread_fn fn, void *ctx);

#endif
