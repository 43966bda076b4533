/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* This host's devices, ports, counters and findings, through the one writer (print.h). */
#include "host_out.h"

#include "facts_out.h"
#include "rdmakit/verbs.h"
#include "verbs_out.h"

#include <stdio.h>
#include <string.h>

/* {name: value} of a counter set (null when unavailable), under a heading in text. */
static void print_counter_values(struct printer *p, const char *key, const char *heading,
				 const struct rk_counter_set *set)
{
	print_open_object(p, key);
	if (set->count)
		print_text(p, "%s", heading);
	for (size_t i = 0; i < set->count; i++) {
		const struct rk_counter *c = &set->items[i];

		print_text(p, "\t\t  %-32s", c->name);
		if (c->state == RK_VALUE_UNAVAILABLE) {
			print_null(p, PRINT_ANY, c->name, " %20s\n");
			continue;
		}
		print_uint(p, PRINT_ANY, c->name, " %20llu", c->value);
		print_text(p, " %s\n", c->metric->unit);
	}
	print_close(p);
}

/* {name: per second} of the counters that changed between two samples. */
static void print_counter_rates(struct printer *p, const char *key,
				const struct rk_counter_set *set, double interval)
{
	print_open_object(p, key);
	for (size_t i = 0; i < set->count && interval > 0; i++) {
		const struct rk_counter *c = &set->items[i];

		if (!c->has_delta)
			continue;
		print_text(p, "\t\t  %-32s", c->name);
		print_double(p, PRINT_ANY, c->name, " %20.1f/s\n", (double)c->delta / interval);
	}
	print_close(p);
}

static void print_names_in_state(struct printer *p, const struct rk_counter_set *set,
				 enum rk_value_state state)
{
	for (size_t i = 0; i < set->count; i++)
		if (set->items[i].state == state)
			print_string(p, PRINT_ANY, NULL, " %s", set->items[i].name);
}

static size_t count_in_state(const struct rk_counter_set *set, enum rk_value_state state)
{
	size_t n = 0;

	for (size_t i = 0; i < set->count; i++)
		n += set->items[i].state == state;
	return n;
}

/* [names] of the port's counters in a state, as a line of text ("saturated: a b") when there
 * are any and the text shows counters. */
static void print_names(struct printer *p, const char *key, const struct rk_port *port,
			enum rk_value_state state, bool shown)
{
	bool any =
	    count_in_state(&port->counters, state) || count_in_state(&port->hw_counters, state);

	print_open_array(p, key);
	print_text_off(p, !shown || !any);
	print_text(p, "\t\t%s:", key);
	print_names_in_state(p, &port->counters, state);
	print_names_in_state(p, &port->hw_counters, state);
	print_text(p, "\n");
	print_text_off(p, false);
	print_close(p);
}

/* The port's counters in JSON, and in text when shown. */
static void print_port_counters(struct printer *p, const struct rk_port *port, bool shown)
{
	print_text_off(p, !shown);
	print_counter_values(p, "counters", "\t\tCounters:\n", &port->counters);
	print_counter_values(p, "hw_counters", "\t\tDriver counters:\n", &port->hw_counters);
	print_text_off(p, false);
	print_names(p, "saturated", port, RK_VALUE_SATURATED, shown);
	print_names(p, "unavailable", port, RK_VALUE_UNAVAILABLE, shown);
}

static bool error_counted(const struct rk_counter *c)
{
	return c->metric->is_error && c->state != RK_VALUE_UNAVAILABLE && c->value != 0;
}

static size_t count_errors(const struct rk_counter_set *set)
{
	size_t n = 0;

	for (size_t i = 0; i < set->count; i++)
		n += error_counted(&set->items[i]);
	return n;
}

/* Text: ", name" of each error counter of the set that is not zero, "(saturated)" after one
 * stuck at its maximum; *sep: what goes before the next name. */
static void print_error_names(struct printer *p, const struct rk_counter_set *set, const char **sep)
{
	for (size_t i = 0; i < set->count; i++) {
		const struct rk_counter *c = &set->items[i];

		if (!error_counted(c))
			continue;
		print_text(p, "%s%s%s", *sep, c->name,
			   c->state == RK_VALUE_SATURATED ? "(saturated)" : "");
		*sep = ", ";
	}
}

/* Text, instead of the counters: one line naming the port's error counters that are not zero
 * (none: no line), and one counting those that could not be read. */
