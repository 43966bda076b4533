/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The fabric lane between its passes, with events on: it takes the SM's Reports instead of
 * sleeping, turns each into the link history, a finding or a rediscovery soon, and publishes
 * the fabric's findings again at once when they changed. */
#include "watch_internal.h"

#include "rdmakit/clock.h"
#include "rdmakit/limits.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <string.h>

#define EVENTS_LISTEN_MS 250 /* one turn of the follower */
#define EVENTS_SETTLE_S	 2.0 /* a rediscovery asked by events waits this long for more */

/* PortState 1 is DOWN; INIT and above mean the link trained (the SM arms it after). */
static bool link_up(int state)
{
	return state >= 2;
}

static void note_change(struct rk_watch *watch, const struct rk_port_change *c)
{
	const struct rk_fabric *fabric = watch->monitor.events_fabric;
	const struct rk_fabric_node *node = &fabric->nodes[c->node];
	char subject[RK_FINDING_SUBJECT_MAX], peer[RK_FINDING_SUBJECT_MAX] = "";

	rk_fabric_port_label(fabric, (size_t)c->node, c->port, subject, sizeof(subject));
	if (c->peer_node >= 0)
		rk_fabric_port_label(fabric, (size_t)c->peer_node, c->peer_port, peer,
				     sizeof(peer));
	if (link_up(c->now) == link_up(c->was))
		return;
	if (rk_link_history_note(&watch->links, node->guid, c->port, subject, peer, link_up(c->now),
				 rk_monotonic_seconds()) != 0)
		rk_log(RK_LOG_ERR, "out of memory: the link change of %s is not kept", subject);
	watch->events_changed = true;
}

/* A trap with no state to read back: a finding about its port for RK_TRAP_HOLD_S after the
 * last such trap (the newest replaces the one before). */
static void note_trap(struct rk_watch *watch, const struct rk_notice *notice, bool security)
{
	struct watch_traps *traps = &watch->traps;
	struct rk_findings made = {0};
	char subject[RK_FINDING_SUBJECT_MAX];
	const char *meaning = rk_trap_meaning(notice->trap);
	const char *code = security ? "KEY_VIOLATION" : "LINK_ERRORS_REPORTED";
	size_t i = 0;

	rk_notice_subject(notice, watch->monitor.events_fabric, subject, sizeof(subject));
	while (i < traps->count && (strcmp(traps->items[i].finding.code, code) != 0 ||
				    strcmp(traps->items[i].finding.subject, subject) != 0))
		i++;
	if (i == traps->count && traps->count == WATCH_TRAPS_MAX)
		i = 0; /* full: the oldest kept goes */
	if (rk_findings_add(&made, security ? RK_SEVERITY_CRITICAL : RK_SEVERITY_WARNING, code,
			    subject, meaning ? meaning : "", "trap %u (%s) from LID %u",
			    (unsigned)notice->trap, rk_trap_name(notice->trap),
			    (unsigned)notice->issuer_lid) != 0) {
		rk_log(RK_LOG_ERR, "out of memory: trap %u not kept", (unsigned)notice->trap);
		return;
	}
	traps->items[i].finding = made.items[0];
	traps->items[i].at = rk_monotonic_seconds();
	if (i == traps->count)
		traps->count++;
	rk_findings_free(&made);
	watch->events_changed = true;
}

/* The topology changed in a way a targeted read does not cover: rediscover soon, once for a
 * burst of such events. */
static void rediscover_soon(struct rk_watch *watch, const struct rk_notice *notice)
{
	struct watch_lane *lane = &watch->lanes[WATCH_LANE_FABRIC];
	double at = rk_monotonic_seconds() + EVENTS_SETTLE_S;

	rk_log(RK_LOG_INFO, "trap %u (%s): rediscovering the fabric", (unsigned)notice->trap,
	       rk_trap_name(notice->trap));
	watch->monitor.sweep.topology_stale = true;
	pthread_mutex_lock(&watch->lock);
	if (lane->next_at > at)
		lane->next_at = at;
	pthread_mutex_unlock(&watch->lock);
}

void watch_on_event(const struct rk_fabric_event *event, void *ctx)
{
	struct rk_watch *watch = ctx;
	uint16_t trap = event->notice->trap;

	if (event->change) {
		note_change(watch, event->change);
		return;
	}
	if (trap >= RK_TRAP_LINK_INTEGRITY && trap <= RK_TRAP_FLOW_WATCHDOG)
		note_trap(watch, event->notice, false);
	else if (trap >= RK_TRAP_BAD_MKEY && trap <= RK_TRAP_BAD_SWITCH_PKEY)
		note_trap(watch, event->notice, true);
	else if (trap == RK_TRAP_LINK_STATE || trap == RK_TRAP_GID_IN_SERVICE ||
		 trap == RK_TRAP_GID_OUT_OF_SERVICE || trap == RK_TRAP_CAPABILITY_CHANGED ||
		 trap == RK_TRAP_SYSTEM_IMAGE_CHANGED)
		rediscover_soon(watch, event->notice); /* a switch not read, a node in or out */
}

void watch_events_setup(struct rk_watch *watch, struct rk_fabric_cache_options *options)
{
	rk_link_history_init(&watch->links, &watch->settings.flap);
	if (!watch->settings.events || !watch->settings.sweep)
		return;
	options->events = watch_on_event;
	options->events_ctx = watch;
}

/* Drop the trap findings older than RK_TRAP_HOLD_S. */
static void expire_traps(struct rk_watch *watch, double now)
{
	struct watch_traps *traps = &watch->traps;
	size_t kept = 0;

	for (size_t i = 0; i < traps->count; i++)
		if (now - traps->items[i].at < RK_TRAP_HOLD_S)
			traps->items[kept++] = traps->items[i];
	if (kept != traps->count)
		watch->events_changed = true;
	traps->count = kept;
}

