/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Host events: devices that vanish and return, port states, counter states, rising errors. */
#include "events_internal.h"

#include "rdmakit/array.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a host event is about: the subject's names. */
struct about {
	const char *device;
	bool on_port; /* else the device's own counters or presence */
	unsigned port;
	const char *subject;
	enum rk_source source; /* of the counters being followed */
};

static struct rk_event *host_event(struct rk_event_list *events, enum rk_event_kind kind,
				   enum rk_severity severity, const struct about *about)
{
	struct rk_event *event = event_append(events, kind, RK_DOMAIN_HOST, severity);

	if (!event)
		return NULL;
	snprintf(event->device, sizeof(event->device), "%s", about->device);
	if (about->on_port)
		snprintf(event->subject, sizeof(event->subject), "%s:%u", about->device,
			 about->port);
	else
		snprintf(event->subject, sizeof(event->subject), "%s", about->device);
	event->on_port = about->on_port;
	event->port = about->port;
	return event;
}

/* A bounded copy without printf's cost (a first read names hundreds of counters). */
static void copy_name(char *buf, size_t size, const char *name)
{
	size_t len = strnlen(name, size - 1);

	memcpy(buf, name, len);
	buf[len] = '\0';
}

/* The counter of that source and name in tracks (looked for at hint first), added when new;
 * fresh: the set is followed for the first time, so every name is new. */
static struct counter_track *counter_track_of(struct counter_tracks *tracks, size_t hint, bool hw,
					      const char *name, bool fresh)
{
	struct counter_track *items, *track;

	if (hint < tracks->count && tracks->items[hint].hw == hw &&
	    strcmp(tracks->items[hint].name, name) == 0)
		return &tracks->items[hint];
	for (size_t i = 0; !fresh && i < tracks->count; i++)
		if (tracks->items[i].hw == hw && strcmp(tracks->items[i].name, name) == 0)
			return &tracks->items[i];
	items = rk_array_room(tracks->items, &tracks->capacity, tracks->count, sizeof(*items), 32);
	if (!items)
		return NULL;
	tracks->items = items;
	track = &tracks->items[tracks->count++];
	memset(track, 0, sizeof(*track));
	copy_name(track->name, sizeof(track->name), name);
	track->hw = hw;
	track->state = RK_VALUE_OK;
	return track;
}

static struct rk_event *counter_event(struct rk_event_list *events, enum rk_event_kind kind,
				      enum rk_severity severity, const struct about *about,
				      const struct rk_counter *counter)
{
	struct rk_event *event = host_event(events, kind, severity, about);

	if (!event)
		return NULL;
	snprintf(event->counter, sizeof(event->counter), "%s", counter->name);
	event->source = about->source;
	event->unit = counter->metric->unit;
	event->now.known = true;
	event->now.number = (int64_t)counter->raw;
	return event;
}

/* The counter's state differs from the one last seen. */
static int state_event(struct rk_event_list *events, const struct about *about,
		       const struct rk_counter *counter)
{
	const char *name = counter->name;
	struct rk_event *event;

	if (counter->state == RK_VALUE_UNAVAILABLE) {
		event = counter_event(events, RK_EVENT_COUNTER_UNAVAILABLE, RK_SEVERITY_OK, about,
				      counter);
		if (event) {
			event->now.known = false;
			event_message(event, "%s: %s is unavailable (no PMA, or not a number)",
				      event->subject, name);
		}
	} else if (counter->state == RK_VALUE_OK) {
		event = counter_event(events, RK_EVENT_COUNTER_COUNTS_AGAIN, RK_SEVERITY_OK, about,
				      counter);
		if (event)
			event_message(event, "%s: %s counts again (%" PRIu64 ")", event->subject,
				      name, counter->raw);
	} else {
		event = counter_event(events, RK_EVENT_COUNTER_SATURATED, RK_SEVERITY_WARNING,
				      about, counter);
		if (event)
			event_message(event,
				      "%s: %s is stuck at %" PRIu64 ", its register's maximum",
				      event->subject, name, counter->raw);
	}
	return event ? 0 : -ENOMEM;
}

/* An error counter that starts or stops rising between the last two samples. */
static int rising_event(struct rk_event_list *events, const struct about *about,
			const struct rk_counter *counter)
{
	bool rising = counter->delta > 0;
	struct rk_event *event =
	    counter_event(events, rising ? RK_EVENT_ERRORS_RISING : RK_EVENT_ERRORS_STOPPED,
			  rising ? RK_SEVERITY_WARNING : RK_SEVERITY_OK, about, counter);

	if (!event)
		return -ENOMEM;
	event->now.number = (int64_t)counter->value;
	event->now.detail = (int64_t)counter->delta;
	if (rising)
		event_message(event, "%s: %s is rising: +%" PRIu64 " to %" PRIu64 " %s",
			      event->subject, counter->name, counter->delta, counter->value,
			      counter->metric->unit);
	else
		event_message(event, "%s: %s stopped rising at %" PRIu64 " %s", event->subject,
			      counter->name, counter->value, counter->metric->unit);
	return 0;
}