static void print_counter_summary(struct printer *p, const struct rk_device *dev,
				  const struct rk_port *port)
{
	size_t errors = count_errors(&port->counters) + count_errors(&port->hw_counters);
	size_t unavailable = count_in_state(&port->counters, RK_VALUE_UNAVAILABLE) +
			     count_in_state(&port->hw_counters, RK_VALUE_UNAVAILABLE);
	const char *sep = "";

	if (errors) {
		print_text(p, "\t\tErrors:          %zu counter%s non-zero (", errors,
			   errors == 1 ? "" : "s");
		print_error_names(p, &port->counters, &sep);
		print_error_names(p, &port->hw_counters, &sep);
		print_text(p, "); rdmakit counters %s:%u for all\n", dev->name, port->num);
	}
	if (unavailable)
		print_text(
		    p, "\t\tUnreadable:      %zu counter%s; rdmakit counters %s:%u lists them\n",
		    unavailable, unavailable == 1 ? "" : "s", dev->name, port->num);
}

static void print_port_status(struct printer *p, const struct rk_device *dev,
			      const struct rk_port *port, const struct rk_verbs_device *verbs,
			      bool counters)
{
	const struct rk_verbs_port *verbs_port =
	    verbs ? rk_verbs_find_port(verbs, port->num) : NULL;

	print_open_object(p, NULL);
	print_uint(p, PRINT_ANY, "port", "\tPort %llu:\n", port->num);
	print_port_facts(p, dev, port);
	print_port_counters(p, port, counters);
	if (!counters)
		print_counter_summary(p, dev, port);
	if (verbs_port)
		print_verbs_port(p, dev->name, verbs_port);
	print_close(p);
}

/* The device's name (fmt: its text) and whether it vanished. */
static void print_device_name(struct printer *p, const char *fmt, const struct rk_device *dev)
{
	print_string(p, PRINT_ANY, "name", fmt, dev->name);
	print_vanished(p, dev);
}

static void print_device_status(struct printer *p, const struct rk_device *dev,
				const struct port_filter *filter, bool with_verbs, bool counters)
{
	struct rk_verbs_device verbs;
	bool have_verbs = with_verbs && print_is_json(p) && rk_verbs_query(dev->name, &verbs) == 0;

	print_open_object(p, NULL);
	print_text(p, "%s '", dev->node_type_name[0] ? dev->node_type_name : "Device");
	print_device_name(p, "%s'", dev);
	print_text(p, "\n");
	print_device_facts(p, dev);
	print_pci_facts(p, dev);
	print_text_off(p, !counters);
	print_counter_values(p, "hw_counters", "\tDevice counters:\n", &dev->hw_counters);
	print_text_off(p, false);
	print_open_array(p, "ports");
	for (unsigned i = 0; i < dev->nports; i++)
		if (filter_matches(filter, dev, &dev->ports[i]))
			print_port_status(p, dev, &dev->ports[i], have_verbs ? &verbs : NULL,
					  counters);
	print_close(p);
	print_close(p);
	if (have_verbs)
		rk_verbs_device_free(&verbs);
}

/* The text's verbs block after the devices: each port's line and GID table (JSON has them in
 * each port). */
static void print_verbs_block(struct printer *p, const struct rk_host *host,
			      const struct port_filter *filter)
{
	for (size_t i = 0; i < host->ndevices; i++) {
		const struct rk_device *dev = &host->devices[i];
		struct rk_verbs_device verbs;

		if (!filter_matches(filter, dev, NULL) || rk_verbs_query(dev->name, &verbs) != 0)
			continue;
		for (size_t n = 0; n < verbs.nports; n++)
			if (!filter->one_port || filter->port == verbs.ports[n].num)
				print_verbs_port(p, verbs.name, &verbs.ports[n]);
		rk_verbs_device_free(&verbs);
	}
}

/* The text line that says why a host shows no device (none listed, or none readable). */
static void print_no_devices(struct printer *p, const struct rk_host *host)
{
	if (host->ndevices == 0 && host->nunreadable == 0)
		print_text(p, "No RDMA devices found.\n");
	else if (host->ndevices == 0)
		print_text(p, "No RDMA device could be read (%zu listed: see the warnings).\n",
			   host->nunreadable);
}

