/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The MAD queue on the fake libibumad: requests added from a completion, a feed, the SMP and
 * GMP windows, and an unsolicited MAD handed to its listener while a run goes on. */
#include "fake_umad.h"
#include "rdmakit/mad.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "rdmakit/cancel.h"

#define SA_CLASS       0x03
#define SA_VERSION     2
#define SA_ATTR_NOTICE 0x0002
#define SILENT_LID     0x100 /* LIDs from here on never answer */

/* What the fake fabric does: answers each MAD at once with its LID in the data (but not to
 * SILENT_LID and above); after the sends_before_report-th send, a Report of the SA as well. */
static struct {
	unsigned sends, sends_before_report;
	uint16_t report_slid;
} fabric;

/* A Report from the SA (LID report_slid): a Notice, as IBA 13.4.8.2 carries it. */
static void queue_report(const void *sent)
{
	uint8_t report[FAKE_UMAD_MAX];
	uint8_t *mad = umad_get_mad(report);
	struct ib_user_mad *umad = (struct ib_user_mad *)report;

	memcpy(report, sent, fake_umad_bytes());
	memset(mad, 0, IB_MAD_SIZE);
	mad_set_field(mad, 0, IB_MAD_METHOD_F, RK_MAD_METHOD_REPORT);
	mad_set_field(mad, 0, IB_MAD_MGMTCLASS_F, SA_CLASS);
	mad_set_field(mad, 0, IB_MAD_CLASSVER_F, SA_VERSION);
	mad_set_field(mad, 0, IB_MAD_BASEVER_F, 1);
	mad_set_field(mad, 0, IB_MAD_ATTRID_F, SA_ATTR_NOTICE);
	mad_set_field64(mad, 0, IB_MAD_TRID_F, 0x1234);
	umad->addr.lid = htobe16(fabric.report_slid);
	umad->addr.qpn = htobe32(1);
	assert_true(fake_umad_queue(report, IB_MAD_SIZE, 0));
}

int fake_umad_answer(void *umad, int length)
{
	uint8_t reply[FAKE_UMAD_MAX];
	uint16_t lid;
	uint8_t *mad = fake_umad_reply(umad, reply, &lid);

	(void)length;
	if (++fabric.sends == fabric.sends_before_report)
		queue_report(umad);
	if (lid >= SILENT_LID)
		return 0;
	mad_set_field(mad + IB_PC_DATA_OFFS, 0, IB_PC_XMT_BYTES_F, lid);
	assert_true(fake_umad_queue(reply, IB_MAD_SIZE, 0));
	return 0;
}

static struct rk_mad_port *open_port(void)
{
	struct rk_mad_port *port;

	memset(&fabric, 0, sizeof(fabric));
	assert_int_equal(rk_mad_port_open(NULL, 0, &port), 0);
	return port;
}

static void close_port(struct rk_mad_port *port)
{
	rk_mad_port_close(port);
	fake_umad_drain();
}

static struct rk_mad_request pma_get(uint16_t lid)
{
	return (struct rk_mad_request){.route = RK_MAD_LID,
				       .mgmt_class = RK_MAD_CLASS_PERF,
				       .lid = lid,
				       .method = RK_MAD_METHOD_GET,
				       .attr_id = RK_PMA_ATTR_PORT_COUNTERS};
}

static struct rk_mad_request smp_get(uint16_t lid)
{
	struct rk_mad_request r = pma_get(lid);

	r.mgmt_class = RK_MAD_CLASS_SMP;
	r.attr_id = RK_SMP_ATTR_NODE_INFO;
	return r;
}

static uint32_t answered_lid(const struct rk_mad_request *r)
{
	return mad_get_field((void *)rk_mad_reply_data(r), 0, IB_PC_XMT_BYTES_F);
}

/* ---- a request added from a completion ------------------------------------------------ */

