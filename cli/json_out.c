/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "json_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static json_object *string_or_null(const char *text)
{
	return text[0] ? json_object_new_string(text) : NULL;
}

static json_object *int_or_null(int64_t value)
{
	return value >= 0 ? json_object_new_int64(value) : NULL;
}

/* Whole numbers print as integers (200, not 200.0); others as decimals (2.5). */
static json_object *number_or_null(double value)
{
	if (value < 0)
		return NULL;
	if (value == floor(value) && value < 9.0e15)
		return json_object_new_int64((int64_t)value);
	return json_object_new_double(value);
}

static json_object *hex_or_null(int64_t value, int digits)
{
	char text[24];

	if (value < 0)
		return NULL;
	snprintf(text, sizeof(text), "0x%0*llx", digits, (unsigned long long)value);
	return json_object_new_string(text);
}

static json_object *counter_values(const struct rk_counter_set *set)
{
	json_object *obj = json_object_new_object();

	for (size_t i = 0; i < set->count; i++) {
		const struct rk_counter *c = &set->items[i];

		json_object_object_add(
		    obj, c->name,
		    c->state == RK_VALUE_UNAVAILABLE ? NULL : json_object_new_uint64(c->value));
	}
	return obj;
}

static json_object *counter_rates(const struct rk_counter_set *set, double interval)
{
	json_object *obj = json_object_new_object();

	for (size_t i = 0; i < set->count && interval > 0; i++)
		if (set->items[i].has_delta)
			json_object_object_add(
			    obj, set->items[i].name,
			    json_object_new_double((double)set->items[i].delta / interval));
	return obj;
}

static void add_names_in_state(json_object *array, const struct rk_counter_set *set,
			       enum rk_value_state state)
{
	for (size_t i = 0; i < set->count; i++)
		if (set->items[i].state == state)
			json_object_array_add(array, json_object_new_string(set->items[i].name));
}

static json_object *names_in_state(const struct rk_port *port, enum rk_value_state state)
{
	json_object *array = json_object_new_array();

	add_names_in_state(array, &port->counters, state);
	add_names_in_state(array, &port->hw_counters, state);
	return array;
}

static void add_port_counters(json_object *obj, const struct rk_port *port)
{
	json_object_object_add(obj, "counters", counter_values(&port->counters));
	json_object_object_add(obj, "hw_counters", counter_values(&port->hw_counters));
	json_object_object_add(obj, "saturated", names_in_state(port, RK_VALUE_SATURATED));
	json_object_object_add(obj, "unavailable", names_in_state(port, RK_VALUE_UNAVAILABLE));
}

json_object *json_width(int width)
{
	char text[16];

	if (width <= 0)
		return NULL;
	snprintf(text, sizeof(text), "%dX", width);
	return json_object_new_string(text);
}

static json_object *json_port_status(const struct rk_port *port)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "port", json_object_new_int((int)port->num));
	json_object_object_add(obj, "state", string_or_null(port->state_name));
	json_object_object_add(obj, "phys_state", string_or_null(port->phys_state_name));
	json_object_object_add(obj, "rate_gbps", number_or_null(port->rate_gbps));
	json_object_object_add(obj, "width", json_width(port->width));
	json_object_object_add(obj, "speed", string_or_null(rk_speed_info(port->speed)->name));
	json_object_object_add(obj, "link_layer", string_or_null(port->link_layer));
	json_object_object_add(obj, "lid", int_or_null(port->lid));
	json_object_object_add(obj, "sm_lid", int_or_null(port->sm_lid));
	json_object_object_add(obj, "sm_sl", int_or_null(port->sm_sl));
	json_object_object_add(obj, "lmc", int_or_null(port->lmc));
	json_object_object_add(obj, "cap_mask", hex_or_null(port->cap_mask, 8));
	json_object_object_add(obj, "gid0", string_or_null(port->gid0));
	json_object_object_add(obj, "netdev", string_or_null(port->netdev));
	add_port_counters(obj, port);
	return obj;
}

static json_object *json_pci(const struct rk_pci *pci)
{
	json_object *obj;

	if (!pci->address[0])
		return NULL;
	obj = json_object_new_object();
	json_object_object_add(obj, "address", json_object_new_string(pci->address));
	json_object_object_add(obj, "vendor_id", hex_or_null(pci->vendor, 4));
	json_object_object_add(obj, "device_id", hex_or_null(pci->device_id, 4));
	json_object_object_add(obj, "numa_node", int_or_null(pci->numa_node));
	json_object_object_add(obj, "link_speed_gts", number_or_null(pci->cur_speed_gts));
	json_object_object_add(obj, "max_link_speed_gts", number_or_null(pci->max_speed_gts));
	json_object_object_add(obj, "link_width", int_or_null(pci->cur_width));
	json_object_object_add(obj, "max_link_width", int_or_null(pci->max_width));
	json_object_object_add(obj, "sriov_numvfs", int_or_null(pci->sriov_numvfs));
	json_object_object_add(obj, "sriov_totalvfs", int_or_null(pci->sriov_totalvfs));
	return obj;
}

