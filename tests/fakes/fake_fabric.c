/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "fake_fabric.h"

#include "rdmakit/clock.h"

#include <stdio.h>
#include <stdlib.h>

/* calloc that aborts the test instead of failing. */
static void *zeroed(size_t count, size_t size)
{
	void *p = calloc(count, size);

	if (!p)
		abort();
	return p;
}

struct rk_fabric *fake_fabric_two_cas(void)
{
	struct rk_fabric *f = zeroed(1, sizeof(*f));

	f->nodes = zeroed(2, sizeof(*f->nodes));
	f->nnodes = 2;
	for (int n = 0; n < 2; n++) {
		struct rk_fabric_node *node = &f->nodes[n];

		node->guid = 0x0002c90300000010ull + (uint64_t)n;
		node->type = RK_NODE_CA;
		node->nports = 1;
		node->lid = (uint16_t)(n + 1);
		snprintf(node->name, sizeof(node->name), "host%d", n + 1);
		node->ports = zeroed(2, sizeof(*node->ports));
		node->ports[1] = (struct rk_fabric_port){.num = 1,
							 .present = true,
							 .guid = node->guid,
							 .lid = node->lid,
							 .state = 4, /* ACTIVE */
							 .active_width = 4,
							 .active_speed = RK_SPEED_EDR,
							 .remote_node = 1 - n,
							 .remote_port = 1};
	}
	return f;
}

void fake_fabric_watch(struct rk_fabric_cache *monitor)
{
	struct rk_fabric_cache_options options;

	rk_fabric_cache_options_set(&options, NULL, 0, 4, 5, NULL);
	rk_fabric_cache_init(monitor, &options);
	monitor->fabric = fake_fabric_two_cas();
	monitor->discovered_at = rk_monotonic_seconds();
	if (rk_sweep_prepare(&monitor->sweep, monitor->fabric) != 0)
		abort();
}
