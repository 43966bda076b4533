/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_host.h"

#include "cd_events.h"
#include "cd_plan.h"
#include "cd_submit.h"
#include "cd_values.h"

#include "rdmakit/clock.h"

/* Seconds between looks for new devices; a vanished one is looked for at every read. */
#define RESCAN_PERIOD 60.0

struct cd_host {
	const struct cd_config *config;
	struct rk_host *host;
	struct cd_dev_plan *devs; /* one per host device, same index */
	size_t ndevs;
	double last_rescan; /* monotonic seconds */
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
	h->last_rescan = rk_monotonic_seconds();
	err = rk_host_open(config->sysfs_root, &h->host);
	if (!err)
		err = add_new_devices(h, false);
	if (err) {
		cd_host_stop(h);
		return err;
	}
	if (h->host->ndevices == 0)
		cd_log(LOG_INFO, "no RDMA device under %s: looking again every %.0f s",
		       config->sysfs_root, RESCAN_PERIOD);
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
	rk_host_close(h->host);
	free(h);
}

/* Follow a device that vanished (its counters are closed) or came back (new counters). */
static void sync_device(struct cd_host *h, size_t i)
{
	struct rk_device *dev = &h->host->devices[i];
	struct cd_dev_plan *plan = &h->devs[i];

	if (dev->vanished && !plan->vanished) {
		cd_plan_free(plan);
		plan->vanished = true;
		cd_events_device(h->config->notifications, dev->name, true);
	} else if (!dev->vanished && plan->vanished) {
		if (cd_plan_build(h->config, dev, plan) == 0)
			cd_events_device(h->config->notifications, dev->name, false);
		else
			cd_log(LOG_ERR, "%s: out of memory: not sent", dev->name);
	}
}

static void maybe_rescan(struct cd_host *h)
{
	double now = rk_monotonic_seconds();
	bool vanished = false;

	for (size_t i = 0; i < h->ndevs && !vanished; i++)
		vanished = h->devs[i].vanished;
	if (!vanished && now - h->last_rescan < RESCAN_PERIOD)
		return;
	h->last_rescan = now;
	if (rk_host_rescan(h->host) == 0 && add_new_devices(h, true) != 0)
		cd_log(LOG_ERR, "out of memory while adding devices");
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

/* Report what changed about the item's counters; true when every one can be sent. */
static bool check_item(const struct cd_config *config, const char *subject, const char *instance,
		       struct cd_item *item, struct cd_note *note)
{
	bool usable = true;

	for (unsigned k = 0; k < item->n; k++) {
		const struct rk_counter *counter = item->counter[k];

		if (counter->state != item->reported[k])
			cd_events_counter(config->notifications, subject, instance, item, k, note);
		if (config->notifications && counter->metric->is_error && counter->has_delta)
			cd_events_rising(subject, instance, item, k);
		usable = usable && counter->state == RK_VALUE_OK;
	}
	return usable;
}

static void send_items(const struct cd_config *config, struct cd_batch *batch, const char *subject,
		       struct cd_items *items)
{
	struct cd_note note = {0};

	for (size_t i = 0; i < items->count; i++) {
		struct cd_item *item = &items->items[i];

		if (!check_item(config, subject, batch->vl.plugin_instance, item, &note))
			continue;
		for (unsigned k = 0; k < item->n; k++) {
			if (item->gauge)
				batch->values[k].gauge = (gauge_t)item->counter[k]->value;
			else
				batch->values[k].derive = (derive_t)item->counter[k]->value;
		}
		cd_batch_submit(batch, item->type, item->type_instance, item->n);
	}
	cd_events_flush_note(subject, &note);
}

static void send_port(const struct cd_config *config, struct cd_port_plan *plan,
		      const struct rk_port *port, cdtime_t now)
{
	struct cd_batch batch;

	if (!plan->seen || port->state != plan->last_state || port->phys_state != plan->last_phys)
		cd_events_port(config->notifications, plan, port);
	cd_batch_begin(&batch, plan->instance, now);
	send_gauges(&batch, port);
	send_items(config, &batch, plan->name, &plan->items);
}

static void send_device(const struct cd_config *config, const struct rk_device *dev,
			struct cd_dev_plan *plan, cdtime_t now)
{
	struct cd_batch batch;

	for (unsigned i = 0; i < plan->nports; i++)
		if (plan->ports[i].selected)
			send_port(config, &plan->ports[i], &dev->ports[i], now);
	if (plan->hw.count == 0)
		return;
	cd_batch_begin(&batch, dev->name, now);
	send_items(config, &batch, dev->name, &plan->hw);
}

int cd_host_read(struct cd_host *h)
{
	cdtime_t now = cdtime();

	maybe_rescan(h);
	rk_host_refresh(h->host);
	for (size_t i = 0; i < h->ndevs; i++) {
		sync_device(h, i);
		if (h->devs[i].built)
			send_device(h->config, &h->host->devices[i], &h->devs[i], now);
	}
	return 0;
}
