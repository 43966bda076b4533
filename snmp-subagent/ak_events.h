/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The core's events as the refresh thread takes them for traps: a subagent that starts sends
 * none for what it finds, only for what changes after. */
#ifndef AK_EVENTS_H
#define AK_EVENTS_H

#include "rdmakit/events.h"

#include <stdbool.h>

/** Replace events with what changed in views since the last call; empty on the first call
 * (it primes the tracker: *primed turns true) and when tracking fails (logged, naming what). */
void ak_events_track(struct rk_event_tracker *tracker, const struct rk_event_views *views,
		     bool *primed, struct rk_event_list *events, const char *what);

#endif
