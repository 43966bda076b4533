/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A test-only collectd plugin, "rdmakit_drain", for one-shot runs (collectd -T).
 *
 * collectd -T reads every plugin once and then stops its write threads, dropping the value
 * lists still queued. This plugin counts the value lists its write callback receives, and its
 * read callback, which runs after rdmakit's, waits until `Expect` of them have been written
 * (or `TimeoutSeconds` have passed). Loaded after the writer under test, it makes a one-shot
 * run print every value the read dispatched. */
#include "cd_collectd.h"

#include <pthread.h>
#include <time.h>

#define DRAIN_NAME "rdmakit_drain"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t written_cond = PTHREAD_COND_INITIALIZER;
static long written;
static long expected;
static long timeout_seconds = 10;

static int drain_write(const data_set_t *ds, const value_list_t *vl, user_data_t *ud)
{
	(void)ds;
	(void)vl;
	(void)ud;
	pthread_mutex_lock(&lock);
	written++;
	pthread_cond_broadcast(&written_cond);
	pthread_mutex_unlock(&lock);
	return 0;
}

static int drain_read(void)
{
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += timeout_seconds;
	pthread_mutex_lock(&lock);
	int err = 0;
	while (written < expected && err == 0)
		err = pthread_cond_timedwait(&written_cond, &lock, &deadline);
	long seen = written;
	pthread_mutex_unlock(&lock);
	INFO(DRAIN_NAME ": %ld of %ld value lists written", seen, expected);
	return 0;
}

static int drain_config(const char *key, const char *value)
{
	/* collectd hands simple-config numbers over as "%lf" strings ("37.000000") */
	char *end = NULL;
	double parsed = strtod(value, &end);
	if (end == value || *end != '\0' || parsed < 0 || parsed > 1e6)
		return -1;
	long number = (long)parsed;
	if (strcasecmp(key, "Expect") == 0)
		expected = number;
	else if (strcasecmp(key, "TimeoutSeconds") == 0)
		timeout_seconds = number;
	else
		return -1;
	return 0;
}

static int drain_init(void)
{
	/* Registered here, after rdmakit's init registered its reads: one-shot runs read in order
	 * of registration time, so this read comes last. */
	return plugin_register_read(DRAIN_NAME, drain_read);
}

static const char *drain_keys[] = {"Expect", "TimeoutSeconds"};

/** Called by collectd when it loads the plugin: register the callbacks. */
void module_register(void);

void module_register(void)
{
	plugin_register_config(DRAIN_NAME, drain_config, drain_keys, STATIC_ARRAY_SIZE(drain_keys));
	plugin_register_init(DRAIN_NAME, drain_init);
	plugin_register_write(DRAIN_NAME, drain_write, NULL);
}
