/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The watch engine both daemons run: the fabric's discovery (in the helper process), sweeps and
 * SM queries at their interval in a thread of their own, the tune audit in another, the loopback
 * probe in a third, the health rules on what they saw, the events of each pass, and back-off on
 * failure. It publishes an immutable snapshot plus each job's events since the consumer last took
 * them; its stop returns within seconds, whatever the thread is waiting on. The host's pass
 * (rk_watch_host_pass) tracks its events by the same rule in the daemon's own thread. */
#ifndef RDMAKIT_WATCH_H
#define RDMAKIT_WATCH_H

#include "rdmakit/congestion.h"
#include "rdmakit/election.h"
#include "rdmakit/events.h"
#include "rdmakit/fabric.h"
#include "rdmakit/facts.h"
#include "rdmakit/findings.h"
#include "rdmakit/health.h"
#include "rdmakit/host.h"
#include "rdmakit/link_history.h"
#include "rdmakit/route.h"
#include "rdmakit/sm.h"
#include "rdmakit/sweep.h"
#include "rdmakit/tune.h"
#include "rdmakit/verbs.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* A job that fails is tried again after 1, 2, 4, ... intervals, at most this many. */
#define RK_WATCH_RETRY_MAX 16
/* rk_watch_stop waits this long for its threads; past it they are left to the exit. */
#define RK_WATCH_STOP_GRACE_S 1.5

/* The ports a round of the loopback probe probes, and then their outcomes. */
struct rk_watch_probes {
	struct rk_probe_outcome *items;
	size_t count, capacity;
};

/* What a daemon's configuration says the engine is to watch, and how. */
struct rk_watch_settings {
	const char *ca;		      /* NULL: libibumad's default */
	int ca_port;		      /* 0: the first active port */
	unsigned window;	      /* MADs in flight (0: the default) */
	unsigned timeout_ms;	      /* per MAD (0: the default) */
	double rediscover_s;	      /* seconds between discoveries (0: only on changes) */
	double unreachable_hold_s;    /* rk_fabric_cache_options.unreachable_hold_seconds */
	double interval_s;	      /* between two passes of the sweep and SM jobs */
	const char *name_map;	      /* a NodeNameMap file, or NULL */
	bool sweep;		      /* job: sweep every port's counters (and check the fabric) */
	bool sm;		      /* job: query the subnet managers (and check them) */
	bool routes;		      /* with sweep: check the routes (rk_route_check) after every
					 discovery and every routes_interval_s; findings as the fabric's */
	double routes_interval_s;     /* between two route checks on one topology */
	bool audit;		      /* with sweep: the fabric audit (rk_audit_run) after every
					 discovery and every audit_interval_s; findings as the fabric's */
	double audit_interval_s;      /* between two audits of one topology */
	const char *audit_partitions; /* the SM's partitions.conf the audit checks, or NULL */
	unsigned helper_deadline;     /* the discovery helper's deadline, s (0: the default) */
	bool tune;		      /* job: audit the host's tuning (rdmakit tune audit) */
	double tune_interval_s;	      /* between two audits, in a thread of their own */
	const char *tune_root;	      /* the root audited (NULL: /) */
	const struct rk_tune_profile *tune_profile; /* NULL: hazards only */
	bool probe;		 /* job: the loopback probe on the host's ports */
	double probe_interval_s; /* between two rounds, in a thread of their own */
	const char *sysfs_root;	 /* where the probe job reads the ports' states (NULL: /sys) */
	/* NULL: every ACTIVE port (rk_probe_wanted); else called at each round with the probe's
	 * fresh view of the host, adds the ports to probe (rk_watch_probe_add); 0 or -ENOMEM */
	int (*probe_choose)(const void *arg, const struct rk_host *host,
			    struct rk_watch_probes *round);
	const void *probe_arg;
	int nice; /* the engine threads' nice value (and the helper's they start); 0: as is */
	/* the cabling plan (fabric --save) the sweep job checks the fabric against, or NULL */
	const char *plan_path;
	struct rk_congestion_options congestion; /* PORT_CONGESTED's threshold, the tick */
	/* with sweep: follow the SM's events between passes (rdmakit/follow.h), and publish the
	 * fabric's findings they change at once */
	bool events;
	struct rk_flap_settings flap; /* LINK_FLAPPING's rule, from events and LinkDownedCounter */
	/* with sweep or sm: one active watcher per subnet (rdmakit/election.h); false: always
	 * active, no record in the SA */
	bool elect;
	enum rk_role_setting role;
	unsigned priority;	  /* 0 to 255 */
	double lease_s;		  /* the record's lease (default RK_WATCHER_LEASE_DEFAULT_S) */
	const char *watcher_name; /* in the record: who is active (NULL: the host's name) */
};

