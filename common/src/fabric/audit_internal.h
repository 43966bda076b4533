/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the audit's checks share: how they name a port and the route to a node. */
#ifndef RDMAKIT_AUDIT_INTERNAL_H
#define RDMAKIT_AUDIT_INTERNAL_H

#include "rdmakit/fabric.h"

#include <stddef.h>

/** "name[port]" of port p of node n into out. */
void audit_port_subject(const struct rk_fabric *fabric, int n, int p, char *out, size_t size);

/** "0,1,19,3": the directed route from the local port to node n as ibdiagnet prints it, or
 * "unknown". */
void audit_dr_path(const struct rk_fabric *fabric, int n, char *out, size_t size);

#endif
