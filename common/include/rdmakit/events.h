/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What changed since the last read, once per transition: collectd's notifications and SNMP
 * traps are both made from these events. */
#ifndef RDMAKIT_EVENTS_H
#define RDMAKIT_EVENTS_H

#include "rdmakit/health.h"
#include "rdmakit/host.h"
#include "rdmakit/sm.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rk_event_kind {
	RK_EVENT_FINDING_RAISED,       /* a finding (code + subject) absent at the last call */
	RK_EVENT_FINDING_CLEARED,      /* a finding of the last call is gone */
	RK_EVENT_PORT_STATE,	       /* a host port's state or physical state changed */
	RK_EVENT_COUNTER_SATURATED,    /* a host counter stuck at its register's maximum */
	RK_EVENT_COUNTER_COUNTS_AGAIN, /* a saturated or unavailable counter reads again */
	RK_EVENT_COUNTER_UNAVAILABLE,  /* "N/A (no PMA)", empty or not a number */
	RK_EVENT_ERRORS_RISING,	       /* a host error counter started rising */
	RK_EVENT_ERRORS_STOPPED,       /* ... and stopped rising */
	RK_EVENT_DEVICE_VANISHED,
	RK_EVENT_DEVICE_BACK,
	RK_EVENT_DEVICE_UNREADABLE, /* a listed device could not be read (message: what, why) */
	RK_EVENT_DEVICE_READABLE,   /* ... and can be read now, or is no longer listed */
	RK_EVENT_SM_MASTER_SEEN,    /* the first master SM this tracker saw */
	RK_EVENT_SM_MASTER_CHANGED, /* another SM is master (old and new LID and GUID) */
	RK_EVENT_SM_SILENT,	    /* an SM stopped answering SMInfo */
	RK_EVENT_SM_ANSWERS,	    /* ... and answers again */
	/* Findings raised or cleared that have a kind of their own (event.finding is set): */
	RK_EVENT_SM_NO_MASTER,	      /* SM_NO_MASTER raised (cleared: FINDING_CLEARED) */
	RK_EVENT_SM_NO_STANDBY,	      /* SM_NO_STANDBY raised (cleared: FINDING_CLEARED) */
	RK_EVENT_FABRIC_PORT_SILENT,  /* PORT_NO_ANSWER raised */
	RK_EVENT_FABRIC_PORT_ANSWERS, /* PORT_NO_ANSWER cleared */
	RK_EVENT_LINK_DEGRADED,	      /* LINK_DEGRADED raised */
	RK_EVENT_LINK_RECOVERED,      /* LINK_DEGRADED cleared */
	RK_EVENT_FINDING_CHANGED, /* an active finding's severity changed (old.number: the old) */
	RK_EVENT_KIND_COUNT,
};

/* One side of a change; known is false where there is no such side. */
struct rk_event_value {
	bool known;
	int64_t number; /* port state, counter raw value or value in its unit, SM LID */
	int64_t detail; /* physical state, counter delta, SM priority */
	uint64_t guid;	/* an SM's port GUID */
	char text[192]; /* for people: "ACTIVE/LinkUp", an SM as "name (LID l, GUID g, ...)" */
};

/* Which view an event comes from. */
enum rk_event_domain {
	RK_DOMAIN_HOST,
	RK_DOMAIN_FABRIC,
	RK_DOMAIN_SM,
};

struct rk_event {
	enum rk_event_kind kind;
	enum rk_event_domain domain;
	enum rk_severity severity;	      /* a cleared finding: RK_SEVERITY_OK */
	char subject[RK_FINDING_SUBJECT_MAX]; /* "mlx5_0:1", "mlx5_0", a finding's subject, "subnet"
					       */
	char device[64];		      /* host events: the device, else "" */
	bool on_port;	       /* host events: about a port (else the device itself) */
	unsigned port;	       /* ... its number (a switch's is 0) */
	uint64_t node_guid;    /* fabric events: the node (a link's first end), else 0 */
	char counter[64];      /* counter events: the counter's file name */
	enum rk_source source; /* counter events: counters/ or hw_counters/ */
	const char *unit;      /* counter events: the catalog's unit, else "" */
	struct rk_event_value old, now;
	bool is_finding;	   /* raised or cleared finding: finding holds it */
	bool cleared;		   /* ... and it cleared (else it was raised) */
	struct rk_finding finding; /* cleared: the finding as it was last raised */
	char message[384];	   /* one line for people */
};

struct rk_event_list {
	struct rk_event *items;
	size_t count, capacity;
};

/* The views of one call; NULL leaves that domain as it was (its findings too). */
struct rk_event_views {
	const struct rk_host *host;
	const struct rk_findings *host_findings;   /* NULL: host findings are not tracked */
	const struct rk_findings *fabric_findings; /* fabric and sweep findings */
	const struct rk_sm_status *sm;
	const struct rk_findings *sm_findings; /* with sm */
};

/* What a front end keeps between reads: the last states, findings and SM answers. */
struct rk_event_tracker;

/** A tracker that has seen nothing yet; -ENOMEM. */
int rk_event_tracker_new(struct rk_event_tracker **out);

/** Free a tracker. */
void rk_event_tracker_free(struct rk_event_tracker *tracker);

/** Compare views with what the tracker saw last and append one event per transition. */
int rk_events_track(struct rk_event_tracker *tracker, const struct rk_event_views *views,
		    struct rk_event_list *events);

/** Empty the list, keeping its storage. */
void rk_event_list_clear(struct rk_event_list *events);

/** Free the list's storage. */
void rk_event_list_free(struct rk_event_list *events);

/** "finding_raised", "port_state", ... : a stable name for each kind. */
const char *rk_event_kind_name(enum rk_event_kind kind);

#endif
