/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The live fabric against its plan: nodes missing, new or replaced (a new GUID cabled where
 * the plan has another), links missing, unexpected, miswired (a missing and an unexpected
 * link that share their two nodes or one end) or below the plan's rate. */
#include "plan_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The state of one comparison. */
struct diff {
	const struct rk_plan *live, *plan;
	const struct rk_name_map *names;
	struct rk_findings *out;
	uint64_t *replaced_by;	   /* per plan node: the live GUID that took its place, or 0 */
	bool *live_claimed;	   /* per live node: it replaced a plan node */
	struct rk_plan_link *want; /* the plan's links, replaced GUIDs rewritten */
	const struct rk_plan_link **missing, **unexpected;
	size_t nmissing, nunexpected;
};

/* The node name map's name, else the live fabric's, else the plan's, else "". */
static const char *name_of(const struct diff *d, uint64_t guid)
{
	const char *name = d->names ? rk_name_map_lookup(d->names, guid) : NULL;
	int i;

	if (name)
		return name;
	if ((i = rk_plan_find_node(d->live, guid)) >= 0 && d->live->nodes[i].name[0])
		return d->live->nodes[i].name;
	if ((i = rk_plan_find_node(d->plan, guid)) >= 0 && d->plan->nodes[i].name[0])
		return d->plan->nodes[i].name;
	return "";
}

/* "name (0xGUID)", or "0xGUID" for a node without a name. */
static void node_ref(const struct diff *d, uint64_t guid, char *buf, size_t size)
{
	const char *name = name_of(d, guid);
	char g[24];

	rk_format_guid(guid, g, sizeof(g));
	if (*name)
		snprintf(buf, size, "%s (%s)", name, g);
	else
		snprintf(buf, size, "%s", g);
}

/* "name[port]", or "0xGUID[port]" for a node without a name. */
static void end_ref(const struct diff *d, uint64_t guid, int port, char *buf, size_t size)
{
	const char *name = name_of(d, guid);
	char g[24];

	rk_format_guid(guid, g, sizeof(g));
	snprintf(buf, size, "%s[%d]", *name ? name : g, port);
}

/* "a[1]-b[2]" as a finding's subject (unless subject is NULL); "0xGUID[1] - 0xGUID[2]" into
 * guids. */
static void link_refs(const struct diff *d, const struct rk_plan_link *l, char *subject,
		      size_t size, char *guids, size_t gsize)
{
	char a[128], b[128], ga[24], gb[24];

	if (subject) {
		end_ref(d, l->guid_a, l->port_a, a, sizeof(a));
		end_ref(d, l->guid_b, l->port_b, b, sizeof(b));
		snprintf(subject, size, "%s-%s", a, b);
	}
	rk_format_guid(l->guid_a, ga, sizeof(ga));
	rk_format_guid(l->guid_b, gb, sizeof(gb));
	snprintf(guids, gsize, "%s[%d] - %s[%d]", ga, l->port_a, gb, l->port_b);
}

static void rate_text(const struct rk_plan_link *l, char *buf, size_t size)
{
	if (l->width && l->speed != RK_SPEED_NONE)
		snprintf(buf, size, "%dX %s", l->width, rk_speed_name(l->speed));
	else
		snprintf(buf, size, "any rate");
}

/* One end's index into the live links, sorted by (guid, port). */
struct live_end {
	uint64_t guid;
	int port;
	const struct rk_plan_link *link;
};

static int compare_live_ends(const void *a, const void *b)
{
	const struct live_end *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->port - y->port;
}

static const struct rk_plan_link *live_link_at(const struct live_end *ends, size_t n, uint64_t guid,
					       int port)
{
	struct live_end key = {.guid = guid, .port = port};
	const struct live_end *hit = bsearch(&key, ends, n, sizeof(key), compare_live_ends);

	return hit ? hit->link : NULL;
}

static uint64_t other_guid(const struct rk_plan_link *l, uint64_t guid, int port, int *other_port)
{
	bool a = l->guid_a == guid && l->port_a == port;

	*other_port = a ? l->port_b : l->port_a;
	return a ? l->guid_b : l->guid_a;
}

