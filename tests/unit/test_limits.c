/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the one check of every setting: edges, bad numbers, bad text, messages. */
#include "rdmakit/fabric_cache.h"
#include "rdmakit/limits.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define WINDOW_MESSAGE "expected a whole number from 1 to 4096"

static int check(enum rk_setting setting, double value, char *msg)
{
	strcpy(msg, "untouched");
	return rk_limit_check(setting, value, msg, 128);
}

static void window_edges(void **state)
{
	char msg[128];

	(void)state;
	assert_int_equal(check(RK_SETTING_WINDOW, 1, msg), 0);
	assert_string_equal(msg, "untouched");
	assert_int_equal(check(RK_SETTING_WINDOW, 4096, msg), 0);
	assert_int_equal(check(RK_SETTING_WINDOW, 0, msg), -ERANGE);
	assert_string_equal(msg, WINDOW_MESSAGE);
	assert_int_equal(check(RK_SETTING_WINDOW, 4097, msg), -ERANGE);
	assert_string_equal(msg, WINDOW_MESSAGE);
	assert_int_equal(check(RK_SETTING_WINDOW, -1, msg), -ERANGE);
	assert_int_equal(check(RK_SETTING_WINDOW, 2.5, msg), -ERANGE);
	assert_string_equal(msg, WINDOW_MESSAGE);
}

static void nan_and_infinity_are_out_of_every_range(void **state)
{
	char msg[128];

	(void)state;
	for (int s = 0; s < RK_SETTING_COUNT; s++) {
		assert_int_equal(check((enum rk_setting)s, NAN, msg), -ERANGE);
		assert_true(strncmp(msg, "expected a ", 11) == 0);
		assert_int_equal(check((enum rk_setting)s, INFINITY, msg), -ERANGE);
		assert_int_equal(check((enum rk_setting)s, -INFINITY, msg), -ERANGE);
	}
}

static void every_message_names_its_range(void **state)
{
	static const struct {
		enum rk_setting setting;
		double bad;
		const char *message;
	} cases[] = {
	    {RK_SETTING_WINDOW, 4097, WINDOW_MESSAGE},
	    {RK_SETTING_TIMEOUT_MS, 60001,
	     "expected a whole number of milliseconds from 1 to 60000"},
	    {RK_SETTING_RETRIES, 101, "expected a whole number from 0 to 100"},
	    {RK_SETTING_REDISCOVER_S, -1, "expected a number of seconds from 0 (never) to 604800"},
	    {RK_SETTING_INTERVAL_S, 86400.5, "expected a number of seconds from 0 to 86400"},
	    {RK_SETTING_FABRIC_INTERVAL, 0, "expected a number of seconds from 0.001 to 86400"},
	    {RK_SETTING_HELPER_DEADLINE, 0, "expected a whole number of seconds from 1 to 86400"},
	    {RK_SETTING_CA_PORT, 255, "expected a port number from 1 to 254"},
	    {RK_SETTING_TUNE_INTERVAL, 0.5, "expected a number of seconds from 1 to 604800"},
	    {RK_SETTING_PROBE_INTERVAL, 86401, "expected a number of seconds from 1 to 86400"},
	    {RK_SETTING_RESCAN_S, -0.5,
	     "expected a number of seconds from 0 (at every read) to 86400"},
	    {RK_SETTING_ROUTES_INTERVAL, 0, "expected a number of seconds from 1 to 604800"},
	    {RK_SETTING_CONGESTION_PCT, 0, "expected a percentage from 0.01 to 100"},
	    {RK_SETTING_XMIT_WAIT_TICK, 1000001,
	     "expected a number of nanoseconds from 0.001 to 1000000"},
	    {RK_SETTING_UNREACHABLE_HOLD, 86401,
	     "expected a number of seconds from 0 (drop at once) to 86400"},
	    {RK_SETTING_FLAP_DOWNS, 1, "expected a whole number of downs from 2 to 100"},
	    {RK_SETTING_FLAP_WINDOW, 0.5, "expected a number of seconds from 1 to 86400"},
	    {RK_SETTING_FLAP_STABLE, 86401, "expected a number of seconds from 1 to 86400"},
	    {RK_SETTING_FABRIC_PRIORITY, 256, "expected a whole number from 0 to 255"},
	    {RK_SETTING_WATCHER_LEASE, 5, "expected a number of seconds from 6 to 3600"},
	    {RK_SETTING_AUDIT_INTERVAL, 604801, "expected a number of seconds from 1 to 604800"},
	};
	char msg[128];

	(void)state;
	assert_int_equal(sizeof(cases) / sizeof(cases[0]), RK_SETTING_COUNT);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rk_limit *limit = rk_limit_get(cases[i].setting);

		assert_int_equal(check(cases[i].setting, cases[i].bad, msg), -ERANGE);
		assert_string_equal(msg, cases[i].message);
		assert_int_equal(check(cases[i].setting, limit->min, msg), 0);
		assert_int_equal(check(cases[i].setting, limit->max, msg), 0);
	}
}

