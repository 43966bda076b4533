/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The host rules: ports, rates, PCIe, counters and firmware of the devices of one host. */
#include "rdmakit/health.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void port_subject(const struct rk_device *dev, const struct rk_port *port, char *buf,
			 size_t size)
{
	snprintf(buf, size, "%s:%u", dev->name, port->num);
}

static bool is_infiniband(const struct rk_port *port)
{
	return strcmp(port->link_layer, "InfiniBand") == 0;
}

static int check_inactive_port(const struct rk_device *dev, const struct rk_port *port,
			       struct rk_findings *out)
{
	char subject[80];

	port_subject(dev, port, subject, sizeof(subject));
	if ((port->state == RK_PORT_INIT || port->state == RK_PORT_ARMED) &&
	    port->phys_state == RK_PHYS_LINK_UP)
		return rk_findings_add(
		    out, RK_SEVERITY_CRITICAL, "PORT_NO_SM", subject,
		    "check that opensm (or the switch's SM) is running and reachable: sminfo, "
		    "systemctl status opensm",
		    "port is %s with the physical link up: no subnet manager has configured it",
		    port->state_name);
	if (port->phys_state == RK_PHYS_POLLING)
		return rk_findings_add(out, RK_SEVERITY_WARNING, "PORT_POLLING", subject,
				       "check the cable and that the peer (switch) port is enabled",
				       "port is %s/Polling: no peer on the link", port->state_name);
	if (port->phys_state == RK_PHYS_DISABLED)
		return rk_findings_add(out, RK_SEVERITY_WARNING, "PORT_DISABLED", subject,
				       "enable it (ibportstate ... enable; for RoCE: ip link set "
				       "<netdev> up) if it should carry traffic",
				       "port is %s/Disabled: administratively down",
				       port->state_name);
	return rk_findings_add(out, RK_SEVERITY_WARNING, "PORT_DOWN", subject,
			       "check the cable, the peer port and dmesg for link events",
			       "port is %s, physical state %s",
			       port->state_name[0] ? port->state_name : "unknown",
			       port->phys_state_name[0] ? port->phys_state_name : "unknown");
}

/* A check must never report health it did not see: a port whose state could not be read is a
 * finding of its own. */
static int check_unknown_state(const struct rk_device *dev, const struct rk_port *port,
			       struct rk_findings *out)
{
	char subject[80];

	port_subject(dev, port, subject, sizeof(subject));
	return rk_findings_add(out, RK_SEVERITY_WARNING, "PORT_STATE_UNKNOWN", subject,
			       "check that the port's state attribute is readable (the driver, "
			       "or the tree given as the sysfs root); the log says what failed",
			       "port state could not be read: its health is not known");
}

static int check_port_state(const struct rk_device *dev, const struct rk_port *port,
			    struct rk_findings *out)
{
	char subject[80];

	if (port->state < 0)
		return check_unknown_state(dev, port, out);
	if (port->state != RK_PORT_ACTIVE)
		return check_inactive_port(dev, port, out);
	if (!is_infiniband(port) || port->sm_lid != 0)
		return 0;
	port_subject(dev, port, subject, sizeof(subject));
	return rk_findings_add(out, RK_SEVERITY_CRITICAL, "PORT_SM_LID_ZERO", subject,
			       "check the subnet manager (sminfo) and that this port is in its "
			       "subnet",
			       "port is ACTIVE but its SM LID is 0: no subnet manager is known");
}

/* An ACTIVE link always has a rate: one that could not be read or parsed (missing, not a file,
 * NaN, infinite, garbage) is a finding, never a silently skipped check. */
static int check_unknown_rate(const struct rk_device *dev, const struct rk_port *port,
			      struct rk_findings *out)
{
	char subject[80];

