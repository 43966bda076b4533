/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Every front end's settings in one place: defaults, ranges, and the one check of a value. */
#ifndef RDMAKIT_LIMITS_H
#define RDMAKIT_LIMITS_H

#include <stdbool.h>
#include <stddef.h>

/* Defaults, plain numbers so that help texts can print them (RK_STRINGIFY); the rediscover
 * period's, RK_REDISCOVER_DEFAULT_S, is in rdmakit/fabric_cache.h. */
#define RK_MAD_DEFAULT_WINDOW	  32  /* GMPs (QP1: PMA, SA) in flight at once */
#define RK_MAD_DEFAULT_TIMEOUT_MS 200 /* per MAD attempt */
#define RK_MAD_DEFAULT_RETRIES	  2   /* extra attempts after a timeout */
/* SMPs (QP0) in flight at once, whatever the window: they travel on VL15, which switches drop
 * rather than queue, and a switch's SMA answers in its management CPU's firmware, far slower
 * than a PMA; ibdiagnet keeps 8 on the wire by default, OpenSM 4 (max_wire_smps). */
#define RK_MAD_SMP_WINDOW 8
/* Fabric events: the SA subscription is made again this often, since an SM that restarted
 * at the same LID has forgotten it (a new master at another LID is noticed at once). */
#define RK_EVENTS_REFRESH_S 60
/* ... and the local port's master SM is looked at this often (one SMP): a new master has
 * none of the old one's subscriptions, and its Reports start once it has this one. */
#define RK_EVENTS_MASTER_CHECK_S 2
/* LINK_FLAPPING: a link that went down this many times within the window is flapping, until
 * it has stayed up for the stable time (UFM's and gpud's sticky window). Three downs in ten
 * minutes is no single reseat (one down, maybe two), and a quarter of an hour up is longer
 * than the back-off of the links that flap from a marginal cable. */
#define RK_FLAP_DOWNS_DEFAULT	 3
#define RK_FLAP_WINDOW_DEFAULT_S 600
#define RK_FLAP_STABLE_DEFAULT_S 900
/* A finding from a trap that has no state to read back (129-131: link integrity, buffer
 * overrun, flow control watchdog; 256-259: key violations) clears this long after the last
 * such trap about the same port. */
#define RK_TRAP_HOLD_S 600
/* One active fabric watcher per subnet (rdmakit/election.h): the record that says which one is
 * lives this long in the SA after its last refresh, and is refreshed three times within it. A
 * dead watcher's is gone within it, so a standby takes over within it plus a pass. */
#define RK_WATCHER_LEASE_DEFAULT_S   30
#define RK_HELPER_DEADLINE_DEFAULT_S 600  /* the discovery helper's time to a whole answer */
#define RK_TUNE_INTERVAL_DEFAULT_S   3600 /* between two tune audits of a daemon */
#define RK_PROBE_INTERVAL_DEFAULT_S  300  /* between two loopback probes of a daemon */
#define RK_RESCAN_DEFAULT_S	     60	  /* between two looks for new devices, ports, counters */
#define RK_ROUTES_INTERVAL_DEFAULT_S 3600 /* between two route checks of a daemon */
#define RK_AUDIT_INTERVAL_DEFAULT_S  3600 /* between two fabric audits of a daemon */
/* A node or link that a rediscovery missed while its neighbour's port is still up is
 * unreachable (lost MADs, a busy agent), not gone, for this long: the view before is kept.
 * Long enough to ride out a few lost sweeps, short enough that a node whose port
 * disappeared without its peer saying so leaves the view within minutes. */
#define RK_UNREACHABLE_HOLD_DEFAULT_S 120
/* A fabric port that answered before is PORT_NO_ANSWER after this many sweeps in a row without
 * an answer (one lost sweep under MAD loss is not an outage); one that never answered, at once. */
#define RK_NO_ANSWER_SWEEPS 2
/* ... and clears once it has answered this many sweeps in a row: a port that answers one sweep
 * in two under heavy MAD loss is one problem, not one each time two sweeps in a row are lost. */
#define RK_NO_ANSWER_CLEAR_SWEEPS 3
/* ERRORS_RISING of a fabric port clears after this many answered sweeps in a row without a
 * rise: a port that errs now and then is one problem, not one per sweep (3 cleared and raised
 * the ports of a switch losing 60% of its MADs again within 16 sweeps: docs/reliability.md). */
#define RK_ERRORS_QUIET_SWEEPS 5
/* A port's PORT_NO_ANSWER or ERRORS_RISING that comes back while it is raised (the port
 * answered and then failed again, its errors were quiet and then rose again) doubles the
 * sweeps that clear it, up to this many times (x4: 12 answered, 20 quiet sweeps): a port that
 * stays flaky for the whole fault is one problem, not one each time it has a good moment. */
