/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the host module: rate and PCIe parsers, fixture hosts, vanish and return. */
#include "fixture_util.h"
#include "rdmakit/host.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#define DEV0 "class/infiniband/mlx5_0"
#define DEV1 "class/infiniband/mlx5_1"

static void check_rate(const char *text, double gbps, int width, const char *speed)
{
	double g = 0;
	int w = 0;
	enum rk_speed s;

	assert_int_equal(rk_parse_rate(text, &g, &w, &s), 0);
	assert_true(g == gbps);
	assert_int_equal(w, width);
	assert_string_equal(rk_speed_info(s)->name, speed);
}

static void rate_strings_of_every_kernel(void **state)
{
	double g;
	int w;
	enum rk_speed s;

	(void)state;
	check_rate("200 Gb/sec (4X HDR)", 200, 4, "HDR");
	check_rate("10 Gb/sec (4X)", 10, 4, "SDR");
	check_rate("25 Gb/sec (1X EDR)", 25, 1, "EDR");
	check_rate("2.5 Gb/sec (1X SDR)", 2.5, 1, "SDR");
	check_rate("56 Gb/sec (4X FDR)", 56, 4, "FDR");
	check_rate("40 Gb/sec (4X FDR10)", 40, 4, "FDR10");
	check_rate("400 Gb/sec (4X NDR)", 400, 4, "NDR");
	check_rate("100 Gb/sec (2X HDR)", 100, 2, "HDR");
	check_rate("300 Gb/sec (12X EDR)", 300, 12, "EDR");
	check_rate("20 Gb/sec (4X)", 20, 4, "");
	check_rate("200 Gb/sec", 200, -1, "");
	assert_int_equal(rk_parse_rate("", &g, &w, &s), -EINVAL);
	assert_int_equal(rk_parse_rate("fast", &g, &w, &s), -EINVAL);
	assert_int_equal(rk_parse_rate("200 Mb/sec (4X HDR)", &g, &w, &s), -EINVAL);
}

/* NaN and infinities are not rates (they print as NaN/Infinity, which is not JSON, and make
 * every other port "below peers"), nor is anything above any link's rate. */
static void rates_that_are_not_finite_or_absurd_are_refused(void **state)
{
	static const char *const bad[] = {
	    "nan Gb/sec (4X HDR)", "-nan Gb/sec",	  "NAN Gb/sec (4X HDR)",
	    "inf Gb/sec (4X HDR)", "infinity Gb/sec",	  "1e999 Gb/sec (4X HDR)",
	    "-1e999 Gb/sec",	   "1e6 Gb/sec (4X HDR)", "-200 Gb/sec (4X HDR)"};
	double g = 7;
	int w = 7;
	enum rk_speed s = RK_SPEED_NONE;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rk_parse_rate(bad[i], &g, &w, &s), -EINVAL);
	assert_true(g == 7);
	check_rate("2400 Gb/sec (12X XDR)", 2400, 12, "XDR");
	check_rate("200 Gb/sec (99X HDR)", 200, -1, ""); /* no link has 99 lanes */
	check_rate("200 Gb/sec (99999999999999999999X HDR)", 200, -1, "");
}

static void pcie_speed_strings(void **state)
{
	double gts = 0;

	(void)state;
	assert_int_equal(rk_parse_pcie_speed("16.0 GT/s PCIe", &gts), 0);
	assert_true(gts == 16.0);
	assert_int_equal(rk_parse_pcie_speed("2.5 GT/s", &gts), 0);
	assert_true(gts == 2.5);
	assert_int_equal(rk_parse_pcie_speed("8 GT/s PCIe", &gts), 0);
	assert_true(gts == 8.0);
	assert_int_equal(rk_parse_pcie_speed("Unknown", &gts), -EINVAL);
	assert_int_equal(rk_parse_pcie_speed("Unknown speed", &gts), -EINVAL);
	assert_int_equal(rk_parse_pcie_speed("16.0 Gb/s", &gts), -EINVAL);
	assert_int_equal(rk_parse_pcie_speed("nan GT/s", &gts), -EINVAL);
	assert_int_equal(rk_parse_pcie_speed("inf GT/s PCIe", &gts), -EINVAL);
	assert_int_equal(rk_parse_pcie_speed("1e999 GT/s", &gts), -EINVAL);
	assert_int_equal(rk_parse_pcie_speed("5000 GT/s", &gts), -EINVAL);
	assert_true(gts == 8.0);
}

