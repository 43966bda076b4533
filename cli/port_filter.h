/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Which ports of this host a report covers: every one, one device, or one device's port. */
#ifndef RDMAKIT_CLI_PORT_FILTER_H
#define RDMAKIT_CLI_PORT_FILTER_H

#include "options.h"
#include "rdmakit/host.h"

#include <stdbool.h>

struct port_filter {
	const char *device; /* NULL: all */
	bool one_port;	    /* false: all ports of the device */
	unsigned port;
};

/** Store "DEV" or "DEV:PORT" in a struct port_filter field; prints the error when bad. */
bool cli_store_port_filter(const struct cli_option *option, const char *arg, void *field);

/** True when the filter names a device (and port) the host has; else prints why. */
bool cli_filter_exists(struct rk_host *host, const struct port_filter *filter);

/** True when the filter selects this device (and, with port, this port). */
bool filter_matches(const struct port_filter *filter, const struct rk_device *dev,
		    const struct rk_port *port);

#endif
