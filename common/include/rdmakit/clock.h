/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The one monotonic clock of the core and its front ends. */
#ifndef RDMAKIT_CLOCK_H
#define RDMAKIT_CLOCK_H

/** Seconds on the monotonic clock. */
double rk_monotonic_seconds(void);

#endif
