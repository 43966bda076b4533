/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The fabric as a Graphviz graph, for an admin to look at (rdmakit fabric --dot). */
#include "fabric_dot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A DOT string: quotes and backslashes escaped, a newline as DOT's line break, other control
 * characters as spaces. */
static void put_quoted(FILE *out, const char *text)
{
	fputc('"', out);
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(out, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", out);
		else
			fputc(*c < 0x20 || *c == 0x7f ? ' ' : *c, out);
	}
	fputc('"', out);
}

static void put_id(FILE *out, uint64_t guid)
{
	char text[24];

	rk_format_guid(guid, text, sizeof(text));
	put_quoted(out, text);
}

static const char *shape_of(enum rk_node_type type)
{
	return type == RK_NODE_SWITCH ? "box" : type == RK_NODE_ROUTER ? "diamond" : "ellipse";
}

static void put_node(FILE *out, const struct rk_fabric_node *node, const char *style)
{
	fputc('\t', out);
	put_id(out, node->guid);
	fputs(" [label=", out);
	put_quoted(out, node->name);
	fprintf(out, ", shape=%s%s%s];\n", shape_of(node->type), style ? ", style=" : "",
		style ? style : "");
}

static void put_edge(FILE *out, uint64_t a, int port_a, uint64_t b, int port_b)
{
	fputc('\t', out);
	put_id(out, a);
	fputs(" -- ", out);
	put_id(out, b);
	fprintf(out, " [taillabel=\"%d\", headlabel=\"%d\", ", port_a, port_b);
}

/* Hops from each node to the nearest CA (breadth first from every CA), or NULL without memory.
 * Each link is written from its farther end to its nearer one, so dot draws spines above
 * leaves above hosts. */
static int *hops_to_cas(const struct rk_fabric *fabric)
{
	int *hops = malloc(fabric->nnodes * sizeof(*hops) + 1);
	size_t *queue = malloc(fabric->nnodes * sizeof(*queue) + 1);
	size_t head = 0, tail = 0;

	if (!hops || !queue) {
		free(hops);
		free(queue);
		return NULL;
	}
	for (size_t i = 0; i < fabric->nnodes; i++) {
		hops[i] = fabric->nodes[i].type == RK_NODE_CA ? 0 : -1;
		if (hops[i] == 0)
			queue[tail++] = i;
	}
	while (head < tail) {
		const struct rk_fabric_node *node = &fabric->nodes[queue[head]];
		int next = hops[queue[head++]] + 1;

		for (int p = 0; p <= node->nports; p++) {
			int remote = node->ports[p].present ? node->ports[p].remote_node : -1;

			if (remote >= 0 && hops[remote] < 0) {
				hops[remote] = next;
				queue[tail++] = (size_t)remote;
			}
		}
	}
	free(queue);
	return hops;
}

static int compare_swept(const void *key, const void *member)
{
	const struct rk_sweep_port *x = key, *y = member;

	if (x->node_guid != y->node_guid)
		return x->node_guid < y->node_guid ? -1 : 1;
	return (int)x->port - (int)y->port;
}

/* The wait of a node's port, or NULL when it has none. */
static const struct rk_port_wait *wait_of(const struct rk_fabric *fabric,
					  const struct dot_congestion *c, int node, int port)
{
	struct rk_sweep_port key = {.node_guid = fabric->nodes[node].guid, .port = (uint8_t)port};
	const struct rk_sweep_port *p;

	if (!c || !c->sweep->ports)
		return NULL;
	p = bsearch(&key, c->sweep->ports, c->sweep->count, sizeof(key), compare_swept);
	return p && c->waits[p - c->sweep->ports].score >= 0 ? &c->waits[p - c->sweep->ports]
							     : NULL;
}

/* The more congested end of a link. */
static const struct rk_port_wait *link_wait(const struct rk_fabric *fabric,
					    const struct rk_fabric_link *link,
					    const struct dot_congestion *c)
{
	const struct rk_port_wait *a = wait_of(fabric, c, link->node_a, link->port_a);
	const struct rk_port_wait *b = wait_of(fabric, c, link->node_b, link->port_b);

	return !a || (b && b->score > a->score) ? b : a;
}

/* "\nwait 23.1%" or "\nwait 0.52 ticks/word" after a link's label, and its colour. */
static const char *congestion_label(const struct rk_port_wait *w, char *buf, size_t size)
{
	size_t used = strlen(buf);

	if (!w)
		return NULL;
	if (w->basis == RK_WAIT_TIME)
		snprintf(buf + used, size - used, "\nwait %.1f%%", w->percent);
	else
		snprintf(buf + used, size - used, "\nwait %.3g ticks/word", w->per_word);
	return w->score >= 1	 ? ", color=orange, fontcolor=orange, penwidth=3"
	       : w->score >= 0.5 ? ", color=gold3, penwidth=2"
				 : ", color=forestgreen";
}

