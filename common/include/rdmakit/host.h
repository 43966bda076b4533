/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A host's RDMA devices, ports and PCI functions, read from sysfs. */
#ifndef RDMAKIT_HOST_H
#define RDMAKIT_HOST_H

#include "rdmakit/counters.h"
#include "rdmakit/link.h"
#include "rdmakit/sysfs.h"

#include <stdbool.h>
#include <stdint.h>

/* Numbers a port reports in sysfs; -1 where the file is missing or malformed. */
enum rk_port_state {
	RK_PORT_DOWN = 1,
	RK_PORT_INIT = 2,
	RK_PORT_ARMED = 3,
	RK_PORT_ACTIVE = 4,
	RK_PORT_ACTIVE_DEFER = 5,
};

enum rk_phys_state {
	RK_PHYS_SLEEP = 1,
	RK_PHYS_POLLING = 2,
	RK_PHYS_DISABLED = 3,
	RK_PHYS_TRAINING = 4,
	RK_PHYS_LINK_UP = 5,
	RK_PHYS_ERROR_RECOVERY = 6,
	RK_PHYS_PHY_TEST = 7,
};

/* The attributes of a port that change while it runs, kept open. */
struct rk_port_attrs {
	struct rk_attr state, phys_state, rate, lid, sm_lid, sm_sl, lmc, cap_mask;
};

struct rk_port {
	unsigned num;
	char dir[128]; /* relative path of ports/N */
	int state;     /* enum rk_port_state or -1 */
	char state_name[24];
	int phys_state; /* enum rk_phys_state or -1 */
	char phys_state_name[32];
	char rate_text[48];  /* as the kernel wrote it */
	double rate_gbps;    /* -1 when unknown */
	int width;	     /* lanes (1, 2, 4, 8, 12) or -1 */
	enum rk_speed speed; /* from the rate's "(4X HDR)"; RK_SPEED_NONE when unknown */
	char link_layer[16]; /* InfiniBand, Ethernet or "" */
	int64_t lid, sm_lid; /* -1 when unknown */
	int sm_sl, lmc;	     /* -1 when unknown */
	int64_t cap_mask;    /* -1 when unknown */
	char gid0[40];
	char netdev[32]; /* RoCE: the network device behind the port */
	struct rk_port_attrs attrs;
	struct rk_counter_set counters;	   /* counters/ */
	struct rk_counter_set hw_counters; /* hw_counters/ */
};

/* The PCI function behind a device; absent fields are -1 or "". */
struct rk_pci {
	char address[16]; /* "" when the device has no PCI parent */
	int vendor, device_id;
	int numa_node;
	char cur_speed[32], max_speed[32]; /* as written, e.g. "16.0 GT/s PCIe" */
	double cur_speed_gts, max_speed_gts;
	int cur_width, max_width;
	int sriov_numvfs, sriov_totalvfs;
};

struct rk_device {
	char name[64];
	char dir[96];  /* class/infiniband/NAME */
	int node_type; /* 1 CA, 2 switch, 3 router, 4 RNIC, or -1 */
	char node_type_name[16];
	char node_guid[24], sys_image_guid[24];
	char fw_ver[64], hca_type[32], board_id[64], hw_rev[16], node_desc[72];
	struct rk_pci pci;
	struct rk_port *ports;
	unsigned nports;
	struct rk_counter_set hw_counters; /* device-level hw_counters/ */
	bool vanished; /* the device disappeared; its values are the last ones read */
};

/* Longest device name the kernel gives (IB_DEVICE_NAME_MAX less its NUL); a longer one in the
 * tree is a device that cannot be read. */
#define RK_DEVICE_NAME_MAX 63

/* A device listed under class/infiniband that could not be read: what failed, and why. */
struct rk_unreadable_device {
	char name[96];	/* as listed (cut short when longer) */
	char path[192]; /* what failed, relative to the root */
	int err;	/* negative errno */
};

/* The host's devices and the time of the last two samples. */
struct rk_host {
	struct rk_sysfs *fs;
	struct rk_device *devices;
	size_t ndevices;
	struct rk_unreadable_device *unreadable; /* listed at the last rescan, not read */
	size_t nunreadable;
	double sample_time;	 /* seconds, monotonic clock, of the last refresh */
	double prev_sample_time; /* 0 before the second refresh */
};

/** Find the RDMA devices under root (e.g. "/sys") and read their static facts. */
int rk_host_open(const char *root, struct rk_host **out);

/** Like rk_host_open for the sysfs tree at reldir inside root, every path confined to root
 * (rk_sysfs_open_in_root): an image's absolute link never leads outside it. */
int rk_host_open_in_root(const char *root, const char *reldir, struct rk_host **out);

/** Like rk_host_open, keeping at most max_open attributes open (the rest are reopened). */
int rk_host_open_limited(const char *root, size_t max_open, struct rk_host **out);

/** Re-read states, rates, LIDs and every counter; marks devices that vanished. */
int rk_host_refresh(struct rk_host *host);

/** Pick up devices that appeared, came back or became readable; reopen attributes whose file
 * was replaced (a new file, or a FIFO now refused). */
int rk_host_rescan(struct rk_host *host);

/** Close every descriptor and free the host. */
void rk_host_close(struct rk_host *host);

/** Seconds between the last two refreshes, or 0 before the second. */
double rk_host_interval(const struct rk_host *host);

/* Above any PCIe link's speed (PCIe 7 is 128 GT/s): a larger value in sysfs is garbage, as are
 * NaN and infinities. A port's rate is parsed by rk_parse_rate (link.h). */
#define RK_PCIE_SPEED_MAX_GTS 1000.0

/* Highest port number sysfs can name (switchdev representors go past 255). */
#define RK_PORT_NUM_MAX 65535

/** Parse a port number as sysfs names port directories: decimal 0..RK_PORT_NUM_MAX (0 is a
 * switch's management port); -EINVAL otherwise. */
int rk_parse_port_number(const char *text, unsigned *num);

/** Parse a PCIe link speed ("16.0 GT/s PCIe") into GT/s; -EINVAL when not above 0 and at most
 * RK_PCIE_SPEED_MAX_GTS. */
int rk_parse_pcie_speed(const char *text, double *gts);

/** "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER", or "?" for a port state number. */
const char *rk_port_state_name(int state);

/** "Sleep", "Polling", "Disabled", "LinkUp", ... or "?" for a physical state number. */
const char *rk_phys_state_name(int state);

/** The device named name, or NULL. */
struct rk_device *rk_host_find_device(struct rk_host *host, const char *name);

#endif