static void fractions_where_seconds_allow_them(void **state)
{
	char msg[128];

	(void)state;
	assert_int_equal(check(RK_SETTING_INTERVAL_S, 0.2, msg), 0);
	assert_int_equal(check(RK_SETTING_FABRIC_INTERVAL, 0.001, msg), 0);
	assert_int_equal(check(RK_SETTING_FABRIC_INTERVAL, 0.0009, msg), -ERANGE);
	assert_int_equal(check(RK_SETTING_REDISCOVER_S, 0, msg), 0);
	assert_int_equal(check(RK_SETTING_TIMEOUT_MS, 0.5, msg), -ERANGE);
}

static void parse_takes_decimal_text(void **state)
{
	char msg[128];
	double value = -7;

	(void)state;
	assert_int_equal(rk_limit_parse(RK_SETTING_WINDOW, "4096", &value, msg, sizeof(msg)), 0);
	assert_true(value == 4096);
	assert_int_equal(rk_limit_parse(RK_SETTING_INTERVAL_S, "0.25", &value, msg, sizeof(msg)),
			 0);
	assert_true(value == 0.25);
	assert_int_equal(rk_limit_parse(RK_SETTING_WINDOW, "1e3", &value, msg, sizeof(msg)), 0);
	assert_true(value == 1000);
}

static void parse_rejects_garbage_with_the_same_message(void **state)
{
	static const char *const garbage[] = {"",    "abc", "12abc", "0x10", " 5",    "5 ", "nan",
					      "inf", "-",   ".",     "1e",   "1e999", "++1"};
	char msg[128];
	double value = -7;

	(void)state;
	for (size_t i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++) {
		strcpy(msg, "untouched");
		assert_int_equal(
		    rk_limit_parse(RK_SETTING_WINDOW, garbage[i], &value, msg, sizeof(msg)),
		    -EINVAL);
		assert_string_equal(msg, WINDOW_MESSAGE);
		assert_true(value == -7);
	}
	assert_int_equal(rk_limit_parse(RK_SETTING_WINDOW, "4097", &value, msg, sizeof(msg)),
			 -ERANGE);
	assert_string_equal(msg, WINDOW_MESSAGE);
	assert_int_equal(rk_limit_parse(RK_SETTING_WINDOW, "-1", &value, msg, sizeof(msg)),
			 -ERANGE);
	assert_true(value == -7);
}

static void unknown_setting(void **state)
{
	char msg[128];

	(void)state;
	assert_null(rk_limit_get(RK_SETTING_COUNT));
	assert_int_equal(check(RK_SETTING_COUNT, 1, msg), -EINVAL);
	assert_string_equal(msg, "unknown setting 21");
	assert_int_equal(check((enum rk_setting) - 1, 1, msg), -EINVAL);
}

static void short_buffers_are_terminated(void **state)
{
	char msg[12];

	(void)state;
	assert_int_equal(rk_limit_check(RK_SETTING_WINDOW, 0, msg, sizeof(msg)), -ERANGE);
	assert_string_equal(msg, "expected a ");
}

static void defaults_are_within_their_ranges(void **state)
{
	char msg[128];

	(void)state;
	assert_int_equal(check(RK_SETTING_WINDOW, RK_MAD_DEFAULT_WINDOW, msg), 0);
	assert_int_equal(check(RK_SETTING_TIMEOUT_MS, RK_MAD_DEFAULT_TIMEOUT_MS, msg), 0);
	assert_int_equal(check(RK_SETTING_RETRIES, RK_MAD_DEFAULT_RETRIES, msg), 0);
	assert_int_equal(check(RK_SETTING_REDISCOVER_S, RK_REDISCOVER_DEFAULT_S, msg), 0);
	assert_int_equal(check(RK_SETTING_HELPER_DEADLINE, RK_HELPER_DEADLINE_DEFAULT_S, msg), 0);
	assert_int_equal(check(RK_SETTING_TUNE_INTERVAL, RK_TUNE_INTERVAL_DEFAULT_S, msg), 0);
	assert_int_equal(check(RK_SETTING_PROBE_INTERVAL, RK_PROBE_INTERVAL_DEFAULT_S, msg), 0);
	assert_int_equal(check(RK_SETTING_ROUTES_INTERVAL, RK_ROUTES_INTERVAL_DEFAULT_S, msg), 0);
	assert_string_equal(RK_STRINGIFY(RK_MAD_DEFAULT_WINDOW), "32");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(window_edges),
	    cmocka_unit_test(nan_and_infinity_are_out_of_every_range),
	    cmocka_unit_test(every_message_names_its_range),
	    cmocka_unit_test(fractions_where_seconds_allow_them),
	    cmocka_unit_test(parse_takes_decimal_text),
	    cmocka_unit_test(parse_rejects_garbage_with_the_same_message),
	    cmocka_unit_test(unknown_setting),
	    cmocka_unit_test(short_buffers_are_terminated),
	    cmocka_unit_test(defaults_are_within_their_ranges),
	};

	return cmocka_run_group_tests_name("limits", tests, NULL, NULL);
}