static json_object *json_device_status(const struct rk_device *dev,
				       const struct port_filter *filter)
{
	json_object *obj = json_object_new_object();
	json_object *ports = json_object_new_array();

	json_object_object_add(obj, "name", json_object_new_string(dev->name));
	json_object_object_add(obj, "vanished", json_object_new_boolean(dev->vanished));
	json_object_object_add(obj, "node_type", string_or_null(dev->node_type_name));
	json_object_object_add(obj, "node_guid", string_or_null(dev->node_guid));
	json_object_object_add(obj, "sys_image_guid", string_or_null(dev->sys_image_guid));
	json_object_object_add(obj, "fw_ver", string_or_null(dev->fw_ver));
	json_object_object_add(obj, "hca_type", string_or_null(dev->hca_type));
	json_object_object_add(obj, "board_id", string_or_null(dev->board_id));
	json_object_object_add(obj, "hw_rev", string_or_null(dev->hw_rev));
	json_object_object_add(obj, "node_desc", string_or_null(dev->node_desc));
	json_object_object_add(obj, "num_ports", json_object_new_int((int)dev->nports));
	json_object_object_add(obj, "pci", json_pci(&dev->pci));
	json_object_object_add(obj, "hw_counters", counter_values(&dev->hw_counters));
	for (unsigned p = 0; p < dev->nports; p++)
		if (filter_matches(filter, dev, &dev->ports[p]))
			json_object_array_add(ports, json_port_status(&dev->ports[p]));
	json_object_object_add(obj, "ports", ports);
	return obj;
}

json_object *json_status(const struct rk_host *host, const struct port_filter *filter)
{
	json_object *doc = json_object_new_object();
	json_object *devices = json_object_new_array();

	for (size_t i = 0; i < host->ndevices; i++)
		if (filter_matches(filter, &host->devices[i], NULL))
			json_object_array_add(devices,
					      json_device_status(&host->devices[i], filter));
	json_object_object_add(doc, "devices", devices);
	return doc;
}

static json_object *json_port_counters(const struct rk_port *port, double interval)
{
	json_object *obj = json_object_new_object();

	json_object_object_add(obj, "port", json_object_new_int((int)port->num));
	add_port_counters(obj, port);
	json_object_object_add(obj, "rates", counter_rates(&port->counters, interval));
	json_object_object_add(obj, "hw_rates", counter_rates(&port->hw_counters, interval));
	return obj;
}

static json_object *json_device_counters(const struct rk_device *dev,
					 const struct port_filter *filter, double interval)
{
	json_object *obj = json_object_new_object();
	json_object *ports = json_object_new_array();

	json_object_object_add(obj, "name", json_object_new_string(dev->name));
	json_object_object_add(obj, "vanished", json_object_new_boolean(dev->vanished));
	json_object_object_add(obj, "hw_counters", counter_values(&dev->hw_counters));
	json_object_object_add(obj, "hw_rates", counter_rates(&dev->hw_counters, interval));
	for (unsigned p = 0; p < dev->nports; p++)
		if (filter_matches(filter, dev, &dev->ports[p]))
			json_object_array_add(ports, json_port_counters(&dev->ports[p], interval));
	json_object_object_add(obj, "ports", ports);
	return obj;
}

json_object *json_counters(const struct rk_host *host, const struct port_filter *filter)
{
	json_object *doc = json_object_new_object();
	json_object *devices = json_object_new_array();
	double interval = rk_host_interval(host);

	json_object_object_add(doc, "interval",
			       interval > 0 ? json_object_new_double(interval) : NULL);
	for (size_t i = 0; i < host->ndevices; i++)
		if (filter_matches(filter, &host->devices[i], NULL))
			json_object_array_add(
			    devices, json_device_counters(&host->devices[i], filter, interval));
	json_object_object_add(doc, "devices", devices);
	return doc;
}

json_object *json_findings_array(const struct rk_findings *findings)
{
	json_object *array = json_object_new_array();

	for (size_t i = 0; i < findings->count; i++) {
		const struct rk_finding *f = &findings->items[i];
		json_object *obj = json_object_new_object();

		json_object_object_add(obj, "severity",
				       json_object_new_string(rk_severity_name(f->severity)));
		json_object_object_add(obj, "code", json_object_new_string(f->code));
		json_object_object_add(obj, "subject", json_object_new_string(f->subject));
		json_object_object_add(obj, "message", json_object_new_string(f->message));
		json_object_object_add(obj, "remedy", json_object_new_string(f->remedy));
		json_object_array_add(array, obj);
	}
	return array;
}

json_object *json_findings(const struct rk_findings *findings)
{
	json_object *doc = json_object_new_object();

	json_object_object_add(doc, "findings", json_findings_array(findings));
	json_object_object_add(
	    doc, "worst", json_object_new_string(rk_severity_name(rk_findings_worst(findings))));
	return doc;
}

void json_print(json_object *doc, bool pretty)
{
	int flags =
	    pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN;

	puts(json_object_to_json_string_ext(doc, flags | JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
	json_object_put(doc);
}
