/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Reads a host's counters N times through the core, for callgrind to count (host-read.sh). */
#include "rdmakit/host.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct rk_host *host;
	size_t counters = 0;
	int reads;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: %s SYSFS_ROOT READS [MAX_OPEN]\n", argv[0]);
		return 2;
	}
	reads = atoi(argv[2]);
	if ((argc == 4 ? rk_host_open_limited(argv[1], (size_t)atoi(argv[3]), &host)
		       : rk_host_open(argv[1], &host)) != 0)
		return 1;
	for (int i = 0; i < reads; i++)
		rk_host_refresh(host);
	for (size_t d = 0; d < host->ndevices; d++) {
		const struct rk_device *dev = &host->devices[d];

		counters += dev->hw_counters.count;
		for (unsigned p = 0; p < dev->nports; p++)
			counters += dev->ports[p].counters.count + dev->ports[p].hw_counters.count;
	}
	printf("%zu devices, %zu counters\n", host->ndevices, counters);
	rk_host_close(host);
	return 0;
}
