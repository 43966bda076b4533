/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* RDMAKIT-MIB's notifications, made from the core's events. */
#ifndef AK_TRAP_H
#define AK_TRAP_H

#include "ak_mailbox.h"

/** Send one notification to the master agent (the AgentX thread only). */
void ak_trap_send(const struct ak_trap *trap);

#endif
