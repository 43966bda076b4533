/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "fabric_out.h"

#include "json_out.h"
#include "json_stream.h"
#include "rdmakit/host.h"

#include <errno.h>
#include <string.h>

static json_object *json_guid(uint64_t guid)
{
	char text[24];

	rk_format_guid(guid, text, sizeof(text));
	return json_object_new_string(text);
}

static json_object *json_speed(enum rk_speed speed)
{
	return speed == RK_SPEED_NONE ? NULL : json_object_new_string(rk_speed_name(speed));
}

static json_object *json_fabric_port(const struct rk_fabric *fabric,
				     const struct rk_fabric_port *port)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "port", json_object_new_int(port->num));
	json_object_object_add(obj, "state",
			       json_object_new_string(rk_port_state_name(port->state)));
	json_object_object_add(obj, "phys_state",
			       json_object_new_string(rk_phys_state_name(port->phys_state)));
	json_object_object_add(obj, "width", json_width(port->active_width));
	json_object_object_add(obj, "speed", json_speed(port->active_speed));
	json_object_object_add(obj, "lid", json_object_new_int(port->lid));
	if (port->remote_node >= 0) {
		json_object *remote = json_object_new_object();

		json_object_object_add(remote, "guid",
				       json_guid(fabric->nodes[port->remote_node].guid));
		json_object_object_add(remote, "port", json_object_new_int(port->remote_port));
		json_object_object_add(obj, "remote", remote);
	}
	return obj;
}

static json_object *json_fabric_node(const struct rk_fabric *fabric,
				     const struct rk_fabric_node *node)
{
	json_object *obj = json_object_new_object();
	json_object *ports = json_object_new_array();

	json_object_object_add(obj, "guid", json_guid(node->guid));
	json_object_object_add(obj, "type", json_object_new_string(rk_node_type_name(node->type)));
	json_object_object_add(obj, "description", json_object_new_string(node->description));
	json_object_object_add(obj, "name", json_object_new_string(node->name));
	json_object_object_add(obj, "lid", json_object_new_int(node->lid));
	json_object_object_add(obj, "device_id", json_object_new_int((int)node->device_id));
	json_object_object_add(obj, "num_ports", json_object_new_int(node->nports));
	for (int p = node->type == RK_NODE_SWITCH ? 1 : 0; p <= node->nports; p++)
		if (node->ports[p].present)
			json_object_array_add(ports, json_fabric_port(fabric, &node->ports[p]));
	json_object_object_add(obj, "ports", ports);
	return obj;
}

static json_object *json_link_end(const struct rk_fabric *fabric, int node, int port)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "guid", json_guid(fabric->nodes[node].guid));
	json_object_object_add(obj, "name", json_object_new_string(fabric->nodes[node].name));
	json_object_object_add(obj, "port", json_object_new_int(port));
	return obj;
}

static json_object *json_link(const struct rk_fabric *fabric, const struct rk_fabric_link *link)
{
	json_object *obj = json_object_new_object();
	json_object *reasons = json_object_new_array();

	json_object_object_add(obj, "a", json_link_end(fabric, link->node_a, link->port_a));
	json_object_object_add(obj, "b", json_link_end(fabric, link->node_b, link->port_b));
	json_object_object_add(obj, "width", json_width(link->width));
	json_object_object_add(obj, "speed", json_speed(link->speed));
	json_object_object_add(obj, "degraded", json_object_new_boolean(rk_link_degraded(link)));
	if (link->below_enabled)
		json_object_array_add(reasons, json_object_new_string("below_enabled"));
	if (link->below_peers)
		json_object_array_add(reasons, json_object_new_string("below_peers"));
	if (link->ends_disagree)
		json_object_array_add(reasons, json_object_new_string("ends_disagree"));
	json_object_object_add(obj, "reasons", reasons);
	json_object_object_add(obj, "unused_supported",
			       json_object_new_boolean(link->unused_supported));
	return obj;
}

