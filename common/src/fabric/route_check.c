/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Whether the routes of a fabric are sound (every route followed and classified, hop counts
 * against a BFS of the discovered links) and balanced (CA LIDs per up-link of each switch). */
#include "rdmakit/route.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kinds of finding a route can give, one group per (kind, switch or link). */
enum kind { K_HOLE, K_LOOP, K_DEAD_END, K_DEGRADED, K_LONGER, KINDS };

static const struct {
	const char *code, *what, *remedy;
	enum rk_severity severity;
} kinds[KINDS] = {
    [K_HOLE] = {"ROUTE_HOLE", "end in a hole (no out port) at this switch",
		"the SM has not routed these LIDs: check the opensm log for routing errors and "
		"resweep (kill -HUP the opensm, or opensm -R minhop to test another engine)",
		RK_SEVERITY_CRITICAL},
    [K_LOOP] = {"ROUTE_LOOP", "loop through this switch",
		"a table was changed outside the SM or the engine is broken: resweep (kill -HUP "
		"opensm); use an engine that is loop-free on this topology (ftree, updn, dfsssp)",
		RK_SEVERITY_CRITICAL},
    [K_DEAD_END] = {"ROUTE_DEAD_END",
		    "leave this switch by a port that is down or leads "
		    "elsewhere",
		    "the SM has not rerouted since a link changed: wait for its next sweep "
		    "(sweep_interval), check the link and the opensm log",
		    RK_SEVERITY_CRITICAL},
    [K_DEGRADED] = {"ROUTE_THROUGH_DEGRADED", "run through this degraded link",
		    "reseat or replace the cable; until then the SM can avoid it only if the "
		    "port is disabled (ibportstate ... disable) and the fabric rerouted",
		    RK_SEVERITY_WARNING},
    [K_LONGER] = {"ROUTE_LONGER_THAN_NEEDED", "are longer than the shortest path from here",
		  "use a shortest-path engine (opensm -R minhop, ftree or updn with the right "
		  "root_guid_file); check that no up-link is down",
		  RK_SEVERITY_WARNING},
};

struct group {
	enum kind kind;
	int key; /* the switch (node index), or the link for K_DEGRADED */
	size_t routes, dests;
	uint16_t last_dest;
	uint16_t samples[RK_ROUTE_SAMPLES];
};

/* What a check works with: the destinations, distances, ranks and the groups it builds. */
struct check_run {
	const struct rk_fabric *fabric;
	const struct rk_routes *routes;
	uint16_t *dests; /* every destination LID */
	int *dest_node, *dest_attach;
	size_t ndests;
	int *sw;    /* the switches' node indexes, in node order */
	int *sw_of; /* [nnodes]: index into sw, or -1 */
	size_t nsw;
	int *dist; /* [nsw * nsw]: hops between switches over active links (-1: none) */
	int *rank; /* [nnodes]: a switch's hops to the nearest CA (-1: none) */
	struct group *groups;
	size_t ngroups, capacity;
	int *group_of[KINDS]; /* [nnodes or nlinks]: index into groups, or -1 */
	struct rk_route_summary *summary;
};

static bool port_active(const struct rk_fabric_port *port)
{
	return port->present && port->state == 4 && port->remote_node >= 0;
}

/* ---- destinations ---------------------------------------------------------------------- */

static int add_dest(struct check_run *run, const struct rk_fabric_port *port, int node, int attach)
{
	unsigned count = 1u << (port->lmc > 7 ? 7 : port->lmc);
	size_t need = run->ndests + count;
	uint16_t *d = realloc(run->dests, need * sizeof(*d));
	int *n = d ? realloc(run->dest_node, need * sizeof(*n)) : NULL;
	int *a = n ? realloc(run->dest_attach, need * sizeof(*a)) : NULL;

	if (d)
		run->dests = d;
	if (n)
		run->dest_node = n;
	if (!a)
		return -ENOMEM;
	run->dest_attach = a;
	for (unsigned i = 0; i < count && port->lid + i <= RK_UNICAST_LID_MAX; i++) {
		run->dests[run->ndests] = (uint16_t)(port->lid + i);
		run->dest_node[run->ndests] = node;
		run->dest_attach[run->ndests++] = attach;
	}
	return 0;
}

