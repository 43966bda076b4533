/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The most congested ports of a fabric, through the one writer (print.h). */
#include "congestion_out.h"

#include "fabric_out.h"
#include "facts_out.h"
#include "host_out.h"
#include "rdmakit/catalog.h"

#include <stdio.h>

/* Width of the text's node[port] columns: most names of a fabric fit, longer ones push on. */
#define END_COLUMN 28

/* The text of one end, "\"name\"[port]", padded to its column. */
static void print_end_text(struct printer *p, const char *name, int port)
{
	char text[RK_FACT_TEXT_MAX + 16];

	snprintf(text, sizeof(text), "\"%s\"[%d]", name, port);
	print_text(p, "%-*s", END_COLUMN, text);
}

/* The node name and port of the swept port, GUID in JSON only. */
static void print_end_of(struct printer *p, const struct rk_fabric_node *node, int port)
{
	char guid[24];

	rk_format_guid(node->guid, guid, sizeof(guid));
	print_string(p, PRINT_JSON, "guid", NULL, guid);
	print_string(p, PRINT_JSON, fact_key(RK_FACT_NODE_NAME), NULL, node->name);
	print_int(p, PRINT_JSON, "port", NULL, port);
	print_end_text(p, node->name, port);
}

/* The peer of a swept port as an object named by the peer facts (null when it has none). */
static void print_peer_of(struct printer *p, const struct rk_fabric *fabric,
			  const struct rk_fabric_port *port)
{
	char guid[24];

	print_text(p, " -> ");
	print_open_fact_object(p, RK_FACT_FABRIC_PORT_PEER_GUID);
	if (port->remote_node >= 0) {
		const struct rk_fabric_node *peer = &fabric->nodes[port->remote_node];

		rk_format_guid(peer->guid, guid, sizeof(guid));
		print_string(p, PRINT_JSON, fact_key(RK_FACT_FABRIC_PORT_PEER_GUID), NULL, guid);
		print_string(p, PRINT_JSON, fact_key(RK_FACT_NODE_NAME), NULL, peer->name);
		print_int(p, PRINT_JSON, fact_key(RK_FACT_FABRIC_PORT_PEER_PORT), NULL,
			  port->remote_port);
		print_end_text(p, peer->name, port->remote_port);
	} else {
		print_text(p, "%-*s", END_COLUMN, "(no peer)");
	}
	print_close(p);
}

/* "12.3 MB/s" of a rate in bytes per second. */
static void print_rate(struct printer *p, double rate)
{
	static const char *const units[] = {"B/s", "kB/s", "MB/s", "GB/s"};
	double shown = rate;
	size_t u = 0;

	print_double_or_null(p, PRINT_JSON, RK_XMIT_DATA_RATE_KEY, NULL, rate);
	if (rate < 0) {
		print_text(p, "  data %11s", "?");
		return;
	}
	while (shown >= 1000 && u + 1 < sizeof(units) / sizeof(units[0])) {
		shown /= 1000;
		u++;
	}
	print_text(p, "  data %6.1f %-4s", shown, units[u]);
}

/* The wait: a share of the interval (and the bandwidth lost to it), or per word sent where the
 * tick is unknown. */
static void print_wait(struct printer *p, const struct rk_port_wait *w)
{
	char text[96];

	print_string(p, PRINT_JSON, RK_XMIT_WAIT_BASIS_KEY, NULL, rk_wait_basis_name(w->basis));
	print_uint(p, PRINT_JSON, RK_XMIT_WAIT_TICKS_KEY, NULL, w->ticks);
	print_double_or_null(p, PRINT_JSON, RK_XMIT_WAIT_TICK_NS_KEY, NULL,
			     w->tick_ns > 0 ? w->tick_ns : -1);
	print_double_or_null(p, PRINT_JSON, rk_fact(RK_FACT_FABRIC_COUNTER_XMIT_WAIT)->cli_name,
			     NULL, w->percent);
	print_double_or_null(p, PRINT_JSON, fact_key(RK_FACT_FABRIC_COUNTER_LOST_BANDWIDTH), NULL,
			     w->lost_gbps);
	print_double_or_null(p, PRINT_JSON, RK_XMIT_WAIT_PER_WORD_KEY, NULL,
			     w->basis == RK_WAIT_PER_DATA ? w->per_word : -1);
	if (w->basis == RK_WAIT_TIME && w->lost_gbps >= 0)
		snprintf(text, sizeof(text), "wait %5.1f%% (%.1f Gb/s lost)", w->percent,
			 w->lost_gbps);
	else if (w->basis == RK_WAIT_TIME)
		snprintf(text, sizeof(text), "wait %5.1f%%", w->percent);
	else if (w->basis == RK_WAIT_PER_DATA)
		snprintf(text, sizeof(text), "wait %.3g ticks/word (tick unknown)", w->per_word);
	else
		snprintf(text, sizeof(text),
			 "wait ? (port_xmit_wait saturated: clear the port's "
			 "counters)");
	print_text(p, "  %-36s", text);
}

