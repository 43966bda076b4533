/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric events on the fake libibumad: Notices decoded, the SA subscription (taken, refused,
 * unanswered, another receiver on the host), and Reports answered, deduplicated and checked. */
#include "fake_umad.h"
#include "rdmakit/notice.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define SA_LID	 2 /* the fake port's SM LID (fake_umad.c), and the first master's */
#define SA_CLASS 0x03

/* What the fake SA does, and what it saw. */
static struct {
	uint16_t set_status; /* the MAD status of its answer to Set(InformInfo) */
	bool silent;	     /* no answer to Set(InformInfo) */
	uint16_t master;     /* the MasterSMLID of the local port's PortInfo (0: SA_LID) */
	unsigned sets, unsubscribes, report_resps;
	uint64_t last_resp_tid;
	uint8_t last_set[IB_SA_DATA_SIZE];
} sa;

/* A Report of a Notice of trap from slid, with DataDetails. */
static void queue_report(uint16_t slid, uint64_t tid, uint16_t trap, const uint8_t *details,
			 size_t n, bool generic)
{
	uint8_t umad[FAKE_UMAD_MAX] = {0};
	uint8_t *mad = umad_get_mad(umad);
	uint8_t *notice = mad + IB_SA_DATA_OFFS;

	mad_set_field(mad, 0, IB_MAD_BASEVER_F, 1);
	mad_set_field(mad, 0, IB_MAD_MGMTCLASS_F, SA_CLASS);
	mad_set_field(mad, 0, IB_MAD_CLASSVER_F, 2);
	mad_set_field(mad, 0, IB_MAD_METHOD_F, RK_MAD_METHOD_REPORT);
	mad_set_field(mad, 0, IB_MAD_ATTRID_F, RK_SA_ATTR_NOTICE);
	mad_set_field64(mad, 0, IB_MAD_TRID_F, tid);
	notice[0] = (uint8_t)((generic ? 0x80 : 0) | 1);
	notice[3] = 2; /* a switch */
	notice[4] = (uint8_t)(trap >> 8);
	notice[5] = (uint8_t)trap;
	notice[7] = 5;
	if (n)
		memcpy(notice + 10, details, n);
	((struct ib_user_mad *)umad)->addr.lid = htobe16(slid);
	((struct ib_user_mad *)umad)->addr.qpn = htobe32(1);
	assert_true(fake_umad_queue(umad, IB_MAD_SIZE, 0));
}

int fake_umad_answer(void *umad, int length)
{
	uint8_t reply[FAKE_UMAD_MAX];
	uint16_t lid;
	uint8_t *mad = fake_umad_reply(umad, reply, &lid);
	unsigned method = ((uint8_t *)umad_get_mad(umad))[3]; /* with the response bit */

	(void)length;
	if (method == RK_MAD_METHOD_REPORT_RESP) {
		sa.report_resps++;
		sa.last_resp_tid = mad_get_field64(umad_get_mad(umad), 0, IB_MAD_TRID_F);
		return 0;
	}
	if (mad_get_field(mad, 0, IB_MAD_ATTRID_F) == RK_SMP_ATTR_PORT_INFO) {
		/* the local port's PortInfo (directed route, no hop): its master SM */
		assert_int_equal(mad_get_field(mad, 0, IB_MAD_MGMTCLASS_F), 0x81);
		mad_set_field(mad + IB_SMP_DATA_OFFS, 0, IB_PORT_SMLID_F,
			      sa.master ? sa.master : SA_LID);
		assert_true(fake_umad_queue(reply, IB_MAD_SIZE, 0));
		return 0;
	}
	assert_int_equal(lid, sa.master ? sa.master : SA_LID);
	assert_int_equal(mad_get_field(mad, 0, IB_MAD_ATTRID_F), RK_SA_ATTR_INFORM_INFO);
	memcpy(sa.last_set, umad_get_mad(umad) + IB_SA_DATA_OFFS, sizeof(sa.last_set));
	if (sa.last_set[23]) /* Subscribe */
		sa.sets++;
	else
		sa.unsubscribes++;
	if (sa.silent)
		return 0;
	mad_set_field(mad, 0, IB_MAD_METHOD_F, 0x81); /* GetResp */
	mad_set_field(mad, 0, IB_MAD_STATUS_F, sa.set_status);
	assert_true(fake_umad_queue(reply, IB_MAD_SIZE, 0));
	return 0;
}

/* ---- decoding -------------------------------------------------------------------------- */

/* The header of a Report of a Notice, the rest of the 256 bytes zero. */
static void report_header(uint8_t *mad)
{
	memset(mad, 0, 256);
	mad[1] = SA_CLASS;
	mad[3] = RK_MAD_METHOD_REPORT;
	mad[17] = RK_SA_ATTR_NOTICE;
}