static int track_counter(struct counter_track *track, const struct rk_counter *counter,
			 const struct about *about, struct rk_event_list *events)
{
	int err = 0;

	if (counter->state != track->state)
		err = state_event(events, about, counter);
	if (err)
		return err;
	track->state = (uint8_t)counter->state;
	if (!counter->metric->is_error || !counter->has_delta ||
	    (counter->delta > 0) == track->rising)
		return 0;
	err = rising_event(events, about, counter);
	if (!err)
		track->rising = counter->delta > 0;
	return err;
}

/* Follow every counter of set; base: where the set's first counter was added to tracks. */
static int track_set(struct counter_tracks *tracks, size_t base, const struct rk_counter_set *set,
		     bool hw, const struct about *about, struct rk_event_list *events)
{
	struct about of_set = *about;
	bool fresh = tracks->count == base; /* the entries there are the sets' before this one */

	of_set.source = hw ? RK_SRC_HW_COUNTERS : RK_SRC_PORT_COUNTERS;
	for (size_t i = 0; i < set->count; i++) {
		struct counter_track *track =
		    counter_track_of(tracks, base + i, hw, set->items[i].name, fresh);
		int err = track ? track_counter(track, &set->items[i], &of_set, events) : -ENOMEM;

		if (err)
			return err;
	}
	return 0;
}

static void state_text(const struct rk_port *port, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", port->state < 0 ? "unknown" : port->state_name,
		 port->phys_state < 0 ? "unknown" : port->phys_state_name);
}

static enum rk_severity state_severity(int state)
{
	if (state == RK_PORT_ACTIVE)
		return RK_SEVERITY_OK;
	return state == RK_PORT_DOWN || state < 0 ? RK_SEVERITY_CRITICAL : RK_SEVERITY_WARNING;
}

static int port_state_event(struct port_track *track, const struct rk_port *port,
			    const struct about *about, struct rk_event_list *events)
{
	struct rk_event *event =
	    host_event(events, RK_EVENT_PORT_STATE, state_severity(port->state), about);

	if (!event)
		return -ENOMEM;
	event->old =
	    (struct rk_event_value){.known = true, .number = track->state, .detail = track->phys};
	snprintf(event->old.text, sizeof(event->old.text), "%s", track->text);
	event->now = (struct rk_event_value){
	    .known = true, .number = port->state, .detail = port->phys_state};
	state_text(port, event->now.text, sizeof(event->now.text));
	event_message(event, "%s: port is %s, was %s", event->subject, event->now.text,
		      event->old.text);
	return 0;
}

static int track_port_state(struct port_track *track, const struct rk_port *port,
			    const struct about *about, struct rk_event_list *events)
{
	bool changed = track->state != port->state || track->phys != port->phys_state;
	int err = 0;

	if (track->seen && !changed)
		return 0;
	if (track->seen)
		err = port_state_event(track, port, about, events);
	if (err)
		return err;
	track->seen = true;
	track->state = port->state;
	track->phys = port->phys_state;
	state_text(port, track->text, sizeof(track->text));
	return 0;
}

static struct port_track *port_track_of(struct device_track *dev, unsigned num)
{
	struct port_track *grown;

