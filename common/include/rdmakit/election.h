/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* One active fabric watcher per subnet, elected through the subnet's own SA: one ServiceRecord
 * under a key every watcher shares (rdmakit's ServiceID, a fixed ServiceGID, the default
 * P_Key) names the active watcher and lives a lease after its last refresh (IBA 15.2.5.14).
 * The active one refreshes it; the others read it. When it is gone (its watcher died, or a new
 * master SM has no records) each candidate writes its own after a delay its priority sets,
 * the last write wins, and a candidate is active only once a read shows the record is its
 * own: exactly one. A live active watcher is never displaced (no flapping): priority only
 * orders the candidates when there is none, and the one that was active claims first. */
#ifndef RDMAKIT_ELECTION_H
#define RDMAKIT_ELECTION_H

#include "rdmakit/findings.h"
#include "rdmakit/mad.h"

#include <stdbool.h>
#include <stdint.h>

#define RK_SA_ATTR_SERVICE_RECORD 0x0031
#define RK_WATCHER_SERVICE_ID	  0x1000524b46574154ULL /* "RKFWAT" */
#define RK_WATCHER_NAME_MAX	  48			/* the holder's name in the record */

enum rk_role_setting {
	RK_ROLE_AUTO,	 /* take part in the election */
	RK_ROLE_ACTIVE,	 /* always active (one node, or an admin who wants two); says so in
			  * the record, and raises SEVERAL_ACTIVE_WATCHERS beside another */
	RK_ROLE_STANDBY, /* never active; reads the record to show who is */
};

/* The election as one watcher sees it. */
struct rk_election {
	enum rk_role_setting setting;
	unsigned priority; /* 0 to 255: the higher claims first */
	double lease_s;
	char name[RK_WATCHER_NAME_MAX];	  /* this watcher's node name, written in its record */
	uint64_t guid;			  /* this watcher's port GUID (from the port) */
	bool active;			  /* the role now */
	bool announced;			  /* the first role was logged */
	char holder[RK_WATCHER_NAME_MAX]; /* the active watcher's name ("" when none is known) */
	uint64_t holder_guid;
	double started_at;    /* monotonic: the election began */
	double seen_at;	      /* ... another watcher's live record was last read */
	double written_at;    /* ... our record was last taken by the SA */
	double missing_since; /* ... no record was first read (0: one is live) */
	double grace_until;   /* ... a standby does not claim before (a new master SM) */
	bool several;	      /* forced active while another watcher's record is live */
	int status;	      /* the last SA exchange: 0, -ETIMEDOUT, -EIO (refused) */
	double next_at;	      /* the next turn */
	bool in_flight;	      /* a turn's MADs are on their way */
	uint16_t sa_lid;      /* the master SM's LID, read from the local PortInfo */
	struct rk_mad_queue *queue;
};

/** An election of setting for a watcher named name (its hostname), not yet run. */
void rk_election_init(struct rk_election *election, enum rk_role_setting setting, unsigned priority,
		      double lease_s, const char *name);

/** When due, add this turn's MADs to queue (the master's LID, then the record, then our own
 * when we hold it or claim it); the decision is made as they complete, while the queue runs.
 * port: the local port (its GUID and number). 0 or -errno. */
int rk_election_turn(struct rk_election *election, struct rk_mad_queue *queue,
		     struct rk_mad_port *port);

/** No election can be had (no umad port to send through): active as a lone watcher, said once,
 * until a turn reads the SA's record. */
void rk_election_alone(struct rk_election *election);

/** Stopping: an active watcher deletes its record (a standby takes over at its next turn, not
 * a lease later), through queue (run by the caller). 0, or -errno; nothing to do is 0. */
int rk_election_resign(struct rk_election *election, struct rk_mad_queue *queue);

/** Seconds until the next turn is due (0: now). */
double rk_election_wait(const struct rk_election *election);

/** NO_ACTIVE_WATCHER (no live record for longer than the lease while this watcher cannot
 * take it) and SEVERAL_ACTIVE_WATCHERS; 0 or -ENOMEM. */
int rk_election_findings(const struct rk_election *election, struct rk_findings *findings);

/** The role setting named text ("auto", "active", "standby"): 0, or -EINVAL. */
int rk_role_setting_parse(const char *text, enum rk_role_setting *out);

/** "active", "standby": the role's name. */
const char *rk_election_role_name(const struct rk_election *election);

#endif
