/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "text_out.h"

#include <string.h>

static const char *or_dash(const char *text)
{
	return text[0] ? text : "-";
}

static void text_pci(FILE *out, const struct rk_pci *pci)
{
	if (!pci->address[0]) {
		fprintf(out, "\tPCI:               none (virtual device)\n");
		return;
	}
	fprintf(out, "\tPCI:               %s [%04x:%04x] NUMA node %d\n", pci->address,
		pci->vendor < 0 ? 0 : pci->vendor, pci->device_id < 0 ? 0 : pci->device_id,
		pci->numa_node);
	fprintf(out, "\tPCIe link:         %s x%d (max %s x%d)\n", or_dash(pci->cur_speed),
		pci->cur_width, or_dash(pci->max_speed), pci->max_width);
	if (pci->sriov_totalvfs >= 0)
		fprintf(out, "\tSR-IOV VFs:        %d of %d\n", pci->sriov_numvfs,
			pci->sriov_totalvfs);
}

static void text_lid(FILE *out, const char *label, int64_t value)
{
	if (value >= 0)
		fprintf(out, "\t\t%-17s%lld\n", label, (long long)value);
	else
		fprintf(out, "\t\t%-17s-\n", label);
}

static void text_port(FILE *out, const struct rk_port *port)
{
	fprintf(out, "\tPort %u:\n", port->num);
	fprintf(out, "\t\tState:           %s\n", or_dash(port->state_name));
	fprintf(out, "\t\tPhysical state:  %s\n", or_dash(port->phys_state_name));
	fprintf(out, "\t\tRate:            %s\n", or_dash(port->rate_text));
	fprintf(out, "\t\tLink layer:      %s\n", or_dash(port->link_layer));
	text_lid(out, "Base lid:", port->lid);
	text_lid(out, "LMC:", port->lmc);
	text_lid(out, "SM lid:", port->sm_lid);
	text_lid(out, "SM SL:", port->sm_sl);
	if (port->cap_mask >= 0)
		fprintf(out, "\t\tCapability mask: 0x%08llx\n", (unsigned long long)port->cap_mask);
	fprintf(out, "\t\tGID 0:           %s\n", or_dash(port->gid0));
	if (port->netdev[0])
		fprintf(out, "\t\tNetdev:          %s\n", port->netdev);
}

void text_status(FILE *out, const struct rk_host *host, const struct port_filter *filter)
{
	if (host->ndevices == 0)
		fprintf(out, "No RDMA devices found.\n");
	for (size_t i = 0; i < host->ndevices; i++) {
		const struct rk_device *dev = &host->devices[i];

		if (!filter_matches(filter, dev, NULL))
			continue;
		fprintf(out, "%s '%s'%s\n", dev->node_type_name[0] ? dev->node_type_name : "Device",
			dev->name, dev->vanished ? " (vanished)" : "");
		fprintf(out, "\tHCA type:          %s\n", or_dash(dev->hca_type));
		fprintf(out, "\tFirmware version:  %s\n", or_dash(dev->fw_ver));
		fprintf(out, "\tHardware version:  %s\n", or_dash(dev->hw_rev));
		fprintf(out, "\tBoard id:          %s\n", or_dash(dev->board_id));
		fprintf(out, "\tNode GUID:         %s\n", or_dash(dev->node_guid));
		fprintf(out, "\tSystem image GUID: %s\n", or_dash(dev->sys_image_guid));
		fprintf(out, "\tNumber of ports:   %u\n", dev->nports);
		text_pci(out, &dev->pci);
		for (unsigned p = 0; p < dev->nports; p++)
			if (filter_matches(filter, dev, &dev->ports[p]))
				text_port(out, &dev->ports[p]);
	}
}

static const char *state_flag(enum rk_value_state state)
{
	switch (state) {
	case RK_VALUE_SATURATED:
		return "saturated";
	case RK_VALUE_UNAVAILABLE:
		return "unavailable";
	default:
		return "";
	}
}

static void text_counter_set(FILE *out, const struct rk_counter_set *set, double interval)
{
	for (size_t i = 0; i < set->count; i++) {
		const struct rk_counter *c = &set->items[i];

		if (c->state == RK_VALUE_UNAVAILABLE)
			fprintf(out, "  %-34s %20s %-8s", c->name, "-", "");
		else
			fprintf(out, "  %-34s %20llu %-8s", c->name, (unsigned long long)c->value,
				c->metric->unit);
		if (interval > 0 && c->has_delta)
			fprintf(out, " %14.1f/s", (double)c->delta / interval);
		fprintf(out, " %s\n", state_flag(c->state));
	}
}

void text_counters(FILE *out, const struct rk_host *host, const struct port_filter *filter)
{
	double interval = rk_host_interval(host);

	for (size_t i = 0; i < host->ndevices; i++) {
		const struct rk_device *dev = &host->devices[i];

		if (!filter_matches(filter, dev, NULL))
			continue;
		if (dev->vanished) {
			fprintf(out, "%s: vanished\n", dev->name);
			continue;
		}
		for (unsigned p = 0; p < dev->nports; p++) {
			if (!filter_matches(filter, dev, &dev->ports[p]))
				continue;
			fprintf(out, "%s port %u:\n", dev->name, dev->ports[p].num);
			text_counter_set(out, &dev->ports[p].counters, interval);
			text_counter_set(out, &dev->ports[p].hw_counters, interval);
		}
		if (dev->hw_counters.count && !filter->one_port) {
			fprintf(out, "%s device:\n", dev->name);
			text_counter_set(out, &dev->hw_counters, interval);
		}
	}
}

void text_findings(FILE *out, const struct rk_findings *findings)
{
	size_t by_severity[3] = {0};

	for (size_t i = 0; i < findings->count; i++) {
		const struct rk_finding *f = &findings->items[i];

		by_severity[f->severity]++;
		fprintf(out, "%-8s %s  %s\n", rk_severity_name(f->severity), f->code, f->subject);
		fprintf(out, "%-8s %s\n%-8s -> %s\n", "", f->message, "", f->remedy);
	}
	fprintf(out, "%s: %zu critical, %zu warning, %zu ok\n",
		rk_severity_name(rk_findings_worst(findings)), by_severity[RK_SEVERITY_CRITICAL],
		by_severity[RK_SEVERITY_WARNING], by_severity[RK_SEVERITY_OK]);
}