struct chain {
	struct rk_mad_queue *queue;
	uint16_t order[8];
	size_t done;
};

/* Each answer from LID n < 4 adds a request to LID n + 1. */
static void chain_done(struct rk_mad_request *r, void *ctx)
{
	struct chain *chain = ctx;
	struct rk_mad_request next = pma_get((uint16_t)(r->lid + 1));

	assert_int_equal(r->status, 0);
	assert_int_equal(answered_lid(r), r->lid);
	chain->order[chain->done++] = r->lid;
	if (r->lid < 4)
		assert_int_equal(rk_mad_queue_add(chain->queue, &next, chain_done, chain), 0);
}

static void a_completion_adds_a_request_to_the_running_queue(void **state)
{
	struct rk_mad_port *port = open_port();
	struct chain chain = {0};
	struct rk_mad_request first = pma_get(1);
	struct rk_mad_stats stats;

	(void)state;
	assert_int_equal(rk_mad_queue_open(port, NULL, &chain.queue), 0);
	assert_int_equal(rk_mad_queue_add(chain.queue, &first, chain_done, &chain), 0);
	assert_int_equal(rk_mad_queue_run(chain.queue, 0), 0);
	/* one run: the four added from completions went out before it returned */
	assert_int_equal(chain.done, 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(chain.order[i], i + 1);
	rk_mad_queue_stats(chain.queue, &stats);
	assert_int_equal(stats.sent, 4);
	assert_int_equal(stats.answered, 4);
	rk_mad_queue_close(chain.queue);
	close_port(port);
}

/* ---- a feed ---------------------------------------------------------------------------- */

struct feed {
	size_t next, count, done, wrong;
	struct rk_mad_request (*make)(uint16_t lid);
	uint16_t first_lid;
};

static bool feed_next(struct rk_mad_request *r, void *ctx)
{
	struct feed *feed = ctx;

	if (feed->next == feed->count)
		return false;
	*r = feed->make((uint16_t)(feed->first_lid + feed->next % (SILENT_LID - 1)));
	r->user = (void *)(uintptr_t)feed->next++;
	return true;
}

static void feed_done(struct rk_mad_request *r, void *ctx)
{
	struct feed *feed = ctx;

	feed->done++;
	if (r->lid < SILENT_LID && (r->status != 0 || answered_lid(r) != r->lid))
		feed->wrong++;
}

static void a_feed_of_many_requests_completes_each_once(void **state)
{
	struct rk_mad_port *port = open_port();
	struct rk_mad_queue *queue;
	struct feed feed = {.count = 50000, .make = pma_get, .first_lid = 1};
	struct rk_mad_stats stats;

	(void)state;
	assert_int_equal(rk_mad_queue_open(port, NULL, &queue), 0);
	assert_int_equal(rk_mad_queue_feed(queue, feed_next, feed_done, &feed), 0);
	assert_int_equal(rk_mad_queue_feed(queue, feed_next, feed_done, &feed), -EBUSY);
	assert_int_equal(rk_mad_queue_run(queue, 0), 0);
	assert_int_equal(feed.done, 50000);
	assert_int_equal(feed.wrong, 0);
	rk_mad_queue_stats(queue, &stats);
	assert_int_equal(stats.answered, 50000);
	assert_true(stats.most_in_flight <= RK_MAD_DEFAULT_WINDOW);
	rk_mad_queue_close(queue);
	close_port(port);
}

/* ---- windows --------------------------------------------------------------------------- */

/* The most in flight when count requests of each maker go to silent LIDs (one each), window
 * 32, timeout 20 ms, no retry. */
static size_t most_in_flight(size_t smps, size_t gmps)
{
	struct rk_mad_port *port = open_port();
	struct rk_mad_options options = {.window = 32, .timeout_ms = 20};
	struct rk_mad_queue *queue;
	struct rk_mad_stats stats;
	struct rk_mad_request r;

	assert_int_equal(rk_mad_queue_open(port, &options, &queue), 0);
	for (size_t i = 0; i < smps + gmps; i++) {
		r = i < smps ? smp_get((uint16_t)(SILENT_LID + i))
			     : pma_get((uint16_t)(SILENT_LID + i));
		assert_int_equal(rk_mad_queue_add(queue, &r, NULL, NULL), 0);
	}
	assert_int_equal(rk_mad_queue_run(queue, 0), 0);
	rk_mad_queue_stats(queue, &stats);
	assert_int_equal(stats.timeouts, smps + gmps);
	rk_mad_queue_close(queue);
	close_port(port);
	return stats.most_in_flight;
}

static void smps_and_gmps_have_their_own_windows(void **state)
{
	(void)state;
	assert_int_equal(most_in_flight(40, 0), RK_MAD_SMP_WINDOW);
	assert_int_equal(most_in_flight(0, 40), 32);
	assert_int_equal(most_in_flight(40, 40), RK_MAD_SMP_WINDOW + 32);
}

/* ---- an unsolicited MAD ---------------------------------------------------------------- */

struct heard {
	unsigned reports;
	uint16_t slid, attr;
	size_t requests_done_before;
	const size_t *requests_done;
};

static void on_report(const struct rk_mad_received *mad, void *ctx)
{
	struct heard *heard = ctx;

	heard->reports++;
	heard->slid = mad->slid;
	heard->attr = (uint16_t)mad_get_field((void *)mad->mad, 0, IB_MAD_ATTRID_F);
	heard->requests_done_before = *heard->requests_done;
}

static void a_report_reaches_its_listener_while_a_run_goes_on(void **state)
{
	struct rk_mad_port *port = open_port();
	struct feed feed = {.count = 200, .make = pma_get, .first_lid = 1};
	struct heard heard = {.requests_done = &feed.done};
	struct rk_mad_queue *queue;
	struct rk_mad_stats stats;

	(void)state;
	fabric.sends_before_report = 50;
	fabric.report_slid = 7;
	assert_int_equal(
	    rk_mad_listen(port, SA_CLASS, SA_VERSION, RK_MAD_METHOD_REPORT, on_report, &heard), 0);
	assert_int_equal(
	    rk_mad_listen(port, SA_CLASS, SA_VERSION, RK_MAD_METHOD_REPORT, on_report, &heard),
	    -ENOSPC);
	assert_int_equal(rk_mad_queue_open(port, NULL, &queue), 0);
	assert_int_equal(rk_mad_queue_feed(queue, feed_next, feed_done, &feed), 0);
	assert_int_equal(rk_mad_queue_run(queue, 0), 0);
	assert_int_equal(feed.done, 200);
	assert_int_equal(heard.reports, 1);
	assert_int_equal(heard.slid, 7);
	assert_int_equal(heard.attr, SA_ATTR_NOTICE);
	/* while the run went on: after some requests completed, before the last */
	assert_true(heard.requests_done_before > 0 && heard.requests_done_before < 200);
	rk_mad_queue_stats(queue, &stats);
	assert_int_equal(stats.unsolicited, 1);
	assert_int_equal(stats.ignored, 0);
	rk_mad_queue_close(queue);
	close_port(port);
}

static void a_report_nobody_listens_for_is_ignored(void **state)
{
	struct rk_mad_port *port = open_port();
	struct feed feed = {.count = 100, .make = pma_get, .first_lid = 1};
	struct rk_mad_queue *queue;
	struct rk_mad_stats stats;

	(void)state;
	fabric.sends_before_report = 10;
	assert_int_equal(rk_mad_queue_open(port, NULL, &queue), 0);
	assert_int_equal(rk_mad_queue_feed(queue, feed_next, feed_done, &feed), 0);
	assert_int_equal(rk_mad_queue_run(queue, 0), 0);
	rk_mad_queue_stats(queue, &stats);
	assert_int_equal(stats.unsolicited, 0);
	assert_int_equal(stats.ignored, 1);
	assert_int_equal(stats.answered, 100);
	rk_mad_queue_close(queue);
	close_port(port);
}

/* A queue with nothing to send listens for the time asked. */
static void an_idle_queue_listens_for_the_time_asked(void **state)
{
	struct rk_mad_port *port = open_port();
	struct heard heard = {0};
	size_t none = 0;
	struct rk_mad_queue *queue;
	struct rk_mad_request r = pma_get(3);
	struct timespec t0, t1;

	(void)state;
	heard.requests_done = &none;
	fabric.sends_before_report = 1; /* the Report comes with the first answer */
	assert_int_equal(
	    rk_mad_listen(port, SA_CLASS, SA_VERSION, RK_MAD_METHOD_REPORT, on_report, &heard), 0);
	assert_int_equal(rk_mad_queue_open(port, NULL, &queue), 0);
	assert_int_equal(rk_mad_queue_add(queue, &r, NULL, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(rk_mad_queue_run(queue, 30), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 >= 30);
	assert_int_equal(heard.reports, 1);
	rk_mad_queue_close(queue);
	close_port(port);
}

/* ---- a close after a cancel ----------------------------------------------------------- */

struct stop_after {
	struct rk_cancel *cancel;
	size_t done[2]; /* completions of the answered request and of the silent one */
};

static void raise_on_answer(struct rk_mad_request *r, void *ctx)
{
	struct stop_after *stop = ctx;

	stop->done[r->lid >= SILENT_LID]++;
	if (r->lid < SILENT_LID)
		rk_cancel_raise(stop->cancel);
}

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* A run cancelled with a MAD in flight completes it with -ECANCELED once; the close then waits
 * for its answer until the attempt's deadline (a late answer after the port closes crashes
 * ibsim's shim), and calls nothing again. */
static void a_close_waits_for_what_a_cancel_left_in_flight(void **state)
{
	struct rk_mad_port *port = open_port();
	struct rk_cancel cancel;
	struct stop_after stop = {.cancel = &cancel};
	struct rk_mad_options options;
	struct rk_mad_queue *queue;
	struct rk_mad_request silent = pma_get(SILENT_LID), answered = pma_get(1);
	struct timespec t0;

	(void)state;
	assert_int_equal(rk_cancel_init(&cancel), 0);
	rk_mad_options_defaults(&options);
	options.timeout_ms = 400;
	options.cancel = &cancel;
	assert_int_equal(rk_mad_queue_open(port, &options, &queue), 0);
	assert_int_equal(rk_mad_queue_add(queue, &silent, raise_on_answer, &stop), 0);
	assert_int_equal(rk_mad_queue_add(queue, &answered, raise_on_answer, &stop), 0);
	assert_int_equal(rk_mad_queue_run(queue, 0), -ECANCELED);
	assert_int_equal(stop.done[0], 1);
	assert_int_equal(stop.done[1], 1); /* the silent one, cancelled */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rk_mad_queue_close(queue);
	assert_true(elapsed_ms(&t0) >= 200); /* it waited for the silent one's deadline */
	assert_true(elapsed_ms(&t0) < 5000);
	assert_int_equal(stop.done[1], 1);
	rk_cancel_destroy(&cancel);
	close_port(port);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(a_completion_adds_a_request_to_the_running_queue),
	    cmocka_unit_test(a_feed_of_many_requests_completes_each_once),
	    cmocka_unit_test(smps_and_gmps_have_their_own_windows),
	    cmocka_unit_test(a_report_reaches_its_listener_while_a_run_goes_on),
	    cmocka_unit_test(a_report_nobody_listens_for_is_ignored),
	    cmocka_unit_test(an_idle_queue_listens_for_the_time_asked),
	    cmocka_unit_test(a_close_waits_for_what_a_cancel_left_in_flight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