static bool link_selected(const struct rk_fabric_link *link, enum link_selection links)
{
	return links == LINKS_ALL || (links == LINKS_DEGRADED && rk_link_degraded(link));
}

json_object *json_fabric(const struct rk_fabric *fabric, enum link_selection links)
{
	json_object *doc = json_object_new_object();
	json_object *nodes = json_object_new_array();
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < fabric->nnodes; i++)
		json_object_array_add(nodes, json_fabric_node(fabric, &fabric->nodes[i]));
	for (size_t i = 0; i < fabric->nlinks; i++)
		if (link_selected(&fabric->links[i], links == LINKS_NONE ? LINKS_ALL : links))
			json_object_array_add(array, json_link(fabric, &fabric->links[i]));
	json_object_object_add(doc, "nodes", nodes);
	json_object_object_add(doc, "links", array);
	json_object_object_add(doc, "discovery_seconds",
			       json_object_new_double(fabric->discovery_seconds));
	return doc;
}

static void text_link(FILE *out, const struct rk_fabric *fabric, const struct rk_fabric_link *link)
{
	const struct rk_fabric_node *a = &fabric->nodes[link->node_a];
	const struct rk_fabric_node *b = &fabric->nodes[link->node_b];

	fprintf(out, "  \"%s\"[%d] <-> \"%s\"[%d]  %dX %s%s%s%s%s\n", a->name, link->port_a,
		b->name, link->port_b, link->width, rk_speed_name(link->speed),
		link->below_enabled ? "  DEGRADED: below what both ends enable" : "",
		link->below_peers ? "  DEGRADED: below most links between these models" : "",
		link->ends_disagree ? "  (ends disagree)" : "",
		link->unused_supported && !rk_link_degraded(link)
		    ? "  (faster speeds supported, not enabled)"
		    : "");
}

void text_fabric(FILE *out, const struct rk_fabric *fabric, enum link_selection links)
{
	struct rk_fabric_summary summary;

	rk_fabric_summarize(fabric, &summary);
	fprintf(
	    out,
	    "%zu switches, %zu CAs, %zu routers, %zu links (%zu degraded); discovered in %.2f s\n",
	    summary.switches, summary.cas, summary.routers, summary.links, summary.degraded_links,
	    fabric->discovery_seconds);
	if (links == LINKS_NONE) {
		for (size_t i = 0; i < fabric->nnodes; i++) {
			const struct rk_fabric_node *node = &fabric->nodes[i];
			char guid[24];

			rk_format_guid(node->guid, guid, sizeof(guid));
			fprintf(out, "  %-6s %s lid %-5u %2d ports  \"%s\"%s\n",
				rk_node_type_name(node->type), guid, node->lid, node->nports,
				node->name, node->is_sm ? "  (SM)" : "");
		}
		return;
	}
	for (size_t i = 0; i < fabric->nlinks; i++)
		if (link_selected(&fabric->links[i], links))
			text_link(out, fabric, &fabric->links[i]);
}

json_object *json_sm(const struct rk_sm_status *sm)
{
	json_object *doc = json_object_new_object();
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < sm->count; i++) {
		const struct rk_sm *s = &sm->sms[i];
		json_object *obj = json_object_new_object();

		json_object_object_add(obj, "lid", json_object_new_int(s->lid));
		json_object_object_add(obj, "answered", json_object_new_boolean(s->status == 0));
		if (s->status == 0) {
			json_object_object_add(obj, "guid", json_guid(s->guid));
			json_object_object_add(obj, "priority", json_object_new_int(s->priority));
			json_object_object_add(obj, "state",
					       json_object_new_string(rk_sm_state_name(s->state)));
			json_object_object_add(obj, "activity_count",
					       json_object_new_int64(s->activity_count));
			json_object_object_add(obj, "name", json_object_new_string(s->name));
		}
		json_object_array_add(array, obj);
	}
	json_object_object_add(doc, "sms", array);
	json_object_object_add(doc, "local_lid", json_object_new_int(sm->local_lid));
	json_object_object_add(doc, "local_sm_lid", json_object_new_int(sm->local_sm_lid));
	return doc;
}