enum rk_watch_job {
	RK_WATCH_SWEEP,
	RK_WATCH_SM,
	RK_WATCH_TUNE,
	RK_WATCH_PROBE,
	RK_WATCH_JOBS,
};

/* Storage snapshots share: what one pass of a job saw (or one discovery's topology). */
struct rk_watch_part;

/* What the watch saw at its last passes; immutable once published, shared by reference. A
 * snapshot's members point into parts it shares with the snapshots before and after it that
 * show the same pass of their job (the topology: the same discovery): never change them. */
struct rk_watch_snapshot {
	unsigned long passes[RK_WATCH_JOBS]; /* successful passes of each job so far */
	/* the sweep job: the topology and what consumers read of the last sweep */
	const struct rk_fabric *fabric; /* NULL before the first discovery */
	struct rk_sweep_readings sweep;
	struct rk_findings fabric_findings; /* the fabric's and the sweep's */
	unsigned discoveries;		    /* how many discoveries the topology is from */
	double sweep_seconds;		    /* the last sweep, with its discovery */
	struct rk_route_summary routes;	    /* the last route check's, when routes_checked */
	bool routes_checked;
	unsigned audit_critical, audit_warning; /* the last fabric audit's findings, when audited */
	bool audited;
	/* the SM job */
	struct rk_sm_status sm;
	struct rk_findings sm_findings;
	/* the tune job: the last audit's findings that ask for something (no ok ones), each code
	 * and subject once (the most severe) */
	struct rk_findings tune_findings;
	/* the probe job: the last round's outcomes and their findings */
	struct rk_watch_probes probes;
	struct rk_findings probe_findings;
	/* the sweep and SM jobs */
	const struct rk_name_map *names; /* the NodeNameMap (the engine's), or NULL */
	time_t passed_at;		 /* wall time of the last fabric pass that worked */
	/* one active watcher per subnet (settings.elect): this one is standby, and shows no
	 * fabric; the active watcher's name ("" when none is known, or no election) */
	bool elects;
	bool role_decided; /* the election has decided this watcher's role once */
	bool standby;
	char active_watcher[RK_WATCHER_NAME_MAX];
	unsigned long election_changes; /* of the role or the active watcher shown, so far */
	double probed_at;    /* wall time (s since the epoch) the last probe round ended */
	double pass_seconds; /* how long it took */
	unsigned failures;   /* sweeps and SM queries that failed */
	/* held: each job's part (by enum rk_watch_job), then the topology's; NULL: none yet */
	struct rk_watch_part *parts[RK_WATCH_JOBS + 1];
	atomic_uint refs; /* the engine's and the consumers' holds */
};

/* A job's events since the last take: the first at_start ones are its first pass's, what was
 * already so when the watch started (never changes: a consumer that reports changes skips
 * them); a failed pass adds none. */
struct rk_watch_events {
	struct rk_event_list list;
	size_t at_start;
};

struct rk_watch;

/* The host's pass, which each daemon runs in its own thread at its own interval (its value
 * plans and table rows point into the host's counters, which a thread of the engine would change
 * under them): a rescan when due, the refresh, the host's health rules, and the events since the
 * last pass, with the first-pass rule of the engine's jobs. */
struct rk_watch_host;

/** A host pass that has seen nothing yet; rescan_s: seconds between looks for new devices (0:
 * at every pass; a vanished one is looked for at every pass); -ENOMEM. */
int rk_watch_host_new(double rescan_s, struct rk_watch_host **out);

/** Free it; NULL is ignored. */
void rk_watch_host_free(struct rk_watch_host *watch);

/** One pass over host: rescan when due, refresh, the health rules unless health is NULL
 * (findings: emptied, then this pass's, sorted; NULL with health NULL), and in events (emptied
 * first) the changes since the last pass that worked, the first such pass's at_start. A read that
 * failed (logged) adds no events; 0 or its -errno. */