/* One planned link of a node: its port, and the port it goes to. */
struct plan_hop {
	int port, peer_port;
	uint64_t peer;
};

/* How many of the hops the live node n has cabled port for port. */
static int hops_matched(const struct plan_hop *hops, int nhops, uint64_t n,
			const struct live_end *ends, size_t nends)
{
	int score = 0, port;

	for (int i = 0; i < nhops; i++) {
		const struct rk_plan_link *live =
		    live_link_at(ends, nends, hops[i].peer, hops[i].peer_port);

		score += live && other_guid(live, hops[i].peer, hops[i].peer_port, &port) == n &&
			 port == hops[i].port;
	}
	return score;
}

/* A new live node of m's type, not yet claimed, cabled at (peer, peer_port) on port. */
static uint64_t candidate(const struct diff *d, const struct rk_plan_node *m,
			  const struct plan_hop *hop, const struct live_end *ends, size_t nends)
{
	const struct rk_plan_link *live = live_link_at(ends, nends, hop->peer, hop->peer_port);
	int port, i;
	uint64_t n;

	if (!live)
		return 0;
	n = other_guid(live, hop->peer, hop->peer_port, &port);
	i = rk_plan_find_node(d->live, n);
	if (port != hop->port || i < 0 || rk_plan_find_node(d->plan, n) >= 0 ||
	    d->live_claimed[i] || (m->type && d->live->nodes[i].type != m->type))
		return 0;
	return n;
}

/* The new live node cabled, port for port, where at least half of plan node m's links go
 * (the most of them): 0 if none. */
static uint64_t find_replacement(struct diff *d, const struct rk_plan_node *m,
				 const struct live_end *ends, size_t nends)
{
	struct plan_hop hops[RK_PLAN_MAX_PORT + 1];
	int nhops = 0, best_score = 0;
	uint64_t best = 0;

	for (size_t i = 0; i < d->plan->nlinks && nhops <= RK_PLAN_MAX_PORT; i++) {
		const struct rk_plan_link *l = &d->plan->links[i];
		int port = l->guid_a == m->guid ? l->port_a : l->port_b;

		if (l->guid_a != m->guid && l->guid_b != m->guid)
			continue;
		hops[nhops].port = port;
		hops[nhops].peer = other_guid(l, m->guid, port, &hops[nhops].peer_port);
		nhops++;
	}
	for (int i = 0; i < nhops; i++) {
		uint64_t n = candidate(d, m, &hops[i], ends, nends);
		int score = n ? hops_matched(hops, nhops, n, ends, nends) : 0;

		if (score > best_score)
			best = n, best_score = score;
	}
	return best_score > 0 && 2 * best_score >= nhops ? best : 0;
}

static int add_node_finding(struct diff *d, enum rk_severity severity, const char *code,
			    uint64_t guid, const char *remedy, const char *message)
{
	char subject[RK_FINDING_SUBJECT_MAX];
	int err;

	node_ref(d, guid, subject, sizeof(subject));
	err = rk_findings_add(d->out, severity, code, subject, remedy, "%s", message);
	if (!err)
		rk_findings_locate(d->out, guid, 0);
	return err;
}

static int report_replaced(struct diff *d, const struct rk_plan_node *m, uint64_t n)
{
	char subject[RK_FINDING_SUBJECT_MAX], old[24], now[24];
	int err;

	node_ref(d, m->guid, subject, sizeof(subject));
	rk_format_guid(m->guid, old, sizeof(old));
	rk_format_guid(n, now, sizeof(now));
	err = rk_findings_add(d->out, RK_SEVERITY_WARNING, "NODE_REPLACED", subject,
			      "if the part was replaced on purpose, give the new GUID the old "
			      "name in the node name map and save the plan again "
			      "(rdmakit fabric --save)",
			      "%s %s is cabled where the plan has %s: the %s was replaced",
			      rk_node_type_name(m->type), now, old,
			      m->type == RK_NODE_SWITCH ? "switch" : "node");
	if (!err)
		rk_findings_locate(d->out, n, 0);
	return err;
}

