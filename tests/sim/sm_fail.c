/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sm_fail: SM queries that fail after the SM list was allocated, many times in one process,
 * as a collectd daemon would see them for months. Run under valgrind (or built with
 * RDMAKIT_SANITIZE, under LeakSanitizer) it shows whether a failure leaks.
 *
 *   sm_fail ROUNDS
 *
 * Discovers the fabric once (through the helper), then asks rk_fabric_cache_query_sm ROUNDS times
 * with a MAD window past the engine's maximum: rk_sm_query allocates its list and the run is
 * refused (-EINVAL), the one failure that comes every time. Prints
 *
 *   sm_fail rounds=N failed=N rc=-22 sms=0
 *
 * and exits 0 when every round failed with -EINVAL and nothing was kept.
 */
#include "rdmakit/fabric_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct rk_fabric_cache_options options;
	struct rk_fabric_cache monitor;
	long rounds = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
	long failed = 0;
	int rc;

	if (rounds <= 0 || rounds > 100000) {
		fprintf(stderr, "usage: sm_fail ROUNDS (1 to 100000)\n");
		return 2;
	}
	rk_fabric_cache_options_set(&options, NULL, 0, 0, 0, NULL);
	options.discover_in_helper = true;
	rk_fabric_cache_init(&monitor, &options);
	rc = rk_fabric_cache_discover(&monitor);
	if (rc) {
		fprintf(stderr, "sm_fail: discovery failed: %d\n", rc);
		rk_fabric_cache_close(&monitor);
		return 1;
	}
	monitor.options.mad.window = 1u << 20; /* past the engine's maximum: the run is refused */
	for (long i = 0; i < rounds; i++) {
		rc = rk_fabric_cache_query_sm(&monitor);
		failed += rc == -EINVAL;
	}
	printf("sm_fail rounds=%ld failed=%ld rc=%d sms=%zu\n", rounds, failed, rc,
	       monitor.sm.count);
	rk_fabric_cache_close(&monitor);
	return failed == rounds && rc == -EINVAL ? 0 : 1;
}
