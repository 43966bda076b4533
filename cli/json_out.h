/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* JSON documents built from the core's snapshots (json-c does all escaping). */
#ifndef RDMAKIT_CLI_JSON_OUT_H
#define RDMAKIT_CLI_JSON_OUT_H

#include "port_filter.h"
#include "rdmakit/health.h"
#include "rdmakit/host.h"

#include <json-c/json.h>
#include <stdbool.h>

/** {"devices": [...]} with every fact, counters included (status --json). */
json_object *json_status(const struct rk_host *host, const struct port_filter *filter);

/** {"interval": s, "devices": [...]} with counters and per-second rates (counters --json). */
json_object *json_counters(const struct rk_host *host, const struct port_filter *filter);

/** [{severity, code, subject, message, remedy}, ...] */
json_object *json_findings_array(const struct rk_findings *findings);

/** {"findings": [{severity, code, subject, message, remedy}]} (doctor --json). */
json_object *json_findings(const struct rk_findings *findings);

/** "4X" for 4 lanes, or NULL (JSON null) when the width is unknown. */
json_object *json_width(int lanes);

/** Print a document on stdout, pretty or one line, and free it. */
void json_print(json_object *doc, bool pretty);

#endif