static void port_numbers_as_sysfs_names_them(void **state)
{
	static const char *const bad[] = {"", "01", "1x", "-1", "+1", "0x1", " 1", "65536", "a"};
	unsigned num = 7;

	(void)state;
	assert_int_equal(rk_parse_port_number("1", &num), 0);
	assert_int_equal(num, 1);
	assert_int_equal(rk_parse_port_number("0", &num), 0);
	assert_int_equal(num, 0);
	assert_int_equal(rk_parse_port_number("65535", &num), 0);
	assert_int_equal(num, 65535);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rk_parse_port_number(bad[i], &num), -EINVAL);
	assert_int_equal(num, 65535);
}

/* A switch's only port is 0; a switchdev representor's numbers go past 255. */
static void switch_port_zero_and_high_port_numbers(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_host *host;

	(void)state;
	assert_int_equal(move_path(root, DEV0 "/ports/1", DEV0 "/ports/0"), 0);
	write_file(root, DEV0 "/node_type", "2: switch\n");
	assert_int_equal(move_path(root, DEV1 "/ports/1", DEV1 "/ports/300"), 0);
	assert_int_equal(rk_host_open(root, &host), 0);
	rk_host_refresh(host);
	assert_int_equal(host->devices[0].nports, 1);
	assert_int_equal(host->devices[0].ports[0].num, 0);
	assert_int_equal(host->devices[0].ports[0].state, RK_PORT_ACTIVE);
	assert_int_equal(host->devices[1].nports, 1);
	assert_int_equal(host->devices[1].ports[0].num, 300);
	assert_true(host->devices[1].ports[0].lid == 6);
	rk_host_close(host);
	fixture_discard(root);
}

static void healthy_host_facts(void **state)
{
	struct rk_host *host;
	const struct rk_device *dev;
	const struct rk_port *port;

	(void)state;
	assert_int_equal(rk_host_open(fixture_path("ib-hdr"), &host), 0);
	rk_host_refresh(host);
	assert_int_equal(host->ndevices, 2);
	dev = &host->devices[1];
	assert_string_equal(dev->name, "mlx5_1");
	assert_int_equal(dev->node_type, 1);
	assert_string_equal(dev->node_guid, "b859:9f03:00d4:6f2b");
	assert_string_equal(dev->pci.address, "0000:3b:00.1");
	assert_int_equal(dev->pci.vendor, 0x15b3);
	assert_int_equal(dev->pci.device_id, 0x101b);
	assert_int_equal(dev->pci.cur_width, 16);
	assert_int_equal(dev->pci.sriov_totalvfs, 8);
	assert_int_equal(dev->nports, 1);
	port = &dev->ports[0];
	assert_int_equal(port->state, RK_PORT_ACTIVE);
	assert_int_equal(port->phys_state, RK_PHYS_LINK_UP);
	assert_true(port->lid == 6 && port->sm_lid == 1 && port->cap_mask == 0xa651e848);
	assert_int_equal(port->counters.count, 21);
	assert_int_equal(port->hw_counters.count, 24);
	assert_true(rk_counter_set_find(&port->counters, "port_xmit_data")->value ==
		    1122334455667ull * 4);
	assert_true(rk_host_interval(host) == 0);
	rk_host_close(host);
}

static void numa_minus_one_and_missing_pci_files(void **state)
{
	char *root = fixture_copy("messy");
	struct rk_host *host;

	(void)state;
	write_file(root, "devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0/numa_node", "-1\n");
	assert_int_equal(rk_host_open(root, &host), 0);
	assert_int_equal(host->devices[0].pci.numa_node, -1);
	assert_true(host->devices[1].pci.cur_speed_gts < 0);
	assert_int_equal(host->devices[1].pci.cur_width, 16);
	assert_string_equal(host->devices[2].pci.address, "");
	rk_host_close(host);
	fixture_discard(root);
}

static void device_vanishes_and_returns(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_host *host;

	(void)state;
	log_capture_start();
	assert_int_equal(rk_host_open(root, &host), 0);
	rk_host_refresh(host);
	assert_int_equal(move_path(root, DEV0, "../mlx5_0"), 0);
	rk_host_refresh(host);
	assert_true(host->devices[0].vanished);
	assert_false(host->devices[1].vanished);
	assert_int_equal(host->devices[0].nports, 0);
	assert_int_equal(log_capture_count("mlx5_0: device vanished"), 1);
	rk_host_refresh(host); /* logged once, not on every read */
	assert_int_equal(log_capture_count("mlx5_0: device vanished"), 1);
	assert_int_equal(rk_host_rescan(host), 0);
	assert_true(host->devices[0].vanished);
	assert_int_equal(move_path(root, "../mlx5_0", DEV0), 0);
	assert_int_equal(rk_host_rescan(host), 0);
	assert_false(host->devices[0].vanished);
	assert_int_equal(log_capture_count("mlx5_0: device is back"), 1);
	rk_host_refresh(host);
	assert_int_equal(host->devices[0].ports[0].lid, 5);
	assert_int_equal(host->ndevices, 2);
	rk_host_close(host);
	fixture_discard(root);
}

