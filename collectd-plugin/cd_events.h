/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The core's host events as collectd log lines and, with Notifications, notifications. */
#ifndef RDMAKIT_CD_EVENTS_H
#define RDMAKIT_CD_EVENTS_H

#include "cd_plan.h"

#include "rdmakit/events.h"

#include <stdbool.h>

/* Counters of one subject that became unavailable at this read, logged as one line. */
struct cd_note {
	char subject[RK_FINDING_SUBJECT_MAX]; /* as the events name it */
	char names[384];
	size_t len;
	unsigned count; /* counters in the note */
	unsigned more;	/* of them, those whose names did not fit */
};

/** A counter event about one of the item's counters, sent as plugin instance instance. */
void cd_events_counter(bool notify, const char *instance, const struct cd_item *item,
		       const struct rk_event *event, struct cd_note *unavailable);

/** Log the counters gathered in note as unavailable, if any, and empty it. */
void cd_events_flush_note(struct cd_note *note);

/** A port whose state or physical state changed: log it (and notify). */
void cd_events_port(bool notify, const struct cd_port_plan *plan, const struct rk_event *event);

/** Notify that a device vanished, came back, could not be read or can be read again (the core
 * logs each once). */
void cd_events_device(bool notify, const struct rk_event *event);

#endif
