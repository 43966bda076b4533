/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the link module: the speed table, the kernel's sysfs rates at every speed and
 * width, odd rates, the PortInfo and libibverbs encodings, and the host reading a speed. */
#include "fixture_util.h"
#include "rdmakit/host.h"
#include "rdmakit/link.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#define PORT0 "class/infiniband/mlx5_0/ports/1"

#define SET(s) (1u << (s))

static const char *const names[RK_SPEED_COUNT] = {"",	 "SDR", "DDR", "QDR", "FDR10",
						  "FDR", "EDR", "HDR", "NDR", "XDR"};

/* RDMAKIT-MIB's RdmakitLinkSpeed: unknown(0), sdr(1) ... xdr(9), the numbers the agent serves. */
static void speeds_are_numbered_as_the_mib(void **state)
{
	(void)state;
	assert_int_equal(RK_SPEED_NONE, 0);
	assert_int_equal(RK_SPEED_SDR, 1);
	assert_int_equal(RK_SPEED_FDR10, 4);
	assert_int_equal(RK_SPEED_NDR, 8);
	assert_int_equal(RK_SPEED_XDR, 9);
	assert_int_equal(RK_SPEED_COUNT, 10);
	for (int s = 0; s < RK_SPEED_COUNT; s++) {
		assert_string_equal(rk_speed_info((enum rk_speed)s)->name, names[s]);
		assert_int_equal(rk_speed_from_name(names[s]), s);
	}
	assert_string_equal(rk_speed_name(RK_SPEED_NONE), "?");
	assert_string_equal(rk_speed_name(RK_SPEED_XDR), "XDR");
	assert_string_equal(rk_speed_name((enum rk_speed)42), "?");
	assert_string_equal(rk_speed_info((enum rk_speed) - 1)->name, "");
	assert_int_equal(rk_speed_from_name("xdr"), RK_SPEED_XDR);
	assert_int_equal(rk_speed_from_name("FDR1"), RK_SPEED_NONE);
	assert_int_equal(rk_speed_from_name("FDR100"), RK_SPEED_NONE);
	assert_int_equal(rk_speed_from_name("ZDR"), RK_SPEED_NONE);
}

static void lane_rates(void **state)
{
	const struct rk_speed_info *xdr = rk_speed_info(RK_SPEED_XDR);
	const struct rk_speed_info *ndr = rk_speed_info(RK_SPEED_NDR);
	const struct rk_speed_info *fdr10 = rk_speed_info(RK_SPEED_FDR10);

	(void)state;
	assert_true(xdr->signal_gbps == 212.5 && xdr->data_gbps == 200 && xdr->sysfs_gbps == 200);
	assert_true(ndr->signal_gbps == 106.25 && ndr->data_gbps == 100 && ndr->sysfs_gbps == 100);
	assert_true(fdr10->signal_gbps == 10.3125 && fdr10->sysfs_gbps == 10);
	assert_true(rk_speed_info(RK_SPEED_FDR)->sysfs_gbps == 14);
	assert_true(rk_speed_lane_gbps(RK_SPEED_XDR) == 212.5);
	assert_true(rk_speed_lane_gbps(RK_SPEED_NONE) == 0);
	for (int s = RK_SPEED_SDR + 1; s < RK_SPEED_COUNT; s++)
		assert_true(rk_speed_lane_gbps((enum rk_speed)s) >
			    rk_speed_lane_gbps((enum rk_speed)(s - 1)));
}

/* The kernel's rate_show: tenths of Gb/s per lane times the lanes, "%d%s Gb/sec (%dX%s)" with
 * ".5" for an odd tenth and the speed's name after a space. */
static const int kernel_lane_tenths[RK_SPEED_COUNT] = {0,   25,	 50,  100,  100,
						       140, 250, 500, 1000, 2000};

static void kernel_rate(int tenths, int lanes, const char *name, char *buf, size_t size)
{
	int rate = tenths * lanes;

	snprintf(buf, size, "%d%s Gb/sec (%dX %s)", rate / 10, rate % 10 ? ".5" : "", lanes, name);
}

