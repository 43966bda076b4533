/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the probe's part shared by doctor --probe and the daemons: which ports are
 * probed, and the one finding each outcome gives. */
#include "rdmakit/verbs.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static struct rk_probe_outcome outcome(int status, bool passed)
{
	struct rk_probe_outcome o = {.device = "rxe0", .port = 1, .status = status};

	o.result.passed = passed;
	o.result.size = 4096;
	o.result.rtt_seconds = 0.000123;
	o.result.failed_step = passed ? -1 : RK_PROBE_PORT;
	snprintf(o.result.message, sizeof(o.result.message), "port 1 is DOWN, not ACTIVE");
	snprintf(o.result.hint, sizeof(o.result.hint), "check the link (ip link)");
	return o;
}

static const struct rk_finding *only_finding(const struct rk_probe_outcome *o,
					     struct rk_findings *findings)
{
	assert_int_equal(rk_probe_finding(o, findings), 0);
	assert_int_equal(findings->count, 1);
	assert_string_equal(findings->items[0].subject, "rxe0:1");
	return &findings->items[0];
}

static void a_passed_probe_is_an_ok_finding(void **state)
{
	struct rk_probe_outcome o = outcome(0, true);
	struct rk_findings findings = {0};
	const struct rk_finding *f = only_finding(&o, &findings);

	(void)state;
	assert_int_equal(f->severity, RK_SEVERITY_OK);
	assert_string_equal(f->code, "PROBE_PASSED");
	assert_string_equal(f->message, "loopback RDMA write, read and send of 4096 bytes passed, "
					"round trip 0.123 ms");
	rk_findings_free(&findings);
}

static void a_failed_probe_is_critical_with_its_step_and_hint(void **state)
{
	struct rk_probe_outcome o = outcome(0, false);
	struct rk_findings findings = {0};
	const struct rk_finding *f = only_finding(&o, &findings);

	(void)state;
	assert_int_equal(f->severity, RK_SEVERITY_CRITICAL);
	assert_string_equal(f->code, "PROBE_FAILED");
	assert_string_equal(f->message,
			    "loopback probe failed at port: port 1 is DOWN, not ACTIVE");
	assert_string_equal(f->remedy, "check the link (ip link)");
	rk_findings_free(&findings);
}

static void a_probe_that_could_not_run_says_why(void **state)
{
	struct rk_probe_outcome o = outcome(-ENOSYS, false);
	struct rk_findings findings = {0};
	const struct rk_finding *f = only_finding(&o, &findings);

	(void)state;
	assert_int_equal(f->severity, RK_SEVERITY_WARNING);
	assert_string_equal(f->code, "PROBE_NOT_RUN");
	assert_string_equal(
	    f->message, "the loopback probe could not open the device: Function not implemented");
	rk_findings_free(&findings);
}

static void only_active_ports_of_present_devices_are_wanted(void **state)
{
	struct rk_port active = {.num = 1, .state = RK_PORT_ACTIVE};
	struct rk_port down = {.num = 2, .state = RK_PORT_DOWN};
	struct rk_device dev = {.name = "mlx5_0"};

	(void)state;
	assert_true(rk_probe_wanted(&dev, &active));
	assert_false(rk_probe_wanted(&dev, &down));
	dev.vanished = true;
	assert_false(rk_probe_wanted(&dev, &active));
}

/* No verbs device has that name: the probe could not run, and says which port. */
static void probing_a_missing_device_could_not_run(void **state)
{
	struct rk_probe_outcome o;

	(void)state;
	rk_probe_port("nosuch0", 3, 0.5, &o);
	assert_true(o.status == -ENODEV || o.status == -ENOSYS);
	assert_string_equal(o.device, "nosuch0");
	assert_int_equal(o.port, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(a_passed_probe_is_an_ok_finding),
	    cmocka_unit_test(a_failed_probe_is_critical_with_its_step_and_hint),
	    cmocka_unit_test(a_probe_that_could_not_run_says_why),
	    cmocka_unit_test(only_active_ports_of_present_devices_are_wanted),
	    cmocka_unit_test(probing_a_missing_device_could_not_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
