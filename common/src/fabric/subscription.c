/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A port's subscription to the SA's Reports: subscribing, following the master SM, taking
 * Reports (answered, deduplicated, checked) and saying when events are not to be had. */
#include "rdmakit/clock.h"
#include "rdmakit/limits.h"
#include "rdmakit/log.h"
#include "rdmakit/notice.h"

#include <errno.h>
#include <string.h>

/* Whether the Report's TID was seen lately (the SA resends a Report whose answer it missed);
 * remembers it if not. */
static bool seen_lately(struct rk_subscription *s, uint32_t tid)
{
	for (size_t i = 0; i < RK_NOTICE_RECENT; i++)
		if (s->recent[i] == tid && tid)
			return true;
	s->recent[s->next_recent++ % RK_NOTICE_RECENT] = tid;
	return false;
}

/* One Report: answered (so the SA stops resending), then checked and passed on once. */
static void on_report(const struct rk_mad_received *mad, void *ctx)
{
	struct rk_subscription *s = ctx;
	struct rk_notice notice;
	const char *why = NULL;

	rk_mad_respond(s->port, mad, RK_MAD_METHOD_REPORT_RESP);
	if (rk_notice_decode(mad->mad, mad->length, &notice, &why) != 0) {
		if (s->malformed++ == 0)
			rk_log(RK_LOG_WARNING, "a Report from LID %u is not used: %s (said once)",
			       (unsigned)mad->slid, why);
		return;
	}
	if (!s->sa_lid || mad->slid != s->sa_lid) {
		if (s->foreign++ == 0)
			rk_log(RK_LOG_WARNING,
			       "a Report from LID %u is not used: the SA this port subscribed with "
			       "is at LID %u (said once)",
			       (unsigned)mad->slid, (unsigned)s->sa_lid);
		return;
	}
	if (seen_lately(s, notice.tid)) {
		s->duplicates++;
		return;
	}
	s->reports++;
	s->fn(&notice, s->ctx);
}

int rk_subscription_start(struct rk_subscription *subscription, struct rk_mad_port *port,
			  rk_notice_fn fn, void *ctx)
{
	memset(subscription, 0, sizeof(*subscription));
	subscription->port = port;
	subscription->fn = fn;
	subscription->ctx = ctx;
	subscription->status = rk_mad_listen(port, RK_MAD_CLASS_SA, RK_SA_CLASS_VERSION,
					     RK_MAD_METHOD_REPORT, on_report, subscription);
	return subscription->status;
}

/* Say once that events are not to be had, and why. */
static void say_unavailable(struct rk_subscription *s)
{
	if (s->said_unavailable)
		return;
	s->said_unavailable = true;
	if (s->status == -ETIMEDOUT)
		rk_log(RK_LOG_WARNING,
		       "fabric events unavailable: the SA at LID %u did not answer the "
		       "subscription; the fabric is still swept at its interval",
		       (unsigned)s->sa_lid);
	else
		rk_log(RK_LOG_WARNING,
		       "fabric events unavailable: the SA at LID %u refused the subscription "
		       "(MAD status 0x%04x); the fabric is still swept at its interval",
		       (unsigned)s->sa_lid, (unsigned)s->mad_status);
}

static void subscribed(struct rk_mad_request *request, void *ctx)
{
	struct rk_subscription *s = ctx;
	bool was_active = s->active;

	s->in_flight = false;
	if (request->status && s->active && request->lid == s->sa_lid) {
		/* a refresh lost: the subscription made before still stands at that SA */
		rk_log(RK_LOG_DEBUG,
		       "fabric events: the SA at LID %u did not take the refresh: "
		       "asked again at the next look",
		       (unsigned)s->sa_lid);
		s->subscribed_at = 0;
		return;
	}
	s->status = request->status;
	s->mad_status = request->mad_status;
	s->active = request->status == 0;
	if (!s->active) {
		say_unavailable(s);
		return;
	}
	if (!was_active)
		rk_log(RK_LOG_INFO, "fabric events: subscribed with the SA at LID %u%s",
		       (unsigned)s->sa_lid, s->said_unavailable ? " again" : "");
	s->said_unavailable = false;
}

