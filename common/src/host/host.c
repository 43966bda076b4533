/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/host.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLASS_DIR "class/infiniband"

/* A file that is there but cannot be an attribute (a FIFO, a directory, a symlink loop, no
 * permission) is worth a message; a missing one is not (sysfs has it or not, by driver and
 * kernel), nor an error the kernel returns on read (an unset GID's attributes: EINVAL). */
static void log_unreadable(const char *path, int err)
{
	if (err == -ESPIPE || err == -EISDIR || err == -ELOOP || err == -EACCES)
		rk_log(RK_LOG_WARNING, "%s: %s, skipped", path, rk_sysfs_error(err));
}

/* Read dir/name into buf; "" and -errno when missing or unreadable. */
static ssize_t read_text(struct rk_sysfs *fs, const char *dir, const char *name, char *buf,
			 size_t size)
{
	char path[256];
	ssize_t len;

	buf[0] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	len = rk_sysfs_read(fs, path, buf, size);
	if (len < 0) {
		buf[0] = '\0';
		log_unreadable(path, (int)len);
	}
	return len;
}

int rk_parse_port_number(const char *text, unsigned *num)
{
	uint64_t value;

	if (text[0] < '0' || text[0] > '9' || (text[0] == '0' && text[1] != '\0') ||
	    rk_parse_u64(text, &value) != 0 || value > RK_PORT_NUM_MAX)
		return -EINVAL;
	*num = (unsigned)value;
	return 0;
}

int rk_parse_pcie_speed(const char *text, double *gts)
{
	char *end;
	double speed = strtod(text, &end);

	if (end == text || !(speed > 0 && speed <= RK_PCIE_SPEED_MAX_GTS))
		return -EINVAL;
	while (*end == ' ')
		end++;
	if (strncmp(end, "GT/s", 4) != 0)
		return -EINVAL;
	*gts = speed;
	return 0;
}

static void read_pci_speed(struct rk_sysfs *fs, const char *dir, const char *name, char *text,
			   size_t size, double *gts)
{
	*gts = -1;
	if (read_text(fs, dir, name, text, size) >= 0 && rk_parse_pcie_speed(text, gts) != 0)
		*gts = -1;
}

/* A signed whole number such as numa_node ("-1" when the platform has none). */
static int read_signed(struct rk_sysfs *fs, const char *dir, const char *name)
{
	char text[32];
	uint64_t value;

	if (read_text(fs, dir, name, text, sizeof(text)) < 0)
		return -1;
	if (strcmp(text, "-1") == 0)
		return -1;
	if (rk_parse_u64(text, &value) != 0 || value > INT32_MAX) {
		rk_log(RK_LOG_WARNING, "%s/%s: not a number: \"%s\"", dir, name, text);
		return -1;
	}
	return (int)value;
}

static void clear_pci(struct rk_pci *pci)
{
	memset(pci, 0, sizeof(*pci));
	pci->vendor = pci->device_id = pci->numa_node = -1;
	pci->cur_width = pci->max_width = pci->sriov_numvfs = pci->sriov_totalvfs = -1;
	pci->cur_speed_gts = pci->max_speed_gts = -1;
}

static void read_pci(struct rk_sysfs *fs, struct rk_device *dev)
{
	struct rk_pci *pci = &dev->pci;
	char dir[128], vendor[136];

	clear_pci(pci);
	snprintf(dir, sizeof(dir), "%s/device", dev->dir);
	snprintf(vendor, sizeof(vendor), "%s/vendor", dir);
	if (rk_sysfs_link_name(fs, dir, pci->address, sizeof(pci->address)) != 0 ||
	    !rk_sysfs_exists(fs, vendor)) {
		pci->address[0] = '\0'; /* no PCI parent: soft-RoCE, or a link elsewhere */
		return;
	}
	pci->vendor = read_signed(fs, dir, "vendor");
	pci->device_id = read_signed(fs, dir, "device");
	pci->numa_node = read_signed(fs, dir, "numa_node");
	read_pci_speed(fs, dir, "current_link_speed", pci->cur_speed, sizeof(pci->cur_speed),
		       &pci->cur_speed_gts);
	read_pci_speed(fs, dir, "max_link_speed", pci->max_speed, sizeof(pci->max_speed),
		       &pci->max_speed_gts);
	pci->cur_width = read_signed(fs, dir, "current_link_width");
	pci->max_width = read_signed(fs, dir, "max_link_width");
	pci->sriov_numvfs = read_signed(fs, dir, "sriov_numvfs");
	pci->sriov_totalvfs = read_signed(fs, dir, "sriov_totalvfs");
}

