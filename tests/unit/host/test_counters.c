/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of counters: saturation, wrap and reset, unavailable values, reading a set. */
#include "fixture_util.h"
#include "rdmakit/counters.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

static struct rk_counter counter_for(enum rk_source source, const char *name)
{
	struct rk_counter c;
	const struct rk_metric *m = rk_catalog_find(source, name);

	memset(&c, 0, sizeof(c));
	c.metric = m ? m : rk_catalog_unknown_hw();
	c.state = RK_VALUE_UNAVAILABLE;
	c.attr.fd = -1;
	return c;
}

static void saturation_at_each_width(void **state)
{
	const struct rk_metric *sym = rk_catalog_find(RK_SRC_PORT_COUNTERS, "symbol_error");
	const struct rk_metric *wait = rk_catalog_find(RK_SRC_PORT_COUNTERS, "port_xmit_wait");
	const struct rk_metric *down = rk_catalog_find(RK_SRC_PORT_COUNTERS, "link_downed");
	const struct rk_metric *lli =
	    rk_catalog_find(RK_SRC_PORT_COUNTERS, "local_link_integrity_errors");
	const struct rk_metric *data = rk_catalog_find(RK_SRC_PORT_COUNTERS, "port_xmit_data");

	(void)state;
	assert_int_equal(rk_counter_classify(sym, 65535), RK_VALUE_SATURATED);
	assert_int_equal(rk_counter_classify(sym, 65534), RK_VALUE_OK);
	assert_int_equal(rk_counter_classify(wait, 4294967295u), RK_VALUE_SATURATED);
	assert_int_equal(rk_counter_classify(wait, 4294967294u), RK_VALUE_OK);
	assert_int_equal(rk_counter_classify(down, 255), RK_VALUE_SATURATED);
	assert_int_equal(rk_counter_classify(lli, 15), RK_VALUE_SATURATED);
	assert_int_equal(rk_counter_classify(lli, 14), RK_VALUE_OK);
	/* a data counter stuck at the 32-bit PortCounters maximum, or at 64 bits */
	assert_int_equal(rk_counter_classify(data, 4294967295u), RK_VALUE_SATURATED);
	assert_int_equal(rk_counter_classify(data, UINT64_MAX), RK_VALUE_SATURATED);
	assert_int_equal(rk_counter_classify(data, 4294967296u), RK_VALUE_OK);
	/* driver counters wrap rather than stick */
	assert_int_equal(rk_counter_classify(rk_catalog_unknown_hw(), UINT64_MAX), RK_VALUE_OK);
}

static void delta_wraps_or_resets(void **state)
{
	const struct rk_metric *sym = rk_catalog_find(RK_SRC_PORT_COUNTERS, "symbol_error");
	const struct rk_metric *hw = rk_catalog_unknown_hw();

	(void)state;
	assert_true(rk_counter_raw_delta(sym, 10, 25) == 15);
	assert_true(rk_counter_raw_delta(sym, 10, 10) == 0);
	/* PMA counters do not wrap: a smaller value means they were cleared */
	assert_true(rk_counter_raw_delta(sym, 500, 7) == 7);
	/* a 64-bit driver counter wrapping past its maximum */
	assert_true(rk_counter_raw_delta(hw, UINT64_MAX - 5, 10) == 16);
}

static void update_scales_data_and_computes_deltas(void **state)
{
	struct rk_counter c = counter_for(RK_SRC_PORT_COUNTERS, "port_xmit_data");

	(void)state;
	rk_counter_update(&c, "1000");
	assert_int_equal(c.state, RK_VALUE_OK);
	assert_true(c.value == 4000);
	assert_false(c.has_delta);
	rk_counter_update(&c, "1250");
	assert_true(c.has_delta);
	assert_true(c.delta == 1000);
	assert_true(c.value == 5000);
	assert_false(rk_counter_went_back(&c));
	rk_counter_update(&c, "10"); /* cleared: a discontinuity, the delta what came after */
	assert_true(rk_counter_went_back(&c));
	assert_true(c.delta == 40);
	rk_counter_update(&c, "20");
	assert_false(rk_counter_went_back(&c));
}

static void unavailable_values_break_deltas_without_noise(void **state)
{
	struct rk_counter c = counter_for(RK_SRC_PORT_COUNTERS, "symbol_error");

	(void)state;
	log_capture_start();
	c.attr.path = "ports/1/counters/symbol_error";
	rk_counter_update(&c, "N/A (no PMA)");
	assert_int_equal(c.state, RK_VALUE_UNAVAILABLE);
	rk_counter_update(&c, "5");
	assert_int_equal(c.state, RK_VALUE_OK);
	assert_false(c.has_delta);
	rk_counter_update(&c, "abc");
	assert_int_equal(c.state, RK_VALUE_UNAVAILABLE);
	assert_false(c.has_delta);
	rk_counter_update(&c, "");
	assert_int_equal(log_capture_count("not a counter value"), 1);
	assert_int_equal(log_capture_count("N/A"), 0);
	assert_int_equal(log_capture_count("ports/1/counters/symbol_error"), 1);
	rk_counter_update(&c, "9");
	rk_counter_update(&c, "12");
	assert_true(c.has_delta && c.delta == 3);
}

