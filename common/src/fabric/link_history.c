/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Each fabric port's downs and ups, and PORT_WENT_DOWN and LINK_FLAPPING from them. */
#include "rdmakit/link_history.h"

#include "rdmakit/array.h"
#include "rdmakit/catalog.h"
#include "rdmakit/limits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rk_flap_settings_defaults(struct rk_flap_settings *flap)
{
	*flap = (struct rk_flap_settings){.downs = RK_FLAP_DOWNS_DEFAULT,
					  .window_s = RK_FLAP_WINDOW_DEFAULT_S,
					  .stable_s = RK_FLAP_STABLE_DEFAULT_S};
}

void rk_link_history_init(struct rk_link_history *history, const struct rk_flap_settings *flap)
{
	*history = (struct rk_link_history){.flap = *flap};
	if (history->flap.downs < 2 || history->flap.downs > RK_FLAP_DOWNS_MAX)
		history->flap.downs = RK_FLAP_DOWNS_DEFAULT;
}

/* The port's entry, made when absent (subject and peer from the caller then); NULL: -ENOMEM. */
static struct rk_link_entry *entry_of(struct rk_link_history *h, uint64_t guid, int port,
				      const char *subject, const char *peer)
{
	struct rk_link_entry *e;

	for (size_t i = 0; i < h->count; i++)
		if (h->items[i].guid == guid && h->items[i].port == port)
			return &h->items[i];
	e = rk_array_room(h->items, &h->capacity, h->count, sizeof(*e), 8);
	if (!e)
		return NULL;
	h->items = e;
	e = &h->items[h->count++];
	memset(e, 0, sizeof(*e));
	e->guid = guid;
	e->port = port;
	snprintf(e->subject, sizeof(e->subject), "%s", subject);
	snprintf(e->peer, sizeof(e->peer), "%s", peer ? peer : "");
	return e;
}

/* Forget the downs older than the window. */
static void prune_downs(struct rk_link_entry *e, double window_s, double now)
{
	size_t kept = 0;

	for (size_t i = 0; i < e->ndowns; i++)
		if (now - e->downs[i] < window_s)
			e->downs[kept++] = e->downs[i];
	e->ndowns = kept;
}

/* One down at now: flapping once the window holds the rule's count of them. */
static void add_down(struct rk_link_entry *e, const struct rk_flap_settings *flap, double now)
{
	prune_downs(e, flap->window_s, now);
	if (e->ndowns == RK_FLAP_DOWNS_MAX) {
		memmove(e->downs, e->downs + 1, (RK_FLAP_DOWNS_MAX - 1) * sizeof(e->downs[0]));
		e->ndowns--;
	}
	e->downs[e->ndowns++] = now;
	if (e->ndowns >= flap->downs)
		e->flapping = true;
}

int rk_link_history_note(struct rk_link_history *history, uint64_t guid, int port,
			 const char *subject, const char *peer, bool up, double now)
{
	struct rk_link_entry *e = entry_of(history, guid, port, subject, peer);

	if (!e)
		return -ENOMEM;
	if (peer && peer[0])
		snprintf(e->peer, sizeof(e->peer), "%s", peer);
	if (up) {
		if (e->down)
			e->up_at = now;
		e->down = false;
		return 0;
	}
	if (!e->down) {
		add_down(e, &history->flap, now);
		e->trap_downs++;
	}
	e->down = true;
	return 0;
}

/* The port's entry, or NULL. */
static struct rk_link_entry *find_entry(struct rk_link_history *h, uint64_t guid, int port)
{
	for (size_t i = 0; i < h->count; i++)
		if (h->items[i].guid == guid && h->items[i].port == port)
			return &h->items[i];
	return NULL;
}

