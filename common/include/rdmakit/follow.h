/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Following the fabric's events: the SA subscription on one port, and after each trap 128 the
 * targeted read of the switch that sent it (tried again by directed routes while the LID
 * routes may still cross the cable that went down). The CLI's `events` and the watch engine
 * both follow the fabric through this. */
#ifndef RDMAKIT_FOLLOW_H
#define RDMAKIT_FOLLOW_H

#include "rdmakit/fabric.h"
#include "rdmakit/mad.h"
#include "rdmakit/notice.h"

#include <stddef.h>

#define RK_FOLLOW_READ_TRIES   6   /* reads of a switch after its trap 128 */
#define RK_FOLLOW_READ_RETRY_S 0.2 /* seconds between two */
#define RK_FOLLOW_RETRIES_MAX  32  /* switches waiting for another read at once */

/* One event as a front end sees it: a notice, and for a trap 128 whose switch was read, one
 * port that changed state (change NULL: the notice alone, also when the read failed). */
struct rk_fabric_event {
	const struct rk_notice *notice;
	const struct rk_port_change *change;
	int status; /* with change NULL after a trap 128: the read's error, else 0 */
};

typedef void (*rk_follow_fn)(const struct rk_fabric_event *event, void *ctx);

struct rk_follower;

/** Subscribe on port (its queue opened with mad), fn called for each event from the caller's
 * thread during rk_follower_turn. fabric (may be NULL: no targeted reads) is read and its port
 * states updated by the reads; it stays the caller's. 0 or -errno (-EBUSY: the follower is
 * made, and its subscription says events are unavailable). */
int rk_follower_open(struct rk_mad_port *port, const struct rk_mad_options *mad,
		     struct rk_fabric *fabric, rk_follow_fn fn, void *ctx,
		     struct rk_follower **out);

/** From now on, targeted reads use fabric (after a rediscovery; NULL: none); the reads waiting
 * for another try are dropped. */
void rk_follower_set_fabric(struct rk_follower *follower, struct rk_fabric *fabric);

/** One turn: subscribe again when due, take Reports for up to listen_ms, read again the
 * switches whose turn has come. 0 or -errno (the port failed). */
int rk_follower_turn(struct rk_follower *follower, unsigned listen_ms);

/** The subscription, for its state and findings (EVENTS_UNAVAILABLE). */
const struct rk_subscription *rk_follower_subscription(const struct rk_follower *follower);

/** True when the SA has definitely refused, or another agent on the host takes Reports. */
bool rk_follower_unavailable(const struct rk_follower *follower);

/** Unsubscribe (waiting for the SA's answer) and free; NULL is ignored. */
void rk_follower_close(struct rk_follower *follower);

#endif
