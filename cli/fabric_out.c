#include "fabric_out.h"

#include <inttypes.h>
#include <string.h>

bool link_degraded(const struct rk_fabric_link *link)
{
	return link->below_enabled || link->below_peers;
}

void format_guid(uint64_t guid, char *buf, size_t size)
{
	snprintf(buf, size, "0x%016" PRIx64, guid);
}

static json_object *json_guid(uint64_t guid)
{
	char text[24];

	format_guid(guid, text, sizeof(text));
	return json_object_new_string(text);
}

static json_object *json_width(int lanes)
{
	char text[16];

	if (lanes <= 0)
		return NULL;
	snprintf(text, sizeof(text), "%dX", lanes);
	return json_object_new_string(text);
}

static json_object *json_speed(enum rk_speed speed)
{
	return speed == RK_SPEED_NONE ? NULL : json_object_new_string(rk_speed_name(speed));
}

static const char *port_state_name(int state)
{
	static const char *const names[] = {"?", "DOWN", "INIT", "ARMED", "ACTIVE"};

	return state >= 1 && state <= 4 ? names[state] : "?";
}

static const char *phys_state_name(int state)
{
	static const char *const names[] = {"?",
					    "Sleep",
					    "Polling",
					    "Disabled",
					    "PortConfigurationTraining",
					    "LinkUp",
					    "LinkErrorRecovery",
					    "PhyTest"};

	return state >= 1 && state <= 7 ? names[state] : "?";
}

static json_object *json_fabric_port(const struct rk_fabric *fabric,
				     const struct rk_fabric_port *port)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "port", json_object_new_int(port->num));
	json_object_object_add(obj, "state", json_object_new_string(port_state_name(port->state)));
	json_object_object_add(obj, "phys_state",
			       json_object_new_string(phys_state_name(port->phys_state)));
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
	json_object_object_add(obj, "degraded", json_object_new_boolean(link_degraded(link)));
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
	return links == LINKS_ALL || (links == LINKS_DEGRADED && link_degraded(link));
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

static void count_nodes(const struct rk_fabric *fabric, size_t counts[4])
{
	for (size_t i = 0; i < fabric->nnodes; i++)
		counts[fabric->nodes[i].type <= 3 ? fabric->nodes[i].type : 0]++;
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
		link->unused_supported && !link_degraded(link)
		    ? "  (faster speeds supported, not enabled)"
		    : "");
}

void text_fabric(FILE *out, const struct rk_fabric *fabric, enum link_selection links)
{
	size_t counts[4] = {0}, degraded = 0;

	count_nodes(fabric, counts);
	for (size_t i = 0; i < fabric->nlinks; i++)
		degraded += link_degraded(&fabric->links[i]);
	fprintf(
	    out,
	    "%zu switches, %zu CAs, %zu routers, %zu links (%zu degraded); discovered in %.2f s\n",
	    counts[RK_NODE_SWITCH], counts[RK_NODE_CA], counts[RK_NODE_ROUTER], fabric->nlinks,
	    degraded, fabric->discovery_seconds);
	if (links == LINKS_NONE) {
		for (size_t i = 0; i < fabric->nnodes; i++) {
			const struct rk_fabric_node *node = &fabric->nodes[i];
			char guid[24];

			format_guid(node->guid, guid, sizeof(guid));
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