int rk_watch_host_pass(struct rk_watch_host *watch, struct rk_host *host,
		       const struct rk_health_options *health, struct rk_findings *findings,
		       struct rk_watch_events *events);

/** Defaults: no jobs; passes every 10 s, audits every RK_TUNE_INTERVAL_DEFAULT_S, probes every
 * RK_PROBE_INTERVAL_DEFAULT_S, rediscovery every RK_REDISCOVER_DEFAULT_S. */
void rk_watch_settings_defaults(struct rk_watch_settings *settings);

/** Defaults, then the local port (ca NULL, port, window and timeout 0: the defaults) and the
 * NodeNameMap file (or NULL) the fabric jobs use. */
void rk_watch_settings_set(struct rk_watch_settings *settings, const char *ca, int port,
			   unsigned window, unsigned timeout_ms, const char *name_map);

/** Add a port to a round of probes (from a probe_choose); -ENOMEM. */
int rk_watch_probe_add(struct rk_watch_probes *round, const char *device, unsigned port);

/** An engine for settings (copied, their strings too), its name map loaded, the probe's view of
 * the host opened; -errno. */
int rk_watch_new(const struct rk_watch_settings *settings, struct rk_watch **out);

/** Run every enabled job once now, in the caller's thread (before privileges drop or a fork). */
void rk_watch_run_once(struct rk_watch *watch);

/** Start the engine's threads: each job at its interval from now on; -errno. */
int rk_watch_start(struct rk_watch *watch);

/** Have fn(arg) called, from the engine's thread, each time fabric events change the published
 * findings between two sweeps (a front end that reads at its own interval reads at once). Call
 * it before rk_watch_start. */
void rk_watch_on_events(struct rk_watch *watch, void (*fn)(void *arg), void *arg);

/** Run the lane of job (the sweep and the SM query share one) every seconds from now on: its
 * next pass is due that long after the start of its last one (at once when that is past). */
void rk_watch_set_interval(struct rk_watch *watch, enum rk_watch_job job, double seconds);

/** Change the tune job at once (a daemon's reload; from the thread that started the engine):
 * on or off, the root (NULL: /) and profile audited from now on; the next audit starts now, and
 * turned off, the last audit's findings clear as events; 0 or -errno (the thread not started). */
int rk_watch_set_tune(struct rk_watch *watch, bool on, const char *root,
		      const struct rk_tune_profile *profile);

/** Compare the fabric with the plan in path (NULL: with none) from the next sweep on (a daemon's
 * reload; the plan's findings of the last one clear when it is dropped); 0 or -ENOMEM. */
int rk_watch_set_plan(struct rk_watch *watch, const char *path);

/** Turn the probe job on or off at once (a daemon's reload; from the thread that started the
 * engine): the next round starts now (its view of the host opened first when it has none), and
 * turned off, the last round's outcomes go and its findings clear as events; 0 or -errno. */
int rk_watch_set_probe(struct rk_watch *watch, bool on);

/** The latest snapshot, held (rk_watch_release it; NULL before the first pass), and in events
 * (emptied first) the job's events since the last take. */
struct rk_watch_snapshot *rk_watch_take(struct rk_watch *watch, enum rk_watch_job job,
					struct rk_watch_events *events);

/** The engine's own fabric facts into values: watcher_active (NAN without an election). */
void rk_watch_fact_values(const struct rk_watch_snapshot *snap, double values[RK_FACT_COUNT]);

/** Drop a hold; the last one frees the snapshot. NULL is ignored. */
void rk_watch_release(struct rk_watch_snapshot *snap);

/** Empty an event batch, keeping its storage. */
void rk_watch_events_clear(struct rk_watch_events *events);

/** Free an event batch's storage. */
void rk_watch_events_free(struct rk_watch_events *events);

/** Stop the threads and free the engine, within 2 s: a discovery's helper is killed and reaped,
 * MAD waits end, and a thread stuck in a call nothing wakes is left behind (not freed) after
 * RK_WATCH_STOP_GRACE_S. Release every snapshot first (their names are the engine's). */
void rk_watch_stop(struct rk_watch *watch);

#endif
