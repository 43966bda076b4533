/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The watch engine's insides, shared by its files: the engine, its jobs, its snapshots. */
#ifndef RDMAKIT_WATCH_INTERNAL_H
#define RDMAKIT_WATCH_INTERNAL_H

#include "rdmakit/cancel.h"
#include "rdmakit/election.h"
#include "rdmakit/fabric_cache.h"
#include "rdmakit/link_history.h"
#include "rdmakit/plan.h"
#include "rdmakit/watch.h"

#include <pthread.h>
#include <sys/types.h>

/* One job's state between passes. */
struct watch_job {
	atomic_bool enabled; /* the tune and probe jobs' change at a reload (rk_watch_set_*) */
	bool backs_off;	     /* a failure skips 1, 2, 4, ... intervals (the tune audit does not) */
	const char *what;    /* "fabric sweep", "SM query": for the log */
	struct rk_event_tracker *tracker;
	bool primed;			/* a pass worked: the tracker holds what was */
	unsigned wait, skip;		/* back-off: intervals to wait after a failure, and left */
	struct rk_watch_events found;	/* of this pass, handed over with its snapshot */
	struct rk_watch_events pending; /* since the last take (under the lock) */
	struct rk_findings findings;	/* of the last pass that worked */
};

/* What identifies one version of the plan file: read again when any of it changes. */
struct watch_plan_stamp {
	bool valid; /* false: never looked at, or the file was not there */
	dev_t dev;
	ino_t ino;
	off_t size;
	long long mtime_ns, ctime_ns; /* ctime: a chmod that makes it readable again */
};

/* The cabling plan the sweep job compares the fabric with (watch_plan.c): the sweep's only. */
struct watch_plan {
	char *path;		       /* the file it is read from, NULL: none */
	struct rk_plan *plan;	       /* the last plan read from it, NULL: none yet */
	unsigned skipped;	       /* the lines of that plan that could not be read */
	struct watch_plan_stamp stamp; /* of the file at the last look */
	int failing;		       /* the last look's -errno (0: the plan is the file's) */
	unsigned reads;		       /* plans read so far */
	unsigned unplaced;	       /* links the last comparison could not place (NDT, ...) */
	unsigned placed_reads;	       /* the read whose unplaced links were last logged */
};

/* A thread of the engine and the jobs it runs, one after the other, at one interval. */
struct watch_lane {
	struct rk_watch *watch;
	enum rk_watch_job first, last; /* its jobs: first to last */
	double interval;
	double next_at; /* monotonic time of the next pass */
	pthread_t thread;
	bool running;
	bool ended; /* the thread returned (under the lock) */
};

enum watch_lane_id {
	WATCH_LANE_FABRIC, /* the sweep and SM jobs: one monitor, one umad port */
	WATCH_LANE_TUNE,
	WATCH_LANE_PROBE,
	WATCH_LANES,
};

/* A finding from a trap with no state to read back, and when its last trap came. */
struct watch_trap {
	struct rk_finding finding;
	double at; /* monotonic */
};

#define WATCH_TRAPS_MAX 64 /* ports with such a finding at once (the oldest goes first) */

struct watch_traps {
	struct watch_trap items[WATCH_TRAPS_MAX];
	size_t count;
};