static void open_port_attr(struct rk_sysfs *fs, const char *dir, const char *name,
			   struct rk_attr *attr)
{
	char path[160];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = rk_attr_open(fs, path, attr);
	if (err) {
		log_unreadable(path, err);
		attr->fd = -1;
		attr->path = NULL;
	}
}

static void open_port_attrs(struct rk_sysfs *fs, struct rk_port *port)
{
	struct rk_port_attrs *a = &port->attrs;

	open_port_attr(fs, port->dir, "state", &a->state);
	open_port_attr(fs, port->dir, "phys_state", &a->phys_state);
	open_port_attr(fs, port->dir, "rate", &a->rate);
	open_port_attr(fs, port->dir, "lid", &a->lid);
	open_port_attr(fs, port->dir, "sm_lid", &a->sm_lid);
	open_port_attr(fs, port->dir, "sm_sl", &a->sm_sl);
	open_port_attr(fs, port->dir, "lid_mask_count", &a->lmc);
	open_port_attr(fs, port->dir, "cap_mask", &a->cap_mask);
}

#define PORT_ATTR_COUNT 8

static void list_port_attrs(struct rk_port_attrs *a, struct rk_attr *all[PORT_ATTR_COUNT])
{
	struct rk_attr *each[PORT_ATTR_COUNT] = {&a->state, &a->phys_state, &a->rate,
						 &a->lid,   &a->sm_lid,	    &a->sm_sl,
						 &a->lmc,   &a->cap_mask};

	memcpy(all, each, sizeof(each));
}

static void close_port_attrs(struct rk_sysfs *fs, struct rk_port_attrs *a)
{
	struct rk_attr *all[PORT_ATTR_COUNT];

	list_port_attrs(a, all);
	for (size_t i = 0; i < PORT_ATTR_COUNT; i++)
		rk_attr_close(fs, all[i]);
}

/* The RoCE netdev: gid_attrs/ndevs/0 on current kernels, else the PCI function's net/. */
static void find_netdev(struct rk_sysfs *fs, const struct rk_device *dev, struct rk_port *port)
{
	char dir[160];
	char **names;
	size_t count;

	if (read_text(fs, port->dir, "gid_attrs/ndevs/0", port->netdev, sizeof(port->netdev)) > 0)
		return;
	snprintf(dir, sizeof(dir), "%s/device/net", dev->dir);
	if (rk_sysfs_list(fs, dir, &names, &count) != 0)
		return;
	if (port->num >= 1 && count >= port->num)
		snprintf(port->netdev, sizeof(port->netdev), "%s", names[port->num - 1]);
	rk_names_free(names, count);
}

/* Record what could not be read; returns err. */
static int failed(struct rk_unreadable_device *why, int err, const char *path)
{
	why->err = err;
	snprintf(why->path, sizeof(why->path), "%s", path);
	return err;
}

static int open_port(struct rk_sysfs *fs, struct rk_device *dev, struct rk_port *port, unsigned num,
		     struct rk_unreadable_device *why)
{
	char dir[160];
	int err;

