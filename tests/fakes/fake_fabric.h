/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A fabric for the tests on the fake libibumad: two CAs cabled to each other, and a monitor
 * that watches it without discovering it. */
#ifndef FAKE_FABRIC_H
#define FAKE_FABRIC_H

#include "rdmakit/fabric_cache.h"

/** Two CAs, "host1" (LID 1) and "host2" (LID 2), port 1 of each cabled to the other's, ACTIVE
 * at 4X EDR; aborts when out of memory. */
struct rk_fabric *fake_fabric_two_cas(void);

/** Start monitor on fake_fabric_two_cas() as if discovered just now (window 4, timeout 5 ms):
 * its sweeps send their MADs to the fake; it never rediscovers. */
void fake_fabric_watch(struct rk_fabric_cache *monitor);

#endif