/* Append a finding unless findings has its code and subject already; 0 or -ENOMEM. */
static int add_once(struct rk_findings *findings, const struct rk_finding *finding)
{
	if (rk_findings_find(findings, finding->code, finding->subject))
		return 0;
	return rk_findings_append(findings, finding);
}

int watch_fabric_findings(struct rk_watch *watch, struct rk_findings *out)
{
	double now = rk_monotonic_seconds();
	const struct rk_follower *follower = watch->monitor.follower;
	int err;

	rk_findings_free(out);
	err = rk_findings_copy(&watch->sweep_findings, out);
	expire_traps(watch, now);
	for (size_t i = 0; i < watch->traps.count && !err; i++)
		err = add_once(out, &watch->traps.items[i].finding);
	if (!err)
		err = rk_link_history_findings(&watch->links, now, out);
	if (!err && follower)
		err = rk_subscription_findings(rk_follower_subscription(follower), out);
	if (!err)
		err = watch_role_findings(watch, out);
	watch->events_checked_at = now;
	return err;
}

/* After a sweep: its LinkDownedCounter rises into the link history, and a new topology's
 * ACTIVE ports end what events left down. */
void watch_events_swept(struct rk_watch *watch)
{
	const struct rk_fabric_cache *m = &watch->monitor;
	double now = rk_monotonic_seconds();

	if (watch->history_discovery != m->discoveries) {
		rk_link_history_discovered(&watch->links, m->fabric, now);
		watch->history_discovery = m->discoveries;
	}
	if (rk_link_history_sweep(&watch->links, m->fabric, &m->sweep, now) != 0)
		rk_log(RK_LOG_ERR, "out of memory: link downs of this sweep not kept");
}

void watch_events_publish(struct rk_watch *watch, const bool passed[])
{
	struct watch_job *job = &watch->jobs[RK_WATCH_SWEEP];
	struct rk_event_views views = {.fabric_findings = &job->findings};
	bool any = false;

	watch->events_changed = false;
	if (watch_fabric_findings(watch, &job->findings) != 0) {
		rk_log(RK_LOG_ERR, "out of memory: fabric findings of events not reported");
		return;
	}
	watch_job_track(job, &views);
	for (int j = 0; j < RK_WATCH_JOBS; j++)
		any |= passed[j] && watch->jobs[j].found.list.count > 0;
	if (!any)
		return;
	watch->findings_only = true;
	watch_publish(watch, passed, 0);
	watch->findings_only = false;
	if (watch->on_events)
		watch->on_events(watch->on_events_arg);
}

/* The fabric's findings again when events changed them, or once a second for what clears
 * with time (LINK_FLAPPING, trap findings, the election's); published at once when they
 * changed. */
static void publish_if_changed(struct rk_watch *watch)
{
	bool passed[RK_WATCH_JOBS] = {[RK_WATCH_SWEEP] = true};

	if ((!watch->jobs[RK_WATCH_SWEEP].primed && !watch->elects) ||
	    (!watch->events_changed && rk_monotonic_seconds() - watch->events_checked_at < 1))
		return;
	watch_events_publish(watch, passed);
}

void rk_watch_on_events(struct rk_watch *watch, void (*fn)(void *arg), void *arg)
{
	watch->on_events = fn;
	watch->on_events_arg = arg;
}

/* Sleep up to seconds, or until told to stop (after a failure to follow). */
static void pause_lane(struct rk_watch *watch, double seconds)
{
	struct timespec due;
	double until = rk_monotonic_seconds() + seconds;

	due.tv_sec = (time_t)until;
	due.tv_nsec = (long)((until - (double)due.tv_sec) * 1e9);
	pthread_mutex_lock(&watch->lock);
	if (!watch->stop)
		pthread_cond_timedwait(&watch->wake, &watch->lock, &due);
	pthread_mutex_unlock(&watch->lock);
}

/* One turn of the follower for at most left seconds, then what it changed published. */
static void follow_turn(struct rk_watch *watch, double left)
{
	unsigned ms =
	    left * 1000 < EVENTS_LISTEN_MS ? (unsigned)(left * 1000) + 1 : EVENTS_LISTEN_MS;
	int err = rk_fabric_cache_follow(&watch->monitor, ms);

	if (err && err != -ECANCELED) {
		if (err != watch->follow_err)
			rk_log(RK_LOG_ERR, "taking the fabric's events failed: %s; trying again",
			       strerror(-err));
		pause_lane(watch, left < 1 ? left : 1);
	} else if (!err && watch->follow_err) {
		rk_log(RK_LOG_INFO, "taking the fabric's events works again");
	}
	watch->follow_err = err == -ECANCELED ? watch->follow_err : err;
}

bool watch_events_wait(struct watch_lane *lane)
{
	struct rk_watch *watch = lane->watch;

	for (;;) {
		double now = rk_monotonic_seconds(), left, turn;

		pthread_mutex_lock(&watch->lock);
		if (watch->stop) {
			pthread_mutex_unlock(&watch->lock);
			return false;
		}
		left = lane->next_at - now;
		if (left <= 0)
			lane->next_at = now + lane->interval;
		pthread_mutex_unlock(&watch->lock);
		if (left <= 0)
			return true;
		watch_role_turn(watch);
		turn = watch->elects && rk_election_wait(&watch->election) < left
			   ? rk_election_wait(&watch->election)
			   : left;
		/* the port closed (it failed): the jobs open it again, backing off */
		if (watch->monitor.options.events && watch_fabric_active(watch) &&
		    watch->monitor.port)
			follow_turn(watch, turn);
		else
			pause_lane(watch, turn < 1 ? turn : 1);
		publish_if_changed(watch);
	}
}