/* The VLs that waited, under the catalog's name of their counter: "VL3:1200" in text, ">="
 * before the rise of a counter that reached its maximum (JSON: "saturated", its ticks a lower
 * bound, null when not known); null where the VLs are not known. */
static void print_vl_waits(struct printer *p, const struct rk_sweep_port *port)
{
	const char *key = rk_catalog_find(RK_SRC_PORT_VL_COUNTERS, "port_vl_xmit_wait")->name;
	struct rk_vl_wait waits[RK_SWEEP_VLS];
	int n = rk_sweep_vl_waits(port, waits);

	if (n < 0) {
		print_null(p, PRINT_JSON, key, NULL);
		return;
	}
	print_open_array(p, key);
	for (int i = 0; i < n; i++) {
		const struct rk_vl_wait *v = &waits[i];

		print_open_object(p, NULL);
		print_uint(p, PRINT_ANY, "vl", i ? " VL%llu:" : "  VL%llu:", v->vl);
		print_number_or_null(p, PRINT_JSON, "ticks", NULL,
				     v->saturated && !v->ticks ? -1 : v->ticks);
		print_bool(p, PRINT_JSON, "saturated", NULL, v->saturated);
		if (!v->saturated)
			print_text(p, "%u", v->ticks);
		else if (v->ticks)
			print_text(p, ">=%u", v->ticks);
		else
			print_text(p, "saturated");
		print_close(p);
	}
	print_close(p);
}

static void print_ranked(struct printer *p, const struct rk_fabric *fabric,
			 const struct rk_sweep *sweep, const struct rk_port_wait *w, size_t rank)
{
	const struct rk_sweep_port *sp = &sweep->ports[w->index];
	const struct rk_fabric_node *node = &fabric->nodes[sp->node];
	const struct rk_fabric_port *port = &node->ports[sp->port];

	print_open_object(p, NULL);
	print_text(p, "%3zu  ", rank);
	print_end_of(p, node, sp->port);
	print_peer_of(p, fabric, port);
	print_wait(p, w);
	print_rate(p, w->data_rate);
	print_width(p, fact_key(RK_FACT_FABRIC_PORT_WIDTH), "  %s", port->active_width);
	print_speed(p, fact_key(RK_FACT_FABRIC_PORT_SPEED), " %s", port->active_speed);
	print_bool(p, PRINT_ANY, "congested", w->score >= 1 ? "  CONGESTED" : NULL, w->score >= 1);
	print_vl_waits(p, sp);
	print_text(p, "\n");
	print_close(p);
}

void print_congestion(struct printer *p, const struct congestion_view *view)
{
	const struct rk_congestion_options *options = view->options;
	double threshold = options && options->threshold > 0 ? options->threshold
							     : RK_CONGESTION_THRESHOLD_DEFAULT;
	size_t shown = view->top && view->top < view->count ? view->top : view->count;

	print_open_object(p, NULL);
	print_double(p, PRINT_ANY, "interval", "most congested ports over %.1f s",
		     view->sweep->interval);
	print_double(p, PRINT_ANY, "threshold", " (congested at %.1f%% of the time waiting",
		     threshold);
	print_double(p, PRINT_ANY, "per_word_threshold",
		     ", or %.2f ticks per word where the tick is unknown):\n",
		     RK_CONGESTION_PER_WORD);
	print_open_array(p, "ranked");
	for (size_t i = 0; i < shown; i++)
		print_ranked(p, view->fabric, view->sweep, &view->ranked[i], i + 1);
	print_close(p);
	print_uint(p, PRINT_ANY, "measured", "%llu ports measured", view->count);
	print_double(p, PRINT_ANY, "seconds", " by a sweep of %.2f s", view->sweep->seconds);
	print_mad_stats(p, &view->sweep->stats);
	print_findings_array(p, view->findings);
	print_close(p);
}
