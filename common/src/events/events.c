/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The event tracker: findings raised and cleared, and the calls into each domain. */
#include "events_internal.h"

#include "rdmakit/array.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[RK_EVENT_KIND_COUNT] = {
    [RK_EVENT_FINDING_RAISED] = "finding_raised",
    [RK_EVENT_FINDING_CLEARED] = "finding_cleared",
    [RK_EVENT_PORT_STATE] = "port_state",
    [RK_EVENT_COUNTER_SATURATED] = "counter_saturated",
    [RK_EVENT_COUNTER_COUNTS_AGAIN] = "counter_counts_again",
    [RK_EVENT_COUNTER_UNAVAILABLE] = "counter_unavailable",
    [RK_EVENT_ERRORS_RISING] = "errors_rising",
    [RK_EVENT_ERRORS_STOPPED] = "errors_stopped",
    [RK_EVENT_DEVICE_VANISHED] = "device_vanished",
    [RK_EVENT_DEVICE_BACK] = "device_back",
    [RK_EVENT_DEVICE_UNREADABLE] = "device_unreadable",
    [RK_EVENT_DEVICE_READABLE] = "device_readable",
    [RK_EVENT_SM_MASTER_SEEN] = "sm_master_seen",
    [RK_EVENT_SM_MASTER_CHANGED] = "sm_master_changed",
    [RK_EVENT_SM_SILENT] = "sm_silent",
    [RK_EVENT_SM_ANSWERS] = "sm_answers",
    [RK_EVENT_SM_NO_MASTER] = "sm_no_master",
    [RK_EVENT_SM_NO_STANDBY] = "sm_no_standby",
    [RK_EVENT_FABRIC_PORT_SILENT] = "fabric_port_silent",
    [RK_EVENT_FABRIC_PORT_ANSWERS] = "fabric_port_answers",
    [RK_EVENT_LINK_DEGRADED] = "link_degraded",
    [RK_EVENT_LINK_RECOVERED] = "link_recovered",
    [RK_EVENT_FINDING_CHANGED] = "finding_changed",
};

/* Findings whose raising and clearing have kinds of their own. */
static const struct {
	const char *code;
	enum rk_event_kind raised, cleared;
} finding_kinds[] = {
    {"SM_NO_MASTER", RK_EVENT_SM_NO_MASTER, RK_EVENT_FINDING_CLEARED},
    {"SM_NO_STANDBY", RK_EVENT_SM_NO_STANDBY, RK_EVENT_FINDING_CLEARED},
    {"PORT_NO_ANSWER", RK_EVENT_FABRIC_PORT_SILENT, RK_EVENT_FABRIC_PORT_ANSWERS},
    {"LINK_DEGRADED", RK_EVENT_LINK_DEGRADED, RK_EVENT_LINK_RECOVERED},
};

const char *rk_event_kind_name(enum rk_event_kind kind)
{
	return kind >= 0 && kind < RK_EVENT_KIND_COUNT ? kind_names[kind] : "unknown";
}

