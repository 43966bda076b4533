/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric and SM findings as collectd reports them: when they appear and when they clear. */
#ifndef RDMAKIT_CD_FINDINGS_H
#define RDMAKIT_CD_FINDINGS_H

#include "rdmakit/events.h"

#include <stdbool.h>

/** Log a raised or cleared finding (an event with is_finding) and, with notify, notify it as
 * plugin and plugin instance; ok-level findings are only logged. */
void cd_findings_report(const char *plugin, const char *instance, const struct rk_event *event,
			bool notify);

#endif
