/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The fabric audit, as ibdiagnet checks a fabric after a change window, on what a discovery
 * read: identities (node descriptions, LIDs against their LMC) and ports the SM left half way
 * up, each named by node and GUID (and LID), once per cause. */
#ifndef RDMAKIT_AUDIT_H
#define RDMAKIT_AUDIT_H

#include "rdmakit/fabric.h"
#include "rdmakit/findings.h"

#define RK_UNICAST_LID_MAX 0xbfff /* LIDs above are multicast (IBA 4.1.3) */

/** The identity and port checks of the audit on fabric: DUPLICATE_NODE_DESC (ok: legal, but
 * names are ambiguous), LID_UNASSIGNED, LID_DUPLICATE, LID_OUTSIDE_LMC, PORT_STUCK_INIT and
 * PORT_STUCK_ARMED (one finding a node, with its ports and the directed route to it from the
 * local port). Appended to findings; 0 or -ENOMEM. */
int rk_audit_fabric(const struct rk_fabric *fabric, struct rk_findings *findings);

#endif
