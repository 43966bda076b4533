/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Host mode: this host's ports and counters, read by the core every interval. */
#include "cd_host.h"

#include "cd_events.h"
#include "cd_plan.h"
#include "cd_submit.h"
#include "cd_values.h"

#include "rdmakit/sysfs.h"
#include "rdmakit/watch.h"

#include <sys/select.h>

struct cd_host {
	const struct cd_config *config;
	struct rk_host *host;
	struct cd_dev_plan *devs; /* one per host device, same index */
	size_t ndevs;
	struct rk_watch_host *watch;   /* the core's pass: rescan, refresh, events */
	struct rk_watch_events events; /* of the last read */
};

static bool matches_a_port(const struct rk_host *host, const struct cd_port_pattern *pattern)
{
	for (size_t d = 0; d < host->ndevices; d++) {
		const struct rk_device *dev = &host->devices[d];

		for (unsigned i = 0; i < dev->nports; i++) {
			char name[96];

			snprintf(name, sizeof(name), "%s:%u", dev->name, dev->ports[i].num);
			if (cd_ports_pattern_matches(pattern, name))
				return true;
		}
	}
	return false;
}

static void warn_unmatched_ports(const struct cd_host *h)
{
	const struct cd_ports *ports = &h->config->ports;

	for (size_t p = 0; p < ports->count; p++)
		if (!matches_a_port(h->host, &ports->items[p]))
			cd_log(LOG_WARNING, "Port \"%s\" matches no port under %s (yet)",
			       ports->items[p].text, h->config->sysfs_root);
}

/* Give every device the host found since the last call a plan. */
static int add_new_devices(struct cd_host *h, bool log_new)
{
	size_t count = h->host->ndevices;
	struct cd_dev_plan *grown;

	if (count <= h->ndevs)
		return 0;
	grown = realloc(h->devs, count * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	h->devs = grown;
	for (; h->ndevs < count; h->ndevs++) {
		struct rk_device *dev = &h->host->devices[h->ndevs];

		if (cd_plan_build(h->config, dev, &h->devs[h->ndevs]) != 0)
			cd_log(LOG_ERR, "%s: out of memory: not sent", dev->name);
		else if (log_new)
			cd_log(LOG_INFO, "%s: new device with %u port%s", dev->name, dev->nports,
			       dev->nports == 1 ? "" : "s");
	}
	return 0;
}

int cd_host_start(const struct cd_config *config, struct cd_host **out)
{
	struct cd_host *h = calloc(1, sizeof(*h));
	int err;

	if (!h)
		return -ENOMEM;
	h->config = config;
	/* Attributes above FD_SETSIZE: the sockets of collectd's plugins that select() (snmp,
	 * snmp_agent through net-snmp, ted, multimeter) stay where an fd_set holds them. */
	rk_sysfs_set_fd_floor(FD_SETSIZE);
	err = rk_watch_host_new(config->rescan, &h->watch);
	if (!err)
		err = rk_host_open(config->sysfs_root, &h->host);
	if (!err)
		err = add_new_devices(h, false);
	if (err) {
		cd_host_stop(h);
		return err;
	}
	if (h->host->ndevices == 0 && config->rescan > 0)
		cd_log(LOG_INFO, "no RDMA device under %s: looking again every %g s (Rescan)",
		       config->sysfs_root, config->rescan);
	else if (h->host->ndevices == 0)
		cd_log(LOG_INFO, "no RDMA device under %s: looking again at every read",
		       config->sysfs_root);
	warn_unmatched_ports(h);
	*out = h;
	return 0;
}

void cd_host_stop(struct cd_host *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->ndevs; i++)
		cd_plan_free(&h->devs[i]);
	free(h->devs);
	rk_watch_host_free(h->watch);
	rk_watch_events_free(&h->events);
	rk_host_close(h->host);
	free(h);
}

static void send_gauges(struct cd_batch *batch, const struct rk_port *port)
{
	size_t count;
	const struct cd_port_gauge *gauges = cd_port_gauges(&count);

	for (size_t i = 0; i < count; i++) {
		double value = gauges[i].value(port);

		if (value < 0)
			continue;
		batch->values[0].gauge = value;
		cd_batch_submit(batch, "gauge", gauges[i].type_instance, 1);
	}
}

static bool usable(const struct cd_item *item)
{
	for (unsigned k = 0; k < item->n; k++)
		if (item->counter[k]->state != RK_VALUE_OK)
			return false;
	return true;
}