#define RK_FLAP_DOUBLINGS_MAX 2
/* After its PORT_NO_ANSWER cleared, a port that fails again before it has answered this many
 * sweeps in a row is the same flaky port, not a new outage: its flaps are kept and counted, and
 * it must also fail twice (up to four times) as many sweeps in a row to be raised again (a port
 * losing 60% of its MADs answered the 3 sweeps that clear it, then failed 2 in a row:
 * docs/reliability.md). */
#define RK_NO_ANSWER_PROBATION_SWEEPS (RK_NO_ANSWER_CLEAR_SWEEPS << RK_FLAP_DOUBLINGS_MAX)
/* The audit's SA queries of multicast membership (one per group and CA port) at most: the
 * groups past this budget are counted as not checked, a table of every MLID (a switch's
 * garbage) cannot make a million queries. About 5 s of a busy SA's time. */
#define RK_AUDIT_MCAST_QUERIES_MAX 65536
/* The 16-port masks of multicast tables an audit holds at most (2 bytes each: 32 MiB), so that
 * switches claiming entries in every block cannot make it hold gigabytes: the tables past it
 * are not read, and the multicast checks are left out. A fabric of 1,000 switches of 36 ports
 * with 4,096 MLIDs in use needs 12 million. */
#define RK_AUDIT_MFT_ENTRIES_MAX (16u * 1024 * 1024)

#define RK_STRINGIFY_(x) #x
#define RK_STRINGIFY(x)	 RK_STRINGIFY_(x)

/* The settings a user can give (CLI option, collectd key) or a front end passes to the core. */
enum rk_setting {
	RK_SETTING_WINDOW,	     /* --window, FabricWindow: 1 to 4096 */
	RK_SETTING_TIMEOUT_MS,	     /* --timeout, FabricTimeout: 1 to 60000 ms */
	RK_SETTING_RETRIES,	     /* MAD retries: 0 to 100 */
	RK_SETTING_REDISCOVER_S,     /* --rediscover, Rediscover: 0 (never) to 604800 s */
	RK_SETTING_INTERVAL_S,	     /* the CLI's --interval: 0 to 86400 s */
	RK_SETTING_FABRIC_INTERVAL,  /* FabricInterval (fabric and SM reads): 0.001 to 86400 s */
	RK_SETTING_HELPER_DEADLINE,  /* the discovery helper's deadline: 1 to 86400 s */
	RK_SETTING_CA_PORT,	     /* -P, CAPort: 1 to 254 */
	RK_SETTING_TUNE_INTERVAL,    /* TuneInterval: 1 to 604800 s */
	RK_SETTING_PROBE_INTERVAL,   /* ProbeInterval, probe-interval: 1 to 86400 s */
	RK_SETTING_RESCAN_S,	     /* Rescan: 0 (at every read) to 86400 s */
	RK_SETTING_ROUTES_INTERVAL,  /* RoutesInterval, routesInterval: 1 to 604800 s */
	RK_SETTING_CONGESTION_PCT,   /* --threshold, CongestionThreshold: 0.01 to 100 % */
	RK_SETTING_XMIT_WAIT_TICK,   /* --tick-ns, XmitWaitTick: 0.001 to 1000000 ns */
	RK_SETTING_UNREACHABLE_HOLD, /* UnreachableHold: 0 (drop at once) to 86400 s */
	RK_SETTING_FLAP_DOWNS,	     /* FlapDowns, flap-downs: 2 to 100 */
	RK_SETTING_FLAP_WINDOW,	     /* FlapWindow, flap-window: 1 to 86400 s */
	RK_SETTING_FLAP_STABLE,	     /* FlapStable, flap-stable: 1 to 86400 s */
	RK_SETTING_FABRIC_PRIORITY,  /* FabricPriority, fabric-priority: 0 to 255 */
	RK_SETTING_WATCHER_LEASE,    /* FabricLease, fabric-lease: 6 to 3600 s */
	RK_SETTING_AUDIT_INTERVAL,   /* AuditInterval, audit-interval: 1 to 604800 s */
	RK_SETTING_COUNT,
};

/* The range of one setting. */
struct rk_limit {
	double min, max;
	bool whole;	  /* whole numbers only */
	const char *noun; /* "whole number of milliseconds", in the message */
	const char *zero; /* what 0 means when it is allowed ("never"), else NULL */
};

/** The range of a setting, or NULL for an unknown one. */
const struct rk_limit *rk_limit_get(enum rk_setting setting);

/** 0 when value is within the setting's range; else -ERANGE (-EINVAL for an unknown setting)
 * and msg gets "expected a NOUN from MIN to MAX", the same for every front end. */
int rk_limit_check(enum rk_setting setting, double value, char *msg, size_t size);

/** Parse text as a number (decimal, nothing after it) and check it like rk_limit_check;
 * -EINVAL with the same msg when it is not a number. */
int rk_limit_parse(enum rk_setting setting, const char *text, double *out, char *msg, size_t size);

#endif