void text_sm(FILE *out, const struct rk_sm_status *sm)
{
	fprintf(out, "%-6s %-18s %-8s %-12s %-10s %s\n", "LID", "GUID", "PRIORITY", "STATE",
		"ACTIVITY", "NODE");
	for (size_t i = 0; i < sm->count; i++) {
		const struct rk_sm *s = &sm->sms[i];
		char guid[24];

		if (s->status != 0) {
			fprintf(out, "%-6u (no answer)\n", s->lid);
			continue;
		}
		rk_format_guid(s->guid, guid, sizeof(guid));
		fprintf(out, "%-6u %-18s %-8d %-12s %-10u %s\n", s->lid, guid, s->priority,
			rk_sm_state_name(s->state), s->activity_count, s->name);
	}
	fprintf(out, "local port: LID %u, SM LID %u\n", sm->local_lid, sm->local_sm_lid);
}

static bool has_errors(const struct rk_sweep_port *p, const struct rk_metric *pma, size_t count)
{
	for (size_t c = 0; c < count; c++)
		if (pma[c].is_error && (p->raw[c] || rk_sweep_delta(p, c)))
			return true;
	return false;
}

static json_object *json_swept_port(const struct rk_fabric *fabric, const struct rk_sweep_port *p,
				    double interval)
{
	size_t count;
	const struct rk_metric *pma = rk_catalog_pma(&count);
	const struct rk_fabric_port *fp = &fabric->nodes[p->node].ports[p->port];
	json_object *obj = json_object_new_object(), *counters = json_object_new_object();
	json_object *rates = json_object_new_object(), *saturated = json_object_new_array();

	json_object_object_add(obj, "guid", json_guid(p->node_guid));
	json_object_object_add(obj, "name", json_object_new_string(fabric->nodes[p->node].name));
	json_object_object_add(obj, "port", json_object_new_int(p->port));
	json_object_object_add(obj, "lid", json_object_new_int(p->lid));
	json_object_object_add(obj, "state", json_object_new_string(rk_port_state_name(fp->state)));
	json_object_object_add(obj, "extended", json_object_new_boolean(p->extended));
	for (size_t c = 0; c < count; c++) {
		bool available = p->state[c] != RK_VALUE_UNAVAILABLE;

		json_object_object_add(counters, pma[c].name,
				       available ? json_object_new_uint64(rk_sweep_value(p, c))
						 : NULL);
		if (p->state[c] == RK_VALUE_SATURATED)
			json_object_array_add(saturated, json_object_new_string(pma[c].name));
		if (available && p->has_delta && interval > 0)
			json_object_object_add(
			    rates, pma[c].name,
			    json_object_new_double((double)rk_sweep_delta(p, c) / interval));
	}
	json_object_object_add(obj, "counters", counters);
	json_object_object_add(obj, "rates", rates);
	json_object_object_add(obj, "saturated", saturated);
	return obj;
}

static json_object *json_failed_port(const struct rk_fabric *fabric, const struct rk_sweep_port *p)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "guid", json_guid(p->node_guid));
	json_object_object_add(obj, "name", json_object_new_string(fabric->nodes[p->node].name));
	json_object_object_add(obj, "port", json_object_new_int(p->port));
	json_object_object_add(obj, "lid", json_object_new_int(p->lid));
	json_object_object_add(
	    obj, "error",
	    json_object_new_string(p->status == -ETIMEDOUT ? "timeout" : "error status"));
	return obj;
}

static json_object *json_mad_stats(const struct rk_mad_stats *stats)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "sent", json_object_new_int64((int64_t)stats->sent));
	json_object_object_add(obj, "answered", json_object_new_int64((int64_t)stats->answered));
	json_object_object_add(obj, "timeouts", json_object_new_int64((int64_t)stats->timeouts));
	json_object_object_add(obj, "retried", json_object_new_int64((int64_t)stats->retried));
	json_object_object_add(obj, "errors", json_object_new_int64((int64_t)stats->errors));
	return obj;
}