	if (port->state != RK_PORT_ACTIVE || port->rate_gbps > 0)
		return 0;
	port_subject(dev, port, subject, sizeof(subject));
	if (port->rate_text[0])
		return rk_findings_add(out, RK_SEVERITY_WARNING, "PORT_RATE_UNKNOWN", subject,
				       "check the port's rate attribute (the driver, or the tree "
				       "given as the sysfs root): it should read like "
				       "\"200 Gb/sec (4X HDR)\"",
				       "port is ACTIVE but its rate \"%.48s\" is not a link rate: "
				       "its speed was not checked",
				       port->rate_text);
	return rk_findings_add(out, RK_SEVERITY_WARNING, "PORT_RATE_UNKNOWN", subject,
			       "check that the port's rate attribute is readable (the driver, or "
			       "the tree given as the sysfs root); the log says what failed",
			       "port is ACTIVE but its rate could not be read: its speed was not "
			       "checked");
}

static bool rate_known(const struct rk_port *port)
{
	return port->state == RK_PORT_ACTIVE && port->rate_gbps > 0;
}

/* Fastest ACTIVE port of the same HCA model and link layer as port, on this host. */
static double peer_rate(const struct rk_host *host, const struct rk_device *dev,
			const struct rk_port *port)
{
	double best = 0;

	for (size_t i = 0; i < host->ndevices; i++) {
		const struct rk_device *other = &host->devices[i];

		if (other->vanished || strcmp(other->hca_type, dev->hca_type) != 0)
			continue;
		for (unsigned p = 0; p < other->nports; p++) {
			const struct rk_port *peer = &other->ports[p];

			if (peer != port && rate_known(peer) &&
			    strcmp(peer->link_layer, port->link_layer) == 0 &&
			    peer->rate_gbps > best)
				best = peer->rate_gbps;
		}
	}
	return best;
}

static int check_port_rate(const struct rk_host *host, const struct rk_device *dev,
			   const struct rk_port *port, const struct rk_health_options *options,
			   struct rk_findings *out)
{
	char subject[80];
	double peers;
	int err = 0;

	if (!rate_known(port))
		return 0;
	port_subject(dev, port, subject, sizeof(subject));
	peers = dev->hca_type[0] ? peer_rate(host, dev, port) : 0;
	if (peers > port->rate_gbps)
		err = rk_findings_add(out, RK_SEVERITY_WARNING, "RATE_BELOW_PEERS", subject,
				      "check the cable, the switch port's speed/width and the "
				      "link's error counters",
				      "link runs at %g Gb/s (%s) while other %s ports on this host "
				      "run at %g Gb/s",
				      port->rate_gbps, port->rate_text, dev->hca_type, peers);
	if (!err && options->expect_rate_gbps > 0 && port->rate_gbps < options->expect_rate_gbps)
		err = rk_findings_add(out, RK_SEVERITY_WARNING, "RATE_BELOW_EXPECTED", subject,
				      "check the cable, the switch port's speed/width and the "
				      "link's error counters",
				      "link runs at %g Gb/s (%s), below the expected %g Gb/s",
				      port->rate_gbps, port->rate_text, options->expect_rate_gbps);
	return err;
}

static int check_pcie(const struct rk_device *dev, struct rk_findings *out)
{
	const struct rk_pci *pci = &dev->pci;
	char subject[96];
	int err = 0;

	if (!pci->address[0])
		return 0;
	snprintf(subject, sizeof(subject), "%s (%s)", dev->name, pci->address);
	if (pci->cur_speed_gts > 0 && pci->max_speed_gts > pci->cur_speed_gts)
		err = rk_findings_add(out, RK_SEVERITY_WARNING, "PCIE_SPEED_DEGRADED", subject,
				      "check the slot's generation and BIOS PCIe settings; reseat "
				      "the card",
				      "PCIe link runs at %s, below the device's maximum %s",
				      pci->cur_speed, pci->max_speed);
	if (!err && pci->cur_width > 0 && pci->max_width > pci->cur_width)
		err = rk_findings_add(out, RK_SEVERITY_WARNING, "PCIE_WIDTH_DEGRADED", subject,
				      "move the card to a full-width slot or reseat it",
				      "PCIe link runs x%d of x%d: host bandwidth is cut to %d%%",
				      pci->cur_width, pci->max_width,
				      100 * pci->cur_width / pci->max_width);
	return err;
}