/* Every LID of a switch (port 0) and of an active CA port; attach: the switch it hangs on. */
static int list_dests(struct check_run *run)
{
	int err = 0;

	for (size_t n = 0; n < run->fabric->nnodes && !err; n++) {
		const struct rk_fabric_node *node = &run->fabric->nodes[n];

		if (node->type == RK_NODE_SWITCH) {
			if (node->ports[0].present && rk_lid_is_unicast(node->ports[0].lid))
				err = add_dest(run, &node->ports[0], (int)n, (int)n);
			continue;
		}
		for (int p = 1; p <= node->nports && !err; p++) {
			const struct rk_fabric_port *port = &node->ports[p];
			int attach =
			    port_active(port) &&
				    run->fabric->nodes[port->remote_node].type == RK_NODE_SWITCH
				? port->remote_node
				: -1;

			if (port->present && rk_lid_is_unicast(port->lid) && port->state == 4)
				err = add_dest(run, port, (int)n, attach);
		}
	}
	return err;
}

/* ---- distances and ranks --------------------------------------------------------------- */

/* BFS over active switch-to-switch links from switch index s into dist[s * nsw ..]. */
static void bfs_switches(struct check_run *run, size_t s, int *queue)
{
	int *dist = run->dist + s * run->nsw;
	size_t head = 0, tail = 0;

	for (size_t i = 0; i < run->nsw; i++)
		dist[i] = -1;
	dist[s] = 0;
	queue[tail++] = (int)s;
	while (head < tail) {
		int i = queue[head++];
		const struct rk_fabric_node *node = &run->fabric->nodes[run->sw[i]];

		for (int p = 1; p <= node->nports; p++) {
			int j = port_active(&node->ports[p])
				    ? run->sw_of[node->ports[p].remote_node]
				    : -1;

			if (j >= 0 && dist[j] < 0) {
				dist[j] = dist[i] + 1;
				queue[tail++] = j;
			}
		}
	}
}

/* Each switch's hops to the nearest CA: a BFS from every CA at once. */
static void rank_switches(struct check_run *run, int *queue)
{
	const struct rk_fabric *f = run->fabric;
	size_t head = 0, tail = 0;

	for (size_t n = 0; n < f->nnodes; n++) {
		run->rank[n] = f->nodes[n].type == RK_NODE_SWITCH ? -1 : 0;
		if (f->nodes[n].type != RK_NODE_SWITCH)
			queue[tail++] = (int)n;
	}
	while (head < tail) {
		int n = queue[head++];
		const struct rk_fabric_node *node = &f->nodes[n];

		for (int p = 1; p <= node->nports; p++) {
			int m = port_active(&node->ports[p]) ? node->ports[p].remote_node : -1;

			if (m >= 0 && f->nodes[m].type == RK_NODE_SWITCH && run->rank[m] < 0) {
				run->rank[m] = run->rank[n] + 1;
				queue[tail++] = m;
			}
		}
	}
}

static int prepare(struct check_run *run)
{
	size_t nn = run->fabric->nnodes;
	int *queue = malloc((nn + 1) * sizeof(*queue));

	run->sw = malloc((nn + 1) * sizeof(*run->sw));
	run->sw_of = malloc((nn + 1) * sizeof(*run->sw_of));
	run->rank = malloc((nn + 1) * sizeof(*run->rank));
	if (!queue || !run->sw || !run->sw_of || !run->rank) {
		free(queue);
		return -ENOMEM;
	}
	for (size_t n = 0; n < nn; n++) {
		run->sw_of[n] = run->fabric->nodes[n].type == RK_NODE_SWITCH ? (int)run->nsw : -1;
		if (run->sw_of[n] >= 0)
			run->sw[run->nsw++] = (int)n;
	}
	run->dist = malloc((run->nsw * run->nsw + 1) * sizeof(*run->dist));
	for (size_t s = 0; run->dist && s < run->nsw; s++)
		bfs_switches(run, s, queue);
	rank_switches(run, queue);
	free(queue);
	return run->dist ? list_dests(run) : -ENOMEM;
}