	port->num = num;
	snprintf(port->dir, sizeof(port->dir), "%s/ports/%u", dev->dir, num);
	read_text(fs, port->dir, "link_layer", port->link_layer, sizeof(port->link_layer));
	read_text(fs, port->dir, "gids/0", port->gid0, sizeof(port->gid0));
	if (strcmp(port->link_layer, "Ethernet") == 0)
		find_netdev(fs, dev, port);
	open_port_attrs(fs, port);
	snprintf(dir, sizeof(dir), "%s/counters", port->dir);
	err = rk_counter_set_open(fs, dir, RK_SRC_PORT_COUNTERS, &port->counters);
	if (err)
		return failed(why, err, dir);
	snprintf(dir, sizeof(dir), "%s/hw_counters", port->dir);
	err = rk_counter_set_open(fs, dir, RK_SRC_HW_COUNTERS, &port->hw_counters);
	return err ? failed(why, err, dir) : 0;
}

static void close_port(struct rk_sysfs *fs, struct rk_port *port)
{
	close_port_attrs(fs, &port->attrs);
	rk_counter_set_close(fs, &port->counters);
	rk_counter_set_close(fs, &port->hw_counters);
}

/* Port directories are numbers; anything else is logged and skipped. */
static int open_ports(struct rk_sysfs *fs, struct rk_device *dev, struct rk_unreadable_device *why)
{
	char dir[128];
	char **names;
	size_t count;
	int err;

	snprintf(dir, sizeof(dir), "%s/ports", dev->dir);
	err = rk_sysfs_list(fs, dir, &names, &count);
	if (err)
		return failed(why, err, dir);
	dev->ports = calloc(count ? count : 1, sizeof(*dev->ports));
	for (size_t i = 0; dev->ports && i < count && !err; i++) {
		unsigned num;

		if (rk_parse_port_number(names[i], &num) != 0) {
			rk_log(RK_LOG_WARNING, "%s/%s: not a port number, skipped", dir, names[i]);
			continue;
		}
		err = open_port(fs, dev, &dev->ports[dev->nports], num, why);
		dev->nports++;
	}
	rk_names_free(names, count);
	return dev->ports ? err : -ENOMEM;
}

static void read_device_facts(struct rk_sysfs *fs, struct rk_device *dev)
{
	char text[64];

	dev->node_type = -1;
	if (read_text(fs, dev->dir, "node_type", text, sizeof(text)) >= 0 &&
	    rk_parse_numbered(text, &dev->node_type, dev->node_type_name,
			      sizeof(dev->node_type_name)) != 0) {
		rk_log(RK_LOG_WARNING, "%s/node_type: malformed: \"%s\"", dev->dir, text);
		dev->node_type = -1;
	}
	read_text(fs, dev->dir, "node_guid", dev->node_guid, sizeof(dev->node_guid));
	read_text(fs, dev->dir, "sys_image_guid", dev->sys_image_guid, sizeof(dev->sys_image_guid));
	read_text(fs, dev->dir, "fw_ver", dev->fw_ver, sizeof(dev->fw_ver));
	read_text(fs, dev->dir, "hca_type", dev->hca_type, sizeof(dev->hca_type));
	read_text(fs, dev->dir, "board_id", dev->board_id, sizeof(dev->board_id));
	read_text(fs, dev->dir, "hw_rev", dev->hw_rev, sizeof(dev->hw_rev));
	read_text(fs, dev->dir, "node_desc", dev->node_desc, sizeof(dev->node_desc));
}

static void close_device(struct rk_sysfs *fs, struct rk_device *dev)
{
	for (unsigned i = 0; i < dev->nports; i++)
		close_port(fs, &dev->ports[i]);
	free(dev->ports);
	dev->ports = NULL;
	dev->nports = 0;
	rk_counter_set_close(fs, &dev->hw_counters);
}

/* The ports first: a device whose directory cannot be listed (no permission, no ports/, ports
 * a file, gone) is one message, not one per attribute. */
static int open_device(struct rk_sysfs *fs, const char *name, struct rk_device *dev,
		       struct rk_unreadable_device *why)
{
	char dir[160];
	int err;

