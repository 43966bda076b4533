/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "host_out.h"

#include "facts_out.h"
#include "rdmakit/verbs.h"
#include "verbs_out.h"

#include <stdio.h>
#include <string.h>

/* The order of the documents' members (the table's differs in places). */
static const struct fact_field port_fields[] = {
    {RK_FACT_PORT_STATE_NAME, "\t\tState:           %s\n", STYLE_PLAIN},
    {RK_FACT_PORT_PHYS_STATE_NAME, "\t\tPhysical state:  %s\n", STYLE_PLAIN},
    {RK_FACT_PORT_RATE, "\t\tRate:            %g Gb/s\n", STYLE_PLAIN},
    {RK_FACT_PORT_WIDTH, "\t\tWidth:           %s\n", STYLE_LANES},
    {RK_FACT_PORT_SPEED, "\t\tSpeed:           %s\n", STYLE_PLAIN},
    {RK_FACT_PORT_LINK_LAYER, "\t\tLink layer:      %s\n", STYLE_PLAIN},
    {RK_FACT_PORT_LID, "\t\tBase lid:        %g\n", STYLE_PLAIN},
    {RK_FACT_PORT_SM_LID, "\t\tSM lid:          %g\n", STYLE_PLAIN},
    {RK_FACT_PORT_SM_SL, "\t\tSM SL:           %g\n", STYLE_PLAIN},
    {RK_FACT_PORT_LMC, "\t\tLMC:             %g\n", STYLE_PLAIN},
    {RK_FACT_PORT_CAP_MASK, "\t\tCapability mask: %s\n", STYLE_MASK},
    {RK_FACT_PORT_GID0, "\t\tGID 0:           %s\n", STYLE_PLAIN},
    {RK_FACT_PORT_NETDEV, "\t\tNetdev:          %s\n", STYLE_PLAIN},
};

static const struct fact_field device_fields[] = {
    {RK_FACT_DEVICE_NODE_TYPE_NAME, "\tNode type:         %s\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_NODE_GUID, "\tNode GUID:         %s\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_SYS_IMAGE_GUID, "\tSystem image GUID: %s\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_FW_VER, "\tFirmware version:  %s\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_HCA_TYPE, "\tHCA type:          %s\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_BOARD_ID, "\tBoard id:          %s\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_HW_REV, "\tHardware version:  %s\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_NODE_DESC, "\tNode description:  %s\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_NUM_PORTS, "\tNumber of ports:   %g\n", STYLE_PLAIN},
};