/* Hops from switch node to destination d over active links, or -1. */
static int dist_to(const struct check_run *run, int node, size_t d)
{
	int attach = run->dest_attach[d], s = run->sw_of[node], hops;

	if (attach < 0 || s < 0)
		return -1;
	hops = run->dist[(size_t)s * run->nsw + (size_t)run->sw_of[attach]];
	return hops < 0 ? -1 : hops + (attach != run->dest_node[d]);
}

/* ---- groups ---------------------------------------------------------------------------- */

static int count_in_group(struct check_run *run, enum kind kind, int key, size_t d)
{
	int *slot = &run->group_of[kind][key];
	struct group *g;

	if (*slot < 0) {
		if (run->ngroups == run->capacity) {
			size_t cap = run->capacity ? 2 * run->capacity : 16;
			struct group *grown = realloc(run->groups, cap * sizeof(*grown));

			if (!grown)
				return -ENOMEM;
			run->groups = grown;
			run->capacity = cap;
		}
		*slot = (int)run->ngroups;
		run->groups[run->ngroups++] = (struct group){.kind = kind, .key = key};
	}
	g = &run->groups[*slot];
	g->routes++;
	if (g->dests == 0 || g->last_dest != run->dests[d]) {
		if (g->dests < RK_ROUTE_SAMPLES)
			g->samples[g->dests] = run->dests[d];
		g->dests++;
		g->last_dest = run->dests[d];
	}
	return 0;
}

/* The last switch of a path (where a hole or a dead end is). */
static int last_switch(const struct rk_fabric *fabric, const struct rk_route_path *path)
{
	for (size_t i = path->nhops; i > 0; i--)
		if (fabric->nodes[path->hops[i - 1].node].type == RK_NODE_SWITCH)
			return path->hops[i - 1].node;
	return path->end_node;
}

/* The switch of a loop whose next hop is no closer to the destination (the lowest such node,
 * so every source entering the loop blames the same one). */
static int loop_culprit(const struct check_run *run, const struct rk_route_path *path, size_t d)
{
	size_t first = 0;
	int best = -1, lowest = path->end_node;

	while (first < path->nhops && path->hops[first].node != path->end_node)
		first++;
	for (size_t i = first; i < path->nhops; i++) {
		int here = path->hops[i].node;
		int next = i + 1 < path->nhops ? path->hops[i + 1].node : path->end_node;
		int a = dist_to(run, here, d), b = dist_to(run, next, d);

		if (here < lowest)
			lowest = here;
		if ((a < 0 || b < 0 || b >= a) && (best < 0 || here < best))
			best = here;
	}
	return best >= 0 ? best : lowest;
}

/* The first switch of a long route that does not step one hop closer. */
static int detour_culprit(const struct check_run *run, const struct rk_route_path *path, size_t d)
{
	for (size_t i = 0; i + 1 < path->nhops; i++) {
		int here = path->hops[i].node, next = path->hops[i + 1].node;

		if (run->sw_of[here] < 0)
			continue;
		if (run->sw_of[next] >= 0 ? dist_to(run, next, d) != dist_to(run, here, d) - 1
					  : dist_to(run, here, d) != 1)
			return here;
	}
	return path->hops[0].node;
}

/* ---- following every route ------------------------------------------------------------- */