static void send_items(struct cd_batch *batch, struct cd_items *items)
{
	for (size_t i = 0; i < items->count; i++) {
		struct cd_item *item = &items->items[i];

		if (!usable(item))
			continue;
		for (unsigned k = 0; k < item->n; k++) {
			if (item->gauge)
				batch->values[k].gauge = (gauge_t)item->counter[k]->value;
			else
				batch->values[k].derive = (derive_t)item->counter[k]->value;
		}
		cd_batch_submit(batch, item->type, item->type_instance, item->n);
	}
}

static void send_device(const struct rk_device *dev, struct cd_dev_plan *plan, cdtime_t now)
{
	struct cd_batch batch;

	for (unsigned i = 0; i < plan->nports; i++) {
		if (!plan->ports[i].selected)
			continue;
		cd_batch_begin(&batch, plan->ports[i].instance, now);
		send_gauges(&batch, &dev->ports[i]);
		send_items(&batch, &plan->ports[i].items);
	}
	if (plan->hw.count == 0)
		return;
	cd_batch_begin(&batch, dev->name, now);
	send_items(&batch, &plan->hw);
}

/* A device the core saw vanish or come back: its plan follows (it points into its counters). */
static void follow_device(struct cd_host *h, size_t i, const struct rk_event *event)
{
	struct rk_device *dev = &h->host->devices[i];
	struct cd_dev_plan *plan = &h->devs[i];

	if (event->kind == RK_EVENT_DEVICE_VANISHED)
		cd_plan_free(plan);
	else if (cd_plan_build(h->config, dev, plan) != 0) {
		cd_log(LOG_ERR, "%s: out of memory: not sent", dev->name);
		return;
	}
	cd_events_device(h->config->notifications, event);
}

static int port_index(const struct rk_device *dev, unsigned num)
{
	for (unsigned p = 0; p < dev->nports; p++)
		if (dev->ports[p].num == num)
			return (int)p;
	return -1;
}

/* A port or counter event of a device whose plan is built, if the plan sends what it is about. */
static void report_on_plan(struct cd_host *h, size_t i, const struct rk_event *event,
			   struct cd_note *note)
{
	const struct rk_device *dev = &h->host->devices[i];
	const struct cd_dev_plan *plan = &h->devs[i];
	int p = event->on_port ? port_index(dev, event->port) : -1;
	const struct rk_counter_set *set = &dev->hw_counters;
	const struct cd_items *items = &plan->hw;
	const char *instance = dev->name;
	const struct cd_item *item;

	if (event->on_port && (p < 0 || (unsigned)p >= plan->nports || !plan->ports[p].selected))
		return;
	if (event->kind == RK_EVENT_PORT_STATE) {
		cd_events_port(h->config->notifications, &plan->ports[p], event);
		return;
	}
	if (event->on_port) {
		set = event->source == RK_SRC_HW_COUNTERS ? &dev->ports[p].hw_counters
							  : &dev->ports[p].counters;
		items = &plan->ports[p].items;
		instance = plan->ports[p].instance;
	}
	item = cd_plan_item_of(items, rk_counter_set_find(set, event->counter));
	if (item)
		cd_events_counter(h->config->notifications, instance, item, event, note);
}

static void report_event(struct cd_host *h, const struct rk_event *event, struct cd_note *note)
{
	const struct rk_device *dev = rk_host_find_device(h->host, event->device);
	size_t i = dev ? (size_t)(dev - h->host->devices) : h->ndevs;

	if (event->kind == RK_EVENT_DEVICE_UNREADABLE || event->kind == RK_EVENT_DEVICE_READABLE) {
		cd_events_device(h->config->notifications, event); /* the core logged it */
		return;
	}
	if (i >= h->ndevs)
		return;
	if (event->kind == RK_EVENT_DEVICE_VANISHED || event->kind == RK_EVENT_DEVICE_BACK)
		follow_device(h, i, event);
	else if (h->devs[i].built)
		report_on_plan(h, i, event, note);
}

/* What changed since the last read, as the core's pass saw it; what it found at the first
 * read (at_start) is notified too. */
static void report_events(struct cd_host *h)
{
	const struct rk_event_list *events = &h->events.list;
	struct cd_note note = {0};

	for (size_t e = 0; e < events->count; e++)
		report_event(h, &events->items[e], &note);
	cd_events_flush_note(&note);
}

int cd_host_read(struct cd_host *h)
{
	cdtime_t now = cdtime();

	rk_watch_host_pass(h->watch, h->host, NULL, NULL, &h->events);
	if (add_new_devices(h, true) != 0)
		cd_log(LOG_ERR, "out of memory while adding devices");
	report_events(h);
	for (size_t i = 0; i < h->ndevs; i++)
		if (h->devs[i].built && !h->host->devices[i].vanished)
			send_device(&h->host->devices[i], &h->devs[i], now);
	return 0;
}
