/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Probe mode: the watch engine's loopback probe, its outcome as values and findings. */
#include "cd_probe.h"

#include "cd_findings.h"
#include "cd_mon.h"
#include "cd_submit.h"

#include "rdmakit/verbs.h"

struct cd_probe {
	struct rk_watch *watch; /* its probe job probes, at ProbeInterval */
	const struct cd_config *config;
	unsigned long sent;	       /* the rounds whose values were sent */
	struct rk_watch_events events; /* of the last read */
};

int cd_probe_start(struct rk_watch *watch, const struct cd_config *config, struct cd_probe **out)
{
	struct cd_probe *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->watch = watch;
	p->config = config;
	*out = p;
	return 0;
}

cdtime_t cd_probe_read_interval(const struct cd_config *config)
{
	return DOUBLE_TO_CDTIME_T(config->probe.interval / CD_MON_READS_PER_PASS);
}

void cd_probe_stop(struct cd_probe *p)
{
	if (!p)
		return;
	rk_watch_events_free(&p->events);
	free(p);
}

/* The pass (1) or fail (0) gauge and, when it passed, the round trip in seconds. */
/* The outcome of a round, stamped when the round ended and sent every ProbeInterval. */
static void send_outcome(const struct rk_probe_outcome *outcome, cdtime_t at, cdtime_t interval)
{
	struct cd_batch batch;
	char instance[96];

	if (outcome->status != 0)
		return;
	snprintf(instance, sizeof(instance), "%s-%u", outcome->device, outcome->port);
	cd_batch_begin_plugin(&batch, CD_VALUES_PLUGIN, instance, at, interval);
	batch.values[0].gauge = outcome->result.passed ? 1 : 0;
	cd_batch_submit(&batch, "gauge", CD_PROBE_PASSED, 1);
	if (!outcome->result.passed)
		return;
	batch.values[0].gauge = outcome->result.rtt_seconds;
	cd_batch_submit(&batch, "duration", CD_PROBE_RTT, 1);
}

/* No ProbeDevice: every ACTIVE port that Port and IgnoreSelected keep. */
static int choose_active_ports(const struct cd_config *config, const struct rk_host *host,
			       struct rk_watch_probes *round)
{
	int err = 0;

	for (size_t d = 0; d < host->ndevices && !err; d++) {
		const struct rk_device *dev = &host->devices[d];

		for (unsigned i = 0; i < dev->nports && !err; i++)
			if (rk_probe_wanted(dev, &dev->ports[i]) &&
			    cd_ports_selected(&config->ports, dev->name, dev->ports[i].num))
				err = rk_watch_probe_add(round, dev->name, dev->ports[i].num);
	}
	return err;
}

/* A ProbeDevice entry: the port named, or every port of the device, whatever its state. */
static int choose_target(const struct rk_host *host, const struct cd_probe_target *target,
			 struct rk_watch_probes *round)
{
	const struct rk_device *dev = rk_host_find_device((struct rk_host *)host, target->device);
	int err = 0;

	if (target->port || !dev)
		return rk_watch_probe_add(round, target->device, target->port ? target->port : 1);
	for (unsigned i = 0; i < dev->nports && !err; i++)
		err = rk_watch_probe_add(round, dev->name, dev->ports[i].num);
	return err;
}

int cd_probe_choose(const void *arg, const struct rk_host *host, struct rk_watch_probes *round)
{
	const struct cd_config *config = arg;
	const struct cd_probe_config *probe = &config->probe;
	int err = probe->ntargets == 0 ? choose_active_ports(config, host, round) : 0;

	for (size_t t = 0; t < probe->ntargets && !err; t++)
		err = choose_target(host, &probe->targets[t], round);
	return err;
}

/* Each finding that appeared or cleared since the last read, once, under its port; what the
 * first round found too. */
static void report(struct cd_probe *p)
{
	char instance[DATA_MAX_NAME_LEN];

	for (size_t i = 0; i < p->events.list.count; i++) {
		const struct rk_event *event = &p->events.list.items[i];

		if (!event->is_finding)
			continue;
		snprintf(instance, sizeof(instance), "%s-%d", event->finding.device,
			 event->finding.port);
		cd_findings_report(CD_VALUES_PLUGIN, instance, event, p->config->notifications);
	}
}

int cd_probe_read(struct cd_probe *p)
{
	struct rk_watch_snapshot *snap = rk_watch_take(p->watch, RK_WATCH_PROBE, &p->events);

	if (snap && snap->passes[RK_WATCH_PROBE] != p->sent) {
		p->sent = snap->passes[RK_WATCH_PROBE];
		for (size_t i = 0; i < snap->probes.count; i++)
			send_outcome(&snap->probes.items[i], DOUBLE_TO_CDTIME_T(snap->probed_at),
				     DOUBLE_TO_CDTIME_T(p->config->probe.interval));
	}
	rk_watch_release(snap);
	report(p);
	return 0;
}
