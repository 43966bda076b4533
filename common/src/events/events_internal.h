/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The tracker's state, shared by the files that follow each domain. */
#ifndef RDMAKIT_EVENTS_INTERNAL_H
#define RDMAKIT_EVENTS_INTERNAL_H

#include "rdmakit/events.h"

/* One counter of a port or device, found again by source and name. */
struct counter_track {
	char name[64];
	bool hw; /* from hw_counters/ */
	uint8_t state;
	bool rising;
};

struct counter_tracks {
	struct counter_track *items;
	size_t count, capacity;
};

struct port_track {
	unsigned num;
	bool seen; /* state and phys hold the last read */
	int state, phys;
	char text[64]; /* "ACTIVE/LinkUp" */
	struct counter_tracks counters;
};

struct device_track {
	char name[64];
	bool vanished;
	struct port_track *ports;
	size_t nports;
	struct counter_tracks hw; /* device-level hw_counters */
};

/* Findings of one domain at the last call, sorted by code and subject, no two alike. */
struct finding_set {
	struct rk_finding *items;
	size_t count;
};

/* The names of the devices that could not be read at the last call. */
struct unreadable_names {
	char (*items)[96];
	size_t count;
};

struct rk_event_tracker {
	struct device_track *devices;
	size_t ndevices;
	struct unreadable_names unreadable;
	struct finding_set host_findings, fabric_findings, sm_findings;
	bool have_master;
	struct rk_sm master;
	struct rk_sm_status last_sm; /* the answers of the last SM call */
};

/** A new event of kind in domain at the end of the list, zeroed but for those; NULL: -ENOMEM. */
struct rk_event *event_append(struct rk_event_list *events, enum rk_event_kind kind,
			      enum rk_event_domain domain, enum rk_severity severity);

/** Set an event's message (printf-style). */
void event_message(struct rk_event *event, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Events of the host view: devices, port states, counter states, rising errors. */
int events_track_host(struct rk_event_tracker *tracker, const struct rk_host *host,
		      struct rk_event_list *events);

/** Events of an SM query: the master, SMs that stop or start answering. */
int events_track_sm(struct rk_event_tracker *tracker, const struct rk_sm_status *sm,
		    struct rk_event_list *events);

/** Free what the host part keeps. */
void events_free_host(struct rk_event_tracker *tracker);

/** Free what the SM part keeps. */
void events_free_sm(struct rk_event_tracker *tracker);

#endif