struct rk_watch {
	struct rk_watch_settings settings; /* its strings are the engine's copies */
	struct rk_name_map *names;
	struct watch_plan plan;
	struct rk_fabric_cache monitor;
	struct rk_cancel cancel; /* raised by rk_watch_stop: MAD runs and the helper stop */
	struct watch_job jobs[RK_WATCH_JOBS];
	struct watch_lane lanes[WATCH_LANES];
	double sweep_seconds;
	struct rk_host *probe_host;    /* the probe job's own view, for the ports' states */
	struct rk_watch_probes probes; /* its last round */
	atomic_uint failures;	       /* of the jobs that back off (the fabric lane's) */
	pthread_mutex_t publishing;    /* one lane builds a snapshot at a time */
	pthread_mutex_t lock; /* guards what follows, the lanes' ended, the jobs' pending */
	pthread_cond_t wake;  /* the lanes: stop; the stopper: a lane ended */
	bool stop;
	bool started; /* rk_watch_start ran: a lane turned on later gets its thread at once */
	struct rk_watch_snapshot *latest;
	struct rk_findings route_findings;     /* the last route check's (the sweep lane's) */
	double routes_at;		       /* monotonic time of the last route check */
	unsigned routes_discovery;	       /* the monitor's discoveries at that check */
	struct rk_route_summary route_summary; /* and its summary (routes_checked) */
	bool routes_checked;
	struct rk_findings audit_findings;	/* the last fabric audit's (the sweep lane's) */
	double audit_at;			/* monotonic time of the last audit */
	unsigned audit_discovery;		/* the monitor's discoveries at that audit */
	unsigned audit_critical, audit_warning; /* its findings by severity */
	bool audited;				/* an audit has passed */
	/* the fabric lane's events (watch_events.c) */
	struct rk_findings sweep_findings; /* the last sweep's, before what events add */
	struct rk_link_history links;	   /* downs and ups: PORT_WENT_DOWN, LINK_FLAPPING */
	unsigned history_discovery;	   /* the discovery the history last saw */
	struct watch_traps traps;	   /* LINK_ERRORS_REPORTED, KEY_VIOLATION */
	bool events_changed;		   /* since the findings were last made */
	double events_checked_at;	   /* monotonic time they were last made */
	bool findings_only;		   /* this publish is of events: no sweep passed */
	int follow_err;			   /* the last turn's, to say a failure once */
	void (*on_events)(void *arg);	   /* rk_watch_on_events */
	void *on_events_arg;
	/* one active watcher per subnet (watch_role.c) */
	bool elects;			/* settings.elect in fabric mode */
	struct rk_election election;	/* the fabric lane's */
	int election_err;		/* the last turn's, to say a failure once */
	unsigned long election_changes; /* of the role or of the active watcher shown */
};

/** With settings.routes: check the routes when the topology is new or the last check is
 * routes_interval_s old, and add the last check's findings to the sweep's. */
void watch_routes(struct rk_watch *watch, struct rk_findings *findings);

/** Whether a check of the topology last made at monotonic time at (0: never), on the
 * discovery numbered discovery, is due again: the topology is new, or interval has passed. */
bool watch_check_due(const struct rk_watch *watch, double at, unsigned discovery, double interval,
		     double now);

/** With settings.audit: audit the fabric when the topology is new or the last audit is
 * audit_interval_s old, and add the last audit's findings to the sweep's. */
void watch_fabric_audit(struct rk_watch *watch, struct rk_findings *findings);

/** Free what rk_watch_new set up (also when it stopped half way: synced false). */
void watch_free(struct rk_watch *watch, bool synced);

/** True when the job is to be skipped at this pass, backing off after failures. */
bool watch_job_skip(struct watch_job *job);

/** Back off after a failure (logged when it starts, not at every try); log the recovery. */
void watch_job_outcome(struct watch_job *job, int err);

/** Track what the views show since the job's last pass; its events wait for the snapshot. */
void watch_job_track(struct watch_job *job, const struct rk_event_views *views);

/** A job turned off (tune, probe: findings tracked as the host's): its findings clear, once,
 * as events of their own; 0. */
int watch_job_forget(struct watch_job *job);

/** Queue the job's events of this pass for the consumers (the lock held). */
void watch_job_hand_over(struct watch_job *job);

/** Move the job's queued events into events (emptied first; the lock held). */
void watch_job_take(struct watch_job *job, struct rk_watch_events *events);

/** Set the link history up, and with settings.events, the monitor's events to the engine. */
void watch_events_setup(struct rk_watch *watch, struct rk_fabric_cache_options *options);

/** One fabric event, in the fabric lane's thread (during rk_fabric_cache_follow, or a sweep while
 * Reports come): a port's change into the link history, a trap 129-131 or 256-259 into a
 * finding, a trap that changes the topology into a rediscovery soon. */
