/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of discovery through a helper process (rk_fabric_discover_isolated), with shell
 * scripts standing in for rdmakit-discover: its arguments, a forwarded log line and failure,
 * and helpers that exit early, talk nonsense or hang. The real helper on a simulated fabric
 * is tested in tests/sim/test_sweep_sm.py. */
#include "fixture_util.h"
#include "rdmakit/clock.h"
#include "rdmakit/fabric.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static char dir[] = "/tmp/rdmakit-helper-XXXXXX";

/* Install body as the helper script (named by RDMAKIT_DISCOVER_HELPER). */
static void helper_script(const char *body)
{
	char path[sizeof(dir) + 16];

	snprintf(path, sizeof(path), "%s/helper", dir);
	write_file(dir, "helper", body);
	assert_int_equal(chmod(path, 0755), 0);
	assert_int_equal(setenv("RDMAKIT_DISCOVER_HELPER", path, 1), 0);
}

static int discover(const struct rk_fabric_options *options)
{
	struct rk_fabric *fabric = NULL;
	int err;

	log_capture_start();
	err = rk_fabric_discover_isolated(options, &fabric);
	assert_null(fabric);
	return err;
}

static void arguments_are_numbers_and_the_ca_name(void **state)
{
	struct rk_fabric_options options = {
	    .ca = "mlx5_0", .port = 2, .timeout_ms = 300, .max_smps = 8};
	char args[128];
	FILE *f;

	(void)state;
	helper_script("#!/bin/sh\necho \"$@\" > \"${0%/*}/args\"\n");
	assert_int_equal(discover(&options), -ENODATA);
	snprintf(args, sizeof(args), "%s/args", dir);
	f = fopen(args, "r");
	assert_non_null(f);
	assert_non_null(fgets(args, sizeof(args), f));
	fclose(f);
	assert_string_equal(args, "-C mlx5_0 -P 2 -t 300 -s 8\n");
	assert_int_equal(log_capture_count("ended without a whole answer (No data available)"), 1);
}

static void log_lines_and_failure_are_passed_on(void **state)
{
	struct rk_fabric_options options = {0};

	(void)state;
	/* a log record (type 1, level 1 = warning, 5 bytes), then a result (type 2) of -EIO */
	helper_script("#!/bin/sh\n"
		      "printf '\\001\\000\\000\\000\\001\\000\\000\\000\\005\\000\\000\\000hello'\n"
		      "printf '\\002\\000\\000\\000\\373\\377\\377\\377\\000\\000\\000\\000'\n");
	assert_int_equal(discover(&options), -EIO);
	assert_int_equal(log_capture_count("hello"), 1);
	assert_int_equal(log_capture_count("without a whole answer"), 0);
}

static void nonsense_is_refused(void **state)
{
	struct rk_fabric_options options = {0};
	double start = rk_monotonic_seconds();

	(void)state;
	helper_script("#!/bin/sh\necho 'this is not an answer at all'\nexec sleep 30\n");
	assert_int_equal(discover(&options), -EPROTO);
	assert_true(rk_monotonic_seconds() - start < 10); /* stopped, not waited for */
	assert_int_equal(log_capture_count("ended without a whole answer (Protocol error)"), 1);
}

static void a_hanging_helper_is_stopped_at_the_deadline(void **state)
{
	struct rk_fabric_options options = {.helper_deadline_s = 1};
	double start = rk_monotonic_seconds();

	(void)state;
	helper_script("#!/bin/sh\nexec sleep 30\n");
	assert_int_equal(discover(&options), -ETIMEDOUT);
	assert_true(rk_monotonic_seconds() - start < 10);
	assert_int_equal(log_capture_count("gave no whole answer in 1 s; stopped it"), 1);
}

static void a_deadline_out_of_range_is_refused_before_the_helper_runs(void **state)
{
	struct rk_fabric_options options = {.helper_deadline_s = 86401};
	char ran[sizeof(dir) + 8];

	(void)state;
	snprintf(ran, sizeof(ran), "%s/ran", dir);
	helper_script("#!/bin/sh\ntouch \"${0%/*}/ran\"\n");
	assert_int_equal(discover(&options), -EINVAL);
	assert_int_equal(log_capture_count("helper deadline 86401 s: expected a whole number of "
					   "seconds from 1 to 86400"),
			 1);
	assert_int_not_equal(access(ran, F_OK), 0);
}

static int make_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	remove_tree(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(arguments_are_numbers_and_the_ca_name),
	    cmocka_unit_test(log_lines_and_failure_are_passed_on),
	    cmocka_unit_test(nonsense_is_refused),
	    cmocka_unit_test(a_hanging_helper_is_stopped_at_the_deadline),
	    cmocka_unit_test(a_deadline_out_of_range_is_refused_before_the_helper_runs),
	};

	return cmocka_run_group_tests_name("fabric_helper", tests, make_dir, remove_dir);
}
