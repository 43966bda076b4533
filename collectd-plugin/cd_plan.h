/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the host mode sends for each port: built once per device, walked at every read. */
#ifndef RDMAKIT_CD_PLAN_H
#define RDMAKIT_CD_PLAN_H

#include "cd_config.h"

#include "rdmakit/host.h"

#include <stdbool.h>
#include <stdint.h>

/* One value list per read: a counter, or the rx and tx counters of a pair. */
struct cd_item {
	const char *type;	   /* a type of types.db */
	const char *type_instance; /* "" or the counter's name */
	const struct rk_counter *counter[2];
	uint8_t n;  /* counters used: 1, or 2 for a pair */
	bool gauge; /* dispatch as gauge_t, else derive_t */
};

/* The items of one plugin instance. */
struct cd_items {
	struct cd_item *items;
	size_t count;
};

/* One port: its names and what is sent of it. */
struct cd_port_plan {
	bool selected;	   /* Port / IgnoreSelected let it through */
	char instance[80]; /* plugin instance "mlx5_0-1" */
	char name[80];	   /* "mlx5_0:1", as in the configuration and log lines */
	struct cd_items items;
};

/* One device: its ports' plans and its device-level driver counters. */
struct cd_dev_plan {
	bool built; /* the plans point into the device's current counter sets */
	struct cd_port_plan *ports;
	unsigned nports;
	struct cd_items hw; /* device-level hw_counters, sent as plugin instance "mlx5_0" */
};

/** Plan a device: selected ports, their counters, the configured driver counters. */
int cd_plan_build(const struct cd_config *config, struct rk_device *dev, struct cd_dev_plan *plan);

/** The item that sends counter, or NULL when it is not sent. */
const struct cd_item *cd_plan_item_of(const struct cd_items *items,
				      const struct rk_counter *counter);

/** Free a device's plans (before the core closes its counters). */
void cd_plan_free(struct cd_dev_plan *plan);

#endif