static void saturated_counter_keeps_its_value(void **state)
{
	struct rk_counter c = counter_for(RK_SRC_PORT_COUNTERS, "port_xmit_wait");

	(void)state;
	rk_counter_update(&c, "4294967295");
	assert_int_equal(c.state, RK_VALUE_SATURATED);
	assert_true(c.value == 4294967295u);
	rk_counter_update(&c, "4294967295");
	assert_true(c.has_delta && c.delta == 0);
}

static void reads_a_whole_directory(void **state)
{
	struct rk_counter_set set;
	struct rk_sysfs *fs;
	const struct rk_counter *c;

	(void)state;
	assert_int_equal(rk_sysfs_open(fixture_path("saturated"), &fs), 0);
	assert_int_equal(rk_counter_set_open(fs, "class/infiniband/mlx5_0/ports/1/counters",
					     RK_SRC_PORT_COUNTERS, &set),
			 0);
	assert_int_equal(set.count, 21);
	assert_int_equal(rk_counter_set_read(fs, &set), 0);
	c = rk_counter_set_find(&set, "port_rcv_data");
	assert_non_null(c);
	assert_true(c->value == 1988776655443ull * 4);
	assert_int_equal(rk_counter_set_find(&set, "symbol_error")->state, RK_VALUE_SATURATED);
	assert_int_equal(rk_counter_set_find(&set, "link_downed")->state, RK_VALUE_SATURATED);
	assert_int_equal(rk_counter_set_find(&set, "port_rcv_errors")->state, RK_VALUE_OK);
	assert_null(rk_counter_set_find(&set, "nope"));
	rk_counter_set_close(fs, &set);
	/* a missing directory is an empty set, not an error */
	assert_int_equal(rk_counter_set_open(fs, "class/infiniband/mlx5_0/ports/1/nothing",
					     RK_SRC_HW_COUNTERS, &set),
			 0);
	assert_int_equal(set.count, 0);
	rk_sysfs_close(fs);
}

static void subdirectories_are_not_counters(void **state)
{
	char *root = fixture_copy("ib-hdr");
	char dir[4096];
	struct rk_counter_set set;
	struct rk_sysfs *fs;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/class/infiniband/mlx5_0/ports/1/counters/old_ext", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	log_capture_start();
	assert_int_equal(rk_sysfs_open(root, &fs), 0);
	assert_int_equal(rk_counter_set_open(fs, "class/infiniband/mlx5_0/ports/1/counters",
					     RK_SRC_PORT_COUNTERS, &set),
			 0);
	assert_int_equal(set.count, 21);
	assert_null(rk_counter_set_find(&set, "old_ext"));
	rk_counter_set_close(fs, &set);
	rk_sysfs_set_fd_budget(fs, 0); /* the same without descriptors kept open */
	assert_int_equal(rk_counter_set_open(fs, "class/infiniband/mlx5_0/ports/1/counters",
					     RK_SRC_PORT_COUNTERS, &set),
			 0);
	assert_int_equal(set.count, 21);
	rk_counter_set_close(fs, &set);
	assert_int_equal(log_capture_count("old_ext"), 0);
	rk_sysfs_close(fs);
	fixture_discard(root);
}

static void removed_directory_reads_as_vanished(void **state)
{
	char *root = fixture_copy("ib-hdr");
	char dir[4096];
	struct rk_counter_set set;
	struct rk_sysfs *fs;

	(void)state;
	assert_int_equal(rk_sysfs_open(root, &fs), 0);
	rk_sysfs_set_fd_budget(fs, 0); /* by path: removal is visible on a regular filesystem */
	assert_int_equal(rk_counter_set_open(fs, "class/infiniband/mlx5_1/ports/1/counters",
					     RK_SRC_PORT_COUNTERS, &set),
			 0);
	assert_int_equal(rk_counter_set_read(fs, &set), 0);
	snprintf(dir, sizeof(dir), "%s/class/infiniband/mlx5_1", root);
	remove_tree(dir);
	assert_int_equal(rk_counter_set_read(fs, &set), -ENODEV);
	rk_counter_set_close(fs, &set);
	rk_sysfs_close(fs);
	fixture_discard(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(saturation_at_each_width),
	    cmocka_unit_test(delta_wraps_or_resets),
	    cmocka_unit_test(update_scales_data_and_computes_deltas),
	    cmocka_unit_test(unavailable_values_break_deltas_without_noise),
	    cmocka_unit_test(saturated_counter_keeps_its_value),
	    cmocka_unit_test(reads_a_whole_directory),
	    cmocka_unit_test(subdirectories_are_not_counters),
	    cmocka_unit_test(removed_directory_reads_as_vanished),
	};

	return cmocka_run_group_tests_name("counters", tests, NULL, NULL);
}
