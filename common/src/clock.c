/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/clock.h"

#include <errno.h>
#include <time.h>

double rk_monotonic_seconds(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

int rk_monotonic_sync_init(pthread_mutex_t *lock, pthread_cond_t *cond)
{
	pthread_condattr_t attr;
	int err = pthread_condattr_init(&attr);

	if (err)
		return -err;
	err = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(cond, &attr);
	pthread_condattr_destroy(&attr);
	if (err)
		return -err;
	err = pthread_mutex_init(lock, NULL);
	if (err)
		pthread_cond_destroy(cond);
	return -err;
}

bool rk_monotonic_wait(pthread_cond_t *cond, pthread_mutex_t *lock, const bool *stop, double until)
{
	struct timespec ts = {.tv_sec = (time_t)until};

	ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
	while (!*stop && pthread_cond_timedwait(cond, lock, &ts) != ETIMEDOUT)
		;
	return *stop;
}
