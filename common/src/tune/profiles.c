/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The built-in profiles: tables of settings, each with the reason for it. */
#include "rdmakit/tune.h"

#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char why_memlock[] =
    "RDMA pins every registered buffer; libibverbs warns below 32 KiB and registrations fail "
    "beyond the limit";
static const char why_governor[] =
    "ondemand and powersave clock the cores down between bursts; waking them costs "
    "microseconds per message";
static const char why_numa_balancing[] =
    "automatic NUMA balancing scans and unmaps pages to move them; pinned RDMA buffers "
    "cannot move and the scans add jitter";
static const char why_arp[] =
    "with several RDMA interfaces in one subnet, each answers ARP for the others' "
    "addresses and traffic lands on the wrong port";
static const char why_tos[] =
    "rdma_cm connections that set no ToS use this one; 106 is DSCP 26 with ECN capable, the "
    "class a lossless RoCE network maps to its PFC priority";

static const struct rk_tune_setting latency_settings[] = {
    {"governor", "performance", why_governor},
    {"cstates", "1",
     "deep C-states take tens of microseconds to leave; limit them on the kernel command line "
     "(intel_idle.max_cstate=1 processor.max_cstate=1)"},
    {"thp", "never",
     "khugepaged compaction stalls the application at random moments; latency runs avoid "
     "it"},
    {"irq_affinity", "local",
     "an interrupt handled on the other socket adds a cross-socket hop to every completion"},
    {"irqbalance", "off",
     "irqbalance moves the HCA's interrupts away from the cores pinned to them"},
    {"memlock", "unlimited", why_memlock},
    {"sysctl:kernel.numa_balancing", "0", why_numa_balancing},
    {"arp_ignore", "1", why_arp},
    {"arp_announce", "2", why_arp},
    {"roce_tos", "106", why_tos},
};

static const struct rk_tune_setting throughput_settings[] = {
    {"governor", "performance", why_governor},
    {"thp", "madvise",
     "large buffers that ask for huge pages get them (fewer MTT entries), others are not "
     "compacted"},
    {"irq_affinity", "local",
     "an interrupt handled on the other socket adds a cross-socket hop to every completion"},
    {"memlock", "unlimited", why_memlock},
    {"sysctl:kernel.numa_balancing", "0", why_numa_balancing},
    {"sysctl:vm.zone_reclaim_mode", "0",
     "zone reclaim drops page cache on the local node instead of using the remote one"},
    {"sysctl:net.core.rmem_max", "16777216",
     "IPoIB TCP streams need socket buffers beyond the 208 KiB default to fill the link"},
    {"sysctl:net.core.wmem_max", "16777216",
     "IPoIB TCP streams need socket buffers beyond the 208 KiB default to fill the link"},
    {"arp_ignore", "1", why_arp},
    {"arp_announce", "2", why_arp},
    {"roce_tos", "106", why_tos},
    {"roce_mtu", "9000",
     "RoCE uses the largest IB MTU that fits the Ethernet MTU: 1500 limits it to 1024 bytes, "
     "9000 allows 4096"},
    {"ipoib_connected_mtu", "65520",
     "IPoIB in connected mode carries up to 65520 bytes per packet, fewer interrupts per byte"},
    {"pcie_mrrs", "4096", "larger PCIe read requests let the HCA fetch send data in fewer TLPs"},
};

static const struct rk_tune_profile profiles[] = {
    {"latency", "lowest and steadiest message latency", latency_settings,
     ARRAY_LEN(latency_settings)},
    {"throughput", "highest bandwidth for large transfers", throughput_settings,
     ARRAY_LEN(throughput_settings)},
};

const struct rk_tune_profile *rk_tune_profile_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(profiles); i++)
		if (strcmp(profiles[i].name, name) == 0)
			return &profiles[i];
	return NULL;
}

const struct rk_tune_profile *rk_tune_profiles(size_t *count)
{
	*count = ARRAY_LEN(profiles);
	return profiles;
}

const struct rk_tune_setting *rk_tune_profile_setting(const struct rk_tune_profile *profile,
						      const char *key)
{
	for (size_t i = 0; profile && i < profile->count; i++)
		if (strcmp(profile->settings[i].key, key) == 0)
			return &profile->settings[i];
	return NULL;
}

const char *rk_tune_profile_value(const struct rk_tune_profile *profile, const char *key)
{
	const struct rk_tune_setting *setting = rk_tune_profile_setting(profile, key);

	return setting ? setting->value : NULL;
}