	memset(dev, 0, sizeof(*dev));
	if (strlen(name) > RK_DEVICE_NAME_MAX) {
		snprintf(dir, sizeof(dir), CLASS_DIR "/%s", name);
		return failed(why, -ENAMETOOLONG, dir);
	}
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	snprintf(dev->dir, sizeof(dev->dir), CLASS_DIR "/%s", name);
	err = open_ports(fs, dev, why);
	if (!err) {
		snprintf(dir, sizeof(dir), "%s/hw_counters", dev->dir);
		err = rk_counter_set_open(fs, dir, RK_SRC_HW_COUNTERS, &dev->hw_counters);
		if (err)
			failed(why, err, dir);
	}
	if (err) {
		close_device(fs, dev);
		return err;
	}
	read_device_facts(fs, dev);
	read_pci(fs, dev);
	return 0;
}

/* The host read from the open tree fs (closed here on failure). */
static int open_host(struct rk_sysfs *fs, struct rk_host **out)
{
	struct rk_host *host = calloc(1, sizeof(*host));
	int err;

	if (!host) {
		rk_sysfs_close(fs);
		return -ENOMEM;
	}
	host->fs = fs;
	err = rk_host_rescan(host);
	if (err) {
		rk_host_close(host);
		return err;
	}
	*out = host;
	return 0;
}

int rk_host_open(const char *root, struct rk_host **out)
{
	struct rk_sysfs *fs;
	int err = rk_sysfs_open(root, &fs);

	return err ? err : open_host(fs, out);
}

int rk_host_open_in_root(const char *root, const char *reldir, struct rk_host **out)
{
	struct rk_sysfs *fs;
	int err = rk_sysfs_open_in_root(root, reldir, &fs);

	return err ? err : open_host(fs, out);
}

int rk_host_open_limited(const char *root, size_t max_open, struct rk_host **out)
{
	struct rk_sysfs *fs;
	int err = rk_sysfs_open(root, &fs);

	if (err)
		return err;
	rk_sysfs_set_fd_budget(fs, max_open);
	return open_host(fs, out);
}

static struct rk_unreadable_device *find_unreadable(struct rk_host *host, const char *name)
{
	for (size_t i = 0; i < host->nunreadable; i++)
		if (strncmp(host->unreadable[i].name, name, sizeof(host->unreadable[i].name) - 1) ==
		    0)
			return &host->unreadable[i];
	return NULL;
}

static void forget_unreadable(struct rk_host *host, struct rk_unreadable_device *entry)
{
	size_t i = (size_t)(entry - host->unreadable);

	memmove(entry, entry + 1, (host->nunreadable - i - 1) * sizeof(*entry));
	host->nunreadable--;
}

/* Keep why for name; logged when it is new or its reason changed, not at every rescan. */
static int note_unreadable(struct rk_host *host, const char *name,
			   const struct rk_unreadable_device *why)
{
	struct rk_unreadable_device *entry = find_unreadable(host, name);

	if (!entry) {
		entry = realloc(host->unreadable, (host->nunreadable + 1) * sizeof(*entry));
		if (!entry)
			return -ENOMEM;
		host->unreadable = entry;
		entry = &host->unreadable[host->nunreadable++];
		entry->err = 0;
	} else if (entry->err == why->err && strcmp(entry->path, why->path) == 0) {
		return 0;
	}
	snprintf(entry->name, sizeof(entry->name), "%s", name);
	snprintf(entry->path, sizeof(entry->path), "%s", why->path);
	entry->err = why->err;
	rk_log(RK_LOG_WARNING, "%s: cannot read device: %s: %s", entry->name, entry->path,
	       rk_sysfs_error(entry->err));
	return 0;
}