static void a_link_state_trap_names_its_switch(void **state)
{
	uint8_t mad[256];
	struct rk_notice n;
	const char *why = NULL;

	(void)state;
	report_header(mad);
	mad[56] = 0x81;	      /* generic, urgent */
	mad[56 + 5] = 128;    /* trap 128 */
	mad[56 + 7] = 5;      /* issuer LID 5 */
	mad[56 + 10 + 1] = 7; /* the switch's LID: 7 */
	assert_int_equal(rk_notice_decode(mad, sizeof(mad), &n, &why), 0);
	assert_int_equal(n.trap, 128);
	assert_int_equal(n.type, 1);
	assert_int_equal(n.issuer_lid, 5);
	assert_int_equal(n.lid, 7);
	assert_int_equal(n.port, 0);
	mad[56 + 5] = 129; /* local link integrity: LID at 2, port at 4 */
	mad[56 + 10 + 1] = 0;
	mad[56 + 10 + 3] = 9;
	mad[56 + 10 + 4] = 3;
	assert_int_equal(rk_notice_decode(mad, sizeof(mad), &n, &why), 0);
	assert_int_equal(n.lid, 9);
	assert_int_equal(n.port, 3);
}

static void what_is_not_a_notice_report_is_refused_with_why(void **state)
{
	uint8_t mad[256];
	struct rk_notice n;
	const char *why = NULL;

	(void)state;
	report_header(mad);
	assert_int_equal(rk_notice_decode(mad, 100, &n, &why), -EBADMSG);
	assert_string_equal(why, "shorter than a Report of a Notice");
	assert_int_equal(rk_notice_decode(mad, sizeof(mad), &n, &why), -EBADMSG);
	assert_string_equal(why, "a vendor-specific notice");
	mad[56] = 0x80;
	mad[3] = 0x81;
	assert_int_equal(rk_notice_decode(mad, sizeof(mad), &n, &why), -EBADMSG);
	assert_string_equal(why, "not a Report of a Notice from the SA");
}

static void the_subscription_asks_for_every_trap_of_the_subnet(void **state)
{
	struct rk_mad_request r;

	(void)state;
	rk_notice_subscription(&r, 9, true);
	assert_int_equal(r.lid, 9);
	assert_int_equal(r.mgmt_class, RK_MAD_CLASS_SA);
	assert_int_equal(r.method, RK_MAD_METHOD_SET);
	assert_int_equal(r.attr_id, RK_SA_ATTR_INFORM_INFO);
	assert_int_equal(r.data[16] << 8 | r.data[17], 0xffff); /* LIDRangeBegin: all */
	assert_int_equal(r.data[22], 1);			/* IsGeneric */
	assert_int_equal(r.data[23], 1);			/* Subscribe */
	assert_int_equal(r.data[24] << 8 | r.data[25], 0xffff); /* every type */
	assert_int_equal(r.data[26] << 8 | r.data[27], 0xffff); /* every trap */
	assert_int_equal(r.data[30], 1);			/* QPN 1 */
	assert_int_equal(r.data[33] << 16 | r.data[34] << 8 | r.data[35], 0xffffff);
	rk_notice_subscription(&r, 9, false);
	assert_int_equal(r.data[23], 0);
}

/* ---- the subscription ------------------------------------------------------------------ */

struct heard {
	unsigned count;
	struct rk_notice last;
};

static void on_notice(const struct rk_notice *notice, void *ctx)
{
	struct heard *heard = ctx;

	heard->count++;
	heard->last = *notice;
}

struct setup {
	struct rk_mad_port *port;
	struct rk_mad_queue *queue;
	struct rk_subscription s;
	struct heard heard;
};

static void start(struct setup *t)
{
	struct rk_mad_options options = {.timeout_ms = 20};

	memset(t, 0, sizeof(*t));
	assert_int_equal(rk_mad_port_open(NULL, 0, &t->port), 0);
	assert_int_equal(rk_mad_queue_open(t->port, &options, &t->queue), 0);
	assert_int_equal(rk_subscription_start(&t->s, t->port, on_notice, &t->heard), 0);
	assert_int_equal(rk_subscription_refresh(&t->s, t->queue), 0);
	assert_int_equal(rk_mad_queue_run(t->queue, 0), 0);
}

static void stop(struct setup *t)
{
	rk_subscription_stop(&t->s, t->queue);
	rk_mad_queue_close(t->queue);
	rk_mad_port_close(t->port);
	fake_umad_drain();
	fake_umad_refuse_listeners(false);
}

static void reports_are_answered_deduplicated_and_checked(void **state)
{
	struct setup t;
	struct rk_findings findings = {0};
	const uint8_t sw7[] = {0, 7};

	(void)state;
	memset(&sa, 0, sizeof(sa));
	start(&t);
	assert_true(t.s.active);
	assert_int_equal(sa.sets, 1);
	/* a second refresh at once sends nothing */
	assert_int_equal(rk_subscription_refresh(&t.s, t.queue), 0);
	assert_int_equal(rk_mad_queue_run(t.queue, 0), 0);
	assert_int_equal(sa.sets, 1);
	queue_report(SA_LID, 0x100, 128, sw7, sizeof(sw7), true);
	queue_report(SA_LID, 0x100, 128, sw7, sizeof(sw7), true); /* resent: same TID */
	queue_report(3, 0x101, 128, sw7, sizeof(sw7), true);	  /* not from the SA */
	queue_report(SA_LID, 0x102, 0x1234, NULL, 0, false);	  /* a vendor notice */
	assert_int_equal(rk_mad_queue_run(t.queue, 20), 0);
	assert_int_equal(t.heard.count, 1);
	assert_int_equal(t.heard.last.trap, 128);
	assert_int_equal(t.heard.last.lid, 7);
	assert_int_equal(t.s.duplicates, 1);
	assert_int_equal(t.s.foreign, 1);
	assert_int_equal(t.s.malformed, 1);
	assert_int_equal(sa.report_resps, 4); /* every Report answered, so none is resent */
	assert_int_equal(sa.last_resp_tid, 0x102);
	assert_int_equal(rk_subscription_findings(&t.s, &findings), 0);
	assert_int_equal(findings.count, 0);
	stop(&t);
	assert_int_equal(sa.unsubscribes, 1);
}

