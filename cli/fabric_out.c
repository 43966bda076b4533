/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A discovered fabric, its SMs and its counter sweeps, through the one writer (print.h). */
#include "fabric_out.h"

#include "facts_out.h"

#include <errno.h>

/* The facts of a fabric node and of a fabric port, in fabric --json's order: a node's
 * device_id, and a port's number and LID, are not facts (the topology's MIB tables have no
 * column for them) and go between. */
static const struct fact_field node_fields[] = {
    {RK_FACT_NODE_TYPE, " %-6s", STYLE_NODE_TYPE},
    {RK_FACT_NODE_DESCRIPTION, " \"%s\"", STYLE_PLAIN},
    {RK_FACT_NODE_NAME, " \"%s\"", STYLE_PLAIN},
    {RK_FACT_NODE_LID, " lid %.0f", STYLE_PLAIN},
};

static const struct fact_field node_ports_field = {RK_FACT_NODE_PORTS, ", %.0f ports", STYLE_PLAIN};

static const struct fact_field port_fields[] = {
    {RK_FACT_FABRIC_PORT_STATE, " %s", STYLE_PORT_STATE},
    {RK_FACT_FABRIC_PORT_PHYS_STATE, " %s", STYLE_PHYS_STATE},
    {RK_FACT_FABRIC_PORT_WIDTH, " %s", STYLE_LANES},
    {RK_FACT_FABRIC_PORT_SPEED, " %s", STYLE_SPEED},
};

static const struct fact_field peer_port_field = {RK_FACT_FABRIC_PORT_PEER_PORT, "[%.0f]",
						  STYLE_PLAIN};

static const struct fact_field swept_state_field = {RK_FACT_FABRIC_PORT_STATE, " %s",
						    STYLE_PORT_STATE};

/* The node at the other end of a port's link, in an object named by the peer facts: its GUID
 * written as the CLI writes every GUID, and its port. */
static void print_peer(struct printer *p, const struct rk_fabric *fabric,
		       const struct rk_fact_subject *subject)
{
	const struct rk_fabric_port *port = subject->fabric_port->port;

	print_open_fact_object(p, RK_FACT_FABRIC_PORT_PEER_GUID);
	print_guid(p, PRINT_ANY, fact_key(RK_FACT_FABRIC_PORT_PEER_GUID), " -> %s",
		   fabric->nodes[port->remote_node].guid);
	print_fact(p, &peer_port_field, subject);
	print_close(p);
}

static void print_fabric_port(struct printer *p, const struct rk_fabric *fabric, size_t node,
			      const struct rk_fabric_port *port)
{
	struct rk_fabric_port_ref ref = {.fabric = fabric, .node = node, .port = port};
	struct rk_fact_subject subject = {.fabric_port = &ref};

	print_open_object(p, NULL);
	print_int(p, PRINT_ANY, "port", "\t[%lld]", port->num);
	print_facts(p, FIELDS(port_fields), &subject);
	print_int(p, PRINT_ANY, "lid", " lid %lld", port->lid);
	if (port->remote_node >= 0)
		print_peer(p, fabric, &subject);
	print_text(p, "\n");
	print_close(p);
}

static void print_fabric_node(struct printer *p, const struct rk_fabric *fabric, size_t index)
{
	const struct rk_fabric_node *node = &fabric->nodes[index];
	struct rk_fact_subject subject = {.node = node};

	print_open_object(p, NULL);
	print_guid(p, PRINT_ANY, "guid", "  %s", node->guid);
	print_facts(p, FIELDS(node_fields), &subject);
	print_uint(p, PRINT_ANY, "device_id", " device 0x%04llx", node->device_id);
	print_fact(p, &node_ports_field, &subject);
	print_text(p, "%s\n", node->is_sm ? "  (SM)" : "");
	print_open_array(p, "ports");
	for (int i = node->type == RK_NODE_SWITCH ? 1 : 0; i <= node->nports; i++)
		if (node->ports[i].present)
			print_fabric_port(p, fabric, index, &node->ports[i]);
	print_close(p);
	print_close(p);
}

