/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/link.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* IBA vol. 1 14.2.5.6 (PortInfo) and rdma-core's libibmad fields for the PortInfo bits; the
 * kernel's drivers/infiniband/core/sysfs.c rate_show for the sysfs rates (tenths of Gb/s per
 * lane there); libibverbs' ibv_query_port(3) for active_speed(_ex). Data rates: 8b/10b to QDR,
 * 64b/66b for FDR10 to EDR, and the nominal data rate of the PAM4 speeds after FEC. */
static const struct rk_speed_info speeds[RK_SPEED_COUNT] = {
    [RK_SPEED_NONE] = {.name = ""},
    [RK_SPEED_SDR] = {"SDR", 2.5, 2.0, 2.5, .link_speed = 1, .ibv_speed = 1},
    [RK_SPEED_DDR] = {"DDR", 5.0, 4.0, 5.0, .link_speed = 2, .ibv_speed = 2},
    [RK_SPEED_QDR] = {"QDR", 10.0, 8.0, 10.0, .link_speed = 4, .ibv_speed = 4},
    [RK_SPEED_FDR10] = {"FDR10", 10.3125, 10.0, 10.0, .mlnx_speed = 1, .ibv_speed = 8},
    [RK_SPEED_FDR] = {"FDR", 14.0625, 13.64, 14.0, .link_speed_ext = 1, .ibv_speed = 16},
    [RK_SPEED_EDR] = {"EDR", 25.78125, 25.0, 25.0, .link_speed_ext = 2, .ibv_speed = 32},
    [RK_SPEED_HDR] = {"HDR", 53.125, 50.0, 50.0, .link_speed_ext = 4, .ibv_speed = 64},
    [RK_SPEED_NDR] = {"NDR", 106.25, 100.0, 100.0, .link_speed_ext = 8, .ibv_speed = 128},
    [RK_SPEED_XDR] = {"XDR", 212.5, 200.0, 200.0, .link_speed_ext2 = 1, .ibv_speed = 256},
};

const struct rk_speed_info *rk_speed_info(enum rk_speed speed)
{
	return &speeds[(unsigned)speed < RK_SPEED_COUNT ? speed : RK_SPEED_NONE];
}

const char *rk_speed_name(enum rk_speed speed)
{
	const char *name = rk_speed_info(speed)->name;

	return name[0] ? name : "?";
}

double rk_speed_lane_gbps(enum rk_speed speed)
{
	return rk_speed_info(speed)->signal_gbps;
}

/* The speed whose name is the len characters at text, in any case. */
static enum rk_speed speed_named(const char *text, size_t len)
{
	for (int s = RK_SPEED_SDR; s < RK_SPEED_COUNT; s++)
		if (strlen(speeds[s].name) == len && strncasecmp(speeds[s].name, text, len) == 0)
			return (enum rk_speed)s;
	return RK_SPEED_NONE;
}

enum rk_speed rk_speed_from_name(const char *name)
{
	return speed_named(name, strlen(name));
}

enum rk_speed rk_speed_from_ibv(uint32_t ibv_speed)
{
	for (int s = RK_SPEED_SDR; s < RK_SPEED_COUNT; s++)
		if (speeds[s].ibv_speed == ibv_speed)
			return (enum rk_speed)s;
	return RK_SPEED_NONE;
}

rk_speed_set rk_speed_set_of_portinfo(const struct rk_portinfo_speeds *fields)
{
	rk_speed_set set = 0;

	for (int s = RK_SPEED_SDR; s < RK_SPEED_COUNT; s++) {
		const struct rk_speed_info *i = &speeds[s];

		if ((i->link_speed & fields->speed) || (i->link_speed_ext & fields->ext) ||
		    (i->link_speed_ext2 & fields->ext2) || (i->mlnx_speed & fields->mlnx))
			set |= 1u << s;
	}
	return set;
}

enum rk_speed rk_speed_active_of_portinfo(const struct rk_portinfo_speeds *fields)
{
	const struct rk_portinfo_speeds newest_first[] = {{.ext2 = fields->ext2},
							  {.ext = fields->ext},
							  {.mlnx = fields->mlnx},
							  {.speed = fields->speed}};

	for (size_t i = 0; i < sizeof(newest_first) / sizeof(newest_first[0]); i++) {
		rk_speed_set set = rk_speed_set_of_portinfo(&newest_first[i]);

		if (set)
			return rk_speed_fastest(set);
	}
	return RK_SPEED_NONE;
}

uint32_t rk_portinfo_speed_ext2(const uint8_t *portinfo, enum rk_speed_kind kind)
{
	/* Byte 56 (bits 448-455, most significant first): reserved, Active2 (2 bits),
	 * Supported2 (2), Enabled2 (3). */
	static const struct {
		unsigned shift;
		uint8_t mask;
	} ext2[] = {
	    [RK_SPEED_ACTIVE] = {5, 3}, [RK_SPEED_SUPPORTED] = {3, 3}, [RK_SPEED_ENABLED] = {0, 7}};

	return (uint32_t)(portinfo[56] >> ext2[kind].shift) & ext2[kind].mask;
}

enum rk_speed rk_speed_fastest(rk_speed_set set)
{
	for (int s = RK_SPEED_COUNT - 1; s > RK_SPEED_NONE; s--)
		if (set & (1u << s))
			return (enum rk_speed)s;
	return RK_SPEED_NONE;
}

int rk_width_lanes(uint32_t bit)
{
	switch (bit) {
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	default:
		return -1;
	}
}

rk_width_set rk_width_set_of_bits(uint32_t bits)
{
	rk_width_set set = 0;

	for (uint32_t bit = 1; bit <= 16; bit <<= 1)
		if (bits & bit)
			set |= 1u << rk_width_lanes(bit);
	return set;
}

/* The speed named in a rate's "(4X HDR)" after its width: old kernels wrote SDR as "(4X)". */
static enum rk_speed rate_speed(const char *text, double lane_gbps)
{
	size_t len;

	while (*text == ' ')
		text++;
	len = strcspn(text, ")");
	if (text[len] != ')')
		return RK_SPEED_NONE;
	if (len == 0)
		return lane_gbps == speeds[RK_SPEED_SDR].sysfs_gbps ? RK_SPEED_SDR : RK_SPEED_NONE;
	return speed_named(text, len);
}

int rk_parse_rate(const char *text, double *gbps, int *width, enum rk_speed *speed)
{
	char *end;
	double rate = strtod(text, &end);
	long lanes;

	if (end == text || !(rate >= 0 && rate <= RK_RATE_MAX_GBPS) ||
	    strncmp(end, " Gb/sec", 7) != 0)
		return -EINVAL;
	*gbps = rate;
	*width = -1;
	*speed = RK_SPEED_NONE;
	end = strchr(end, '(');
	if (!end)
		return 0; /* rate without a width: still a rate */
	lanes = strtol(end + 1, &end, 10);
	if (lanes <= 0 || lanes > RK_WIDTH_MAX || (*end != 'X' && *end != 'x'))
		return 0;
	*width = (int)lanes;
	*speed = rate_speed(end + 1, rate / (double)lanes);
	return 0;
}
