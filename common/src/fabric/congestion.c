/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/congestion.h"

#include "rdmakit/catalog.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define MELLANOX_VENDOR 0x02c9

const char *rk_wait_basis_name(enum rk_wait_basis basis)
{
	static const char *const names[] = {[RK_WAIT_NONE] = "none",
					    [RK_WAIT_SATURATED] = "saturated",
					    [RK_WAIT_TIME] = "time",
					    [RK_WAIT_PER_DATA] = "per_data"};

	return basis <= RK_WAIT_PER_DATA ? names[basis] : "none";
}

double rk_xmit_wait_tick_ns(unsigned symbols, enum rk_speed speed)
{
	double gbps = rk_speed_info(speed)->data_gbps;

	return symbols && gbps > 0 ? symbols * 8.0 / gbps : 0;
}

double rk_lost_bandwidth_gbps(uint64_t ticks, double tick_ns, double seconds, double link_gbps)
{
	double share;

	if (!(tick_ns > 0) || !(seconds > 0) || !(link_gbps > 0))
		return -1;
	share = (double)ticks * tick_ns * 1e-9 / seconds;
	return (share < 1 ? share : 1) * link_gbps;
}

static double threshold_of(const struct rk_congestion_options *options)
{
	return options && options->threshold > 0 ? options->threshold
						 : RK_CONGESTION_THRESHOLD_DEFAULT;
}

/* NVIDIA's Quantum switches (Quantum, -2, -3, -3CPO: their PCI device ids, pci.ids) count a
 * tick of (Tick + 1) bytes of the whole port, not of one lane as the IBTA defines it (ibdiagnet
 * manual 2.13, "Congestion Assessment on InfiniBand Links"). */
static bool tick_spans_the_port(const struct rk_fabric_node *node)
{
	static const uint32_t quantum[] = {0xd2f0, 0xd2f2, 0xd2f4, 0xd2f6};

	for (size_t i = 0;
	     node->vendor_id == MELLANOX_VENDOR && i < sizeof(quantum) / sizeof(*quantum); i++)
		if (node->device_id == quantum[i])
			return true;
	return false;
}

/* One tick of the port in ns: the option's, else its node's PortSamplesControl at the link's
 * speed (and width, where the tick spans the port); 0 unknown. */
static double tick_of(const struct rk_fabric *fabric, const struct rk_sweep_port *p,
		      const struct rk_congestion_options *options)
{
	const struct rk_fabric_node *node = &fabric->nodes[p->node];
	const struct rk_fabric_port *port;
	double tick;

	if (options && options->tick_ns > 0)
		return options->tick_ns;
	if (p->port > node->nports)
		return 0;
	port = &node->ports[p->port];
	tick = rk_xmit_wait_tick_ns(node->pm_tick, port->active_speed);
	if (tick_spans_the_port(node))
		return port->active_width > 0 ? tick / port->active_width : 0;
	return tick;
}

/* The share of the interval (tick known) or the ticks per word sent, and their score. */
static void measure(struct rk_port_wait *w, uint64_t data_bytes, bool data_known, double interval,
		    double threshold)
{
	double words = (double)data_bytes / 4;

	w->per_word = data_known ? (double)w->ticks / (words > 0 ? words : 1) : -1;
	if (w->tick_ns > 0) {
		w->basis = RK_WAIT_TIME;
		w->percent = 100.0 * (double)w->ticks * w->tick_ns * 1e-9 / interval;
		w->score = w->percent / threshold;
	} else if (data_known) {
		w->basis = RK_WAIT_PER_DATA;
		w->score =
		    w->ticks < RK_CONGESTION_NOISE_TICKS ? 0 : w->per_word / RK_CONGESTION_PER_WORD;
	}
}

void rk_port_wait_of(const struct rk_fabric *fabric, const struct rk_sweep *sweep, size_t index,
		     const struct rk_congestion_options *options, struct rk_port_wait *out)
{
	const struct rk_sweep_port *p = &sweep->ports[index];
	size_t wait = (size_t)rk_catalog_pma_index("port_xmit_wait");
	size_t data = (size_t)rk_catalog_pma_index("port_xmit_data");
	bool data_known = rk_sweep_delta_known(p, data);

	*out = (struct rk_port_wait){.index = index,
				     .basis = RK_WAIT_NONE,
				     .percent = -1,
				     .lost_gbps = -1,
				     .per_word = -1,
				     .score = -1};
	out->data_rate = data_known && sweep->interval > 0
			     ? (double)rk_sweep_delta(p, data) / sweep->interval
			     : -1;
	if (p->status != 0 || !p->sampled)
		return;
	if (p->state[wait] == RK_VALUE_SATURATED) {
		out->basis = RK_WAIT_SATURATED;
		return;
	}
	if (!rk_sweep_delta_known(p, wait) || sweep->interval <= 0)
		return;
	out->ticks = rk_sweep_delta(p, wait);
	out->tick_ns = tick_of(fabric, p, options);
	measure(out, rk_sweep_delta(p, data), data_known, sweep->interval, threshold_of(options));
	if (out->basis == RK_WAIT_TIME)
		out->lost_gbps = rk_lost_bandwidth_gbps(
		    out->ticks, out->tick_ns, sweep->interval,
		    rk_fabric_port_data_gbps(&fabric->nodes[p->node], p->port));
}

