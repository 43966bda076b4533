/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the monitor's umad port across an HCA reset, through the tests' fake libibumad
 * (tests/fakes/fake_umad.c): every MAD sent is answered with status 0 until the device resets,
 * in the middle of a sweep with MADs in flight; from then on the descriptor that was open fails
 * every send and receive with EIO for good, as ib_umad's does once its device is gone, and
 * only a port opened afterwards works. */
#include "fake_fabric.h"
#include "fake_umad.h"
#include "fixture_util.h"
#include "rdmakit/clock.h"
#include "rdmakit/fabric_cache.h"
#include "rdmakit/notice.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static int sends_before_reset; /* > 0: the device resets after that many more sends */

/* The request, answered: response bit set, status 0, the data as sent (zero counters). */
int fake_umad_answer(void *umad, int length)
{
	uint8_t reply[FAKE_UMAD_MAX];
	uint16_t lid;

	(void)length;
	if (sends_before_reset > 0 && --sends_before_reset == 0)
		fake_umad_reset(); /* this one is in flight when the device goes */
	fake_umad_reply(umad, reply, &lid);
	assert_true(fake_umad_queue(reply, IB_MAD_SIZE, 0));
	return 0;
}

static void test_sweeps_resume_after_an_hca_reset(void **state)
{
	struct rk_fabric_cache monitor;

	(void)state;
	fake_fabric_watch(&monitor);
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	assert_int_equal(monitor.sweep.answered, 2);
	assert_int_equal(fake_umad_opens(), 1);
	sends_before_reset = 2; /* the HCA resets during the next sweep (2 MADs) */
	log_capture_start();
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), -EIO);
	assert_int_equal(log_capture_count("cannot receive MADs: Input/output error"), 1);
	assert_int_equal(log_capture_count("the umad port failed (Input/output error): closed; "
					   "the next sweep or SM query opens it again"),
			 1);
	assert_null(monitor.port);
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0); /* on a new descriptor */
	assert_int_equal(fake_umad_opens(), 2);
	assert_int_equal(monitor.sweep.answered, 2);
	assert_int_equal(monitor.sweep.failed, 0);
	assert_int_equal(monitor.discoveries, 0); /* the same topology: no rediscovery needed */
	rk_fabric_cache_close(&monitor);
}

/* A sweep that fails for another reason (here a bad option) keeps its port. */
static void test_other_errors_keep_the_port(void **state)
{
	struct rk_fabric_cache monitor;

	(void)state;
	fake_fabric_watch(&monitor);
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	assert_non_null(monitor.port);
	monitor.options.mad.retries = 1000; /* refused by the engine: -EINVAL */
	log_capture_start();
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), -EINVAL);
	assert_int_equal(log_capture_count("the umad port failed"), 0);
	assert_non_null(monitor.port);
	rk_fabric_cache_close(&monitor);
}

static void count_event(const struct rk_fabric_event *event, void *ctx)
{
	(void)event;
	(*(unsigned *)ctx)++;
}

/* Another agent on the host takes the SA's Reports: events are unavailable, said once and as
 * a finding, and the sweeps go on as without them. */
static void test_events_unavailable_keeps_polling(void **state)
{
	struct rk_fabric_cache monitor;
	struct rk_findings findings = {0};
	unsigned heard = 0;

	(void)state;
	fake_fabric_watch(&monitor);
	monitor.options.events = count_event;
	monitor.options.events_ctx = &heard;
	fake_umad_refuse_listeners(true);
	log_capture_start();
	assert_int_equal(rk_fabric_cache_follow(&monitor, 10), 0);
	assert_int_equal(rk_fabric_cache_follow(&monitor, 10), 0);
	assert_true(rk_follower_unavailable(monitor.follower));
	assert_int_equal(log_capture_count("another agent on this host may receive them already"),
			 1);
	assert_int_equal(
	    rk_subscription_findings(rk_follower_subscription(monitor.follower), &findings), 0);
	assert_int_equal(findings.count, 1);
	assert_string_equal(findings.items[0].code, "EVENTS_UNAVAILABLE");
	assert_int_equal(findings.items[0].severity, RK_SEVERITY_WARNING);
	assert_non_null(strstr(findings.items[0].message, "already receives the SA's Reports"));
	assert_int_equal(rk_fabric_cache_sweep(&monitor, NULL, NULL), 0);
	assert_int_equal(monitor.sweep.answered, 2);
	assert_int_equal(heard, 0);
	rk_findings_free(&findings);
	fake_umad_refuse_listeners(false);
	rk_fabric_cache_close(&monitor);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sweeps_resume_after_an_hca_reset),
	    cmocka_unit_test(test_other_errors_keep_the_port),
	    cmocka_unit_test(test_events_unavailable_keeps_polling),
	};

	return cmocka_run_group_tests_name("fabric_cache_port", tests, NULL, NULL);
}
