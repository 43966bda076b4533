/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Link speeds and widths: one enum of lane speeds with one table of what each is called, how
 * fast its lanes run, and how PortInfo, libibverbs and the kernel's sysfs "rate" encode it. */
#ifndef RDMAKIT_LINK_H
#define RDMAKIT_LINK_H

#include <stdint.h>

/* Lane speeds in ascending order, numbered as RDMAKIT-MIB's RdmakitLinkSpeed (the subagent
 * serves these numbers); RK_SPEED_NONE when unknown. */
enum rk_speed {
	RK_SPEED_NONE,
	RK_SPEED_SDR,
	RK_SPEED_DDR,
	RK_SPEED_QDR,
	RK_SPEED_FDR10,
	RK_SPEED_FDR,
	RK_SPEED_EDR,
	RK_SPEED_HDR,
	RK_SPEED_NDR,
	RK_SPEED_XDR,
	RK_SPEED_COUNT,
};

/* A set of speeds (bit 1 << enum rk_speed) or of widths (bit 1 << lanes). */
typedef uint32_t rk_speed_set;
typedef uint32_t rk_width_set;

/* One speed as every source names it; a 0 bit: that field cannot say this speed. */
struct rk_speed_info {
	const char *name;	 /* "SDR" ... "XDR"; "" for RK_SPEED_NONE */
	double signal_gbps;	 /* a lane's signalling rate (EDR 25.78125) */
	double data_gbps;	 /* a lane's data rate after line encoding (EDR 25) */
	double sysfs_gbps;	 /* a lane's rate in the kernel's sysfs "rate" (EDR 25) */
	uint8_t link_speed;	 /* PortInfo LinkSpeedActive/Enabled/Supported bit */
	uint8_t link_speed_ext;	 /* PortInfo LinkSpeedExtActive/Enabled/Supported bit */
	uint8_t link_speed_ext2; /* PortInfo LinkSpeedExtActive2/Enabled2/Supported2 bit */
	uint8_t mlnx_speed;	 /* Mellanox ExtendedPortInfo LinkSpeedActive/... bit */
	uint32_t ibv_speed;	 /* ibv_port_attr active_speed_ex (and active_speed to NDR) */
};

/* Above any port's rate (12x XDR is 2,400 Gb/s): a larger value in sysfs is garbage, as are
 * NaN and infinities. */
#define RK_RATE_MAX_GBPS 100000.0
/* More lanes than any link has (12x). */
#define RK_WIDTH_MAX 32

/** The table row of a speed (RK_SPEED_NONE's, all zero, for a number out of range). */
const struct rk_speed_info *rk_speed_info(enum rk_speed speed);

/** "SDR" ... "XDR", or "?" for an unknown speed. */
const char *rk_speed_name(enum rk_speed speed);

/** Signalling rate of one lane in Gb/s (EDR 25.78125), 0 for none. */
double rk_speed_lane_gbps(enum rk_speed speed);

/** The speed named name ("HDR", any case), or RK_SPEED_NONE. */
enum rk_speed rk_speed_from_name(const char *name);

/** The speed of an ibv_port_attr active_speed or active_speed_ex value, or RK_SPEED_NONE. */
enum rk_speed rk_speed_from_ibv(uint32_t ibv_speed);

/* One kind (active, enabled or supported) of a PortInfo's speed fields; 0 in a field it
 * lacks. */
struct rk_portinfo_speeds {
	uint32_t speed; /* LinkSpeed*: SDR, DDR, QDR */
	uint32_t ext;	/* LinkSpeedExt*, if CapabilityMask HasExtendedSpeeds: FDR to NDR */
	uint32_t ext2;	/* LinkSpeedExt*2, if CapabilityMask2 IsExtendedSpeeds2Supported: XDR */
	uint32_t mlnx;	/* Mellanox ExtendedPortInfo LinkSpeed*: FDR10 */
};

/* Which of a port's speed fields: what runs, what is enabled, what is supported. */
enum rk_speed_kind {
	RK_SPEED_ACTIVE,
	RK_SPEED_ENABLED,
	RK_SPEED_SUPPORTED,
};

/** The LinkSpeedExt*2 field of that kind in a raw 64-byte PortInfo (bits 449-455, which
 * libibmad names IB_PORT_LINK_SPEED_EXT_*_2_F only from rdma-core 49). */
uint32_t rk_portinfo_speed_ext2(const uint8_t *portinfo, enum rk_speed_kind kind);

/** The speeds the fields name together (enabled or supported speeds). */
rk_speed_set rk_speed_set_of_portinfo(const struct rk_portinfo_speeds *fields);

/** The active speed the fields name: the newest field that names one wins (LinkSpeedExt*2,
 * then LinkSpeedExt*, Mellanox's, LinkSpeed*); RK_SPEED_NONE when none does. */
enum rk_speed rk_speed_active_of_portinfo(const struct rk_portinfo_speeds *fields);

/** The fastest speed of a set, or RK_SPEED_NONE for an empty one. */
enum rk_speed rk_speed_fastest(rk_speed_set set);

/** Lanes of one LinkWidth bit as PortInfo and libibverbs encode it (1 1x, 2 4x, 4 8x, 8 12x,
 * 16 2x), or -1. */
int rk_width_lanes(uint32_t bit);

/** The widths of a LinkWidth bit mask, as a set indexed by lanes. */
rk_width_set rk_width_set_of_bits(uint32_t bits);

/** Parse the kernel's sysfs "rate" ("200 Gb/sec (4X HDR)", "10 Gb/sec (4X)" for SDR from old
 * kernels) into Gb/s, lanes (-1 unknown) and speed (RK_SPEED_NONE unknown); -EINVAL, leaving
 * the outputs alone, for a rate that is not finite, negative or above RK_RATE_MAX_GBPS. */
int rk_parse_rate(const char *text, double *gbps, int *width, enum rk_speed *speed);

#endif