void watch_on_event(const struct rk_fabric_event *event, void *ctx);

/** The sweep job's findings: the last sweep's, then the trap findings, the link history's and
 * EVENTS_UNAVAILABLE; 0 or -ENOMEM. */
int watch_fabric_findings(struct rk_watch *watch, struct rk_findings *out);

/** After a sweep that worked: the link history learns its LinkDownedCounter rises, and after
 * a discovery, which ports are ACTIVE. */
void watch_events_swept(struct rk_watch *watch);

/** Make the sweep job's findings again and track them; publish (findings only) when a job of
 * passed has events from it (the SM job's tracked by the caller). */
void watch_events_publish(struct rk_watch *watch, const bool passed[]);

/** Set the election up when settings.elect in fabric mode. */
void watch_role_setup(struct rk_watch *watch);

/** Whether the fabric jobs run: always without an election, else while active. */
bool watch_fabric_active(const struct rk_watch *watch);

/** One election turn when due (its MADs sent and answered), and what a change of role does:
 * active, a pass now; standby, the fabric's state and findings let go. */
void watch_role_turn(struct rk_watch *watch);

/** Turn the election until it gives a role (SETTLE_MAX_S at most): rk_watch_run_once's. */
void watch_role_settle(struct rk_watch *watch);

/** At a stop, the lanes ended: an active watcher deletes its record in the SA (one try). */
void watch_role_resign(struct rk_watch *watch);

/** The election's findings (NO_ACTIVE_WATCHER, SEVERAL_ACTIVE_WATCHERS); 0 or -ENOMEM. */
int watch_role_findings(const struct rk_watch *watch, struct rk_findings *findings);

/** The fabric lane's wait with events on: take them until the next pass is due (publishing
 * the findings they change at once); false when stopping. */
bool watch_events_wait(struct watch_lane *lane);

/** Run the sweep job: sweep (rediscovering when due), check; 0 or -errno. */
int watch_sweep(struct rk_watch *watch);

/** Run the SM job: query the SMs (rediscovering when due), check; 0 or -errno. */
int watch_query_sm(struct rk_watch *watch);

/** Run the tune job: audit the root, keep what asks for something (turned off: clear what the
 * last audit found); 0 or -errno. */
int watch_audit(struct rk_watch *watch);

/** Run the probe job: read the ports' states, probe the ports chosen, their findings (turned
 * off: no ports, and what the last round found clears); 0 or -errno. */
int watch_probe(struct rk_watch *watch);

/** True when two looks at the plan file saw the same version of it (both valid). */
bool watch_plan_stamp_same(const struct watch_plan_stamp *a, const struct watch_plan_stamp *b);

/** Look at the plan file at path (another path: the kept plan is dropped first) and read it
 * again when it changed; a file gone or unreadable keeps the last plan read (logged once). */
void watch_plan_refresh(struct watch_plan *kept, const char *path);

/** The plan's findings on the monitor's fabric (the settings' plan_path, read again when it
 * changed): the comparison, PLAN_LINES_SKIPPED, PLAN_UNREADABLE; 0 or -ENOMEM. */
int watch_plan_check(struct rk_watch *watch, struct rk_findings *findings);

/** Drop the kept plan and forget its file. */
void watch_plan_forget(struct watch_plan *kept);

/** Publish a snapshot with the parts of the jobs that passed, and their events. */
void watch_publish(struct rk_watch *watch, const bool passed[], double seconds);

/** Whether a job is to run: while enabled, and once more when turned off with findings left. */
bool watch_job_due(const struct watch_job *job);

/** Give a lane with a job due a thread of its own (not again when it has one); -errno. */
int watch_lane_start(struct watch_lane *lane);

/** Run every job of the lane once, then publish what they saw (not when stopping). */
void watch_lane_pass(struct watch_lane *lane);

/** A snapshot of the jobs that passed now, the others' parts copied from before; NULL. */
struct rk_watch_snapshot *watch_snapshot(const struct rk_watch *watch, const bool passed[],
					 const struct rk_watch_snapshot *before);

#endif
