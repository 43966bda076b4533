/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The plugin's watch engine, shared by the fabric, SM, tune and probe reads: the <Plugin>
 * block's fabric, tune and probe options as the core's settings. */
#ifndef RDMAKIT_CD_MON_H
#define RDMAKIT_CD_MON_H

#include "cd_config.h"

#include "rdmakit/watch.h"

/* The fabric and SM reads look for a new pass of the engine this many times per FabricInterval:
 * a sweep's values and events follow it by at most a quarter of the interval. */
#define CD_MON_READS_PER_PASS 4
/* With Events, the fabric and SM reads come at least this often (seconds): an event is sent
 * within it, whatever FabricInterval. */
#define CD_MON_EVENTS_READ_S 1.0

/** The interval of the fabric and SM reads. */
cdtime_t cd_mon_read_interval(const struct cd_config *config);

/** The interval of one pass of the engine (FabricInterval): what the fabric and SM values say
 * they are sent at, so that collectd's cache (and write_prometheus, the network plugin) does not
 * take them for missing between two passes, as it would at the reads' quarter interval. */
cdtime_t cd_mon_pass_interval(const struct cd_config *config);

/** Load the NodeNameMap and start the engine on the fabric, SM, tune and probe jobs the config
 * enables. */
int cd_mon_start(const struct cd_config *config, struct rk_watch **out);

/** Stop the engine (within seconds, whatever it waits on) and free it. */
void cd_mon_stop(struct rk_watch *watch);

#endif