static void every_kernel_rate_parses(void **state)
{
	static const int widths[] = {1, 2, 4, 8, 12};
	char text[64];

	(void)state;
	for (int s = RK_SPEED_SDR; s < RK_SPEED_COUNT; s++) {
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
			double gbps = -1;
			int width = -1;
			enum rk_speed speed = RK_SPEED_NONE;

			kernel_rate(kernel_lane_tenths[s], widths[w], names[s], text, sizeof(text));
			assert_int_equal(rk_parse_rate(text, &gbps, &width, &speed), 0);
			assert_int_equal(speed, s);
			assert_int_equal(width, widths[w]);
			assert_true(gbps * 10 == kernel_lane_tenths[s] * widths[w]);
			assert_true(gbps == widths[w] * rk_speed_info(speed)->sysfs_gbps);
		}
	}
}

static void check_rate(const char *text, double gbps, int width, enum rk_speed speed)
{
	double g = -2;
	int w = -2;
	enum rk_speed s = (enum rk_speed) - 2;

	assert_int_equal(rk_parse_rate(text, &g, &w, &s), 0);
	assert_true(g == gbps);
	assert_int_equal(w, width);
	assert_int_equal(s, speed);
}

static void rates_as_the_kernel_writes_them(void **state)
{
	(void)state;
	check_rate("2.5 Gb/sec (1X SDR)", 2.5, 1, RK_SPEED_SDR);
	check_rate("5 Gb/sec (2X SDR)", 5, 2, RK_SPEED_SDR);
	check_rate("30 Gb/sec (12X SDR)", 30, 12, RK_SPEED_SDR);
	check_rate("10 Gb/sec (4X)", 10, 4, RK_SPEED_SDR); /* kernels before 3.5 */
	check_rate("20 Gb/sec (4X DDR)", 20, 4, RK_SPEED_DDR);
	check_rate("40 Gb/sec (4X QDR)", 40, 4, RK_SPEED_QDR);
	check_rate("10 Gb/sec (1X FDR10)", 10, 1, RK_SPEED_FDR10);
	check_rate("40 Gb/sec (4X FDR10)", 40, 4, RK_SPEED_FDR10);
	check_rate("14 Gb/sec (1X FDR)", 14, 1, RK_SPEED_FDR);
	check_rate("168 Gb/sec (12X FDR)", 168, 12, RK_SPEED_FDR);
	check_rate("100 Gb/sec (4X EDR)", 100, 4, RK_SPEED_EDR);
	check_rate("50 Gb/sec (1X HDR)", 50, 1, RK_SPEED_HDR);
	check_rate("200 Gb/sec (4X HDR)", 200, 4, RK_SPEED_HDR);
	check_rate("100 Gb/sec (1X NDR)", 100, 1, RK_SPEED_NDR);
	check_rate("400 Gb/sec (4X NDR)", 400, 4, RK_SPEED_NDR);
	check_rate("200 Gb/sec (1X XDR)", 200, 1, RK_SPEED_XDR);
	check_rate("400 Gb/sec (2X XDR)", 400, 2, RK_SPEED_XDR);
	check_rate("800 Gb/sec (4X XDR)", 800, 4, RK_SPEED_XDR);
	check_rate("1600 Gb/sec (8X XDR)", 1600, 8, RK_SPEED_XDR);
	check_rate("2400 Gb/sec (12X XDR)", 2400, 12, RK_SPEED_XDR);
}

/* What a driver or a tree may write instead: a rate still, and the speed unknown. */
static void odd_rates_give_an_unknown_speed(void **state)
{
	static const char *const refused[] = {
	    "", "N/A", "n/a", "unknown", "Gb/sec (4X XDR)", "800 Gbps (4X XDR)", "800"};
	double g = 7;
	int w = 7;
	enum rk_speed s = RK_SPEED_HDR;

	(void)state;
	check_rate("800 Gb/sec (4X XDR)\n", 800, 4, RK_SPEED_XDR); /* newline left on */
	check_rate("800 Gb/sec (4x xdr)", 800, 4, RK_SPEED_XDR);
	check_rate("800 Gb/sec (4X  XDR)", 800, 4, RK_SPEED_XDR);
	check_rate("800 Gb/sec (4X ZDR)", 800, 4, RK_SPEED_NONE);
	check_rate("800 Gb/sec (4X XDR2)", 800, 4, RK_SPEED_NONE);
	check_rate("800 Gb/sec (4X X)", 800, 4, RK_SPEED_NONE);
	check_rate("800 Gb/sec (4X XDR", 800, 4, RK_SPEED_NONE); /* cut short */
	check_rate("800 Gb/sec (4X an unknown speed with a very long name)", 800, 4, RK_SPEED_NONE);
	check_rate("20 Gb/sec (4X)", 20, 4, RK_SPEED_NONE); /* only SDR was written so */
	check_rate("800 Gb/sec (XDR)", 800, -1, RK_SPEED_NONE);
	check_rate("800 Gb/sec (0X XDR)", 800, -1, RK_SPEED_NONE);
	check_rate("800 Gb/sec", 800, -1, RK_SPEED_NONE);
	check_rate("0 Gb/sec (4X XDR)", 0, 4, RK_SPEED_XDR);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_int_equal(rk_parse_rate(refused[i], &g, &w, &s), -EINVAL);
	assert_true(g == 7 && w == 7 && s == RK_SPEED_HDR);
}