void rk_congestion_update(struct rk_sweep *sweep, const struct rk_fabric *fabric,
			  const struct rk_congestion_options *options)
{
	for (size_t i = 0; i < sweep->count; i++) {
		struct rk_sweep_port *p = &sweep->ports[i];
		struct rk_port_wait w;

		rk_port_wait_of(fabric, sweep, i, options, &w);
		p->xmit_wait = w.percent;
		p->lost_gbps = w.lost_gbps;
		if (w.basis == RK_WAIT_SATURATED || (w.basis != RK_WAIT_NONE && w.score < 1))
			p->congested = 0;
		else if (w.basis != RK_WAIT_NONE && p->congested < UINT8_MAX)
			p->congested++;
	}
}

static int compare_waits(const void *a, const void *b)
{
	const struct rk_port_wait *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	if (x->ticks != y->ticks)
		return x->ticks > y->ticks ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int rk_congestion_rank(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
		       const struct rk_congestion_options *options, struct rk_port_wait **out,
		       size_t *count)
{
	struct rk_port_wait *waits = calloc(sweep->count ? sweep->count : 1, sizeof(*waits));
	size_t n = 0;

	*out = NULL;
	*count = 0;
	if (!waits)
		return -ENOMEM;
	for (size_t i = 0; i < sweep->count; i++) {
		rk_port_wait_of(fabric, sweep, i, options, &waits[n]);
		n += waits[n].basis != RK_WAIT_NONE;
	}
	qsort(waits, n, sizeof(*waits), compare_waits);
	*out = waits;
	*count = n;
	return 0;
}

/* What the port's wait was over the last interval, and what it is measured against. */
static void describe(const struct rk_port_wait *w, const struct rk_sweep *sweep, double threshold,
		     char *buf, size_t size)
{
	if (w->basis == RK_WAIT_NONE || w->basis == RK_WAIT_SATURATED)
		snprintf(buf, size,
			 "the port waited over the threshold for %u sweep intervals in a row; its "
			 "wait is not known this time (%s)",
			 sweep->ports[w->index].congested,
			 w->basis == RK_WAIT_SATURATED ? "port_xmit_wait saturated" : "no reading");
	else if (w->basis == RK_WAIT_TIME)
		snprintf(buf, size,
			 "port_xmit_wait rose by %llu ticks of %.2f ns: the port waited %.1f%% of "
			 "the last %.1f s with data to send (threshold %.1f%%)",
			 (unsigned long long)w->ticks, w->tick_ns, w->percent, sweep->interval,
			 threshold);
	else
		snprintf(buf, size,
			 "port_xmit_wait rose by %llu ticks in %.1f s, %.2f ticks per word sent "
			 "(the node gives no tick length: ranked by wait per data sent)",
			 (unsigned long long)w->ticks, sweep->interval, w->per_word);
}

int rk_health_check_congestion(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
			       const struct rk_congestion_options *options,
			       struct rk_findings *findings)
{
	double threshold = threshold_of(options);
	int err = 0;

	for (size_t i = 0; i < sweep->count && !err; i++) {
		const struct rk_sweep_port *p = &sweep->ports[i];
		char subject[RK_FINDING_SUBJECT_MAX], message[320];
		struct rk_port_wait w;

		if (p->congested < RK_CONGESTION_SUSTAIN)
			continue;
		rk_port_wait_of(fabric, sweep, i, options, &w);
		rk_fabric_port_label(fabric, (size_t)p->node, p->port, subject, sizeof(subject));
		describe(&w, sweep, threshold, message, sizeof(message));
		err = rk_findings_add(findings, RK_SEVERITY_WARNING, "PORT_CONGESTED", subject,
				      "find what sends through this port (rdmakit sweep --top); "
				      "look for an oversubscribed uplink, a slow receiver "
				      "downstream, or unbalanced routes",
				      "%s", message);
		if (!err)
			rk_findings_locate(findings, p->node_guid, p->port);
	}
	return err;
}