/* A new master SM (another LID in the port's PortInfo) has none of the old one's subscriptions:
 * the next look at the port subscribes with it, and its Reports are taken, the old one's not. */
static void a_new_master_is_subscribed_with(void **state)
{
	struct setup t;
	const uint8_t sw7[] = {0, 7};

	(void)state;
	memset(&sa, 0, sizeof(sa));
	start(&t);
	assert_int_equal(t.s.sa_lid, SA_LID);
	sa.master = 9;
	for (int i = 0; i < 40 && t.s.sa_lid != 9;
	     i++) { /* a look every RK_EVENTS_MASTER_CHECK_S */
		assert_int_equal(rk_subscription_refresh(&t.s, t.queue), 0);
		assert_int_equal(rk_mad_queue_run(t.queue, 100), 0);
	}
	assert_int_equal(t.s.sa_lid, 9);
	assert_true(t.s.active);
	assert_int_equal(sa.sets, 2);
	queue_report(SA_LID, 0x200, 128, sw7, sizeof(sw7), true); /* the old master's */
	queue_report(9, 0x201, 128, sw7, sizeof(sw7), true);
	assert_int_equal(rk_mad_queue_run(t.queue, 20), 0);
	assert_int_equal(t.heard.count, 1);
	assert_int_equal(t.s.foreign, 1);
	stop(&t);
}

static void a_refused_subscription_raises_events_unavailable(void **state)
{
	struct setup t;
	struct rk_findings findings = {0};

	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.set_status = 0x0c00; /* ERR_REQ_INVALID */
	start(&t);
	assert_false(t.s.active);
	assert_int_equal(rk_subscription_findings(&t.s, &findings), 0);
	assert_int_equal(findings.count, 1);
	assert_string_equal(findings.items[0].code, "EVENTS_UNAVAILABLE");
	assert_int_equal(findings.items[0].severity, RK_SEVERITY_WARNING);
	assert_non_null(strstr(findings.items[0].message, "refused"));
	/* not asked again before the refresh interval */
	assert_int_equal(rk_subscription_refresh(&t.s, t.queue), 0);
	assert_int_equal(rk_mad_queue_run(t.queue, 0), 0);
	assert_int_equal(sa.sets, 1);
	rk_findings_free(&findings);
	stop(&t);
	assert_int_equal(sa.unsubscribes, 0); /* nothing to unsubscribe */
}

static void an_unanswered_subscription_says_so(void **state)
{
	struct setup t;
	struct rk_findings findings = {0};

	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.silent = true;
	start(&t);
	assert_false(t.s.active);
	assert_int_equal(t.s.status, -ETIMEDOUT);
	assert_int_equal(rk_subscription_findings(&t.s, &findings), 0);
	assert_int_equal(findings.count, 1);
	assert_non_null(strstr(findings.items[0].message, "did not answer"));
	rk_findings_free(&findings);
	stop(&t);
}

static void another_receiver_on_the_host_leaves_events_unavailable(void **state)
{
	struct rk_mad_port *port;
	struct rk_subscription s;
	struct rk_findings findings = {0};
	struct heard heard = {0};

	(void)state;
	fake_umad_refuse_listeners(true);
	assert_int_equal(rk_mad_port_open(NULL, 0, &port), 0);
	assert_int_equal(rk_subscription_start(&s, port, on_notice, &heard), -EBUSY);
	assert_int_equal(rk_subscription_findings(&s, &findings), 0);
	assert_int_equal(findings.count, 1);
	assert_non_null(strstr(findings.items[0].message, "another agent"));
	rk_findings_free(&findings);
	rk_mad_port_close(port);
	fake_umad_refuse_listeners(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(a_link_state_trap_names_its_switch),
	    cmocka_unit_test(what_is_not_a_notice_report_is_refused_with_why),
	    cmocka_unit_test(the_subscription_asks_for_every_trap_of_the_subnet),
	    cmocka_unit_test(reports_are_answered_deduplicated_and_checked),
	    cmocka_unit_test(a_new_master_is_subscribed_with),
	    cmocka_unit_test(a_refused_subscription_raises_events_unavailable),
	    cmocka_unit_test(an_unanswered_subscription_says_so),
	    cmocka_unit_test(another_receiver_on_the_host_leaves_events_unavailable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