/* Pair missing plan nodes with new live nodes at their place; report nodes either way. */
static int check_nodes(struct diff *d, const struct live_end *ends, size_t nends)
{
	int err = 0;

	for (size_t i = 0; i < d->plan->nnodes && !err; i++) {
		const struct rk_plan_node *m = &d->plan->nodes[i];
		uint64_t n;

		if (rk_plan_find_node(d->live, m->guid) >= 0)
			continue;
		if ((n = find_replacement(d, m, ends, nends))) {
			d->replaced_by[i] = n;
			d->live_claimed[rk_plan_find_node(d->live, n)] = true;
			err = report_replaced(d, m, n);
		} else {
			err = add_node_finding(d, RK_SEVERITY_CRITICAL, "NODE_MISSING", m->guid,
					       "check the node's power and cables, or remove it "
					       "from the plan if it was retired",
					       "node of the plan is not in the fabric");
		}
	}
	for (size_t i = 0; i < d->live->nnodes && !err; i++)
		if (!d->live_claimed[i] && rk_plan_find_node(d->plan, d->live->nodes[i].guid) < 0)
			err = add_node_finding(d, RK_SEVERITY_WARNING, "NODE_UNEXPECTED",
					       d->live->nodes[i].guid,
					       "if the node belongs in the fabric, save the plan "
					       "again (rdmakit fabric --save)",
					       "node is in the fabric but not in the plan");
	return err;
}

static int compare_ends4(const void *a, const void *b)
{
	const struct rk_plan_link *x = a, *y = b;

	if (x->guid_a != y->guid_a)
		return x->guid_a < y->guid_a ? -1 : 1;
	if (x->port_a != y->port_a)
		return x->port_a - y->port_a;
	if (x->guid_b != y->guid_b)
		return x->guid_b < y->guid_b ? -1 : 1;
	return x->port_b - y->port_b;
}

static uint64_t replaced(const struct diff *d, uint64_t guid)
{
	int i = rk_plan_find_node(d->plan, guid);

	return i >= 0 && d->replaced_by[i] ? d->replaced_by[i] : guid;
}

/* The plan's links with replaced nodes' GUIDs rewritten, ends ordered, sorted. */
static void rewrite_plan_links(struct diff *d)
{
	for (size_t i = 0; i < d->plan->nlinks; i++) {
		struct rk_plan_link l = d->plan->links[i];

		l.guid_a = replaced(d, l.guid_a);
		l.guid_b = replaced(d, l.guid_b);
		if (l.guid_a > l.guid_b || (l.guid_a == l.guid_b && l.port_a > l.port_b)) {
			uint64_t g = l.guid_a;
			int p = l.port_a;

			l.guid_a = l.guid_b, l.port_a = l.port_b;
			l.guid_b = g, l.port_b = p;
		}
		d->want[i] = l;
	}
	if (d->plan->nlinks)
		qsort(d->want, d->plan->nlinks, sizeof(*d->want), compare_ends4);
}

/* A link end on a node reported missing or new: NODE_* covers its links. */
static bool on_absent_node(const struct diff *d, const struct rk_plan_link *l, bool live)
{
	const struct rk_plan *other = live ? d->plan : d->live;
	const struct rk_plan *self = live ? d->live : d->plan;

	for (int end = 0; end < 2; end++) {
		uint64_t g = end ? l->guid_b : l->guid_a;
		int i = rk_plan_find_node(self, g);

		if (rk_plan_find_node(other, g) >= 0)
			continue;
		if (!live || i < 0 || !d->live_claimed[i])
			return true;
	}
	return false;
}