/* "symbol_error +3, link_downed +1" for the catalog's error counters that rose. */
static size_t list_rising_errors(const struct rk_port *port, char *buf, size_t size)
{
	size_t rising = 0, used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < port->counters.count; i++) {
		const struct rk_counter *c = &port->counters.items[i];

		if (!c->metric->is_error || !c->has_delta || c->delta == 0)
			continue;
		if (used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s +%llu",
						 rising ? ", " : "", c->name,
						 (unsigned long long)c->delta);
		rising++;
	}
	return rising;
}

static int check_rising_errors(const struct rk_device *dev, const struct rk_port *port,
			       struct rk_findings *out)
{
	char subject[80], list[256];

	if (list_rising_errors(port, list, sizeof(list)) == 0)
		return 0;
	port_subject(dev, port, subject, sizeof(subject));
	return rk_findings_add(out, RK_SEVERITY_WARNING, "ERRORS_RISING", subject,
			       "check or replace the cable and transceiver; look at the peer "
			       "port's counters too",
			       "error counters rose between samples: %s", list);
}

static int check_congestion(const struct rk_device *dev, const struct rk_port *port,
			    struct rk_findings *out)
{
	const struct rk_counter *wait = rk_counter_set_find(&port->counters, "port_xmit_wait");
	const struct rk_counter *data = rk_counter_set_find(&port->counters, "port_xmit_data");
	double words, ratio;
	char subject[80];

	if (!wait || !data || !wait->has_delta || !data->has_delta ||
	    wait->delta < RK_CONGESTION_MIN_TICKS)
		return 0;
	words = (double)data->delta / 4;
	ratio = words > 0 ? (double)wait->delta / words : 1e9;
	if (ratio < RK_CONGESTION_WARNING_RATIO)
		return 0;
	port_subject(dev, port, subject, sizeof(subject));
	return rk_findings_add(
	    out, ratio >= RK_CONGESTION_CRITICAL_RATIO ? RK_SEVERITY_CRITICAL : RK_SEVERITY_WARNING,
	    "CONGESTION", subject,
	    "look for a congested switch port or a slow receiver downstream; check QoS and "
	    "routing",
	    "port_xmit_wait rose by %llu ticks while %llu bytes were sent (%.2f ticks per "
	    "word)",
	    (unsigned long long)wait->delta, (unsigned long long)data->delta, ratio);
}

static size_t list_counters_in_state(const struct rk_counter_set *set, enum rk_value_state state,
				     char *buf, size_t size, size_t used)
{
	for (size_t i = 0; i < set->count && used < size; i++)
		if (set->items[i].state == state)
			used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
						 set->items[i].name);
	return used;
}

static int check_counter_states(const struct rk_device *dev, const struct rk_port *port,
				struct rk_findings *out)
{
	char subject[80], list[256];
	int err = 0;

	port_subject(dev, port, subject, sizeof(subject));
	if (list_counters_in_state(&port->counters, RK_VALUE_SATURATED, list, sizeof(list), 0))
		err = rk_findings_add(out, RK_SEVERITY_WARNING, "COUNTER_SATURATED", subject,
				      "record the values, then clear the port's counters "
				      "(perfquery -R) so they count again",
				      "counters stuck at their maximum: %s", list);
	if (!err &&
	    list_counters_in_state(&port->counters, RK_VALUE_UNAVAILABLE, list, sizeof(list), 0))
		err = rk_findings_add(out, RK_SEVERITY_OK, "COUNTERS_UNAVAILABLE", subject,
				      "nothing to do unless you need these counters",
				      "counters the driver cannot report: %s", list);
	return err;
}

static int check_port(const struct rk_host *host, const struct rk_device *dev,
		      const struct rk_port *port, const struct rk_health_options *options,
		      struct rk_findings *out)
{
	int err = check_port_state(dev, port, out);

	if (!err)
		err = check_unknown_rate(dev, port, out);
	if (!err)
		err = check_port_rate(host, dev, port, options, out);
	if (!err)
		err = check_rising_errors(dev, port, out);
	if (!err)
		err = check_congestion(dev, port, out);
	if (!err)
		err = check_counter_states(dev, port, out);
	return err;
}