int rk_event_tracker_new(struct rk_event_tracker **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void rk_event_tracker_free(struct rk_event_tracker *tracker)
{
	if (!tracker)
		return;
	events_free_host(tracker);
	events_free_sm(tracker);
	free(tracker->host_findings.items);
	free(tracker->fabric_findings.items);
	free(tracker->sm_findings.items);
	free(tracker);
}

struct rk_event *event_append(struct rk_event_list *events, enum rk_event_kind kind,
			      enum rk_event_domain domain, enum rk_severity severity)
{
	struct rk_event *items, *event;

	items = rk_array_room(events->items, &events->capacity, events->count, sizeof(*items), 16);
	if (!items)
		return NULL;
	events->items = items;
	event = &events->items[events->count++];
	memset(event, 0, sizeof(*event));
	event->kind = kind;
	event->domain = domain;
	event->severity = severity;
	event->unit = "";
	return event;
}

void event_message(struct rk_event *event, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(event->message, sizeof(event->message), fmt, args);
	va_end(args);
}

void rk_event_list_clear(struct rk_event_list *events)
{
	events->count = 0;
}

void rk_event_list_free(struct rk_event_list *events)
{
	free(events->items);
	*events = (struct rk_event_list){0};
}

static int compare_keys(const void *a, const void *b)
{
	return rk_finding_key_compare(a, b);
}

/* The findings sorted by their keys, each key once. */
static int finding_set_of(const struct rk_findings *findings, struct finding_set *set)
{
	size_t kept = 0;

	set->items = malloc((findings->count ? findings->count : 1) * sizeof(*set->items));
	if (!set->items)
		return -ENOMEM;
	if (findings->count)
		memcpy(set->items, findings->items, findings->count * sizeof(*set->items));
	qsort(set->items, findings->count, sizeof(*set->items), compare_keys);
	for (size_t i = 0; i < findings->count; i++)
		if (kept == 0 || compare_keys(&set->items[kept - 1], &set->items[i]) != 0)
			set->items[kept++] = set->items[i];
	set->count = kept;
	return 0;
}

static enum rk_event_kind kind_of(const struct rk_finding *finding, bool raised)
{
	for (size_t i = 0; i < sizeof(finding_kinds) / sizeof(finding_kinds[0]); i++)
		if (strcmp(finding_kinds[i].code, finding->code) == 0)
			return raised ? finding_kinds[i].raised : finding_kinds[i].cleared;
	return raised ? RK_EVENT_FINDING_RAISED : RK_EVENT_FINDING_CLEARED;
}

static int finding_event(struct rk_event_list *events, enum rk_event_domain domain,
			 const struct rk_finding *finding, bool raised)
{
	struct rk_event *event = event_append(events, kind_of(finding, raised), domain,
					      raised ? finding->severity : RK_SEVERITY_OK);

	if (!event)
		return -ENOMEM;
	event->is_finding = true;
	event->cleared = !raised;
	event->finding = *finding;
	snprintf(event->subject, sizeof(event->subject), "%s", finding->subject);
	event->node_guid = finding->node_guid;
	event->port = finding->port > 0 ? (unsigned)finding->port : 0;
	if (raised)
		event_message(event, "%s: %s", finding->subject, finding->message);
	else
		event_message(event, "%s: %s cleared", finding->subject, finding->code);
	return 0;
}

/* A finding still active at another severity: raised again at the new one, with the old. */
static int severity_event(struct rk_event_list *events, enum rk_event_domain domain,
			  const struct rk_finding *old, const struct rk_finding *now)
{
	struct rk_event *event;

	if (finding_event(events, domain, now, true) != 0)
		return -ENOMEM;
	event = &events->items[events->count - 1];
	event->kind = RK_EVENT_FINDING_CHANGED;
	event->old.known = event->now.known = true;
	event->old.number = old->severity;
	event->now.number = now->severity;
	return 0;
}

/* Walk the last set and the new one side by side: what is only in one was raised or cleared,
 * what is in both at another severity changed. */
static int diff_findings(const struct finding_set *old, const struct finding_set *now,
			 enum rk_event_domain domain, struct rk_event_list *events)
{
	size_t i = 0, j = 0;
	int err = 0;

	while (!err && (i < now->count || j < old->count)) {
		int order = i == now->count   ? 1
			    : j == old->count ? -1
					      : compare_keys(&now->items[i], &old->items[j]);

		if (order > 0)
			err = finding_event(events, domain, &old->items[j++], false);
		else if (order < 0)
			err = finding_event(events, domain, &now->items[i++], true);
		else if (now->items[i].severity != old->items[j].severity)
			err = severity_event(events, domain, &old->items[j++], &now->items[i++]);
		else
			i++, j++;
	}
	return err;
}

static int track_findings(struct finding_set *last, const struct rk_findings *findings,
			  enum rk_event_domain domain, struct rk_event_list *events)
{
	struct finding_set now;
	int err;

	if (!findings)
		return 0;
	err = finding_set_of(findings, &now);
	if (!err)
		err = diff_findings(last, &now, domain, events);
	if (err) {
		free(now.items);
		return err;
	}
	free(last->items);
	*last = now;
	return 0;
}

int rk_events_track(struct rk_event_tracker *tracker, const struct rk_event_views *views,
		    struct rk_event_list *events)
{
	int err = 0;

	if (views->host)
		err = events_track_host(tracker, views->host, events);
	if (!err)
		err = track_findings(&tracker->host_findings, views->host_findings, RK_DOMAIN_HOST,
				     events);
	if (!err)
		err = track_findings(&tracker->fabric_findings, views->fabric_findings,
				     RK_DOMAIN_FABRIC, events);
	if (!err && views->sm)
		err = events_track_sm(tracker, views->sm, events);
	if (!err)
		err =
		    track_findings(&tracker->sm_findings, views->sm_findings, RK_DOMAIN_SM, events);
	return err;
}
