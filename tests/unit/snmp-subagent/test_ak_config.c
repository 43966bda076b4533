/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the subagent's settings (ak_config.c): the fabric, SM, probe and tune settings
 * take the core's ranges (rdmakit/limits.h), the collectd plugin's, and the core's message;
 * whole numbers land in their fields; a reload names the keys that changed. */
#include "ak_config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static int set(struct ak_config *config, const char *key, const char *value, char *why)
{
	strcpy(why, "untouched");
	return ak_config_set(config, key, value, why, 256);
}

static int with_defaults(void **state)
{
	static struct ak_config config;

	ak_config_defaults(&config);
	*state = &config;
	return 0;
}

static int free_config(void **state)
{
	ak_config_free(*state);
	return 0;
}

/* What the subagent once refused (fabric-interval below 1, rediscover above 86400) and the
 * plugin always took. */
static void fabric_ranges_are_the_plugins(void **state)
{
	struct ak_config *config = *state;
	char why[256];

	assert_int_equal(set(config, "fabric-interval", "0.5", why), 0);
	assert_true(config->fabric_interval == 0.5);
	assert_int_equal(set(config, "fabric-interval", "0.001", why), 0);
	assert_true(config->fabric_interval == 0.001);
	assert_int_equal(set(config, "rediscover", "604800", why), 0);
	assert_true(config->rediscover == 604800);
	assert_int_equal(set(config, "rediscover", "0", why), 0);
	assert_true(config->rediscover == 0);
	assert_int_equal(set(config, "unreachable-hold", "60", why), 0);
	assert_true(config->unreachable_hold == 60);
	assert_int_equal(set(config, "unreachableHold", "30", why), 0); /* its first spelling */
	assert_true(config->unreachable_hold == 30);
	assert_int_equal(set(config, "discovery-deadline", "3", why), 0);
	assert_true(config->discovery_deadline == 3);
	assert_string_equal(why, "untouched");
}

static void bad_values_get_the_cores_message(void **state)
{
	static const struct {
		const char *key, *value, *why;
	} cases[] = {
	    {"fabric-interval", "0", "\"0\": expected a number of seconds from 0.001 to 86400"},
	    {"fabric-interval", "86401",
	     "\"86401\": expected a number of seconds from 0.001 to 86400"},
	    {"fabric-interval", "nan", "\"nan\": expected a number of seconds from 0.001 to 86400"},
	    {"fabric-interval", "", "\"\": expected a number of seconds from 0.001 to 86400"},
	    {"rediscover", "-1", "\"-1\": expected a number of seconds from 0 (never) to 604800"},
	    {"rediscover", "604801",
	     "\"604801\": expected a number of seconds from 0 (never) to 604800"},
	    {"rediscover", "1e999",
	     "\"1e999\": expected a number of seconds from 0 (never) to 604800"},
	    {"rediscover", "abc", "\"abc\": expected a number of seconds from 0 (never) to 604800"},
	    {"window", "4097", "\"4097\": expected a whole number from 1 to 4096"},
	    {"window", "2.5", "\"2.5\": expected a whole number from 1 to 4096"},
	    {"timeout", "0", "\"0\": expected a whole number of milliseconds from 1 to 60000"},
	    {"ca-port", "255", "\"255\": expected a port number from 1 to 254"},
	    {"discovery-deadline", "0",
	     "\"0\": expected a whole number of seconds from 1 to 86400"},
	    {"discovery-deadline", "2.5",
	     "\"2.5\": expected a whole number of seconds from 1 to 86400"},
	    {"tune-interval", "0x10", "\"0x10\": expected a number of seconds from 1 to 604800"},
	    {"congestion-threshold", "0", "\"0\": expected a percentage from 0.01 to 100"},
	    {"xmit-wait-tick", "-1",
	     "\"-1\": expected a number of nanoseconds from 0.001 to 1000000"},
	};
	struct ak_config *config = *state;
	char why[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(set(config, cases[i].key, cases[i].value, why), -EINVAL);
		assert_string_equal(why, cases[i].why);
	}
	assert_true(config->fabric_interval == AK_DEFAULT_FABRIC_INTERVAL);
	assert_true(config->rediscover == AK_DEFAULT_REDISCOVER);
}

static void whole_numbers_land_in_their_fields(void **state)
{
	struct ak_config *config = *state;
	char why[256];

	assert_int_equal(set(config, "window", "4096", why), 0);
	assert_int_equal(config->window, 4096);
	assert_int_equal(set(config, "timeout", "150", why), 0);
	assert_int_equal(config->timeout_ms, 150);
	assert_int_equal(set(config, "ca-port", "254", why), 0);
	assert_int_equal(config->ca_port, 254);
	assert_int_equal(set(config, "probe-interval", "86400", why), 0);
	assert_true(config->probe.interval == 86400);
	assert_int_equal(set(config, "tune-interval", "1.5", why), 0);
	assert_true(config->tune_interval == 1.5);
}

