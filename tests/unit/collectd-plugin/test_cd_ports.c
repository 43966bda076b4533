/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the collectd plugin's Port/IgnoreSelected selection and value mapping. */
#include "cd_ports.h"
#include "cd_values.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void add(struct cd_ports *ports, const char *entry)
{
	char err[160];

	assert_int_equal(cd_ports_add(ports, entry, err, sizeof(err)), 0);
}

static void no_entries_select_every_port(void **state)
{
	struct cd_ports ports = {0};

	(void)state;
	assert_true(cd_ports_selected(&ports, "mlx5_0", 1));
	ports.ignore_selected = true;
	assert_true(cd_ports_selected(&ports, "mlx5_0", 1));
}

static void entries_select_or_ignore(void **state)
{
	struct cd_ports ports = {0};

	(void)state;
	add(&ports, "mlx5_1:1");
	add(&ports, "/^hfi1_[0-9]+:2$/");
	assert_false(cd_ports_selected(&ports, "mlx5_0", 1));
	assert_true(cd_ports_selected(&ports, "mlx5_1", 1));
	assert_false(cd_ports_selected(&ports, "mlx5_1", 2));
	assert_true(cd_ports_selected(&ports, "hfi1_12", 2));
	ports.ignore_selected = true;
	assert_true(cd_ports_selected(&ports, "mlx5_0", 1));
	assert_false(cd_ports_selected(&ports, "mlx5_1", 1));
	assert_false(cd_ports_selected(&ports, "hfi1_12", 2));
	cd_ports_free(&ports);
	assert_int_equal(ports.count, 0);
}

static void bad_entries_are_refused(void **state)
{
	static const char *const bad[] = {"mlx5_0",    "mlx5_0:", "mlx5_0:-1", "mlx5_0:65536",
					  "mlx5_0:1x", ":1",	  "a/b:1",     "mlx5_0:01",
					  "/(/",       ""};
	struct cd_ports ports = {0};
	char err[160];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(cd_ports_add(&ports, bad[i], err, sizeof(err)), -EINVAL);
		if (bad[i][0] == '/') /* "/(/": a regex that does not compile */
			assert_int_equal(strncmp(err, "not a valid regular expression: ", 32), 0);
		else
			assert_string_equal(err, "expected \"DEVICE:PORT\" (e.g. \"mlx5_0:1\") or "
						 "a /regex/");
	}
	assert_int_equal(ports.count, 0);
	add(&ports, "mlx5_0:300"); /* a switchdev representor */
	add(&ports, "sw0:0");	   /* a switch's port 0 */
	add(&ports, "//x/");	   /* a regex: "/x" */
	assert_true(cd_ports_selected(&ports, "mlx5_0", 300));
	assert_true(cd_ports_selected(&ports, "sw0", 0));
	cd_ports_free(&ports);
}

static void counters_map_to_standard_types(void **state)
{
	struct cd_slot slot;

	(void)state;
	cd_slot_for(rk_catalog_find(RK_SRC_PORT_COUNTERS, "port_xmit_data"), "port_xmit_data",
		    &slot);
	assert_string_equal(slot.type, "if_octets");
	assert_string_equal(slot.ds_name, "tx");
	assert_string_equal(slot.partner, "port_rcv_data");
	cd_slot_for(rk_catalog_find(RK_SRC_PORT_COUNTERS, "unicast_rcv_packets"),
		    "unicast_rcv_packets", &slot);
	assert_string_equal(slot.type_instance, "unicast");
	assert_int_equal(slot.ds, 0);
	cd_slot_for(rk_catalog_find(RK_SRC_PORT_COUNTERS, "symbol_error"), "symbol_error", &slot);
	assert_string_equal(slot.type, "derive");
	assert_string_equal(slot.type_instance, "symbol_error");
	assert_null(slot.partner);
	cd_slot_for(rk_catalog_unknown_hw(), "vendor_thing", &slot);
	assert_string_equal(slot.type, "derive");
	assert_string_equal(slot.type_instance, "vendor_thing");
	cd_slot_for(rk_catalog_find(RK_SRC_HW_COUNTERS, "lifespan"), "lifespan", &slot);
	assert_string_equal(slot.type, "gauge");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(no_entries_select_every_port),
	    cmocka_unit_test(entries_select_or_ignore),
	    cmocka_unit_test(bad_entries_are_refused),
	    cmocka_unit_test(counters_map_to_standard_types),
	};

	return cmocka_run_group_tests_name("cd_ports", tests, NULL, NULL);
}
