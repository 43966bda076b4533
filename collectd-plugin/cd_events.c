/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The core's host events as collectd log lines and, with Notifications, notifications. */
#include "cd_events.h"

#include "cd_submit.h"

#include "rdmakit/facts.h"

/* Names that do not fit are counted as "and N more". */
static void note_add(struct cd_note *note, const char *subject, const char *name)
{
	size_t room;
	int len;

	if (note->count && strcmp(note->subject, subject) != 0)
		cd_events_flush_note(note);
	snprintf(note->subject, sizeof(note->subject), "%s", subject);
	room = sizeof(note->names) - note->len;
	len = snprintf(note->names + note->len, room, "%s%s", note->len ? ", " : "", name);
	note->count++;
	if (len > 0 && (size_t)len < room)
		note->len += (size_t)len;
	else
		note->more++;
	note->names[note->len] = '\0';
}

void cd_events_flush_note(struct cd_note *note)
{
	char more[32] = "";

	if (note->count == 0)
		return;
	if (note->more)
		snprintf(more, sizeof(more), " and %u more", note->more);
	cd_log(LOG_INFO, "%s: %u counter%s unavailable (no PMA, or not a number), not sent: %s%s",
	       note->subject, note->count, note->count > 1 ? "s" : "", note->names, more);
	*note = (struct cd_note){0};
}

static void notify_counter(int severity, const char *instance, const struct cd_item *item,
			   const char *message)
{
	cd_notify(severity, instance, item->type, item->type_instance, "%s", message);
}

void cd_events_counter(bool notify, const char *instance, const struct cd_item *item,
		       const struct rk_event *event, struct cd_note *unavailable)
{
	char saturated[RK_FINDING_SUBJECT_MAX + 160];

	switch (event->kind) {
	case RK_EVENT_COUNTER_UNAVAILABLE:
		note_add(unavailable, event->subject, event->counter);
		break;
	case RK_EVENT_COUNTER_COUNTS_AGAIN:
		cd_log(LOG_INFO, "%s, sent again", event->message);
		break;
	case RK_EVENT_COUNTER_SATURATED:
		cd_log(LOG_WARNING, "%s: not sent until the counter is cleared", event->message);
		snprintf(saturated, sizeof(saturated),
			 "%s: %s is saturated at %" PRId64 " and no longer counts", event->subject,
			 event->counter, event->now.number);
		if (notify)
			notify_counter(NOTIF_WARNING, instance, item, saturated);
		break;
	case RK_EVENT_ERRORS_RISING:
	case RK_EVENT_ERRORS_STOPPED:
		if (notify)
			notify_counter(event->kind == RK_EVENT_ERRORS_RISING ? NOTIF_WARNING
									     : NOTIF_OKAY,
				       instance, item, event->message);
		break;
	default:
		break;
	}
}

static const int notif_severities[] = {
    [RK_SEVERITY_OK] = NOTIF_OKAY,
    [RK_SEVERITY_WARNING] = NOTIF_WARNING,
    [RK_SEVERITY_CRITICAL] = NOTIF_FAILURE,
};

void cd_events_port(bool notify, const struct cd_port_plan *plan, const struct rk_event *event)
{
	const struct rk_fact *state = rk_fact(RK_FACT_PORT_STATE);

	cd_log(LOG_INFO, "%s", event->message);
	if (notify)
		cd_notify(notif_severities[event->severity], plan->instance, state->cd_type,
			  state->cd_instance, "%s", event->message);
}

void cd_events_device(bool notify, const struct rk_event *event)
{
	if (!notify)
		return;
	if (event->kind == RK_EVENT_DEVICE_UNREADABLE || event->kind == RK_EVENT_DEVICE_READABLE)
		cd_notify(event->kind == RK_EVENT_DEVICE_UNREADABLE ? NOTIF_WARNING : NOTIF_OKAY,
			  event->device, "", "", "%s", event->message);
	else if (event->kind == RK_EVENT_DEVICE_VANISHED)
		cd_notify(NOTIF_FAILURE, event->device, "", "",
			  "%s vanished: its values are not sent until it is back", event->device);
	else
		cd_notify(NOTIF_OKAY, event->device, "", "",
			  "%s is back: its values are sent again", event->device);
}
