/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The one monotonic clock of the core and its front ends. */
#ifndef RDMAKIT_CLOCK_H
#define RDMAKIT_CLOCK_H

#include <pthread.h>
#include <stdbool.h>

/** Seconds on the monotonic clock. */
double rk_monotonic_seconds(void);

/** A lock and a condition whose timed waits count on the monotonic clock; -errno. */
int rk_monotonic_sync_init(pthread_mutex_t *lock, pthread_cond_t *cond);

/** Wait on cond (lock held) until *stop or the monotonic time until; the value of *stop. */
bool rk_monotonic_wait(pthread_cond_t *cond, pthread_mutex_t *lock, const bool *stop, double until);

#endif