static void portinfo_speed_fields(void **state)
{
	struct rk_portinfo_speeds all = {.speed = 7, .ext = 15, .ext2 = 1, .mlnx = 1};
	struct rk_portinfo_speeds none = {0};
	struct rk_portinfo_speeds f;

	(void)state;
	assert_int_equal(rk_speed_set_of_portinfo(&all), 0x3fe);
	assert_int_equal(rk_speed_set_of_portinfo(&none), 0);
	f = (struct rk_portinfo_speeds){.speed = 7};
	assert_int_equal(rk_speed_set_of_portinfo(&f),
			 SET(RK_SPEED_SDR) | SET(RK_SPEED_DDR) | SET(RK_SPEED_QDR));
	f = (struct rk_portinfo_speeds){.ext = 8, .ext2 = 1};
	assert_int_equal(rk_speed_set_of_portinfo(&f), SET(RK_SPEED_NDR) | SET(RK_SPEED_XDR));
	f = (struct rk_portinfo_speeds){.ext = 2, .mlnx = 1};
	assert_int_equal(rk_speed_set_of_portinfo(&f), SET(RK_SPEED_FDR10) | SET(RK_SPEED_EDR));
	f = (struct rk_portinfo_speeds){.ext2 = 6, .mlnx = 6}; /* reserved bits */
	assert_int_equal(rk_speed_set_of_portinfo(&f), 0);
}

/* PortInfo's active fields: an XDR port says XDR in LinkSpeedExtActive2 whatever the older
 * fields hold, an NDR port in LinkSpeedExtActive, FDR10 in Mellanox's field. */
static void portinfo_active_speed(void **state)
{
	static const struct {
		struct rk_portinfo_speeds f;
		enum rk_speed active;
	} cases[] = {
	    {{.speed = 4, .ext = 8, .ext2 = 1}, RK_SPEED_XDR},
	    {{.speed = 1, .ext2 = 1}, RK_SPEED_XDR},
	    {{.speed = 4, .ext = 8}, RK_SPEED_NDR},
	    {{.speed = 4, .ext = 4, .mlnx = 1}, RK_SPEED_HDR},
	    {{.speed = 4, .mlnx = 1}, RK_SPEED_FDR10},
	    {{.speed = 4}, RK_SPEED_QDR},
	    {{.speed = 1}, RK_SPEED_SDR},
	    {{.speed = 1, .ext = 16}, RK_SPEED_SDR}, /* a reserved ext bit names nothing */
	    {{0}, RK_SPEED_NONE},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(rk_speed_active_of_portinfo(&cases[i].f), cases[i].active);
	assert_int_equal(rk_speed_fastest(0), RK_SPEED_NONE);
	assert_int_equal(rk_speed_fastest(SET(RK_SPEED_SDR) | SET(RK_SPEED_XDR)), RK_SPEED_XDR);
}

/* PortInfo byte 56 as an XDR port sends it: LinkSpeedExtActive2, Supported2 and Enabled2 at
 * bits 449-450, 451-452 and 453-455 (rdma-core's libibmad BITSOFFS(449, 2) etc.). */
static void portinfo_ext2_bits(void **state)
{
	uint8_t info[64] = {0};

	(void)state;
	info[56] = 0x20 | 0x08 | 0x01; /* XDR active, supported and enabled */
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_ACTIVE), 1);
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_SUPPORTED), 1);
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_ENABLED), 1);
	info[56] = 0x80 | 0x08; /* the reserved bit 448 and Supported2 only */
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_ACTIVE), 0);
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_SUPPORTED), 1);
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_ENABLED), 0);
	info[56] = 0x7f;
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_ACTIVE), 3);
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_SUPPORTED), 3);
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_ENABLED), 7);
	info[56] = 0;
	info[55] = info[57] = 0xff; /* the neighbours (MaxCreditHint, RoundTrip) */
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_ACTIVE), 0);
	assert_int_equal(rk_portinfo_speed_ext2(info, RK_SPEED_ENABLED), 0);
}

