/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "verbs_out.h"

#include "json_out.h"

#include <string.h>

static json_object *json_gid(const struct rk_verbs_gid *gid)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "index", json_object_new_int((int)gid->index));
	json_object_object_add(obj, "gid", json_object_new_string(gid->gid));
	json_object_object_add(obj, "type", json_object_new_string(rk_gid_type_name(gid->type)));
	json_object_object_add(obj, "netdev",
			       gid->netdev[0] ? json_object_new_string(gid->netdev) : NULL);
	return obj;
}

static void add_verbs_port(json_object *port_obj, const struct rk_verbs_port *port)
{
	json_object *gids = json_object_new_array();
	json_object *pkeys = json_object_new_array();
	char hex[8];

	for (size_t i = 0; i < port->ngids; i++)
		json_object_array_add(gids, json_gid(&port->gids[i]));
	for (size_t i = 0; i < port->npkeys; i++) {
		snprintf(hex, sizeof(hex), "0x%04x", port->pkeys[i]);
		json_object_array_add(pkeys, json_object_new_string(hex));
	}
	json_object_object_add(port_obj, "active_mtu_bytes",
			       json_object_new_int((int)port->active_mtu));
	json_object_object_add(port_obj, "max_mtu_bytes", json_object_new_int((int)port->max_mtu));
	json_object_object_add(port_obj, "gids", gids);
	json_object_object_add(port_obj, "pkeys", pkeys);
}

static void add_verbs_device(json_object *dev_obj, const char *name)
{
	json_object *ports, *num;
	struct rk_verbs_device dev;

	if (rk_verbs_query(name, &dev) != 0 || !json_object_object_get_ex(dev_obj, "ports", &ports))
		return; /* the sysfs facts are still reported; rk_log said why */
	for (size_t i = 0; i < json_object_array_length(ports); i++) {
		json_object *port_obj = json_object_array_get_idx(ports, i);
		const struct rk_verbs_port *port;

		if (!json_object_object_get_ex(port_obj, "port", &num))
			continue;
		port = rk_verbs_find_port(&dev, (unsigned)json_object_get_int(num));
		if (port)
			add_verbs_port(port_obj, port);
	}
	rk_verbs_device_free(&dev);
}

void json_status_add_verbs(json_object *doc, const struct port_filter *filter)
{
	json_object *devices, *name;

	(void)filter; /* the document holds only the selected devices and ports */
	if (!json_object_object_get_ex(doc, "devices", &devices))
		return;
	for (size_t i = 0; i < json_object_array_length(devices); i++) {
		json_object *dev_obj = json_object_array_get_idx(devices, i);

		if (json_object_object_get_ex(dev_obj, "name", &name))
			add_verbs_device(dev_obj, json_object_get_string(name));
	}
}

static void text_verbs_port(FILE *out, const char *device, const struct rk_verbs_port *port)
{
	fprintf(out, "%s port %u: active MTU %u, max MTU %u", device, port->num, port->active_mtu,
		port->max_mtu);
	for (size_t i = 0; i < port->npkeys; i++)
		fprintf(out, "%s0x%04x", i == 0 ? ", P_Keys " : " ", port->pkeys[i]);
	fprintf(out, "\n");
	if (port->ngids > 0)
		fprintf(out, "\t%-5s %-39s  %-7s  %s\n", "GID", "address", "type", "netdev");
	for (size_t i = 0; i < port->ngids; i++) {
		const struct rk_verbs_gid *gid = &port->gids[i];

		fprintf(out, "\t%-5u %-39s  %-7s  %s\n", gid->index, gid->gid,
			rk_gid_type_name(gid->type), gid->netdev[0] ? gid->netdev : "-");
	}
}

