/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Following the fabric's events: the subscription's Reports, and the targeted read of the
 * switch of each trap 128, tried again by directed routes while the LID routes fail. */
#include "rdmakit/follow.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <stdlib.h>

/* A switch no answer came from after its trap 128, to read again. */
struct follow_retry {
	struct rk_notice notice;
	unsigned tries;
	double at; /* monotonic: not before */
};

struct rk_follower {
	struct rk_subscription subscription;
	struct rk_mad_queue *queue;
	struct rk_fabric *fabric;
	int local_port; /* this port's number, for directed routes from it */
	rk_follow_fn fn;
	void *ctx;
	unsigned generation; /* of the fabric: a read of an older one is not told */
	struct follow_retry retry[RK_FOLLOW_RETRIES_MAX];
	size_t nretry;
};

/* One read of a switch after its trap 128: the context of its completion. */
struct switch_read {
	struct rk_follower *follower;
	unsigned tries; /* reads of it before this one */
	unsigned generation;
};

static void tell_alone(struct rk_follower *f, const struct rk_notice *notice, int status)
{
	struct rk_fabric_event event = {.notice = notice, .status = status};

	f->fn(&event, f->ctx);
}

static void read_done(const struct rk_notice *notice, const struct rk_port_change *changes,
		      size_t count, int status, void *ctx)
{
	struct switch_read *read = ctx;
	struct rk_follower *f = read->follower;
	unsigned tries = read->tries;
	bool stale = read->generation != f->generation;

	free(read);
	if (stale)
		return; /* the fabric it read was replaced meanwhile */
	if (status == 0 && count == 0) {
		/* told already (the other end's read found it), or changed back before the read */
		rk_log(RK_LOG_DEBUG, "trap 128 from LID %u: no port changed state",
		       (unsigned)notice->lid);
		return;
	}
	if (status == -ETIMEDOUT && tries + 1 < RK_FOLLOW_READ_TRIES &&
	    f->nretry < RK_FOLLOW_RETRIES_MAX) {
		f->retry[f->nretry++] =
		    (struct follow_retry){.notice = *notice,
					  .tries = tries + 1,
					  .at = rk_monotonic_seconds() + RK_FOLLOW_READ_RETRY_S};
		return;
	}
	if (status) {
		tell_alone(f, notice, status);
		return;
	}
	for (size_t i = 0; i < count; i++) {
		struct rk_fabric_event event = {.notice = notice, .change = &changes[i]};

		f->fn(&event, f->ctx);
	}
}

/* Read the ports of the switch of a trap 128: first by LID, then by directed routes, each
 * try another of the shortest; -ENOMEM (nothing asked). */
static int read_switch(struct rk_follower *f, const struct rk_notice *notice, unsigned tries)
{
	struct switch_read *read = malloc(sizeof(*read));
	int err;

	if (!read)
		return -ENOMEM;
	*read = (struct switch_read){.follower = f, .tries = tries, .generation = f->generation};
	err = rk_reread_switch(f->queue, f->fabric, notice, tries ? f->local_port : 0, read_done,
			       read);
	if (err)
		free(read);
	return err;
}

static void on_notice(const struct rk_notice *notice, void *ctx)
{
	struct rk_follower *f = ctx;

	if (notice->trap == RK_TRAP_LINK_STATE && f->fabric && read_switch(f, notice, 0) == 0)
		return;
	tell_alone(f, notice, 0);
}

/* Read again the switches whose time has come (the last failure tells the trap alone). */
static void retry_reads(struct rk_follower *f)
{
	struct follow_retry due[RK_FOLLOW_RETRIES_MAX];
	size_t ndue = 0, kept = 0;
	double now = rk_monotonic_seconds();

	for (size_t i = 0; i < f->nretry; i++) {
		if (f->retry[i].at <= now)
			due[ndue++] = f->retry[i];
		else
			f->retry[kept++] = f->retry[i];
	}
	f->nretry = kept;
	for (size_t i = 0; i < ndue; i++)
		if (read_switch(f, &due[i].notice, due[i].tries) != 0)
			tell_alone(f, &due[i].notice, -ENOMEM);
}

int rk_follower_open(struct rk_mad_port *port, const struct rk_mad_options *mad,
		     struct rk_fabric *fabric, rk_follow_fn fn, void *ctx, struct rk_follower **out)
{
	struct rk_follower *f = calloc(1, sizeof(*f));
	struct rk_mad_local local;
	int err;

	if (!f)
		return -ENOMEM;
	err = rk_mad_queue_open(port, mad, &f->queue);
	if (err) {
		free(f);
		return err;
	}
	f->fabric = fabric;
	f->fn = fn;
	f->ctx = ctx;
	f->local_port = rk_mad_port_local(port, &local) == 0 ? local.port : 0;
	*out = f;
	return rk_subscription_start(&f->subscription, port, on_notice, f);
}

void rk_follower_set_fabric(struct rk_follower *follower, struct rk_fabric *fabric)
{
	follower->fabric = fabric;
	follower->generation++;
	follower->nretry = 0;
}

int rk_follower_turn(struct rk_follower *follower, unsigned listen_ms)
{
	int err = rk_subscription_refresh(&follower->subscription, follower->queue);

	if (!err)
		err = rk_mad_queue_run(follower->queue, listen_ms);
	if (!err && follower->nretry)
		retry_reads(follower);
	return err;
}

const struct rk_subscription *rk_follower_subscription(const struct rk_follower *follower)
{
	return &follower->subscription;
}

bool rk_follower_unavailable(const struct rk_follower *follower)
{
	const struct rk_subscription *s = &follower->subscription;

	return s->status == -EBUSY || (!s->active && !s->in_flight && s->sa_lid);
}

void rk_follower_close(struct rk_follower *follower)
{
	if (!follower)
		return;
	rk_subscription_stop(&follower->subscription, follower->queue);
	rk_mad_queue_close(follower->queue);
	free(follower);
}