/* A port of a node where it is: the node's GUID (JSON only) and name, and the port number. */
static void print_node_port(struct printer *p, uint64_t guid, const struct rk_fabric_node *node,
			    int port)
{
	static const struct fact_field name_field = {RK_FACT_NODE_NAME, "\"%s\"", STYLE_PLAIN};

	print_guid(p, PRINT_JSON, "guid", NULL, guid);
	print_fact(p, &name_field, &(struct rk_fact_subject){.node = node});
	print_int(p, PRINT_ANY, "port", "[%lld]", port);
}

static void print_link_end(struct printer *p, const char *key, const struct rk_fabric *fabric,
			   int node, int port)
{
	print_open_object(p, key);
	print_node_port(p, fabric->nodes[node].guid, &fabric->nodes[node], port);
	print_close(p);
}

static void print_reason(struct printer *p, bool holds, const char *reason)
{
	if (holds)
		print_string(p, PRINT_ANY, NULL, " %s", reason);
}

/* A link: its ends, and its width and speed (its ports', under their facts' keys). */
static void print_link(struct printer *p, const struct rk_fabric *fabric,
		       const struct rk_fabric_link *link)
{
	bool degraded = rk_link_degraded(link);

	print_open_object(p, NULL);
	print_text(p, "  ");
	print_link_end(p, "a", fabric, link->node_a, link->port_a);
	print_text(p, " <-> ");
	print_link_end(p, "b", fabric, link->node_b, link->port_b);
	print_width(p, fact_key(RK_FACT_FABRIC_PORT_WIDTH), "  %s", link->width);
	print_speed(p, fact_key(RK_FACT_FABRIC_PORT_SPEED), " %s", link->speed);
	print_bool(p, PRINT_ANY, "degraded", degraded ? "  DEGRADED:" : NULL, degraded);
	print_open_array(p, "reasons");
	print_reason(p, link->below_enabled, "below_enabled");
	print_reason(p, link->below_peers, "below_peers");
	print_reason(p, link->ends_disagree, "ends_disagree");
	print_close(p);
	print_bool(p, PRINT_ANY, "unused_supported",
		   link->unused_supported ? "  (faster speeds supported, not enabled)" : NULL,
		   link->unused_supported);
	print_text(p, "\n");
	print_close(p);
}

static bool link_selected(const struct rk_fabric_link *link, enum link_selection links)
{
	return links == LINKS_ALL || (links == LINKS_DEGRADED && rk_link_degraded(link));
}

/* The fabric summary's facts on the text's last line (the JSON has the nodes and links). */
static const struct fact_field summary_fields[] = {
    {RK_FACT_FABRIC_SWITCHES, "%.0f switches, ", STYLE_PLAIN},
    {RK_FACT_FABRIC_CAS, "%.0f CAs, ", STYLE_PLAIN},
    {RK_FACT_FABRIC_ROUTERS, "%.0f routers, ", STYLE_PLAIN},
    {RK_FACT_FABRIC_LINKS, "%.0f links", STYLE_PLAIN},
    {RK_FACT_FABRIC_DEGRADED_LINKS, " (%.0f degraded); ", STYLE_PLAIN},
};

static void print_fabric_summary(struct printer *p, const struct rk_fabric *fabric)
{
	double values[RK_FACT_COUNT];

	rk_fabric_fact_values(fabric, NULL, 0, values);
	for (size_t i = 0; i < sizeof(summary_fields) / sizeof(summary_fields[0]); i++)
		print_double(p, PRINT_TEXT, NULL, summary_fields[i].fmt,
			     values[summary_fields[i].id]);
	print_double(p, PRINT_ANY, fact_key(RK_FACT_FABRIC_DISCOVERY_SECONDS),
		     "discovered in %.2f s\n", values[RK_FACT_FABRIC_DISCOVERY_SECONDS]);
}

void print_fabric(struct printer *p, const struct rk_fabric *fabric, enum link_selection links)
{
	print_open_object(p, NULL);
	print_text_off(p, links != LINKS_NONE);
	print_open_array(p, "nodes");
	for (size_t i = 0; i < fabric->nnodes; i++)
		print_fabric_node(p, fabric, i);
	print_close(p);
	print_text_off(p, links == LINKS_NONE);
	print_open_array(p, "links");
	for (size_t i = 0; i < fabric->nlinks; i++)
		if (link_selected(&fabric->links[i], links == LINKS_NONE ? LINKS_ALL : links))
			print_link(p, fabric, &fabric->links[i]);
	print_close(p);
	print_text_off(p, false);
	print_fabric_summary(p, fabric);
	print_close(p);
}