void print_status(struct printer *p, const struct rk_host *host, const struct port_filter *filter,
		  bool verbs, bool counters)
{
	print_open_object(p, NULL);
	print_open_array(p, "devices");
	print_no_devices(p, host);
	for (size_t i = 0; i < host->ndevices; i++)
		if (filter_matches(filter, &host->devices[i], NULL))
			print_device_status(p, &host->devices[i], filter, verbs, counters);
	print_close(p);
	print_close(p);
	if (verbs && !print_is_json(p))
		print_verbs_block(p, host, filter);
}

static void print_port_sample(struct printer *p, const struct rk_port *port, double interval)
{
	print_open_object(p, NULL);
	print_uint(p, PRINT_ANY, "port", "\tPort %llu:\n", port->num);
	print_port_counters(p, port, true);
	if (interval > 0)
		print_text(p, "\t\tPer second:\n");
	print_counter_rates(p, "rates", &port->counters, interval);
	print_counter_rates(p, "hw_rates", &port->hw_counters, interval);
	print_close(p);
}

static void print_device_sample(struct printer *p, const struct rk_device *dev,
				const struct port_filter *filter, double interval)
{
	print_open_object(p, NULL);
	print_device_name(p, "%s", dev);
	print_text(p, ":\n");
	print_counter_values(p, "hw_counters", "\tDevice counters:\n", &dev->hw_counters);
	if (interval > 0)
		print_text(p, "\tDevice counters per second:\n");
	print_counter_rates(p, "hw_rates", &dev->hw_counters, interval);
	print_open_array(p, "ports");
	for (unsigned i = 0; i < dev->nports; i++)
		if (filter_matches(filter, dev, &dev->ports[i]))
			print_port_sample(p, &dev->ports[i], interval);
	print_close(p);
	print_close(p);
}

void print_counters(struct printer *p, const struct rk_host *host, const struct port_filter *filter)
{
	double interval = rk_host_interval(host);

	print_open_object(p, NULL);
	print_double_or_null(p, PRINT_ANY, "interval", interval > 0 ? "Interval: %.3f s\n" : NULL,
			     interval > 0 ? interval : -1);
	print_open_array(p, "devices");
	print_no_devices(p, host);
	for (size_t i = 0; i < host->ndevices; i++)
		if (filter_matches(filter, &host->devices[i], NULL))
			print_device_sample(p, &host->devices[i], filter, interval);
	print_close(p);
	print_close(p);
}

void print_finding_start(struct printer *p, const struct rk_finding *f)
{
	print_open_object(p, NULL);
	print_string(p, PRINT_ANY, "severity", "%-8s ", rk_severity_name(f->severity));
	print_string(p, PRINT_ANY, "code", "%s", f->code);
}

void print_finding_end(struct printer *p, const struct rk_finding *f, const char *remedy_fmt)
{
	if (f->node_guid) {
		print_guid(p, PRINT_JSON, "guid", NULL, f->node_guid);
		print_int(p, PRINT_JSON, "port", NULL, f->port);
	}
	print_string(p, PRINT_ANY, "message", "         %s\n", f->message);
	print_string(p, PRINT_ANY, "remedy", remedy_fmt, f->remedy);
	print_close(p);
}

void print_findings_array(struct printer *p, const struct rk_findings *findings)
{
	print_open_array(p, "findings");
	for (size_t i = 0; i < findings->count; i++) {
		print_finding_start(p, &findings->items[i]);
		print_string(p, PRINT_ANY, "subject", "  %s\n", findings->items[i].subject);
		print_finding_end(p, &findings->items[i], "         -> %s\n");
	}
	print_close(p);
}

void print_findings_summary(struct printer *p, const struct rk_findings *findings)
{
	size_t by_severity[3] = {0};

	for (size_t i = 0; i < findings->count; i++)
		by_severity[findings->items[i].severity]++;
	print_string(p, PRINT_ANY, "worst", "%s: ", rk_severity_name(rk_findings_worst(findings)));
	print_text(p, "%zu critical, %zu warning, %zu ok\n", by_severity[RK_SEVERITY_CRITICAL],
		   by_severity[RK_SEVERITY_WARNING], by_severity[RK_SEVERITY_OK]);
}

void print_findings(struct printer *p, const struct rk_findings *findings)
{
	print_open_object(p, NULL);
	print_findings_array(p, findings);
	print_findings_summary(p, findings);
	print_close(p);
}
