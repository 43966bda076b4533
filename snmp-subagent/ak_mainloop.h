/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The subagent's main loop pass (ak_mainloop.c). */
#ifndef AK_MAINLOOP_H
#define AK_MAINLOOP_H

/** One pass of the subagent's main loop: waits for and handles what net-snmp has to do, then
 * hands each request's internal hops on without a select() each. */
void ak_mainloop_pass(void);

#endif