static int classify(struct check_run *run, int source, size_t d, struct rk_route_path *path)
{
	struct rk_route_summary *s = run->summary;
	int shortest, err = 0;
	unsigned hops;

	rk_route_follow(run->fabric, run->routes, source, run->dests[d], path);
	s->routes++;
	hops = path->nhops ? (unsigned)path->nhops - 1 : 0;
	switch (path->end) {
	case RK_ROUTE_REACHES:
		s->reached++;
		if (hops > s->max_hops)
			s->max_hops = hops;
		shortest = dist_to(run, source, d);
		if (shortest >= 0 && hops > (unsigned)shortest) {
			s->longer++;
			err = count_in_group(run, K_LONGER, detour_culprit(run, path, d), d);
		}
		break;
	case RK_ROUTE_HOLE:
		s->holes++;
		return count_in_group(run, K_HOLE, last_switch(run->fabric, path), d);
	case RK_ROUTE_LOOP:
		s->loops++;
		return count_in_group(run, K_LOOP, loop_culprit(run, path, d), d);
	case RK_ROUTE_DEAD_END:
		s->dead_ends++;
		return count_in_group(run, K_DEAD_END, last_switch(run->fabric, path), d);
	default:
		s->unknown++;
		return 0;
	}
	if (!err && path->degraded) {
		s->degraded++;
		err = count_in_group(run, K_DEGRADED, path->degraded_link, d);
	}
	return err;
}

/* Every switch for a CA's LID; for a switch's LID only the switches CAs hang on, where the
 * traffic to it enters (the SM's, a PerfMgr's, an admin's tools): a spine need not route
 * another spine's LID, and OpenSM's ftree leaves those unrouted by design. */
static bool source_wanted(const struct check_run *run, int source, size_t d)
{
	return run->fabric->nodes[run->dest_node[d]].type != RK_NODE_SWITCH ||
	       run->rank[source] == 1;
}

static int follow_all(struct check_run *run)
{
	struct rk_route_path *path = malloc(sizeof(*path));
	int err = path ? 0 : -ENOMEM;

	for (size_t d = 0; d < run->ndests && !err; d++)
		for (size_t s = 0; s < run->nsw && !err; s++)
			if (source_wanted(run, run->sw[s], d))
				err = classify(run, run->sw[s], d, path);
	free(path);
	return err;
}

/* ---- balance --------------------------------------------------------------------------- */

static bool is_uplink(const struct check_run *run, const struct rk_fabric_node *node, int rank,
		      int p)
{
	const struct rk_fabric_port *port = &node->ports[p];

	return port_active(port) && run->fabric->nodes[port->remote_node].type == RK_NODE_SWITCH &&
	       run->rank[port->remote_node] > rank;
}

static void weigh_counts(struct rk_route_balance *b, const size_t *count,
			 const struct rk_fabric_node *node, const struct check_run *run)
{
	double sum = 0, sq = 0, mean;

	b->min = SIZE_MAX;
	for (int p = 1; p <= node->nports; p++) {
		if (!is_uplink(run, node, b->rank, p))
			continue;
		b->uplinks++;
		sum += (double)count[p];
		if (count[p] < b->min)
			b->min = count[p];
		if (count[p] > b->max)
			b->max = count[p];
	}
	if (!b->uplinks) {
		b->min = 0;
		return;
	}
	mean = sum / (double)b->uplinks;
	for (int p = 1; p <= node->nports; p++)
		if (is_uplink(run, node, b->rank, p))
			sq += ((double)count[p] - mean) * ((double)count[p] - mean);
	b->cv = mean > 0 ? sqrt(sq / (double)b->uplinks) / mean : 0;
	b->unbalanced = b->uplinks > 1 && b->max > b->min + 1;
}

/* CA LIDs per up-link of one switch (from its table); false when it has none to weigh. */
static bool balance_switch(const struct check_run *run, int n, size_t *count,
			   struct rk_route_balance *b)
{
	const struct rk_fabric_node *node = &run->fabric->nodes[n];
	const struct rk_route_table *table = rk_routes_table(run->routes, n);