int rk_link_history_sweep(struct rk_link_history *history, const struct rk_fabric *fabric,
			  const struct rk_sweep *sweep, double now)
{
	int c = rk_catalog_pma_index("link_downed");

	for (size_t i = 0; c >= 0 && i < sweep->count; i++) {
		const struct rk_sweep_port *p = &sweep->ports[i];
		uint64_t rise =
		    rk_sweep_delta_known(p, (size_t)c) ? rk_sweep_delta(p, (size_t)c) : 0;
		struct rk_link_entry *e = find_entry(history, p->node_guid, p->port);
		char subject[RK_FINDING_SUBJECT_MAX];

		if (e && rise <= e->trap_downs) {
			e->trap_downs = 0;
			continue;
		}
		if (!rise)
			continue;
		rk_fabric_port_label(fabric, (size_t)p->node, p->port, subject, sizeof(subject));
		e = e ? e : entry_of(history, p->node_guid, p->port, subject, NULL);
		if (!e)
			return -ENOMEM;
		for (uint64_t d = e->trap_downs; d < rise && d < RK_FLAP_DOWNS_MAX; d++)
			add_down(e, &history->flap, now);
		e->trap_downs = 0;
		if (!e->down)
			e->up_at = now; /* it answered: up again */
	}
	return 0;
}

void rk_link_history_discovered(struct rk_link_history *history, const struct rk_fabric *fabric,
				double now)
{
	for (size_t i = 0; i < history->count; i++) {
		struct rk_link_entry *e = &history->items[i];
		int n = rk_fabric_find_node(fabric, e->guid);

		if (e->down && n >= 0 && e->port <= fabric->nodes[n].nports &&
		    fabric->nodes[n].ports[e->port].state == 4) {
			e->down = false;
			e->up_at = now;
		}
	}
}

static int add_down_finding(const struct rk_link_entry *e, struct rk_findings *out)
{
	int err;

	if (rk_findings_find(out, "PORT_WENT_DOWN", e->subject))
		return 0;
	err = rk_findings_add(out, RK_SEVERITY_WARNING, "PORT_WENT_DOWN", e->subject,
			      "check the cable and the node at the other end",
			      "the subnet manager reported the link down (trap 128)%s%s",
			      e->peer[0] ? "; peer " : "", e->peer);
	if (!err)
		rk_findings_locate(out, e->guid, e->port);
	return err;
}

static int add_flapping_finding(const struct rk_link_entry *e, const struct rk_flap_settings *flap,
				struct rk_findings *out)
{
	int err = rk_findings_add(
	    out, RK_SEVERITY_WARNING, "LINK_FLAPPING", e->subject,
	    "reseat or replace the cable (or transceiver) and check both ports' error counters; "
	    "it clears after the link stays up for the stable time",
	    "the link went down %zu times within %.0f s%s%s (clears after %.0f s up)", e->ndowns,
	    flap->window_s, e->peer[0] ? "; peer " : "", e->peer, flap->stable_s);

	if (!err)
		rk_findings_locate(out, e->guid, e->port);
	return err;
}

/* Update the entry's flapping at now; true when it has nothing left to tell. */
static bool settle(struct rk_link_entry *e, const struct rk_flap_settings *flap, double now)
{
	prune_downs(e, flap->window_s, now);
	if (e->flapping && !e->down && now - e->up_at >= flap->stable_s) {
		e->flapping = false;
		e->ndowns = 0;
	}
	return !e->down && !e->flapping && e->ndowns == 0 && e->trap_downs == 0;
}

int rk_link_history_findings(struct rk_link_history *history, double now,
			     struct rk_findings *findings)
{
	size_t kept = 0;
	int err = 0;

	for (size_t i = 0; i < history->count; i++) {
		struct rk_link_entry *e = &history->items[i];

		if (settle(e, &history->flap, now))
			continue;
		if (!err && e->down)
			err = add_down_finding(e, findings);
		if (!err && e->flapping)
			err = add_flapping_finding(e, &history->flap, findings);
		if (kept != i)
			history->items[kept] = *e;
		kept++;
	}
	history->count = kept;
	return err;
}

void rk_link_history_free(struct rk_link_history *history)
{
	free(history->items);
	history->items = NULL;
	history->count = history->capacity = 0;
}
