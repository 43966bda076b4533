/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What verbs knows, through the one writer: a port's MTUs, GID table and P_Keys (for status),
 * and the probe's result. */
#ifndef RDMAKIT_CLI_VERBS_OUT_H
#define RDMAKIT_CLI_VERBS_OUT_H

#include "print.h"
#include "rdmakit/verbs.h"

/** Members of a status port: active_mtu_bytes, max_mtu_bytes, gids, pkeys; in text, the
 * device's port line ("mlx5_0 port 1: active MTU ...") and its GID table. */
void print_verbs_port(struct printer *p, const char *device, const struct rk_verbs_port *port);

/** The probe's result: device, port, GID, steps with their times, failure and hint. */
void print_probe(struct printer *p, const struct rk_probe_result *result);

#endif
