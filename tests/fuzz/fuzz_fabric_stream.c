/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: the discovery helper's fabric stream (rk_fabric_read), fed from a memfd.
 * What it accepts is then used as every front end uses a fabric: links classified, nodes
 * named, the fabric rules run against itself; none of that may read out of bounds. */
#include "fuzz_util.h"
#include "rdmakit/fabric.h"
#include "rdmakit/health.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void use_fabric(struct rk_fabric *fabric)
{
	struct rk_findings findings = {0};
	size_t degraded = 0;

	rk_fabric_classify_links(fabric);
	rk_fabric_name_nodes(fabric, NULL);
	for (size_t i = 0; i < fabric->nlinks; i++)
		degraded += rk_link_degraded(&fabric->links[i]);
	if (degraded > fabric->nlinks)
		abort();
	rk_health_check_fabric(fabric, fabric, &findings);
	rk_findings_free(&findings);
	if (fabric->nnodes)
		rk_fabric_find_node(fabric, fabric->nodes[0].guid);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rk_fabric *fabric = NULL;
	int fd = memfd_create("rdmakit-fuzz-stream", MFD_CLOEXEC);

	fuzz_quiet_log();
	if (fd < 0 || write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET) != 0)
		abort();
	if (rk_fabric_read(fd, &fabric) == 0) {
		use_fabric(fabric);
		rk_fabric_free(fabric);
	} else if (fabric) {
		abort(); /* a refused stream leaves nothing behind */
	}
	close(fd);
	return 0;
}
