/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the host mode reports once per event: log lines and, with Notifications, notifications. */
#ifndef RDMAKIT_CD_EVENTS_H
#define RDMAKIT_CD_EVENTS_H

#include "cd_plan.h"

#include <stdbool.h>

/* Counters of one port that became unavailable at this read, logged as one line. */
struct cd_note {
	char names[384];
	size_t len;
	unsigned count; /* counters in the note */
	unsigned more;	/* of them, those whose names did not fit */
};

/** A counter's state differs from the one last reported: log it (and notify a saturation). */
void cd_events_counter(bool notify, const char *subject, const char *instance, struct cd_item *item,
		       unsigned k, struct cd_note *unavailable);

/** An error counter with a delta: notify when it starts rising and when it stops. */
void cd_events_rising(const char *subject, const char *instance, struct cd_item *item, unsigned k);

/** Log the counters gathered in note as unavailable, if any, and empty it. */
void cd_events_flush_note(const char *subject, struct cd_note *note);

/** Log (and notify) a port whose state or physical state changed; remember the new ones. */
void cd_events_port(bool notify, struct cd_port_plan *plan, const struct rk_port *port);

/** Notify that a device vanished or came back (the core logs both). */
void cd_events_device(bool notify, const char *device, bool vanished);

#endif