/* The subagent's own settings keep their ranges and words; every key is looked up. */
static void own_settings_and_other_keys(void **state)
{
	struct ak_config *config = *state;
	char why[256];

	assert_int_equal(set(config, "refresh", "0.05", why), -EINVAL);
	assert_string_equal(why, "\"0.05\" is not a number from 0.1 to 3600");
	assert_int_equal(set(config, "refresh", "2.5", why), 0);
	assert_true(config->refresh == 2.5);
	assert_int_equal(set(config, "expect-rate", "200", why), 0);
	assert_true(config->expect_rate_gbps == 200);
	assert_int_equal(set(config, "sm", "yes", why), 0);
	assert_true(config->sm);
	assert_int_equal(set(config, "ca", "mlx5_1", why), 0);
	assert_string_equal(config->ca, "mlx5_1");
	assert_int_equal(set(config, "tune-root", "relative", why), -EINVAL);
	assert_string_equal(why, "\"relative\" is not the absolute path of an existing directory");
	assert_int_equal(set(config, "tune-profile", "latency", why), 0);
	assert_non_null(config->tune_profile);
	assert_int_equal(set(config, "expect", "/nonexistent/fabric.plan", why), -EINVAL);
	assert_string_equal(why, "\"/nonexistent/fabric.plan\": cannot read it: No such file or "
				 "directory");
	assert_int_equal(set(config, "expect", "/", why), -EINVAL);
	assert_string_equal(why, "\"/\": cannot read it: a directory, not a regular file");
	assert_null(config->plan);
	assert_int_equal(set(config, "expect", "/proc/self/status", why), 0);
	assert_string_equal(config->plan, "/proc/self/status");
	assert_int_equal(set(config, "FabricInterval", "1", why), -EINVAL);
	assert_string_equal(why, "unknown setting \"FabricInterval\"");
}

/* A reload names the keys that changed, of every kind, but for those it is told to skip. */
static void changed_keys_by_name(void **state)
{
	struct ak_config *config = *state, fresh;
	const char *const skip[] = {"refresh", "tune", NULL};
	char why[256], keys[64];

	ak_config_defaults(&fresh);
	assert_int_equal(ak_config_changed_keys(&fresh, config, NULL, keys, sizeof(keys)), 0);
	assert_string_equal(keys, "");
	assert_int_equal(set(&fresh, "refresh", "2", why), 0);
	assert_int_equal(set(&fresh, "tune", "yes", why), 0);
	assert_int_equal(ak_config_changed_keys(&fresh, config, skip, keys, sizeof(keys)), 0);
	assert_int_equal(set(&fresh, "probe-interval", "120", why), 0);
	assert_int_equal(set(&fresh, "window", "8", why), 0);
	assert_int_equal(set(&fresh, "ca", "mlx5_1", why), 0);
	assert_int_equal(set(&fresh, "tune-profile", "latency", why), 0);
	assert_int_equal(set(config, "ca-port", "2", why), 0);
	assert_int_equal(ak_config_changed_keys(&fresh, config, skip, keys, sizeof(keys)), 5);
	assert_string_equal(keys, "probe-interval, ca, ca-port, window, tune-profile");
	assert_int_equal(ak_config_changed_keys(&fresh, config, NULL, keys, 12), 7);
	assert_string_equal(keys, "refresh, pr"); /* cut short, still counted */
	assert_true(ak_config_key_changed(&fresh, config, "tune-profile"));
	assert_true(ak_config_key_changed(&fresh, config, "ca-port"));
	assert_false(ak_config_key_changed(&fresh, config, "fabric"));
	assert_false(ak_config_key_changed(&fresh, config, "no-such-key"));
	ak_config_free(&fresh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(fabric_ranges_are_the_plugins, with_defaults,
					    free_config),
	    cmocka_unit_test_setup_teardown(bad_values_get_the_cores_message, with_defaults,
					    free_config),
	    cmocka_unit_test_setup_teardown(whole_numbers_land_in_their_fields, with_defaults,
					    free_config),
	    cmocka_unit_test_setup_teardown(own_settings_and_other_keys, with_defaults,
					    free_config),
	    cmocka_unit_test_setup_teardown(changed_keys_by_name, with_defaults, free_config),
	};

	return cmocka_run_group_tests_name("ak_config", tests, NULL, NULL);
}
