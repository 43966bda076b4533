/* The <Plugin rdmakit> block: keys, values, checks. */
#ifndef RDMAKIT_CD_CONFIG_H
#define RDMAKIT_CD_CONFIG_H

#include "cd_collectd.h"
#include "cd_ports.h"

#include <stdbool.h>
#include <stddef.h>

/* What the host mode reads and sends. */
struct cd_config {
	char *sysfs_root;      /* SysfsRoot, default "/sys" */
	struct cd_ports ports; /* Port, IgnoreSelected */
	bool hw_counters;      /* HwCounters, default true */
	char **hw_names;       /* HwCounter entries: only these driver counters when any */
	size_t hw_count;
	bool notifications; /* Notifications, default false */
};

/** Fill in the defaults; -ENOMEM when out of memory. */
int cd_config_init(struct cd_config *config);

/** Apply one <Plugin rdmakit> block; logs every bad key or value and returns -1 if any. */
int cd_config_apply(struct cd_config *config, const oconfig_item_t *block);

/** True when the driver counter named name is to be dispatched. */
bool cd_config_wants_hw(const struct cd_config *config, const char *name);

/** Free what the configuration holds. */
void cd_config_free(struct cd_config *config);

#endif