static int check_below(struct diff *d, const struct rk_plan_link *want,
		       const struct rk_plan_link *got)
{
	char subject[RK_FINDING_SUBJECT_MAX], guids[96], planned[32], runs[32];
	int err;

	if ((!want->width || got->width >= want->width) &&
	    (want->speed == RK_SPEED_NONE || got->speed >= want->speed))
		return 0;
	link_refs(d, got, subject, sizeof(subject), guids, sizeof(guids));
	rate_text(want, planned, sizeof(planned));
	rate_text(got, runs, sizeof(runs));
	err = rk_findings_add(d->out, RK_SEVERITY_WARNING, "LINK_BELOW_PLAN", subject,
			      "reseat or replace the cable; check both ports' enabled widths "
			      "and speeds (ibportstate) and their error counters",
			      "link %s runs %s, the plan has %s", guids, runs, planned);
	if (!err)
		rk_findings_locate(d->out, got->guid_a, got->port_a);
	return err;
}

/* Merge the sorted plan and live links: rates of common ones, the rest set aside. */
static int merge_links(struct diff *d)
{
	size_t i = 0, j = 0, np = d->plan->nlinks, nl = d->live->nlinks;
	int err = 0;

	while (!err && (i < np || j < nl)) {
		int c = i == np ? 1 : j == nl ? -1 : compare_ends4(&d->want[i], &d->live->links[j]);

		if (c == 0)
			err = check_below(d, &d->want[i++], &d->live->links[j++]);
		else if (c < 0 && !on_absent_node(d, &d->want[i++], false))
			d->missing[d->nmissing++] = &d->want[i - 1];
		else if (c > 0 && !on_absent_node(d, &d->live->links[j++], true))
			d->unexpected[d->nunexpected++] = &d->live->links[j - 1];
	}
	return err;
}

static bool same_nodes(const struct rk_plan_link *x, const struct rk_plan_link *y)
{
	return x->guid_a == y->guid_a && x->guid_b == y->guid_b;
}

static bool share_end(const struct rk_plan_link *x, const struct rk_plan_link *y)
{
	return (x->guid_a == y->guid_a && x->port_a == y->port_a) ||
	       (x->guid_a == y->guid_b && x->port_a == y->port_b) ||
	       (x->guid_b == y->guid_a && x->port_b == y->port_a) ||
	       (x->guid_b == y->guid_b && x->port_b == y->port_b);
}

static int report_miswired(struct diff *d, const struct rk_plan_link *want,
			   const struct rk_plan_link *got)
{
	char subject[RK_FINDING_SUBJECT_MAX], planned[96], cabled[96], ca[128], cb[128];
	int err;

	link_refs(d, want, subject, sizeof(subject), planned, sizeof(planned));
	link_refs(d, got, NULL, 0, cabled, sizeof(cabled));
	end_ref(d, got->guid_a, got->port_a, ca, sizeof(ca));
	end_ref(d, got->guid_b, got->port_b, cb, sizeof(cb));
	err = rk_findings_add(d->out, RK_SEVERITY_WARNING, "LINK_MISWIRED", subject,
			      "move the cable so that it joins the planned ports, or save the "
			      "plan again if the new cabling is the design",
			      "the plan has %s, the cable joins %s - %s (%s)", planned, ca, cb,
			      cabled);
	if (!err)
		rk_findings_locate(d->out, got->guid_a, got->port_a);
	return err;
}

/* Pair each missing link with an unexpected one between the same nodes, else sharing an
 * end: a cable in the wrong port. */
static int pair_miswired(struct diff *d, bool *used_m, bool *used_u)
{
	int err = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < d->nmissing && !err; i++)
			for (size_t j = 0; j < d->nunexpected && !used_m[i] && !err; j++) {
				const struct rk_plan_link *m = d->missing[i], *u = d->unexpected[j];

				if (used_u[j] || !(pass ? share_end(m, u) : same_nodes(m, u)))
					continue;
				used_m[i] = used_u[j] = true;
				err = report_miswired(d, m, u);
			}
	return err;
}

static int report_link(struct diff *d, const struct rk_plan_link *l, bool missing)
{
	char subject[RK_FINDING_SUBJECT_MAX], guids[96], rate[32];
	int err;

	link_refs(d, l, subject, sizeof(subject), guids, sizeof(guids));
	rate_text(l, rate, sizeof(rate));
	if (missing)
		err = rk_findings_add(d->out, RK_SEVERITY_WARNING, "LINK_MISSING", subject,
				      "check the cable and both ports (ibportstate), or remove "
				      "the link from the plan",
				      "planned link %s (%s) is not up", guids, rate);
	else
		err = rk_findings_add(d->out, RK_SEVERITY_WARNING, "LINK_UNEXPECTED", subject,
				      "remove the cable if it is not part of the design, or "
				      "save the plan again (rdmakit fabric --save)",
				      "link %s (%s) is not in the plan", guids, rate);
	if (!err)
		rk_findings_locate(d->out, l->guid_a, l->port_a);
	return err;
}

