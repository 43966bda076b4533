/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* SM events: the first master, a change of master, SMs that stop or start answering. */
#include "events_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void sm_value(const struct rk_sm *sm, struct rk_event_value *value)
{
	*value = (struct rk_event_value){
	    .known = true, .number = sm->lid, .detail = sm->priority, .guid = sm->guid};
	rk_sm_describe(sm, value->text, sizeof(value->text));
}

static struct rk_event *sm_event(struct rk_event_list *events, enum rk_event_kind kind,
				 enum rk_severity severity)
{
	struct rk_event *event = event_append(events, kind, RK_DOMAIN_SM, severity);

	if (event)
		snprintf(event->subject, sizeof(event->subject), "subnet");
	return event;
}

static int track_master(struct rk_event_tracker *tracker, const struct rk_sm_status *sm,
			struct rk_event_list *events)
{
	const struct rk_sm *master = rk_sm_master(sm);
	struct rk_event *event;

	if (!master || (tracker->have_master && master->guid == tracker->master.guid))
		return 0;
	if (!tracker->have_master) {
		event = sm_event(events, RK_EVENT_SM_MASTER_SEEN, RK_SEVERITY_OK);
		if (!event)
			return -ENOMEM;
		sm_value(master, &event->now);
		event_message(event, "master SM: %s", event->now.text);
	} else {
		event = sm_event(events, RK_EVENT_SM_MASTER_CHANGED, RK_SEVERITY_WARNING);
		if (!event)
			return -ENOMEM;
		sm_value(&tracker->master, &event->old);
		sm_value(master, &event->now);
		event_message(event, "the master SM changed: now %s, was %s", event->now.text,
			      event->old.text);
	}
	tracker->master = *master;
	tracker->have_master = true;
	return 0;
}

static int answer_event(const struct rk_sm *sm, bool silent, struct rk_event_list *events)
{
	struct rk_event *event = sm_event(events, silent ? RK_EVENT_SM_SILENT : RK_EVENT_SM_ANSWERS,
					  silent ? RK_SEVERITY_WARNING : RK_SEVERITY_OK);

	if (!event)
		return -ENOMEM;
	sm_value(sm, &event->now);
	if (silent)
		event_message(event, "the SM at LID %u does not answer SMInfo: %s", sm->lid,
			      strerror(-sm->status));
	else
		event_message(event, "the SM at LID %u answers SMInfo again", sm->lid);
	return 0;
}

static int track_answers(const struct rk_sm_status *before, const struct rk_sm_status *now,
			 struct rk_event_list *events)
{
	int err = 0;

	for (size_t i = 0; i < now->count && !err; i++) {
		enum rk_sm_answer_change change = rk_sm_answer_change(before, &now->sms[i]);

		if (change == RK_SM_STOPPED_ANSWERING || change == RK_SM_NEW_AND_SILENT)
			err = answer_event(&now->sms[i], true, events);
		else if (change == RK_SM_ANSWERS_AGAIN)
			err = answer_event(&now->sms[i], false, events);
	}
	return err;
}

int events_track_sm(struct rk_event_tracker *tracker, const struct rk_sm_status *sm,
		    struct rk_event_list *events)
{
	struct rk_sm_status copy;
	int err = track_answers(&tracker->last_sm, sm, events);

	if (!err)
		err = track_master(tracker, sm, events);
	if (!err)
		err = rk_sm_status_copy(sm, &copy);
	if (err)
		return err;
	rk_sm_status_free(&tracker->last_sm);
	tracker->last_sm = copy;
	return 0;
}

void events_free_sm(struct rk_event_tracker *tracker)
{
	rk_sm_status_free(&tracker->last_sm);
}