static int add_device(struct rk_host *host, const char *name)
{
	struct rk_device *grown = realloc(host->devices, (host->ndevices + 1) * sizeof(*grown));
	struct rk_unreadable_device why = {0}, *was;

	if (!grown)
		return -ENOMEM;
	host->devices = grown;
	if (open_device(host->fs, name, &host->devices[host->ndevices], &why) != 0)
		return note_unreadable(host, name, &why);
	host->ndevices++;
	was = find_unreadable(host, name);
	if (was) {
		rk_log(RK_LOG_INFO, "%s: device can be read again", name);
		forget_unreadable(host, was);
	}
	return 0;
}

static void reopen_device(struct rk_host *host, struct rk_device *dev)
{
	struct rk_unreadable_device why = {0};
	char name[sizeof(dev->name)];

	snprintf(name, sizeof(name), "%s", dev->name);
	close_device(host->fs, dev);
	if (open_device(host->fs, name, dev, &why) == 0) {
		rk_log(RK_LOG_INFO, "%s: device is back", name);
		return;
	}
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	dev->vanished = true;
}

static bool is_listed(char **names, size_t count, const char *name, size_t len)
{
	for (size_t i = 0; i < count; i++)
		if (strncmp(names[i], name, len) == 0)
			return true;
	return false;
}

/* A device that could not be read and is no longer listed is gone, not unreadable. */
static void drop_unlisted(struct rk_host *host, char **names, size_t count)
{
	for (size_t i = host->nunreadable; i-- > 0;) {
		struct rk_unreadable_device *entry = &host->unreadable[i];

		if (!is_listed(names, count, entry->name, sizeof(entry->name) - 1))
			forget_unreadable(host, entry);
	}
}

/* Attributes whose file was replaced since they were opened read the new one (or refuse it). */
static void recheck_device(struct rk_sysfs *fs, struct rk_device *dev)
{
	for (unsigned p = 0; p < dev->nports; p++) {
		struct rk_port *port = &dev->ports[p];
		struct rk_attr *all[PORT_ATTR_COUNT];

		list_port_attrs(&port->attrs, all);
		for (size_t i = 0; i < PORT_ATTR_COUNT; i++)
			rk_attr_recheck(fs, all[i]);
		rk_counter_set_recheck(fs, &port->counters);
		rk_counter_set_recheck(fs, &port->hw_counters);
	}
	rk_counter_set_recheck(fs, &dev->hw_counters);
}

int rk_host_rescan(struct rk_host *host)
{
	char **names;
	size_t count;
	int err = rk_sysfs_list(host->fs, CLASS_DIR, &names, &count);

	if (err == -ENOENT)
		return 0; /* no RDMA device on this host */
	if (err) {
		rk_log(RK_LOG_ERR, "%s/" CLASS_DIR ": %s", rk_sysfs_root(host->fs), strerror(-err));
		return err;
	}
	for (size_t i = 0; i < host->ndevices; i++)
		if (!host->devices[i].vanished)
			recheck_device(host->fs, &host->devices[i]);
	for (size_t i = 0; i < count && !err; i++) {
		struct rk_device *dev = rk_host_find_device(host, names[i]);

		if (!dev)
			err = add_device(host, names[i]);
		else if (dev->vanished)
			reopen_device(host, dev);
	}
	drop_unlisted(host, names, count);
	rk_names_free(names, count);
	return err;
}

static void read_port_state(struct rk_sysfs *fs, struct rk_attr *attr, int *number, char *name,
			    size_t size)
{
	char text[64];

	*number = -1;
	name[0] = '\0';
	if (rk_attr_read(fs, attr, text, sizeof(text)) < 0)
		return;
	if (rk_parse_numbered(text, number, name, size) != 0) {
		rk_attr_warn_once(attr, "malformed", text);
		*number = -1;
	}
}

static int64_t read_port_number(struct rk_sysfs *fs, struct rk_attr *attr)
{
	char text[64];
	uint64_t value;

	if (rk_attr_read(fs, attr, text, sizeof(text)) < 0)
		return -1;
	if (rk_parse_u64(text, &value) != 0 || value > INT64_MAX) {
		rk_attr_warn_once(attr, "not a number", text);
		return -1;
	}
	return (int64_t)value;
}