static void new_device_is_picked_up(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_host *host;

	(void)state;
	assert_int_equal(move_path(root, DEV1, "../mlx5_1"), 0);
	assert_int_equal(rk_host_open(root, &host), 0);
	assert_int_equal(host->ndevices, 1);
	assert_int_equal(move_path(root, "../mlx5_1", DEV1), 0);
	assert_int_equal(rk_host_rescan(host), 0);
	assert_int_equal(host->ndevices, 2);
	assert_string_equal(host->devices[1].name, "mlx5_1");
	rk_host_close(host);
	fixture_discard(root);
}

static void empty_root_has_no_devices(void **state)
{
	char *root = fixture_copy("ib-hdr");
	char dir[4096];
	struct rk_host *host;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/class", root);
	remove_tree(dir);
	assert_int_equal(rk_host_open(root, &host), 0);
	assert_int_equal(host->ndevices, 0);
	rk_host_close(host);
	assert_int_equal(rk_host_open("/nonexistent/rdmakit", &host), -ENOENT);
	fixture_discard(root);
}

static void malformed_port_values_are_unknown(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_host *host;
	const struct rk_port *port;

	(void)state;
	log_capture_start();
	write_file(root, "class/infiniband/mlx5_0/ports/1/state", "ACTIVE\n");
	write_file(root, "class/infiniband/mlx5_0/ports/1/rate", "fast\n");
	write_file(root, "class/infiniband/mlx5_0/ports/1/lid", "0xZZ\n");
	assert_int_equal(rk_host_open(root, &host), 0);
	rk_host_refresh(host);
	port = &host->devices[0].ports[0];
	assert_int_equal(port->state, -1);
	assert_true(port->rate_gbps < 0);
	assert_true(port->lid == -1);
	assert_true(port->sm_lid == 1);
	assert_int_equal(log_capture_count("ports/1/state: malformed"), 1);
	assert_int_equal(log_capture_count("malformed rate"), 1);
	assert_int_equal(log_capture_count("ports/1/lid: not a number"), 1);
	assert_int_equal(host->devices[1].ports[0].state, RK_PORT_ACTIVE);
	rk_host_close(host);
	fixture_discard(root);
}

/* A FIFO, a directory and a symlink loop where a port's attributes should be: the host opens
 * at once, says which file is wrong and why, and reads everything else. */
static void hostile_attributes_are_reported_and_skipped(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_host *host;
	const struct rk_port *port;

	(void)state;
	log_capture_start();
	assert_int_equal(replace_with(root, DEV0 "/ports/1/state", HOSTILE_FIFO), 0);
	assert_int_equal(replace_with(root, DEV0 "/ports/1/rate", HOSTILE_DIR), 0);
	assert_int_equal(replace_with(root, DEV0 "/ports/1/lid", HOSTILE_LOOP), 0);
	assert_int_equal(replace_with(root, DEV0 "/fw_ver", HOSTILE_FIFO), 0);
	alarm(10); /* a blocking open ends the test, not the suite */
	assert_int_equal(rk_host_open(root, &host), 0);
	rk_host_refresh(host);
	alarm(0);
	port = &host->devices[0].ports[0];
	assert_int_equal(port->state, -1);
	assert_true(port->rate_gbps < 0);
	assert_true(port->lid == -1);
	assert_true(port->sm_lid == 1);
	assert_string_equal(host->devices[0].fw_ver, "");
	assert_int_equal(log_capture_count("ports/1/state: not a regular file"), 1);
	assert_int_equal(log_capture_count("ports/1/rate: a directory"), 1);
	assert_int_equal(log_capture_count("ports/1/lid: Too many levels of symbolic links"), 1);
	assert_int_equal(log_capture_count("mlx5_0/fw_ver: not a regular file"), 1);
	assert_int_equal(host->devices[1].ports[0].state, RK_PORT_ACTIVE);
	rk_host_close(host);
	fixture_discard(root);
}