/* ibv_port_attr: active_speed to NDR (128), active_speed_ex for XDR (256). */
static void verbs_speeds(void **state)
{
	static const uint32_t ibv[RK_SPEED_COUNT] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256};

	(void)state;
	for (int s = RK_SPEED_SDR; s < RK_SPEED_COUNT; s++)
		assert_int_equal(rk_speed_from_ibv(ibv[s]), s);
	assert_int_equal(rk_speed_from_ibv(0), RK_SPEED_NONE);
	assert_int_equal(rk_speed_from_ibv(3), RK_SPEED_NONE);
	assert_int_equal(rk_speed_from_ibv(512), RK_SPEED_NONE);
}

static void link_widths(void **state)
{
	(void)state;
	assert_int_equal(rk_width_lanes(1), 1);
	assert_int_equal(rk_width_lanes(2), 4);
	assert_int_equal(rk_width_lanes(4), 8);
	assert_int_equal(rk_width_lanes(8), 12);
	assert_int_equal(rk_width_lanes(16), 2);
	assert_int_equal(rk_width_lanes(0), -1);
	assert_int_equal(rk_width_lanes(3), -1);
	assert_int_equal(rk_width_lanes(32), -1);
	assert_int_equal(rk_width_set_of_bits(0x1f), SET(1) | SET(2) | SET(4) | SET(8) | SET(12));
	assert_int_equal(rk_width_set_of_bits(0x22), SET(4));
	assert_int_equal(rk_width_set_of_bits(0), 0);
}

/* The ib-xdr fixture's ports, then its XDR port's rate file missing, "N/A", without a newline
 * and naming a speed nobody knows. */
static void host_reads_xdr_and_ndr(void **state)
{
	char *root = fixture_copy("ib-xdr");
	struct rk_host *host;
	const struct rk_port *xdr, *ndr;
	char path[4096];

	(void)state;
	assert_int_equal(rk_host_open(root, &host), 0);
	rk_host_refresh(host);
	xdr = &host->devices[0].ports[0];
	ndr = &host->devices[1].ports[0];
	assert_true(xdr->speed == RK_SPEED_XDR && xdr->width == 4 && xdr->rate_gbps == 800);
	assert_true(ndr->speed == RK_SPEED_NDR && ndr->width == 4 && ndr->rate_gbps == 400);
	write_file(root, PORT0 "/rate", "800 Gb/sec (4X XDR)");
	rk_host_refresh(host);
	assert_true(xdr->speed == RK_SPEED_XDR && xdr->rate_gbps == 800);
	write_file(root, PORT0 "/rate", "N/A\n");
	rk_host_refresh(host);
	assert_true(xdr->speed == RK_SPEED_NONE && xdr->width == -1 && xdr->rate_gbps == -1);
	write_file(root, PORT0 "/rate", "1600 Gb/sec (4X YDR)\n");
	rk_host_refresh(host);
	assert_true(xdr->speed == RK_SPEED_NONE && xdr->width == 4 && xdr->rate_gbps == 1600);
	assert_true(ndr->speed == RK_SPEED_NDR);
	rk_host_close(host);
	snprintf(path, sizeof(path), "%s/%s", root, PORT0 "/rate");
	assert_int_equal(remove(path), 0);
	assert_int_equal(rk_host_open(root, &host), 0);
	rk_host_refresh(host);
	xdr = &host->devices[0].ports[0];
	assert_true(xdr->speed == RK_SPEED_NONE && xdr->width == -1 && xdr->rate_gbps == -1);
	assert_true(host->devices[1].ports[0].speed == RK_SPEED_NDR);
	rk_host_close(host);
	fixture_discard(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(speeds_are_numbered_as_the_mib),
	    cmocka_unit_test(lane_rates),
	    cmocka_unit_test(every_kernel_rate_parses),
	    cmocka_unit_test(rates_as_the_kernel_writes_them),
	    cmocka_unit_test(odd_rates_give_an_unknown_speed),
	    cmocka_unit_test(portinfo_speed_fields),
	    cmocka_unit_test(portinfo_active_speed),
	    cmocka_unit_test(portinfo_ext2_bits),
	    cmocka_unit_test(verbs_speeds),
	    cmocka_unit_test(link_widths),
	    cmocka_unit_test(host_reads_xdr_and_ndr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
