/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_events.h"

#include "cd_submit.h"

/* Names that do not fit are counted as "and N more". */
static void note_add(struct cd_note *note, const char *name)
{
	size_t room = sizeof(note->names) - note->len;
	int len = snprintf(note->names + note->len, room, "%s%s", note->len ? ", " : "", name);

	note->count++;
	if (len > 0 && (size_t)len < room)
		note->len += (size_t)len;
	else
		note->more++;
	note->names[note->len] = '\0';
}

void cd_events_flush_note(const char *subject, struct cd_note *note)
{
	char more[32] = "";

	if (note->count == 0)
		return;
	if (note->more)
		snprintf(more, sizeof(more), " and %u more", note->more);
	cd_log(LOG_INFO, "%s: %u counter%s unavailable (no PMA, or not a number), not sent: %s%s",
	       subject, note->count, note->count > 1 ? "s" : "", note->names, more);
	*note = (struct cd_note){0};
}

void cd_events_counter(bool notify, const char *subject, const char *instance, struct cd_item *item,
		       unsigned k, struct cd_note *unavailable)
{
	const struct rk_counter *counter = item->counter[k];

	item->reported[k] = (uint8_t)counter->state;
	if (counter->state == RK_VALUE_UNAVAILABLE) {
		note_add(unavailable, counter->name);
		return;
	}
	if (counter->state == RK_VALUE_OK) {
		cd_log(LOG_INFO, "%s: %s counts again (%" PRIu64 "), sent again", subject,
		       counter->name, counter->raw);
		return;
	}
	cd_log(LOG_WARNING,
	       "%s: %s is stuck at %" PRIu64 ", its register's maximum: not sent until the "
	       "counter is cleared",
	       subject, counter->name, counter->raw);
	if (notify)
		cd_notify(NOTIF_WARNING, instance, item->type, item->type_instance,
			  "%s: %s is saturated at %" PRIu64 " and no longer counts", subject,
			  counter->name, counter->raw);
}

void cd_events_rising(const char *subject, const char *instance, struct cd_item *item, unsigned k)
{
	const struct rk_counter *counter = item->counter[k];
	bool rising = counter->delta > 0;

	if (rising == item->rising[k])
		return;
	item->rising[k] = rising;
	if (rising)
		cd_notify(NOTIF_WARNING, instance, item->type, item->type_instance,
			  "%s: %s is rising: +%" PRIu64 " to %" PRIu64 " %s", subject,
			  counter->name, counter->delta, counter->value, counter->metric->unit);
	else
		cd_notify(NOTIF_OKAY, instance, item->type, item->type_instance,
			  "%s: %s stopped rising at %" PRIu64 " %s", subject, counter->name,
			  counter->value, counter->metric->unit);
}

static int state_severity(int state)
{
	if (state == RK_PORT_ACTIVE)
		return NOTIF_OKAY;
	return state == RK_PORT_DOWN || state < 0 ? NOTIF_FAILURE : NOTIF_WARNING;
}

static void remember_port(struct cd_port_plan *plan, const struct rk_port *port)
{
	plan->seen = true;
	plan->last_state = port->state;
	plan->last_phys = port->phys_state;
	snprintf(plan->last_state_name, sizeof(plan->last_state_name), "%s",
		 port->state < 0 ? "unknown" : port->state_name);
	snprintf(plan->last_phys_name, sizeof(plan->last_phys_name), "%s",
		 port->phys_state < 0 ? "unknown" : port->phys_state_name);
}

void cd_events_port(bool notify, struct cd_port_plan *plan, const struct rk_port *port)
{
	char was_state[sizeof(plan->last_state_name)], was_phys[sizeof(plan->last_phys_name)];
	bool first = !plan->seen;

	memcpy(was_state, plan->last_state_name, sizeof(was_state));
	memcpy(was_phys, plan->last_phys_name, sizeof(was_phys));
	remember_port(plan, port);
	if (first)
		return;
	cd_log(LOG_INFO, "%s: port is %s/%s, was %s/%s", plan->name, plan->last_state_name,
	       plan->last_phys_name, was_state, was_phys);
	if (notify)
		cd_notify(state_severity(port->state), plan->instance, "gauge", "state",
			  "%s: port is %s/%s, was %s/%s", plan->name, plan->last_state_name,
			  plan->last_phys_name, was_state, was_phys);
}

void cd_events_device(bool notify, const char *device, bool vanished)
{
	if (!notify)
		return;
	if (vanished)
		cd_notify(NOTIF_FAILURE, device, "", "",
			  "%s vanished: its values are not sent until it is back", device);
	else
		cd_notify(NOTIF_OKAY, device, "", "", "%s is back: its values are sent again",
			  device);
}
