/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* collectd's plugin API, included the one way that works with Debian's collectd-dev. */
#ifndef RDMAKIT_CD_COLLECTD_H
#define RDMAKIT_CD_COLLECTD_H

#include "collectd/core/daemon/collectd.h"

#include "collectd/core/daemon/plugin.h"
#include "collectd/core/utils/common/common.h"

/* The plugin's name in collectd: LoadPlugin, <Plugin>, log lines. */
#define CD_PLUGIN_NAME "rdmakit"
/* The "plugin" field of every value and notification. */
#define CD_VALUES_PLUGIN "rdma"

#endif
