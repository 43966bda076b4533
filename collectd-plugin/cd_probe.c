/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_probe.h"

#include "cd_findings.h"
#include "cd_submit.h"

#include "rdmakit/verbs.h"

struct cd_probe {
	const struct cd_config *config;
	struct rk_host *host;		  /* the probe's own view: reads run in their own threads */
	struct rk_findings findings;	  /* of the last read */
	struct rk_event_tracker *tracker; /* ... and of the one before */
	struct rk_event_list events;
};

int cd_probe_start(const struct cd_config *config, struct cd_probe **out)
{
	struct cd_probe *p = calloc(1, sizeof(*p));
	int err;

	if (!p)
		return -ENOMEM;
	p->config = config;
	err = rk_event_tracker_new(&p->tracker);
	if (!err)
		err = rk_host_open(config->sysfs_root, &p->host);
	if (err) {
		cd_probe_stop(p);
		return err;
	}
	*out = p;
	return 0;
}

void cd_probe_stop(struct cd_probe *p)
{
	if (!p)
		return;
	rk_findings_free(&p->findings);
	rk_event_list_free(&p->events);
	rk_event_tracker_free(p->tracker);
	rk_host_close(p->host);
	free(p);
}

/* "mlx5_0-1" for the port a finding's subject "mlx5_0:1" names. */
static void instance_of(const char *subject, char *instance, size_t size)
{
	char *colon;

	snprintf(instance, size, "%.*s", (int)size - 1, subject);
	colon = strrchr(instance, ':');
	if (colon)
		*colon = '-';
}

/* The pass (1) or fail (0) gauge and, when it passed, the round trip in seconds. */
static void send_outcome(const struct rk_probe_outcome *outcome)
{
	struct cd_batch batch;
	char instance[96];

	if (outcome->status != 0)
		return;
	snprintf(instance, sizeof(instance), "%s-%u", outcome->device, outcome->port);
	cd_batch_begin(&batch, instance, cdtime());
	batch.values[0].gauge = outcome->result.passed ? 1 : 0;
	cd_batch_submit(&batch, "gauge", CD_PROBE_PASSED, 1);
	if (!outcome->result.passed)
		return;
	batch.values[0].gauge = outcome->result.rtt_seconds;
	cd_batch_submit(&batch, "duration", CD_PROBE_RTT, 1);
}

static void probe_port(struct cd_probe *p, const char *device, unsigned port)
{
	struct rk_probe_outcome outcome;

	rk_probe_port(device, port, RK_PROBE_DAEMON_TIMEOUT_S, &outcome);
	send_outcome(&outcome);
	if (rk_probe_finding(&outcome, &p->findings) != 0)
		cd_log(LOG_ERR, "out of memory: the probe of %s:%u is not reported", device, port);
}

/* No ProbeDevice: every ACTIVE port that Port and IgnoreSelected keep. */
static void probe_active_ports(struct cd_probe *p)
{
	for (size_t d = 0; d < p->host->ndevices; d++) {
		const struct rk_device *dev = &p->host->devices[d];

		for (unsigned i = 0; i < dev->nports; i++)
			if (rk_probe_wanted(dev, &dev->ports[i]) &&
			    cd_ports_selected(&p->config->ports, dev->name, dev->ports[i].num))
				probe_port(p, dev->name, dev->ports[i].num);
	}
}

/* A ProbeDevice entry: the port named, or every port of the device, whatever its state. */
static void probe_target(struct cd_probe *p, const struct cd_probe_target *target)
{
	const struct rk_device *dev = rk_host_find_device(p->host, target->device);

	if (target->port || !dev) {
		probe_port(p, target->device, target->port ? target->port : 1);
		return;
	}
	for (unsigned i = 0; i < dev->nports; i++)
		probe_port(p, dev->name, dev->ports[i].num);
}

/* Each finding that appeared or cleared since the last read, once, under its port. */
static void report(struct cd_probe *p)
{
	const struct rk_event_views views = {.host_findings = &p->findings};
	char instance[DATA_MAX_NAME_LEN];

	rk_event_list_clear(&p->events);
	if (rk_events_track(p->tracker, &views, &p->events) != 0) {
		cd_log(LOG_ERR, "out of memory: probe findings not reported");
		return;
	}
	for (size_t i = 0; i < p->events.count; i++) {
		const struct rk_event *event = &p->events.items[i];

		if (!event->is_finding)
			continue;
		instance_of(event->finding.subject, instance, sizeof(instance));
		cd_findings_report(CD_VALUES_PLUGIN, instance, event, p->config->notifications);
	}
}

int cd_probe_read(struct cd_probe *p)
{
	const struct cd_probe_config *probe = &p->config->probe;

	if (rk_host_rescan(p->host) != 0 || rk_host_refresh(p->host) != 0)
		cd_log(LOG_WARNING, "probe: reading the ports' states under %s failed",
		       p->config->sysfs_root);
	rk_findings_free(&p->findings);
	if (probe->ntargets == 0)
		probe_active_ports(p);
	for (size_t t = 0; t < probe->ntargets; t++)
		probe_target(p, &probe->targets[t]);
	report(p);
	return 0;
}
