/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/rdma_stack.h"

#include "rdmakit/sysfs.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Entries of dir/sub whose name starts with prefix ("" counts all but dot entries). Through
 * openat and fdopendir (rk_names_of_dir_fd): ibsim's shim wraps open and opendir, and its first
 * call connects. */
static unsigned count_entries(const char *dir, const char *sub, const char *prefix)
{
	char path[512], **names;
	unsigned count = 0;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (rk_names_of_dir_fd(openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), &names,
			       &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		count += strncmp(names[i], prefix, strlen(prefix)) == 0;
	rk_names_free(names, n);
	return count;
}

static bool exists(const char *dir, const char *sub)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	return stat(path, &st) == 0;
}

void rk_rdma_stack_read(const char *sys, const char *dev, struct rk_rdma_stack *out)
{
	out->devices = count_entries(sys, "class/infiniband", "");
	out->umad_loaded = exists(sys, "class/infiniband_mad/abi_version");
	out->umad_ports = count_entries(sys, "class/infiniband_mad", "umad");
	out->uverbs_loaded = exists(sys, "class/infiniband_verbs/abi_version");
	out->uverbs_devices = count_entries(sys, "class/infiniband_verbs", "uverbs");
	out->uverbs_nodes = count_entries(dev, "infiniband", "uverbs");
}

const char *rk_rdma_stack_no_umad(const struct rk_rdma_stack *stack)
{
	if (stack->umad_ports)
		return NULL;
	if (!stack->devices)
		return "no RDMA device on this host (nothing under /sys/class/infiniband): MADs "
		       "need an "
		       "InfiniBand HCA and its driver (mlx5_ib, ...)";
	if (!stack->umad_loaded)
		return "ib_umad is not loaded (no /sys/class/infiniband_mad): modprobe ib_umad";
	return "no InfiniBand port has a umad device (RoCE and iWARP ports have none): MADs need "
	       "an InfiniBand port";
}

const char *rk_rdma_stack_no_verbs(const struct rk_rdma_stack *stack)
{
	if (!stack->devices)
		return "no RDMA device on this host (nothing under /sys/class/infiniband): load "
		       "the "
		       "HCA's "
		       "driver (mlx5_ib, ...) or add a soft-RoCE device (rdma link add rxe0 type "
		       "rxe "
		       "netdev ETH)";
	if (!stack->uverbs_loaded)
		return "ib_uverbs is not loaded (no /sys/class/infiniband_verbs): modprobe "
		       "ib_uverbs";
	if (stack->uverbs_devices && !stack->uverbs_nodes)
		return "no /dev/infiniband/uverbs* device node (a container without "
		       "/dev/infiniband?): "
		       "give it the host's /dev/infiniband";
	return NULL;
}

bool rk_rdma_stack_simulated(void)
{
	const char *preload = getenv("LD_PRELOAD");

	return preload && strstr(preload, "umad2sim") != NULL;
}