	if (!table || run->rank[n] < 0)
		return false;
	*b = (struct rk_route_balance){.node = n, .rank = run->rank[n]};
	memset(count, 0, ((size_t)node->nports + 1) * sizeof(*count));
	for (size_t d = 0; d < run->ndests; d++) {
		int out = run->dests[d] <= table->top ? table->ports[run->dests[d]] : 255;

		if (run->fabric->nodes[run->dest_node[d]].type != RK_NODE_SWITCH && out >= 1 &&
		    out <= node->nports)
			count[out]++;
	}
	weigh_counts(b, count, node, run);
	return b->uplinks > 0;
}

static int compare_balance(const void *a, const void *b)
{
	const struct rk_route_balance *x = a, *y = b;

	if (x->unbalanced != y->unbalanced)
		return x->unbalanced ? -1 : 1;
	if (x->cv != y->cv)
		return x->cv > y->cv ? -1 : 1;
	return x->node - y->node;
}

static int weigh_uplinks(struct check_run *run, struct rk_route_check *out)
{
	size_t *count = malloc(256 * sizeof(*count));

	out->balance = calloc(run->nsw ? run->nsw : 1, sizeof(*out->balance));
	if (!count || !out->balance) {
		free(count);
		return -ENOMEM;
	}
	for (size_t s = 0; s < run->nsw; s++)
		if (run->fabric->nodes[run->sw[s]].nports < 256 &&
		    balance_switch(run, run->sw[s], count, &out->balance[out->nbalance]))
			out->nbalance++;
	free(count);
	qsort(out->balance, out->nbalance, sizeof(*out->balance), compare_balance);
	for (size_t i = 0; i < out->nbalance; i++)
		run->summary->unbalanced_switches += out->balance[i].unbalanced;
	if (out->nbalance) {
		run->summary->worst_cv = out->balance[0].cv;
		run->summary->worst_node = out->balance[0].node;
	}
	return 0;
}

/* ---- findings -------------------------------------------------------------------------- */

static void list_samples(const struct check_run *run, const struct group *g, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < g->dests && i < RK_ROUTE_SAMPLES && used < size; i++) {
		int owner = rk_route_lid_owner(run->fabric, g->samples[i], NULL);

		used += (size_t)snprintf(buf + used, size - used, "%sLID %u (%s)", i ? ", " : "",
					 g->samples[i],
					 owner >= 0 ? run->fabric->nodes[owner].name : "?");
	}
	if (g->dests > RK_ROUTE_SAMPLES && used < size)
		snprintf(buf + used, size - used, ", ...");
}

static void group_subject(const struct check_run *run, const struct group *g, char *buf,
			  size_t size)
{
	const struct rk_fabric *f = run->fabric;

	if (g->kind == K_DEGRADED) {
		const struct rk_fabric_link *l = &f->links[g->key];

		snprintf(buf, size, "%s[%d]-%s[%d]", f->nodes[l->node_a].name, l->port_a,
			 f->nodes[l->node_b].name, l->port_b);
	} else {
		snprintf(buf, size, "%s", f->nodes[g->key].name);
	}
}

static int add_group_finding(const struct check_run *run, const struct group *g,
			     struct rk_findings *out)
{
	char subject[RK_FINDING_SUBJECT_MAX], samples[200];
	const struct rk_fabric *f = run->fabric;
	uint64_t guid;
	int err, port = 0;

	group_subject(run, g, subject, sizeof(subject));
	list_samples(run, g, samples, sizeof(samples));
	err =
	    rk_findings_add(out, kinds[g->kind].severity, kinds[g->kind].code, subject,
			    kinds[g->kind].remedy, "%zu route(s) to %zu destination LID(s) %s: %s",
			    g->routes, g->dests, kinds[g->kind].what, samples);
	if (g->kind == K_DEGRADED) {
		guid = f->nodes[f->links[g->key].node_a].guid;
		port = f->links[g->key].port_a;
	} else {
		guid = f->nodes[g->key].guid;
	}
	if (!err)
		rk_findings_locate(out, guid, port);
	return err;
}