void text_status_verbs(FILE *out, const struct rk_host *host, const struct port_filter *filter)
{
	for (size_t i = 0; i < host->ndevices; i++) {
		const struct rk_device *sys_dev = &host->devices[i];
		struct rk_verbs_device dev;

		if (!filter_matches(filter, sys_dev, NULL) || rk_verbs_query(sys_dev->name, &dev))
			continue;
		for (size_t p = 0; p < dev.nports; p++)
			if (!filter->one_port || filter->port == dev.ports[p].num)
				text_verbs_port(out, dev.name, &dev.ports[p]);
		rk_verbs_device_free(&dev);
	}
}

static json_object *json_failure(const struct rk_probe_result *r)
{
	json_object *obj;

	if (r->passed)
		return NULL;
	obj = json_object_new_object();
	json_object_object_add(obj, "step",
			       json_object_new_string(rk_probe_step_name(r->failed_step)));
	json_object_object_add(obj, "message", json_object_new_string(r->message));
	json_object_object_add(obj, "errno", json_object_new_int(r->error));
	json_object_object_add(obj, "error",
			       r->error ? json_object_new_string(strerror(r->error)) : NULL);
	json_object_object_add(
	    obj, "wc_status", r->wc_status >= 0 ? json_object_new_string(r->wc_status_text) : NULL);
	json_object_object_add(obj, "hint", json_object_new_string(r->hint));
	return obj;
}

json_object *json_probe(const struct rk_probe_result *r)
{
	json_object *doc = json_object_new_object();
	json_object *steps = json_object_new_array();
	int last = r->passed ? RK_PROBE_STEPS : r->failed_step;

	for (int s = 0; s < last; s++) {
		json_object *step = json_object_new_object();

		json_object_object_add(step, "step", json_object_new_string(rk_probe_step_name(s)));
		json_object_object_add(step, "seconds", json_object_new_double(r->seconds[s]));
		json_object_array_add(steps, step);
	}
	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "device", json_object_new_string(r->device));
	json_object_object_add(doc, "port", json_object_new_int((int)r->port));
	json_object_object_add(doc, "link_layer", json_object_new_string(r->link_layer));
	json_object_object_add(doc, "gid_index",
			       r->gid_index >= 0 ? json_object_new_int(r->gid_index) : NULL);
	json_object_object_add(
	    doc, "gid_type",
	    r->link_layer[0] ? json_object_new_string(rk_gid_type_name(r->gid_type)) : NULL);
	json_object_object_add(doc, "mtu_bytes", json_object_new_int((int)r->mtu));
	json_object_object_add(doc, "size_bytes", json_object_new_int64((int64_t)r->size));
	json_object_object_add(doc, "result", json_object_new_string(r->passed ? "pass" : "fail"));
	json_object_object_add(doc, "steps", steps);
	json_object_object_add(doc, "rtt_seconds",
			       r->passed ? json_object_new_double(r->rtt_seconds) : NULL);
	json_object_object_add(doc, "failure", json_failure(r));
	return doc;
}

void text_probe(FILE *out, const struct rk_probe_result *r)
{
	int last = r->passed ? RK_PROBE_STEPS : r->failed_step;

	fprintf(out, "probe %s:%u (%s", r->device, r->port, r->link_layer[0] ? r->link_layer : "?");
	if (r->gid_index >= 0)
		fprintf(out, ", GID %d %s", r->gid_index, rk_gid_type_name(r->gid_type));
	fprintf(out, ", MTU %u, %zu bytes): %s\n", r->mtu, r->size, r->passed ? "PASS" : "FAIL");
	for (int s = 0; s < last; s++)
		fprintf(out, "  %-6s %10.3f ms\n", rk_probe_step_name(s), r->seconds[s] * 1e3);
	if (r->passed) {
		fprintf(out, "  send/receive round trip %.3f ms\n", r->rtt_seconds * 1e3);
		return;
	}
	fprintf(out, "  failed at %s: %s", rk_probe_step_name(r->failed_step), r->message);
	if (r->error)
		fprintf(out, " (%s)", strerror(r->error));
	fprintf(out, "\n  check: %s\n", r->hint);
}
