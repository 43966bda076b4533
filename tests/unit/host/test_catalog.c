/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the catalog: widths and scales from the IB spec, lookups, consistency. */
#include "rdmakit/catalog.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static const struct rk_metric *pma(const char *name)
{
	const struct rk_metric *m = rk_catalog_find(RK_SRC_PORT_COUNTERS, name);

	assert_non_null(m);
	return m;
}

static void error_counter_widths_follow_portcounters(void **state)
{
	(void)state;
	assert_int_equal(pma("symbol_error")->width, 16);
	assert_int_equal(pma("link_error_recovery")->width, 8);
	assert_int_equal(pma("link_downed")->width, 8);
	assert_int_equal(pma("port_rcv_errors")->width, 16);
	assert_int_equal(pma("port_xmit_discards")->width, 16);
	assert_int_equal(pma("port_xmit_constraint_errors")->width, 8);
	assert_int_equal(pma("local_link_integrity_errors")->width, 4);
	assert_int_equal(pma("excessive_buffer_overrun_errors")->width, 4);
	assert_int_equal(pma("VL15_dropped")->width, 16);
	assert_int_equal(pma("port_xmit_wait")->width, 64);
	assert_int_equal(pma("port_xmit_wait")->narrow_width, 32); /* PortCounters */
	assert_true(pma("port_xmit_wait")->pma_ext_additional);
	assert_true(pma("symbol_error")->is_error);
	assert_false(pma("port_xmit_wait")->is_error);
}

static void data_counters_are_bytes_from_words(void **state)
{
	(void)state;
	assert_int_equal(pma("port_xmit_data")->scale, 4);
	assert_int_equal(pma("port_rcv_data")->scale, 4);
	assert_string_equal(pma("port_rcv_data")->unit, "bytes");
	assert_int_equal(pma("port_xmit_data")->width, 64);
	assert_int_equal(pma("port_xmit_data")->narrow_width, 32);
	assert_int_equal(pma("port_xmit_packets")->scale, 1);
	assert_int_equal(pma("unicast_xmit_packets")->narrow_width, 0);
}

static void lookups_respect_the_source(void **state)
{
	const struct rk_metric *hw = rk_catalog_find(RK_SRC_HW_COUNTERS, "out_of_buffer");

	(void)state;
	assert_non_null(hw);
	assert_true(hw->is_error);
	assert_null(rk_catalog_find(RK_SRC_PORT_COUNTERS, "out_of_buffer"));
	assert_null(rk_catalog_find(RK_SRC_HW_COUNTERS, "port_xmit_data"));
	assert_null(rk_catalog_find(RK_SRC_HW_COUNTERS, "no_such_counter"));
	assert_int_equal(rk_catalog_find(RK_SRC_HW_COUNTERS, "lifespan")->kind, RK_KIND_GAUGE);
	assert_true(rk_catalog_unknown_hw()->wraps);
	assert_int_equal(rk_catalog_unknown_hw()->width, 64);
}

static void every_entry_is_complete_and_unique(void **state)
{
	size_t count;
	const struct rk_metric *all = rk_catalog_all(&count);

	(void)state;
	assert_true(count >= RK_PMA_COUNT + 20);
	for (size_t i = 0; i < count; i++) {
		assert_true(all[i].help && strlen(all[i].help) > 10);
		assert_true(all[i].unit && all[i].unit[0]);
		assert_true(all[i].width > 0 && all[i].width <= 64);
		assert_true(all[i].scale >= 1);
		for (size_t j = i + 1; j < count; j++)
			assert_false(all[i].source == all[j].source &&
				     strcmp(all[i].name, all[j].name) == 0);
	}
}

static void pma_counters_map_to_mad_fields(void **state)
{
	size_t count;
	const struct rk_metric *pma = rk_catalog_pma(&count);

	(void)state;
	assert_int_equal(count, RK_PMA_COUNT);
	assert_true(count >= 21); /* none of the published ones lost */
	for (size_t i = 0; i < count; i++) {
		assert_int_equal(pma[i].source, RK_SRC_PORT_COUNTERS);
		assert_true(pma[i].pma_field || pma[i].pma_ext_field);
		/* only error counters can be cleared by name */
		assert_true(pma[i].reset_bit < 0 || pma[i].is_error ||
			    strcmp(pma[i].name, "VL15_dropped") == 0);
		/* 64-bit counters come from PortCountersExtended */
		assert_true(pma[i].width < 64 || pma[i].pma_ext_field);
	}
	assert_int_equal(pma[0].reset_bit, 0);
	assert_int_equal(rk_catalog_pma_index("symbol_error"), 0);
	assert_string_equal(pma[rk_catalog_pma_index("port_rcv_packets")].name, "port_rcv_packets");
	assert_int_equal(rk_catalog_pma_index("out_of_buffer"), -1);
	assert_int_equal(rk_catalog_find(RK_SRC_PORT_COUNTERS, "port_xmit_wait")->reset_bit, -1);
	assert_int_equal(rk_catalog_find(RK_SRC_PORT_COUNTERS, "unicast_xmit_packets")->pma_field,
			 0);
}

static void metric_max_by_width(void **state)
{
	(void)state;
	assert_true(rk_metric_max(4) == 15);
	assert_true(rk_metric_max(8) == 255);
	assert_true(rk_metric_max(16) == 65535);
	assert_true(rk_metric_max(32) == 4294967295u);
	assert_true(rk_metric_max(64) == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(error_counter_widths_follow_portcounters),
	    cmocka_unit_test(data_counters_are_bytes_from_words),
	    cmocka_unit_test(lookups_respect_the_source),
	    cmocka_unit_test(every_entry_is_complete_and_unique),
	    cmocka_unit_test(pma_counters_map_to_mad_fields),
	    cmocka_unit_test(metric_max_by_width),
	};

	return cmocka_run_group_tests_name("catalog", tests, NULL, NULL);
}