/* Everything of a sweep but its ports: failed ports, totals, MAD statistics. */
static json_object *json_sweep_summary(const struct rk_fabric *fabric, const struct rk_sweep *sweep)
{
	json_object *doc = json_object_new_object(), *failed = json_object_new_array();

	for (size_t i = 0; i < sweep->count; i++)
		if (sweep->ports[i].status != 0)
			json_object_array_add(failed, json_failed_port(fabric, &sweep->ports[i]));
	json_object_object_add(doc, "failed", failed);
	json_object_object_add(doc, "ports_swept", json_object_new_int64((int64_t)sweep->count));
	json_object_object_add(doc, "seconds", json_object_new_double(sweep->seconds));
	json_object_object_add(
	    doc, "interval", sweep->interval > 0 ? json_object_new_double(sweep->interval) : NULL);
	json_object_object_add(doc, "mads", json_mad_stats(&sweep->stats));
	return doc;
}

void print_json_sweep(FILE *out, const struct rk_fabric *fabric, const struct rk_sweep *sweep,
		      bool errors_only)
{
	size_t count;
	const struct rk_metric *pma = rk_catalog_pma(&count);
	struct json_stream stream;

	json_stream_init(&stream, out);
	json_stream_open_object(&stream, NULL);
	json_stream_open_array(&stream, "ports");
	for (size_t i = 0; i < sweep->count; i++) {
		const struct rk_sweep_port *p = &sweep->ports[i];

		if (p->status == 0 && (!errors_only || has_errors(p, pma, count)))
			json_stream_value(&stream, NULL,
					  json_swept_port(fabric, p, sweep->interval));
	}
	json_stream_close(&stream);
	json_stream_members(&stream, json_sweep_summary(fabric, sweep));
	json_stream_close(&stream);
	fflush(out);
}

static void text_swept_port(FILE *out, const struct rk_fabric *fabric,
			    const struct rk_sweep_port *p, const struct rk_metric *pma,
			    size_t count, bool errors_only)
{
	fprintf(out, "\"%s\"[%u] lid %u:", fabric->nodes[p->node].name, p->port, p->lid);
	for (size_t c = 0; c < count; c++) {
		if (p->state[c] == RK_VALUE_UNAVAILABLE || (errors_only && !pma[c].is_error) ||
		    (errors_only && !p->raw[c]))
			continue;
		fprintf(out, " %s=%llu%s", pma[c].name, (unsigned long long)rk_sweep_value(p, c),
			p->state[c] == RK_VALUE_SATURATED ? "(saturated)" : "");
		if (pma[c].is_error && rk_sweep_delta(p, c))
			fprintf(out, "(+%llu)", (unsigned long long)rk_sweep_delta(p, c));
	}
	fputc('\n', out);
}

void text_sweep(FILE *out, const struct rk_fabric *fabric, const struct rk_sweep *sweep,
		bool errors_only)
{
	size_t count;
	const struct rk_metric *pma = rk_catalog_pma(&count);

	for (size_t i = 0; i < sweep->count; i++) {
		const struct rk_sweep_port *p = &sweep->ports[i];

		if (p->status != 0)
			fprintf(out, "\"%s\"[%u] lid %u: no answer\n", fabric->nodes[p->node].name,
				p->port, p->lid);
		else if (!errors_only || has_errors(p, pma, count))
			text_swept_port(out, fabric, p, pma, count, errors_only);
	}
	fprintf(out,
		"%zu ports swept in %.2f s: %zu answered, %zu failed (%zu MADs, %zu timeouts)\n",
		sweep->count, sweep->seconds, sweep->answered, sweep->failed, sweep->stats.sent,
		sweep->stats.timeouts);
}