/* Issue 18: a counter file replaced while the host runs (a FIFO, or a new file) was read
 * through the old descriptor forever. The next rescan reopens it: a new file is read, a FIFO
 * is refused at once (never waited on) and its counter is unavailable, named once. */
static void replaced_counter_file_is_noticed_at_rescan(void **state)
{
	static const char *const counter = DEV0 "/ports/1/counters/symbol_error";
	char *root = fixture_copy("ib-hdr");
	const struct rk_counter *c;
	struct rk_host *host;
	char path[4096];
	double started;

	(void)state;
	snprintf(path, sizeof(path), "%s/%s", root, counter);
	assert_int_equal(rk_host_open(root, &host), 0);
	rk_host_refresh(host);
	c = rk_counter_set_find(&host->devices[0].ports[0].counters, "symbol_error");
	assert_int_equal(c->raw, 0);
	assert_int_equal(unlink(path), 0); /* a new file in its place */
	write_file(root, counter, "17\n");
	assert_int_equal(rk_host_rescan(host), 0);
	rk_host_refresh(host);
	assert_int_equal(c->raw, 17);
	assert_int_equal(c->state, RK_VALUE_OK);
	log_capture_start();
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(rk_host_rescan(host), 0);
	started = (double)time(NULL);
	for (int i = 0; i < 3; i++)
		assert_int_equal(rk_host_refresh(host), 0);
	assert_true((double)time(NULL) - started < 2);
	assert_int_equal(c->state, RK_VALUE_UNAVAILABLE);
	assert_false(host->devices[0].vanished);
	assert_int_equal(log_capture_count("counters/symbol_error: not a regular file"), 1);
	assert_int_equal(host->devices[0].ports[0].state, RK_PORT_ACTIVE); /* the rest reads on */
	rk_host_close(host);
	fixture_discard(root);
}

/* A device that cannot be read is kept with why, logged once however often it is rescanned,
 * and forgotten with a message once it can be read. */
static void unreadable_device_is_kept_and_logged_once(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_host *host;
	char path[4096];

	(void)state;
	snprintf(path, sizeof(path), "%s/" DEV1 "/ports", root);
	assert_int_equal(move_path(root, DEV1 "/ports", DEV1 "/ports.aside"), 0);
	log_capture_start();
	assert_int_equal(rk_host_open(root, &host), 0);
	assert_int_equal(host->ndevices, 1);
	assert_int_equal(host->nunreadable, 1);
	assert_string_equal(host->unreadable[0].name, "mlx5_1");
	assert_string_equal(host->unreadable[0].path, DEV1 "/ports");
	assert_int_equal(host->unreadable[0].err, -ENOENT);
	for (int i = 0; i < 3; i++)
		assert_int_equal(rk_host_rescan(host), 0);
	assert_int_equal(log_capture_count("mlx5_1: cannot read device: " DEV1 "/ports: No such"),
			 1);
	assert_int_equal(log_capture_count("skipped"), 0); /* no message per attribute */
	assert_int_equal(move_path(root, DEV1 "/ports.aside", DEV1 "/ports"), 0);
	assert_int_equal(rk_host_rescan(host), 0);
	assert_int_equal(host->ndevices, 2);
	assert_int_equal(host->nunreadable, 0);
	assert_int_equal(log_capture_count("mlx5_1: device can be read again"), 1);
	rk_host_close(host);
	fixture_discard(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(rate_strings_of_every_kernel),
	    cmocka_unit_test(pcie_speed_strings),
	    cmocka_unit_test(port_numbers_as_sysfs_names_them),
	    cmocka_unit_test(switch_port_zero_and_high_port_numbers),
	    cmocka_unit_test(healthy_host_facts),
	    cmocka_unit_test(numa_minus_one_and_missing_pci_files),
	    cmocka_unit_test(device_vanishes_and_returns),
	    cmocka_unit_test(new_device_is_picked_up),
	    cmocka_unit_test(empty_root_has_no_devices),
	    cmocka_unit_test(malformed_port_values_are_unknown),
	    cmocka_unit_test(rates_that_are_not_finite_or_absurd_are_refused),
	    cmocka_unit_test(hostile_attributes_are_reported_and_skipped),
	    cmocka_unit_test(replaced_counter_file_is_noticed_at_rescan),
	    cmocka_unit_test(unreadable_device_is_kept_and_logged_once),
	};

	return cmocka_run_group_tests_name("host", tests, NULL, NULL);
}
