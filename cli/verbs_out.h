/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Output of what verbs knows: GID tables and MTUs for status, the probe's result. */
#ifndef RDMAKIT_CLI_VERBS_OUT_H
#define RDMAKIT_CLI_VERBS_OUT_H

#include "cli.h"
#include "rdmakit/verbs.h"

#include <json-c/json.h>
#include <stdio.h>

/** Add each port's MTUs, GID table and P_Keys from verbs to a status document. */
void json_status_add_verbs(json_object *doc, const struct port_filter *filter);

/** Each selected port's MTUs, GID table and P_Keys from verbs, as text. */
void text_status_verbs(FILE *out, const struct rk_host *host, const struct port_filter *filter);

/** The probe's result: device, port, GID, steps with their times, failure and hint. */
json_object *json_probe(const struct rk_probe_result *result);

/** The probe's result for people: verdict, step times, and what to check on failure. */
void text_probe(FILE *out, const struct rk_probe_result *result);

#endif
