/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the kernel offers for RDMA on this host, read from sysfs and /dev without libibumad or
 * libibverbs (both print to stderr, or fail with a bare errno, when a module is missing): why
 * there is no umad port or verbs device, and what to do about it, in one sentence. */
#ifndef RDMAKIT_RDMA_STACK_H
#define RDMAKIT_RDMA_STACK_H

#include <stdbool.h>

/* Counts of what the RDMA stack shows in sysfs and /dev. */
struct rk_rdma_stack {
	unsigned devices;    /* RDMA devices under class/infiniband */
	bool umad_loaded;    /* class/infiniband_mad/abi_version exists: ib_umad is loaded */
	unsigned umad_ports; /* umadN entries under class/infiniband_mad */
	bool uverbs_loaded;  /* class/infiniband_verbs/abi_version exists: ib_uverbs is loaded */
	unsigned uverbs_devices; /* uverbsN entries under class/infiniband_verbs */
	unsigned uverbs_nodes;	 /* uverbsN entries under infiniband/ of the device directory */
};

/** Read the stack under the sysfs mount sys ("/sys") and the device directory dev ("/dev"). */
void rk_rdma_stack_read(const char *sys, const char *dev, struct rk_rdma_stack *out);

/** Why no MAD can be sent, with the remedy; NULL when some umad port exists. */
const char *rk_rdma_stack_no_umad(const struct rk_rdma_stack *stack);

/** Why libibverbs lists no device, with the remedy; NULL when a verbs device is usable. */
const char *rk_rdma_stack_no_verbs(const struct rk_rdma_stack *stack);

/** Whether ibsim's umad2sim shim is preloaded: its umad devices are not in the real sysfs. */
bool rk_rdma_stack_simulated(void);

#endif