static void read_port_rate(struct rk_sysfs *fs, struct rk_port *port)
{
	port->rate_gbps = -1;
	port->width = -1;
	port->speed = RK_SPEED_NONE;
	if (rk_attr_read(fs, &port->attrs.rate, port->rate_text, sizeof(port->rate_text)) < 0) {
		port->rate_text[0] = '\0';
		return;
	}
	if (rk_parse_rate(port->rate_text, &port->rate_gbps, &port->width, &port->speed) != 0) {
		rk_attr_warn_once(&port->attrs.rate, "malformed rate", port->rate_text);
		port->rate_gbps = -1;
	}
}

static int read_port(struct rk_sysfs *fs, struct rk_port *port)
{
	struct rk_port_attrs *a = &port->attrs;
	int err;

	read_port_state(fs, &a->state, &port->state, port->state_name, sizeof(port->state_name));
	read_port_state(fs, &a->phys_state, &port->phys_state, port->phys_state_name,
			sizeof(port->phys_state_name));
	read_port_rate(fs, port);
	port->lid = read_port_number(fs, &a->lid);
	port->sm_lid = read_port_number(fs, &a->sm_lid);
	port->sm_sl = (int)read_port_number(fs, &a->sm_sl);
	port->lmc = (int)read_port_number(fs, &a->lmc);
	port->cap_mask = read_port_number(fs, &a->cap_mask);
	err = rk_counter_set_read(fs, &port->counters);
	if (!err)
		err = rk_counter_set_read(fs, &port->hw_counters);
	return err;
}

static int read_device(struct rk_sysfs *fs, struct rk_device *dev)
{
	int err = 0;

	if (!rk_sysfs_exists(fs, dev->dir))
		return -ENODEV;
	for (unsigned i = 0; i < dev->nports && !err; i++)
		err = read_port(fs, &dev->ports[i]);
	if (!err)
		err = rk_counter_set_read(fs, &dev->hw_counters);
	return err;
}

int rk_host_refresh(struct rk_host *host)
{
	host->prev_sample_time = host->sample_time;
	host->sample_time = rk_monotonic_seconds();
	for (size_t i = 0; i < host->ndevices; i++) {
		struct rk_device *dev = &host->devices[i];

		if (dev->vanished)
			continue;
		if (read_device(host->fs, dev) == -ENODEV) {
			dev->vanished = true;
			close_device(host->fs, dev);
			rk_log(RK_LOG_WARNING, "%s: device vanished; skipping it", dev->name);
		}
	}
	return 0;
}

void rk_host_close(struct rk_host *host)
{
	if (!host)
		return;
	for (size_t i = 0; i < host->ndevices; i++)
		close_device(host->fs, &host->devices[i]);
	free(host->devices);
	free(host->unreadable);
	rk_sysfs_close(host->fs);
	free(host);
}

double rk_host_interval(const struct rk_host *host)
{
	if (host->prev_sample_time <= 0)
		return 0;
	return host->sample_time - host->prev_sample_time;
}

struct rk_device *rk_host_find_device(struct rk_host *host, const char *name)
{
	for (size_t i = 0; i < host->ndevices; i++)
		if (strcmp(host->devices[i].name, name) == 0)
			return &host->devices[i];
	return NULL;
}

const char *rk_port_state_name(int state)
{
	static const char *const names[] = {"?", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};

	return state >= 1 && state <= 5 ? names[state] : "?";
}

const char *rk_phys_state_name(int state)
{
	static const char *const names[] = {"?",
					    "Sleep",
					    "Polling",
					    "Disabled",
					    "PortConfigurationTraining",
					    "LinkUp",
					    "LinkErrorRecovery",
					    "Phy Test"};

	return state >= 1 && state <= 7 ? names[state] : "?";
}
