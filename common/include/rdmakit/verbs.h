/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What libibverbs says about a device: attributes, ports, GID table, P_Keys; and a loopback
 * RC probe on one port that really moves data. */
#ifndef RDMAKIT_VERBS_H
#define RDMAKIT_VERBS_H

#include "rdmakit/findings.h"
#include "rdmakit/host.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ibv_context;

enum rk_gid_type {
	RK_GID_IB,
	RK_GID_ROCE_V1,
	RK_GID_ROCE_V2,
};

struct rk_verbs_gid {
	unsigned index;
	char gid[40]; /* "fe80:0000:...", as sysfs writes it */
	enum rk_gid_type type;
	char netdev[32]; /* RoCE: the network device behind the entry, else "" */
	bool ipv4_mapped;
};

struct rk_verbs_port {
	unsigned num;
	int state;		       /* enum ibv_port_state, same numbers as sysfs */
	unsigned active_mtu, max_mtu;  /* bytes */
	char link_layer[16];	       /* InfiniBand or Ethernet */
	int width;		       /* lanes, or -1 */
	enum rk_speed speed;	       /* RK_SPEED_NONE when unknown */
	double signal_gbps, data_gbps; /* link rate before and after line encoding; -1 unknown */
	uint16_t lid, sm_lid;
	struct rk_verbs_gid *gids;
	size_t ngids;
	uint16_t *pkeys; /* the table's valid (non-zero) entries */
	size_t npkeys;
};

struct rk_verbs_device {
	char name[64];
	char fw_ver[64];
	uint64_t node_guid; /* host byte order */
	uint64_t max_mr_size;
	int max_qp, max_qp_wr, max_mr, max_sge, max_cq, max_cqe, max_qp_rd_atom, max_pd;
	char atomics[16]; /* none, hca, global */
	bool odp;
	struct rk_verbs_port *ports;
	size_t nports;
};

/** Query a device's attributes, every port, GID table and P_Key table (name NULL: the first). */
int rk_verbs_query(const char *name, struct rk_verbs_device *out);

/** Query the ports, GIDs and P_Keys of an open device into out (name and attributes too). */
int rk_verbs_query_context(struct ibv_context *ctx, struct rk_verbs_device *out);

/** Free what rk_verbs_query filled. */
void rk_verbs_device_free(struct rk_verbs_device *dev);

/** Open the device named name (NULL: the first); -ENODEV with a message when absent. */
int rk_verbs_open(const char *name, struct ibv_context **ctx);

/** The port numbered num, or NULL. */
const struct rk_verbs_port *rk_verbs_find_port(const struct rk_verbs_device *dev, unsigned num);

/** "IB", "RoCE v1" or "RoCE v2". */
const char *rk_gid_type_name(enum rk_gid_type type);

/** The GID a connection on this port should use: type wanted (or best: v2, then v1, then IB),
 * IPv4-mapped first; -1 when there is none. */
int rk_verbs_pick_gid(const struct rk_verbs_port *port, bool any_type, enum rk_gid_type wanted);

/** Format a raw 16-byte GID as sysfs does ("fe80:0000:..."). */
void rk_format_gid(const uint8_t raw[16], char *buf, size_t size);

/** Bytes for an enum ibv_mtu value (1..5), or 0. */
unsigned rk_mtu_bytes(int mtu_enum);

/** The PCIe link's ceiling in Gb/s after encoding (GT/s x lanes x 8b/10b or 128b/130b); -1. */
double rk_pcie_data_gbps(double gts, int width);

/* The loopback probe's steps, in order. */
enum rk_probe_step {
	RK_PROBE_OPEN,
	RK_PROBE_PORT,
	RK_PROBE_PD,
	RK_PROBE_MR,
	RK_PROBE_CQ,
	RK_PROBE_QP,
	RK_PROBE_INIT,
	RK_PROBE_RTR,
	RK_PROBE_RTS,
	RK_PROBE_WRITE,
	RK_PROBE_READ,
	RK_PROBE_SEND,
	RK_PROBE_STEPS,
};

struct rk_probe_options {
	const char *device; /* NULL: the first */
	unsigned port;	    /* 0: the device's first port */
	size_t size;	    /* bytes moved by each operation; 0: 4096 */
	double timeout;	    /* seconds to wait for each completion; 0: 5 */
};

struct rk_probe_result {
	char device[64];
	unsigned port;
	char link_layer[16];
	int gid_index; /* -1: none used (InfiniBand, LID routed) */
	enum rk_gid_type gid_type;
	unsigned mtu; /* path MTU used, bytes */
	size_t size;
	bool passed;
	int failed_step;		/* enum rk_probe_step, or -1 */
	int error;			/* errno of the failed call, or 0 */
	int wc_status;			/* enum ibv_wc_status of a failed completion, or -1 */
	char wc_status_text[48];	/* its ibv_wc_status_str, or "" */
	char message[256];		/* what failed */
	char hint[256];			/* what to check */
	double seconds[RK_PROBE_STEPS]; /* each step; the data steps include their completions */
	double rtt_seconds;		/* the send/receive round trip */
};

/** Run the loopback probe; 0 when it ran (see result->passed), -errno when it could not. */
int rk_probe_run(const struct rk_probe_options *options, struct rk_probe_result *result);

/** "open", "port", "pd", "mr", "cq", "qp", "init", "rtr", "rts", "write", "read", "send". */
const char *rk_probe_step_name(int step);

/* A daemon's probe waits at most this long for each completion, so that it holds its reader
 * for a few seconds at worst. */
#define RK_PROBE_DAEMON_TIMEOUT_S 2.0

/* One port's probe as a daemon keeps it: whether it ran, and what it found. */
struct rk_probe_outcome {
	char device[64];
	unsigned port;
	int status; /* 0: it ran (see result.passed); -errno: it could not run */
	struct rk_probe_result result;
};

/** True for a port the daemons and doctor --probe probe: a present device's ACTIVE port. */
bool rk_probe_wanted(const struct rk_device *dev, const struct rk_port *port);

/** Probe one port, waiting at most timeout seconds (0: 5) for each completion. */
void rk_probe_port(const char *device, unsigned port, double timeout, struct rk_probe_outcome *out);

/** Append the outcome's finding, subject "DEV:PORT": PROBE_PASSED (ok), PROBE_FAILED
 * (critical, with the failed step and what to check) or PROBE_NOT_RUN (warning); -ENOMEM. */
int rk_probe_finding(const struct rk_probe_outcome *outcome, struct rk_findings *findings);

#endif