static int check_links(struct diff *d)
{
	bool *used_m = calloc(d->nmissing + 1, 1), *used_u = calloc(d->nunexpected + 1, 1);
	int err = used_m && used_u ? pair_miswired(d, used_m, used_u) : -ENOMEM;

	for (size_t i = 0; i < d->nmissing && !err; i++)
		if (!used_m[i])
			err = report_link(d, d->missing[i], true);
	for (size_t j = 0; j < d->nunexpected && !err; j++)
		if (!used_u[j])
			err = report_link(d, d->unexpected[j], false);
	free(used_m);
	free(used_u);
	return err;
}

static struct live_end *index_ends(const struct rk_plan *live)
{
	struct live_end *ends = calloc(2 * live->nlinks + 1, sizeof(*ends));

	for (size_t i = 0; ends && i < live->nlinks; i++) {
		const struct rk_plan_link *l = &live->links[i];

		ends[2 * i] = (struct live_end){l->guid_a, l->port_a, l};
		ends[2 * i + 1] = (struct live_end){l->guid_b, l->port_b, l};
	}
	if (ends)
		if (live->nlinks)
			qsort(ends, 2 * live->nlinks, sizeof(*ends), compare_live_ends);
	return ends;
}

int rk_plan_diff(const struct rk_plan *live, const struct rk_plan *plan,
		 const struct rk_name_map *names, struct rk_findings *out)
{
	struct diff d = {.live = live, .plan = plan, .names = names, .out = out};
	struct live_end *ends = index_ends(live);
	int err = -ENOMEM;

	d.replaced_by = calloc(plan->nnodes + 1, sizeof(*d.replaced_by));
	d.live_claimed = calloc(live->nnodes + 1, sizeof(*d.live_claimed));
	d.want = calloc(plan->nlinks + 1, sizeof(*d.want));
	d.missing = calloc(plan->nlinks + 1, sizeof(*d.missing));
	d.unexpected = calloc(live->nlinks + 1, sizeof(*d.unexpected));
	if (ends && d.replaced_by && d.live_claimed && d.want && d.missing && d.unexpected)
		err = check_nodes(&d, ends, 2 * live->nlinks);
	if (!err) {
		rewrite_plan_links(&d);
		err = merge_links(&d);
	}
	if (!err)
		err = check_links(&d);
	free(ends);
	free(d.replaced_by);
	free(d.live_claimed);
	free(d.want);
	free(d.missing);
	free(d.unexpected);
	return err;
}

int rk_plan_compare(const struct rk_fabric *fabric, const struct rk_plan *plan,
		    const struct rk_name_map *names, enum rk_log_level level, unsigned *unplaced,
		    struct rk_findings *out)
{
	struct rk_plan *live = NULL, *placed = NULL;
	int err = 0;

	*unplaced = 0;
	if (plan->named)
		err = plan_place(plan, fabric, names, level, &placed, unplaced);
	if (!err)
		err = rk_plan_from_fabric(fabric, &live);
	if (!err)
		err = rk_plan_diff(live, placed ? placed : plan, names, out);
	rk_plan_free(live);
	rk_plan_free(placed);
	return err;
}

int rk_plan_skipped_finding(const char *path, unsigned skipped, struct rk_findings *out)
{
	if (!skipped)
		return 0;
	return rk_findings_add(out, RK_SEVERITY_WARNING, "PLAN_LINES_SKIPPED", path,
			       "fix the lines reported as FILE:LINE when the plan was read",
			       "%u line(s) of the plan could not be read or placed on the fabric "
			       "and were skipped: the comparison is against the rest",
			       skipped);
}