static void print_sm_entry(struct printer *p, const struct rk_sm *sm)
{
	print_open_object(p, NULL);
	print_sm_facts(p, sm);
	print_text(p, "\n");
	print_close(p);
}

void print_sm(struct printer *p, const struct rk_sm_status *sm)
{
	print_open_array(p, "sms");
	print_sm_heading(p);
	for (size_t i = 0; i < sm->count; i++)
		print_sm_entry(p, &sm->sms[i]);
	print_close(p);
	print_int(p, PRINT_ANY, "local_lid", "local port: LID %lld", sm->local_lid);
	print_int(p, PRINT_ANY, "local_sm_lid", ", SM LID %lld\n", sm->local_sm_lid);
}

/* Where a swept port is: node GUID and name, port, LID. */
static void print_swept_where(struct printer *p, const struct rk_fabric *fabric,
			      const struct rk_sweep_port *port)
{
	print_node_port(p, port->node_guid, &fabric->nodes[port->node], port->port);
	print_int(p, PRINT_ANY, "lid", " lid %lld", port->lid);
}

/* Whether the text shows counter c of a port: not an error counter at 0 when only errors are
 * shown, nor a counter that is no error counter unless data is shown too. */
static bool counter_shown(const struct rk_sweep_port *port, const struct rk_metric *metric,
			  size_t c, enum sweep_selection selection)
{
	if (selection == SWEEP_ALL)
		return true;
	if (metric->is_error)
		return port->state[c] != RK_VALUE_UNAVAILABLE && port->raw[c] != 0;
	return selection == SWEEP_ERRORS_AND_DATA;
}

/* {name: value} of every counter (null when unavailable); in text those shown, "(saturated)"
 * and, for an error counter that rose, "(+delta)" after its value. */
static void print_swept_counters(struct printer *p, const struct rk_sweep_port *port,
				 const struct rk_metric *pma, size_t count,
				 enum sweep_selection selection)
{
	print_open_object(p, "counters");
	for (size_t c = 0; c < count; c++) {
		print_text_off(p, !counter_shown(port, &pma[c], c, selection));
		print_text(p, " %s=", pma[c].name);
		if (port->state[c] == RK_VALUE_UNAVAILABLE) {
			print_null(p, PRINT_ANY, pma[c].name, "%s");
			continue;
		}
		print_uint(p, PRINT_ANY, pma[c].name, "%llu", rk_sweep_value(port, c));
		if (port->state[c] == RK_VALUE_SATURATED)
			print_text(p, "(saturated)");
		if (pma[c].is_error && rk_sweep_delta(port, c))
			print_text(p, "(+%llu)", (unsigned long long)rk_sweep_delta(port, c));
	}
	print_text_off(p, false);
	print_close(p);
}

/* {name: per second} of the counters whose change is known; in text those shown. */
static void print_swept_rates(struct printer *p, const struct rk_sweep_port *port,
			      const struct rk_metric *pma, size_t count, double interval,
			      enum sweep_selection selection)
{
	print_open_object(p, "rates");
	for (size_t c = 0; c < count; c++) {
		if (!rk_sweep_delta_known(port, c) || interval <= 0)
			continue;
		print_text_off(p, !counter_shown(port, &pma[c], c, selection));
		print_text(p, " %s=", pma[c].name);
		print_double(p, PRINT_ANY, pma[c].name, "%.1f/s",
			     (double)rk_sweep_delta(port, c) / interval);
	}
	print_text_off(p, false);
	print_close(p);
}

static void print_swept_port(struct printer *p, const struct rk_fabric *fabric,
			     const struct rk_sweep_port *port, double interval,
			     enum sweep_selection selection)
{
	size_t count;
	const struct rk_metric *pma = rk_catalog_pma(&count);
	struct rk_fabric_port_ref ref = {.fabric = fabric,
					 .node = port->node,
					 .port = &fabric->nodes[port->node].ports[port->port]};
	bool data = selection != SWEEP_ERRORS; /* "extended" says the data counters' width */

