/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "ak_events.h"

#include "rdmakit/log.h"

#include <string.h>

void ak_events_track(struct rk_event_tracker *tracker, const struct rk_event_views *views,
		     bool *primed, struct rk_event_list *events, const char *what)
{
	int err;

	rk_event_list_clear(events);
	err = rk_events_track(tracker, views, events);
	if (err)
		rk_log(RK_LOG_ERR, "tracking %s failed: %s", what, strerror(-err));
	if (err || !*primed)
		rk_event_list_clear(events);
	*primed = true;
}
