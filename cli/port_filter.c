/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Which ports of this host a report covers: all, one device, or one port. */
#include "port_filter.h"

#include <stdio.h>
#include <string.h>

bool cli_store_port_filter(const struct cli_option *option, const char *arg, void *field)
{
	static char device[64];
	struct port_filter *filter = field;
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	unsigned port = 0;

	(void)option;
	if (len == 0 || len >= sizeof(device) ||
	    (colon && rk_parse_port_number(colon + 1, &port) != 0)) {
		fprintf(stderr, "rdmakit: \"%s\": expected DEVICE or DEVICE:PORT (e.g. mlx5_0:1)\n",
			arg);
		return false;
	}
	memcpy(device, arg, len);
	device[len] = '\0';
	filter->device = device;
	filter->one_port = colon != NULL;
	filter->port = port;
	return true;
}

bool cli_filter_exists(struct rk_host *host, const struct port_filter *filter)
{
	struct rk_device *dev;

	if (!filter->device)
		return true;
	dev = rk_host_find_device(host, filter->device);
	if (!dev) {
		fprintf(stderr, "rdmakit: no RDMA device named %s\n", filter->device);
		return false;
	}
	for (unsigned p = 0; p < dev->nports && filter->one_port; p++)
		if (dev->ports[p].num == filter->port)
			return true;
	if (filter->one_port)
		fprintf(stderr, "rdmakit: %s has no port %u\n", filter->device, filter->port);
	return !filter->one_port;
}

bool filter_matches(const struct port_filter *filter, const struct rk_device *dev,
		    const struct rk_port *port)
{
	if (filter->device && strcmp(filter->device, dev->name) != 0)
		return false;
	return !port || !filter->one_port || port->num == filter->port;
}
