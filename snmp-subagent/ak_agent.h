/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The AgentX side: every net-snmp call, made from one thread. Request handlers answer from
 * the current snapshot only; snapshots, log lines and traps arrive through the mailbox. */
#ifndef AK_AGENT_H
#define AK_AGENT_H

#include "ak_mailbox.h"

/** Register the MIB's subtrees of the modes set in modes (enum ak_mode: the others are not
 * served at all) and the mailbox's descriptor; call between init_agent() and init_snmp(). */
int ak_agent_register(struct ak_mailbox *box, unsigned modes);

/** Undo ak_agent_register with the same modes (a module unloaded from snmpd). */
void ak_agent_unregister(struct ak_mailbox *box, unsigned modes);

/** Take what the mailbox holds: the newest snapshot, log lines, and traps to send. */
void ak_agent_drain(struct ak_mailbox *box);

/** Hand the snapshot being served back to the mailbox to be freed (at exit). */
void ak_agent_release(struct ak_mailbox *box);

#endif