static void put_link(FILE *out, const struct rk_fabric *fabric, const struct rk_fabric_link *link,
		     const int *hops, const struct dot_congestion *congestion)
{
	bool flip = hops && hops[link->node_a] < hops[link->node_b];
	int node_a = flip ? link->node_b : link->node_a,
	    port_a = flip ? link->port_b : link->port_a;
	int node_b = flip ? link->node_a : link->node_b,
	    port_b = flip ? link->port_a : link->port_b;
	const char *colour;
	char label[192];

	snprintf(label, sizeof(label), "%dX %s%s%s", link->width, rk_speed_name(link->speed),
		 link->below_enabled ? "\nbelow what both ends enable" : "",
		 link->below_peers ? "\nbelow peers" : "");
	colour = congestion_label(link_wait(fabric, link, congestion), label, sizeof(label));
	put_edge(out, fabric->nodes[node_a].guid, port_a, fabric->nodes[node_b].guid, port_b);
	fputs("label=", out);
	put_quoted(out, label);
	if (rk_link_degraded(link))
		colour = ", color=red, fontcolor=red, penwidth=2";
	fprintf(out, "%s];\n", colour ? colour : "");
}

/* The port at the other end of a port in a fabric, or NULL when it had none. */
static const struct rk_fabric_node *peer_of(const struct rk_fabric *fabric, uint64_t guid, int port,
					    int *peer_port)
{
	int n = rk_fabric_find_node(fabric, guid);
	const struct rk_fabric_port *p;

	if (n < 0 || port < 0 || port > fabric->nodes[n].nports)
		return NULL;
	p = &fabric->nodes[n].ports[port];
	if (!p->present || p->remote_node < 0)
		return NULL;
	*peer_port = p->remote_port;
	return &fabric->nodes[p->remote_node];
}

static bool went_down(const struct rk_finding *f)
{
	return strcmp(f->code, "PORT_WENT_DOWN") == 0 && f->node_guid != 0;
}

/* Both ends of a link that went down are findings when both are still in the fabric: the
 * link is drawn at the first of them. */
static bool drawn_before(const struct rk_findings *findings, size_t i, uint64_t peer, int port)
{
	for (size_t j = 0; j < i; j++)
		if (went_down(&findings->items[j]) && findings->items[j].node_guid == peer &&
		    findings->items[j].port == port)
			return true;
	return false;
}

/* A peer gone from the fabric is drawn once, dashed, as the previous discovery knew it. */
static bool peer_drawn_before(const struct rk_fabric *prev, const struct rk_findings *findings,
			      size_t i, uint64_t peer)
{
	for (size_t j = 0; j < i; j++) {
		const struct rk_fabric_node *other;
		int port;

		if (!went_down(&findings->items[j]))
			continue;
		other = peer_of(prev, findings->items[j].node_guid, findings->items[j].port, &port);
		if (other && other->guid == peer)
			return true;
	}
	return false;
}

static void put_went_down(FILE *out, const struct rk_fabric *fabric, const struct rk_fabric *prev,
			  const struct rk_findings *findings, size_t i)
{
	const struct rk_finding *f = &findings->items[i];
	int peer_port;
	const struct rk_fabric_node *peer = peer_of(prev, f->node_guid, f->port, &peer_port);

	if (!peer || drawn_before(findings, i, peer->guid, peer_port))
		return;
	if (rk_fabric_find_node(fabric, peer->guid) < 0 &&
	    !peer_drawn_before(prev, findings, i, peer->guid))
		put_node(out, peer, "dashed");
	put_edge(out, f->node_guid, f->port, peer->guid, peer_port);
	fputs("label=\"went DOWN\", style=dashed];\n", out);
}

void dot_fabric(FILE *out, const struct rk_fabric *fabric, const struct rk_fabric *prev,
		const struct rk_findings *findings, const struct dot_congestion *congestion)
{
	int *hops = hops_to_cas(fabric);

	fputs("graph fabric {\n", out);
	for (size_t i = 0; i < fabric->nnodes; i++)
		put_node(out, &fabric->nodes[i], NULL);
	for (size_t i = 0; i < fabric->nlinks; i++)
		put_link(out, fabric, &fabric->links[i], hops, congestion);
	free(hops);
	for (size_t i = 0; prev && findings && i < findings->count; i++)
		if (went_down(&findings->items[i]))
			put_went_down(out, fabric, prev, findings, i);
	fputs("}\n", out);
	fflush(out);
}