static int add_unread(const struct check_run *run, struct rk_findings *out)
{
	int err = 0;

	for (size_t i = 0; i < run->routes->count && !err; i++) {
		const struct rk_route_table *t = &run->routes->tables[i];
		const struct rk_fabric_node *node = &run->fabric->nodes[t->node];

		if (t->status == 0)
			continue;
		err =
		    rk_findings_add(out, RK_SEVERITY_WARNING, "ROUTE_TABLE_UNREAD", node->name,
				    t->status == -ERANGE
					? "check the switch's firmware and what the SM set"
					: "check the switch answers SMPs (smpquery -D switchinfo); "
					  "retry with a longer --timeout",
				    "its forwarding table could not be read (%s): routes through "
				    "it are not checked",
				    t->status == -ERANGE   ? "LinearFDBTop past the unicast range"
				    : t->status == -ENOENT ? "no path to it"
				    : t->status == -ETIMEDOUT ? "no answer"
							      : "error status");
		if (!err)
			rk_findings_locate(out, node->guid, 0);
	}
	return err;
}

static int add_unbalanced(const struct check_run *run, const struct rk_route_check *check,
			  struct rk_findings *out)
{
	int err = 0;

	for (size_t i = 0; i < check->nbalance && !err; i++) {
		const struct rk_route_balance *b = &check->balance[i];
		const struct rk_fabric_node *node = &run->fabric->nodes[b->node];

		if (!b->unbalanced)
			continue;
		err = rk_findings_add(
		    out, RK_SEVERITY_WARNING, "ROUTES_UNBALANCED", node->name,
		    "check for down up-links; on a fat tree use opensm -R ftree (or updn with "
		    "scatter_ports / a root_guid_file) and resweep",
		    "CA LIDs per up-link range from %zu to %zu over %zu up-links (CV %.2f)", b->min,
		    b->max, b->uplinks, b->cv);
		if (!err)
			rk_findings_locate(out, node->guid, 0);
	}
	return err;
}

static int add_findings(const struct check_run *run, const struct rk_route_check *check,
			struct rk_findings *out)
{
	int err = add_unread(run, out);

	for (size_t i = 0; i < run->ngroups && !err; i++)
		err = add_group_finding(run, &run->groups[i], out);
	return err ? err : add_unbalanced(run, check, out);
}

/* ---- the check ------------------------------------------------------------------------- */

static int make_group_index(struct check_run *run)
{
	for (int k = 0; k < KINDS; k++) {
		size_t n = k == K_DEGRADED ? run->fabric->nlinks : run->fabric->nnodes;

		run->group_of[k] = malloc((n + 1) * sizeof(int));
		if (!run->group_of[k])
			return -ENOMEM;
		for (size_t i = 0; i < n; i++)
			run->group_of[k][i] = -1;
	}
	return 0;
}

static void free_run(struct check_run *run)
{
	free(run->dests);
	free(run->dest_node);
	free(run->dest_attach);
	free(run->sw);
	free(run->sw_of);
	free(run->dist);
	free(run->rank);
	free(run->groups);
	for (int k = 0; k < KINDS; k++)
		free(run->group_of[k]);
}

int rk_route_check(const struct rk_fabric *fabric, const struct rk_routes *routes,
		   struct rk_route_check *out, struct rk_findings *findings)
{
	struct check_run run = {.fabric = fabric, .routes = routes, .summary = &out->summary};
	int err;

	memset(out, 0, sizeof(*out));
	out->summary.worst_node = -1;
	err = prepare(&run);
	if (!err)
		err = make_group_index(&run);
	if (!err)
		err = follow_all(&run);
	if (!err)
		err = weigh_uplinks(&run, out);
	out->summary.switches = run.nsw;
	out->summary.destinations = run.ndests;
	for (size_t i = 0; i < routes->count; i++)
		out->summary.tables_read += routes->tables[i].status == 0;
	if (!err)
		err = add_findings(&run, out, findings);
	free_run(&run);
	if (err)
		rk_route_check_free(out);
	return err;
}

void rk_route_check_free(struct rk_route_check *check)
{
	free(check->balance);
	check->balance = NULL;
	check->nbalance = 0;
}