static const struct fact_field pci_fields[] = {
    {RK_FACT_DEVICE_PCI_ADDRESS, "\tPCI:               %s", STYLE_PLAIN},
    {RK_FACT_DEVICE_PCI_VENDOR, " [%s", STYLE_PCI_ID},
    {RK_FACT_DEVICE_PCI_DEVICE, ":%s]", STYLE_PCI_ID},
    {RK_FACT_DEVICE_NUMA_NODE, " NUMA node %g\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_PCIE_SPEED, "\tPCIe link:         %g GT/s", STYLE_PLAIN},
    {RK_FACT_DEVICE_PCIE_MAX_SPEED, " (max %g GT/s)", STYLE_PLAIN},
    {RK_FACT_DEVICE_PCIE_WIDTH, ", x%g", STYLE_PLAIN},
    {RK_FACT_DEVICE_PCIE_MAX_WIDTH, " (max x%g)\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_SRIOV_NUMVFS, "\tSR-IOV VFs:        %g", STYLE_PLAIN},
    {RK_FACT_DEVICE_SRIOV_TOTALVFS, " of %g\n", STYLE_PLAIN},
};

static const struct fact_field vanished_field = {RK_FACT_DEVICE_VANISHED, " (vanished)",
						 STYLE_FLAG};

/* {name: value} of a counter set (null when unavailable), one row each in text. */
static void print_counter_values(struct printer *p, const char *key,
				 const struct rk_counter_set *set)
{
	print_open_object(p, key);
	for (size_t i = 0; i < set->count; i++) {
		const struct rk_counter *c = &set->items[i];

		print_text(p, "\t\t%-34s", c->name);
		if (c->state == RK_VALUE_UNAVAILABLE)
			print_null(p, PRINT_ANY, c->name, " %20s\n");
		else
			print_uint(p, PRINT_ANY, c->name, " %20llu", c->value);
		if (c->state != RK_VALUE_UNAVAILABLE)
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
		print_text(p, "\t\t%-34s", c->name);
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

/* [names] of the port's counters in a state, as a line of text ("saturated: a b"). */
static void print_names(struct printer *p, const char *key, const struct rk_port *port,
			enum rk_value_state state)
{
	print_open_array(p, key);
	print_text(p, "\t\t%s:", key);
	print_names_in_state(p, &port->counters, state);
	print_names_in_state(p, &port->hw_counters, state);
	print_text(p, "\n");
	print_close(p);
}

static void print_port_counters(struct printer *p, const struct rk_port *port)
{
	print_counter_values(p, "counters", &port->counters);
	print_counter_values(p, "hw_counters", &port->hw_counters);
	print_names(p, "saturated", port, RK_VALUE_SATURATED);
	print_names(p, "unavailable", port, RK_VALUE_UNAVAILABLE);
}

static void print_port_status(struct printer *p, const struct rk_device *dev,
			      const struct rk_port *port, const struct rk_verbs_device *verbs)
{
	const struct rk_verbs_port *verbs_port =
	    verbs ? rk_verbs_find_port(verbs, port->num) : NULL;

	print_open_object(p, NULL);
	print_uint(p, PRINT_ANY, "port", "\tPort %llu:\n", port->num);
	print_facts(p, FIELDS(port_fields), &(struct fact_item){.dev = dev, .port = port});
	print_port_counters(p, port);
	if (verbs_port)
		print_verbs_port(p, verbs_port);
	print_close(p);
}

static void print_pci(struct printer *p, const struct rk_device *dev)
{
	if (!dev->pci.address[0]) {
		print_null(p, PRINT_JSON, "pci", NULL);
		print_text(p, "\tPCI:               none (virtual device)\n");
		return;
	}
	print_open_object(p, "pci");
	print_facts(p, FIELDS(pci_fields), &(struct fact_item){.dev = dev});
	print_close(p);
}

/* "CA 'mlx5_0' (vanished)": the device's name and whether it vanished. */
static void print_device_name(struct printer *p, const struct rk_device *dev)
{
	print_string(p, PRINT_ANY, "name", "%s", dev->name);
	print_fact(p, &vanished_field, &(struct fact_item){.dev = dev});
}

static void print_device_status(struct printer *p, const struct rk_device *dev,
				const struct port_filter *filter, bool with_verbs)
{
	struct rk_verbs_device verbs;
	bool have_verbs = with_verbs && rk_verbs_query(dev->name, &verbs) == 0;

	print_open_object(p, NULL);
	print_text(p, "%s '", dev->node_type_name[0] ? dev->node_type_name : "Device");
	print_device_name(p, dev);
	print_text(p, "\n");
	print_facts(p, FIELDS(device_fields), &(struct fact_item){.dev = dev});
	print_pci(p, dev);
	print_text(p, "\tDevice counters:\n");
	print_counter_values(p, "hw_counters", &dev->hw_counters);
	print_open_array(p, "ports");
	for (unsigned i = 0; i < dev->nports; i++)
		if (filter_matches(filter, dev, &dev->ports[i]))
			print_port_status(p, dev, &dev->ports[i], have_verbs ? &verbs : NULL);
	print_close(p);
	print_close(p);
	if (have_verbs)
		rk_verbs_device_free(&verbs);
}

void print_status(struct printer *p, const struct rk_host *host, const struct port_filter *filter,
		  bool verbs)
{
	print_open_object(p, NULL);
	print_open_array(p, "devices");
	if (host->ndevices == 0)
		print_text(p, "No RDMA devices found.\n");
	for (size_t i = 0; i < host->ndevices; i++)
		if (filter_matches(filter, &host->devices[i], NULL))
			print_device_status(p, &host->devices[i], filter, verbs);
	print_close(p);
	print_close(p);
}

static void print_port_sample(struct printer *p, const struct rk_device *dev,
			      const struct rk_port *port, double interval)
{
	print_open_object(p, NULL);
	print_text(p, "%s ", dev->name);
	print_uint(p, PRINT_ANY, "port", "port %llu:\n", port->num);
	print_port_counters(p, port);
	if (interval > 0)
		print_text(p, "\t  per second:\n");
	print_counter_rates(p, "rates", &port->counters, interval);
	print_counter_rates(p, "hw_rates", &port->hw_counters, interval);
	print_close(p);
}

static void print_device_sample(struct printer *p, const struct rk_device *dev,
				const struct port_filter *filter, double interval)
{
	print_open_object(p, NULL);
	print_device_name(p, dev);
	print_text(p, ":\n\tDevice counters:\n");
	print_counter_values(p, "hw_counters", &dev->hw_counters);
	if (interval > 0)
		print_text(p, "\t  per second:\n");
	print_counter_rates(p, "hw_rates", &dev->hw_counters, interval);
	print_open_array(p, "ports");
	for (unsigned i = 0; i < dev->nports; i++)
		if (filter_matches(filter, dev, &dev->ports[i]))
			print_port_sample(p, dev, &dev->ports[i], interval);
	print_close(p);
	print_close(p);
}

void print_counters(struct printer *p, const struct rk_host *host, const struct port_filter *filter)
{
	double interval = rk_host_interval(host);

	print_open_object(p, NULL);
	print_double_or_null(p, PRINT_ANY, "interval", "Interval (s): %.3f\n",
			     interval > 0 ? interval : -1);
	print_open_array(p, "devices");
	for (size_t i = 0; i < host->ndevices; i++)
		if (filter_matches(filter, &host->devices[i], NULL))
			print_device_sample(p, &host->devices[i], filter, interval);
	print_close(p);
	print_close(p);
}

void print_findings_array(struct printer *p, const struct rk_findings *findings)
{
	print_open_array(p, "findings");
	for (size_t i = 0; i < findings->count; i++) {
		const struct rk_finding *f = &findings->items[i];

		print_open_object(p, NULL);
		print_string(p, PRINT_ANY, "severity", "%-8s ", rk_severity_name(f->severity));
		print_string(p, PRINT_ANY, "code", "%s", f->code);
		print_string(p, PRINT_ANY, "subject", "  %s\n", f->subject);
		print_string(p, PRINT_ANY, "message", "         %s\n", f->message);
		print_string(p, PRINT_ANY, "remedy", "         -> %s\n", f->remedy);
		print_close(p);
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