	print_open_object(p, NULL);
	print_swept_where(p, fabric, port);
	print_fact(p, &swept_state_field, &(struct rk_fact_subject){.fabric_port = &ref});
	print_bool(p, data ? PRINT_ANY : PRINT_JSON, "extended",
		   port->extended ? " extended:" : ":", port->extended);
	print_text(p, "%s", data ? "" : ":");
	print_swept_counters(p, port, pma, count, selection);
	print_swept_rates(p, port, pma, count, interval, selection);
	print_open_array(p, "saturated"); /* "(saturated)" in text */
	for (size_t c = 0; c < count; c++)
		if (port->state[c] == RK_VALUE_SATURATED)
			print_string(p, PRINT_JSON, NULL, NULL, pma[c].name);
	print_close(p);
	print_text(p, "\n");
	print_close(p);
}

static void print_failed_port(struct printer *p, const struct rk_fabric *fabric,
			      const struct rk_sweep_port *port)
{
	print_open_object(p, NULL);
	print_swept_where(p, fabric, port);
	print_string(p, PRINT_ANY, "error", ": not read (%s)\n",
		     rk_sweep_status_text(port->status));
	print_close(p);
}

/* The ports whose link is up but whose peer discovery did not reach: their peers' counters
 * were not read. Returns how many. */
static size_t print_unreached(struct printer *p, const struct rk_fabric *fabric)
{
	size_t count = 0;

	print_open_array(p, "unreached");
	for (size_t n = 0; n < fabric->nnodes; n++)
		for (int port = 1; port <= fabric->nodes[n].nports; port++) {
			if (!rk_fabric_port_unreached(&fabric->nodes[n], port))
				continue;
			print_open_object(p, NULL);
			print_node_port(p, fabric->nodes[n].guid, &fabric->nodes[n], port);
			print_string(p, PRINT_ANY, "error", ": %s\n",
				     "link up, but discovery did not reach the node behind it");
			print_close(p);
			count++;
		}
	print_close(p);
	return count;
}

void print_mad_stats(struct printer *p, const struct rk_mad_stats *stats)
{
	static const char *const keys[] = {"sent", "answered", "timeouts", "retried", "errors"};
	static const char *const texts[] = {" (%llu MADs", ": %llu answered", ", %llu timeouts",
					    ", %llu retried", ", %llu errors)\n"};
	const size_t values[] = {stats->sent, stats->answered, stats->timeouts, stats->retried,
				 stats->errors};

	print_open_object(p, "mads");
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		print_uint(p, PRINT_ANY, keys[i], texts[i], values[i]);
	print_close(p);
}

size_t print_sweep(struct printer *p, const struct rk_fabric *fabric, const struct rk_sweep *sweep,
		   enum sweep_selection selection)
{
	double values[RK_FACT_COUNT];
	size_t unread = sweep->failed;

	rk_fabric_fact_values(fabric, sweep, sweep->seconds, values);
	print_open_object(p, NULL);
	print_open_array(p, "ports");
	for (size_t i = 0; i < sweep->count; i++) {
		const struct rk_sweep_port *port = &sweep->ports[i];

		if (port->status == 0 && (selection == SWEEP_ALL || rk_sweep_port_has_errors(port)))
			print_swept_port(p, fabric, port, sweep->interval, selection);
	}
	print_close(p);
	print_open_array(p, "failed");
	for (size_t i = 0; i < sweep->count; i++)
		if (sweep->ports[i].status != 0)
			print_failed_port(p, fabric, &sweep->ports[i]);
	print_close(p);
	unread += print_unreached(p, fabric);
	print_uint(p, PRINT_ANY, fact_key(RK_FACT_FABRIC_SWEPT_PORTS), "%llu ports swept",
		   (unsigned long long)values[RK_FACT_FABRIC_SWEPT_PORTS]);
	print_double(p, PRINT_ANY, "seconds", " in %.2f s", sweep->seconds);
	print_double_or_null(p, PRINT_ANY, "interval",
			     sweep->interval > 0 ? ", every %.1f s" : NULL,
			     sweep->interval > 0 ? sweep->interval : -1);
	print_mad_stats(p, &sweep->stats);
	print_close(p);
	return unread;
}