/* Subscribe with the SA at master (the master SM's LID). */
static void subscribe(struct rk_subscription *s, struct rk_mad_queue *queue, uint16_t master)
{
	struct rk_mad_request request;

	if (master != s->sa_lid && s->sa_lid)
		rk_log(RK_LOG_INFO,
		       "fabric events: the master SM moved from LID %u to %u: subscribing with it",
		       (unsigned)s->sa_lid, (unsigned)master);
	rk_notice_subscription(&request, master, true);
	if (rk_mad_queue_add(queue, &request, subscribed, s) != 0)
		return; /* out of memory: asked again at the next look */
	if (master != s->sa_lid)
		s->active = false; /* a new SA has none of the old one's subscriptions */
	s->sa_lid = master;
	s->subscribed_at = rk_monotonic_seconds();
	s->in_flight = true;
}

/* The local port's PortInfo: its MasterSMLID is the master now (a port's sysfs sm_lid may lag,
 * and ibsim's shim never updates it). */
static void master_read(struct rk_mad_request *request, void *ctx)
{
	struct rk_subscription *s = ctx;
	uint16_t master;
	bool due;

	s->looking = false;
	if (request->status)
		return; /* looked at again at the next refresh */
	master = rk_mad_master_sm_lid(request);
	due = rk_monotonic_seconds() - s->subscribed_at >= RK_EVENTS_REFRESH_S;
	if (master && !s->in_flight && (master != s->sa_lid || due))
		subscribe(s, s->queue, master);
}

int rk_subscription_refresh(struct rk_subscription *subscription, struct rk_mad_queue *queue)
{
	struct rk_subscription *s = subscription;
	struct rk_mad_request request;
	double now = rk_monotonic_seconds();
	int err;

	if (s->looking || s->in_flight || s->status == -EBUSY ||
	    now - s->looked_at < RK_EVENTS_MASTER_CHECK_S)
		return 0;
	err = rk_mad_master_sm_request(s->port, &request);
	if (!err)
		err = rk_mad_queue_add(queue, &request, master_read, s);
	if (err)
		return err;
	s->queue = queue;
	s->looking = true;
	s->looked_at = now;
	return 0;
}

static void unsubscribed(struct rk_mad_request *request, void *ctx)
{
	struct rk_subscription *s = ctx;

	s->in_flight = false;
	if (request->status)
		rk_log(RK_LOG_INFO,
		       "fabric events: the SA at LID %u did not take the "
		       "unsubscription (%s)",
		       (unsigned)s->sa_lid,
		       request->status == -ETIMEDOUT ? "no answer" : "refused");
}

int rk_subscription_stop(struct rk_subscription *subscription, struct rk_mad_queue *queue)
{
	struct rk_subscription *s = subscription;
	struct rk_mad_request request;
	int err;

	if (!s->active && !s->in_flight)
		return 0;
	rk_notice_subscription(&request, s->sa_lid, false);
	err = rk_mad_queue_add(queue, &request, unsubscribed, s);
	if (!err)
		err = rk_mad_queue_run(queue, 0);
	s->active = false;
	return err;
}

int rk_subscription_findings(const struct rk_subscription *subscription,
			     struct rk_findings *findings)
{
	const struct rk_subscription *s = subscription;

	if (s->status == -EBUSY)
		return rk_findings_add(
		    findings, RK_SEVERITY_WARNING, "EVENTS_UNAVAILABLE", "fabric",
		    "stop the other receiver of SA Reports on this host (an MLNX_OFED ib_sa "
		    "with notice support, another event tool), or run the fabric watcher on "
		    "another node; the fabric is swept meanwhile",
		    "another agent on this host already receives the SA's Reports: fabric events "
		    "are not to be had here");
	if (s->active || s->in_flight || !s->sa_lid)
		return 0;
	return rk_findings_add(findings, RK_SEVERITY_WARNING, "EVENTS_UNAVAILABLE", "fabric",
			       "check that the SM's SA accepts InformInfo from this port (its "
			       "P_Key, the SA's event subscription settings); changes are seen "
			       "at the next sweep meanwhile",
			       "the SA at LID %u %s the event subscription", (unsigned)s->sa_lid,
			       s->status == -ETIMEDOUT ? "did not answer" : "refused");
}