	for (size_t i = 0; i < dev->nports; i++)
		if (dev->ports[i].num == num)
			return &dev->ports[i];
	grown = realloc(dev->ports, (dev->nports + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	dev->ports = grown;
	memset(&grown[dev->nports], 0, sizeof(*grown));
	grown[dev->nports].num = num;
	return &grown[dev->nports++];
}

static int track_port(struct device_track *dev_track, const struct rk_device *dev,
		      const struct rk_port *port, struct rk_event_list *events)
{
	struct port_track *track = port_track_of(dev_track, port->num);
	const struct about about = {.device = dev->name, .on_port = true, .port = port->num};
	int err;

	if (!track)
		return -ENOMEM;
	err = track_port_state(track, port, &about, events);
	if (!err)
		err = track_set(&track->counters, 0, &port->counters, false, &about, events);
	if (!err)
		err = track_set(&track->counters, port->counters.count, &port->hw_counters, true,
				&about, events);
	return err;
}

static struct device_track *device_track_of(struct rk_event_tracker *tracker, const char *name,
					    bool *is_new)
{
	struct device_track *grown;

	*is_new = false;
	for (size_t i = 0; i < tracker->ndevices; i++)
		if (strcmp(tracker->devices[i].name, name) == 0)
			return &tracker->devices[i];
	grown = realloc(tracker->devices, (tracker->ndevices + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	tracker->devices = grown;
	memset(&grown[tracker->ndevices], 0, sizeof(*grown));
	snprintf(grown[tracker->ndevices].name, sizeof(grown->name), "%s", name);
	*is_new = true;
	return &grown[tracker->ndevices++];
}

/* An event when the device vanished (also before the first call) or came back since the last. */
static int track_presence(struct device_track *track, const struct rk_device *dev, bool is_new,
			  struct rk_event_list *events)
{
	const struct about about = {.device = dev->name};
	struct rk_event *event;

	if (is_new ? !dev->vanished : dev->vanished == track->vanished) {
		track->vanished = dev->vanished;
		return 0;
	}
	event = host_event(events, dev->vanished ? RK_EVENT_DEVICE_VANISHED : RK_EVENT_DEVICE_BACK,
			   dev->vanished ? RK_SEVERITY_CRITICAL : RK_SEVERITY_OK, &about);
	if (!event)
		return -ENOMEM;
	event_message(event, dev->vanished ? "%s vanished" : "%s is back", dev->name);
	track->vanished = dev->vanished;
	return 0;
}

static int track_device(struct rk_event_tracker *tracker, const struct rk_device *dev,
			struct rk_event_list *events)
{
	bool is_new;
	struct device_track *track = device_track_of(tracker, dev->name, &is_new);
	const struct about about = {.device = dev->name};
	int err;

	if (!track)
		return -ENOMEM;
	err = track_presence(track, dev, is_new, events);
	if (err || dev->vanished)
		return err;
	for (unsigned p = 0; p < dev->nports && !err; p++)
		err = track_port(track, dev, &dev->ports[p], events);
	if (!err)
		err = track_set(&track->hw, 0, &dev->hw_counters, true, &about, events);
	return err;
}

static bool was_unreadable(const struct unreadable_names *names, const char *name)
{
	for (size_t i = 0; i < names->count; i++)
		if (strcmp(names->items[i], name) == 0)
			return true;
	return false;
}

static bool is_unreadable(const struct rk_host *host, const char *name)
{
	for (size_t i = 0; i < host->nunreadable; i++)
		if (strcmp(host->unreadable[i].name, name) == 0)
			return true;
	return false;
}

static int unreadable_event(struct rk_event_list *events, const struct rk_host *host,
			    const struct rk_unreadable_device *dev)
{
	const struct about about = {.device = dev->name};
	struct rk_event *event =
	    host_event(events, RK_EVENT_DEVICE_UNREADABLE, RK_SEVERITY_WARNING, &about);

	if (!event)
		return -ENOMEM;
	event_message(event, "%s could not be read (%s/%s: %s): its values are not sent", dev->name,
		      rk_sysfs_root(host->fs), dev->path, rk_sysfs_error(dev->err));
	return 0;
}

static bool has_device(const struct rk_host *host, const char *name)
{
	for (size_t i = 0; i < host->ndevices; i++)
		if (strcmp(host->devices[i].name, name) == 0)
			return true;
	return false;
}

static int readable_event(struct rk_event_list *events, const struct rk_host *host,
			  const char *name)
{
	const struct about about = {.device = name};
	bool listed = has_device(host, name);
	struct rk_event *event =
	    host_event(events, RK_EVENT_DEVICE_READABLE, RK_SEVERITY_OK, &about);

	if (!event)
		return -ENOMEM;
	event_message(event, listed ? "%s can be read again" : "%s is no longer listed", name);
	return 0;
}

/* One event when a device becomes unreadable (also before the first call), one when that ends;
 * the names are kept for the next call. */
static int track_unreadable(struct unreadable_names *names, const struct rk_host *host,
			    struct rk_event_list *events)
{
	char(*now)[96];
	int err;

	if (names->count == 0 && host->nunreadable == 0)
		return 0; /* the usual case: every device read, then and now */
	now = calloc(host->nunreadable ? host->nunreadable : 1, sizeof(*now));
	err = now ? 0 : -ENOMEM;

	for (size_t i = 0; i < names->count && !err; i++)
		if (!is_unreadable(host, names->items[i]))
			err = readable_event(events, host, names->items[i]);
	for (size_t i = 0; i < host->nunreadable && !err; i++) {
		if (!was_unreadable(names, host->unreadable[i].name))
			err = unreadable_event(events, host, &host->unreadable[i]);
		snprintf(now[i], sizeof(now[i]), "%s", host->unreadable[i].name);
	}
	if (err) {
		free(now);
		return err;
	}
	free(names->items);
	names->items = now;
	names->count = host->nunreadable;
	return 0;
}

int events_track_host(struct rk_event_tracker *tracker, const struct rk_host *host,
		      struct rk_event_list *events)
{
	int err = track_unreadable(&tracker->unreadable, host, events);

	for (size_t d = 0; d < host->ndevices && !err; d++)
		err = track_device(tracker, &host->devices[d], events);
	return err;
}

void events_free_host(struct rk_event_tracker *tracker)
{
	for (size_t d = 0; d < tracker->ndevices; d++) {
		struct device_track *dev = &tracker->devices[d];

		for (size_t p = 0; p < dev->nports; p++)
			free(dev->ports[p].counters.items);
		free(dev->ports);
		free(dev->hw.items);
	}
	free(tracker->devices);
	tracker->devices = NULL;
	tracker->ndevices = 0;
	free(tracker->unreadable.items);
	tracker->unreadable = (struct unreadable_names){0};
}