/* Devices of the same model as dev with another firmware version, listed into buf. */
static size_t list_firmware(const struct rk_host *host, const struct rk_device *dev, char *buf,
			    size_t size)
{
	size_t differing = 0, used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < host->ndevices; i++) {
		const struct rk_device *other = &host->devices[i];

		if (other->vanished || strcmp(other->hca_type, dev->hca_type) != 0)
			continue;
		if (strcmp(other->fw_ver, dev->fw_ver) != 0)
			differing++;
		if (used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s %s",
						 used ? ", " : "", other->name, other->fw_ver);
	}
	return differing;
}

static bool first_of_model(const struct rk_host *host, const struct rk_device *dev)
{
	for (const struct rk_device *other = host->devices; other < dev; other++)
		if (!other->vanished && strcmp(other->hca_type, dev->hca_type) == 0)
			return false;
	return true;
}

static int check_firmware(const struct rk_host *host, const struct rk_device *dev,
			  struct rk_findings *out)
{
	char list[256];

	if (!dev->hca_type[0] || !dev->fw_ver[0] || !first_of_model(host, dev) ||
	    list_firmware(host, dev, list, sizeof(list)) == 0)
		return 0;
	return rk_findings_add(out, RK_SEVERITY_WARNING, "FW_MISMATCH", dev->hca_type,
			       "update every HCA of this model to the same firmware (mlxfwmanager "
			       "or the vendor's tool)",
			       "HCAs of the same model run different firmware: %s", list);
}

static int check_device(const struct rk_host *host, const struct rk_device *dev,
			const struct rk_health_options *options, struct rk_findings *out)
{
	size_t first = out->count;
	int err;

	if (dev->vanished)
		err = rk_findings_add(out, RK_SEVERITY_CRITICAL, "DEVICE_VANISHED", dev->name,
				      "check dmesg for a driver reset, firmware error or PCIe "
				      "fault",
				      "device disappeared while it was being read");
	else
		err = check_pcie(dev, out);
	if (!err && !dev->vanished)
		err = check_firmware(host, dev, out);
	rk_findings_locate_device(out, first, dev->name, 0);
	for (unsigned p = 0; p < dev->nports && !err && !dev->vanished; p++) {
		first = out->count;
		err = check_port(host, dev, &dev->ports[p], options, out);
		rk_findings_locate_device(out, first, dev->name, (int)dev->ports[p].num);
	}
	return err;
}

/* What to do about a device that could not be read, by why. */
static const char *unreadable_remedy(int err)
{
	if (err == -EACCES || err == -EPERM)
		return "run as root, or give this user read access to the device's directory "
		       "under class/infiniband (its mode and its parents')";
	if (err == -ENAMETOOLONG)
		return "the kernel names no device this long: check the tree given as the sysfs "
		       "root";
	return "check dmesg for a driver reset or firmware error, and that the device's "
	       "directory holds ports/ (or the tree given as the sysfs root)";
}

static int check_unreadable(const struct rk_host *host, const struct rk_unreadable_device *dev,
			    struct rk_findings *out)
{
	size_t first = out->count;
	int err = rk_findings_add(out, RK_SEVERITY_WARNING, "DEVICE_UNREADABLE", dev->name,
				  unreadable_remedy(dev->err),
				  "device could not be read (%s/%s: %s): its ports and their "
				  "health are not known",
				  rk_sysfs_root(host->fs), dev->path, rk_sysfs_error(dev->err));

	rk_findings_locate_device(out, first, dev->name, 0);
	return err;
}

int rk_health_check_host(const struct rk_host *host, const struct rk_health_options *options,
			 struct rk_findings *findings)
{
	int err = 0;

	for (size_t i = 0; i < host->nunreadable && !err; i++)
		err = check_unreadable(host, &host->unreadable[i], findings);
	if (err)
		return err;
	if (host->ndevices == 0 && host->nunreadable == 0)
		return rk_findings_add(
		    findings, RK_SEVERITY_WARNING, "NO_DEVICES", "host",
		    "load the HCA's driver (mlx5_ib, ...) or check lspci and dmesg",
		    "no RDMA device found under %s/class/infiniband", rk_sysfs_root(host->fs));
	for (size_t i = 0; i < host->ndevices && !err; i++)
		err = check_device(host, &host->devices[i], options, findings);
	return err;
}
