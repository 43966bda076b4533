/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Each fabric port's downs and ups, from the SM's events (trap 128 and the read after it) and
 * from LinkDownedCounter where events were missed, and the rules on them: PORT_WENT_DOWN while
 * an event says a link that was up is down, LINK_FLAPPING when it went down too often. */
#ifndef RDMAKIT_LINK_HISTORY_H
#define RDMAKIT_LINK_HISTORY_H

#include "rdmakit/fabric.h"
#include "rdmakit/findings.h"
#include "rdmakit/sweep.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RK_FLAP_DOWNS_MAX 100 /* the most downs a port's history holds (FlapDowns' maximum) */

/* LINK_FLAPPING's rule: downs within window_s raise it; stable_s up clears it. */
struct rk_flap_settings {
	unsigned downs;
	double window_s, stable_s;
};

/* One port's history. */
struct rk_link_entry {
	uint64_t guid;
	int port;
	char subject[RK_FINDING_SUBJECT_MAX]; /* "node[port]" */
	char peer[RK_FINDING_SUBJECT_MAX];    /* the other end, or "" */
	double downs[RK_FLAP_DOWNS_MAX];      /* monotonic times of the downs within the window */
	size_t ndowns;
	unsigned trap_downs; /* downs told by events since the last counter reading */
	bool down;	     /* an event said it is down, and nothing since that it is up */
	double up_at;
	bool flapping;
};

struct rk_link_history {
	struct rk_flap_settings flap;
	struct rk_link_entry *items;
	size_t count, capacity;
};

/** The flapping rule's defaults (RK_FLAP_*_DEFAULT in limits.h). */
void rk_flap_settings_defaults(struct rk_flap_settings *flap);

/** An empty history with that rule. */
void rk_link_history_init(struct rk_link_history *history, const struct rk_flap_settings *flap);

/** An event says the port went down (up false) or came up (true), at monotonic now; subject
 * and peer name it. 0 or -ENOMEM. */
int rk_link_history_note(struct rk_link_history *history, uint64_t guid, int port,
			 const char *subject, const char *peer, bool up, double now);

/** After a sweep: LinkDownedCounter rises no event told of count as downs then (each a down
 * and an up: the port answered). 0 or -ENOMEM. */
int rk_link_history_sweep(struct rk_link_history *history, const struct rk_fabric *fabric,
			  const struct rk_sweep *sweep, double now);

/** After a discovery: a port an event left down that the fabric shows ACTIVE is up. */
void rk_link_history_discovered(struct rk_link_history *history, const struct rk_fabric *fabric,
				double now);

/** Append the findings at now: PORT_WENT_DOWN for each port down, LINK_FLAPPING for each one
 * flapping (cleared once up stable_s; ports with nothing left to tell are forgotten), skipping
 * a code and subject findings already has. 0 or -ENOMEM. */
int rk_link_history_findings(struct rk_link_history *history, double now,
			     struct rk_findings *findings);

/** Free the history's storage. */
void rk_link_history_free(struct rk_link_history *history);

#endif
