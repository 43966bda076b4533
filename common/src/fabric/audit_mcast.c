/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The multicast checks: the switches' multicast forwarding tables against the SA's members of
 * each group. A packet a member sends reaches its switch, which copies it out of every port its
 * table sets for the MLID, and so on: every full member must be reached from every other, and
 * no entry may lead out of the group's tree. */
#include "rdmakit/audit.h"

#include "audit_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LISTED	       4 /* ports a finding names; the others are counted */
#define PORT_NAME_SIZE (RK_FABRIC_NAME_MAX + 8)
#define LIST_SIZE      768

/* What the checks of one MLID share. */
struct mcast_check {
	const struct rk_fabric *fabric;
	const struct rk_audit_mcast *mcast;
	int *table_of;	    /* a node's table in mcast->mfts, or -1 */
	size_t *first_port; /* a node's ports' first index in the flat arrays below */
	bool *visited;	    /* per node: a packet of the sender reaches this switch */
	bool *reached;	    /* per port: a packet of the sender leaves a switch to this CA port */
	int *queue;	    /* switches still to follow */
	size_t group, mlid_index;
};

bool rk_audit_mft_forwards(const struct rk_audit_mft *t, size_t mlid_index, int p)
{
	unsigned word = (unsigned)p / RK_MFT_PORTS_PER_MASK;

	if (p < 0 || mlid_index >= (size_t)t->blocks * RK_MFT_MLIDS_PER_BLOCK || word >= t->words)
		return false;
	return t->masks[mlid_index * t->words + word] >> (p % RK_MFT_PORTS_PER_MASK) & 1;
}

/* Whether switch node n's table sends MLID's packets out of port p. */
static bool forwards(const struct mcast_check *c, int n, int p)
{
	int i = c->table_of[n];

	return i >= 0 && rk_audit_mft_forwards(&c->mcast->mfts[i], c->mlid_index, p);
}

/* Whether switch node n forwards the MLID anywhere. */
static bool forwards_any(const struct mcast_check *c, int n)
{
	for (int p = 0; p <= c->fabric->nodes[n].nports; p++)
		if (forwards(c, n, p))
			return true;
	return false;
}

static enum rk_audit_membership membership(const struct mcast_check *c, int n, int p)
{
	for (size_t k = 0; k < c->mcast->nca_ports; k++)
		if (c->mcast->ca_ports[2 * k] == n && c->mcast->ca_ports[2 * k + 1] == p)
			return c->mcast->membership[c->group * c->mcast->nca_ports + k];
	return RK_MEMBER_NONE; /* not an ACTIVE CA port */
}

/* Follow a packet sent into switch leaf through the tables: mark each switch and CA port it
 * reaches. The input port a switch leaves out only leads back where the packet was. */
static void follow(struct mcast_check *c, int leaf)
{
	size_t head = 0, tail = 0;

	memset(c->visited, 0, c->fabric->nnodes * sizeof(*c->visited));
	memset(c->reached, 0, c->first_port[c->fabric->nnodes] * sizeof(*c->reached));
	c->visited[leaf] = true;
	c->queue[tail++] = leaf;
	while (head < tail) {
		int s = c->queue[head++];
		const struct rk_fabric_node *node = &c->fabric->nodes[s];

		for (int p = 1; p <= node->nports; p++) {
			int peer = node->ports[p].remote_node;

			if (!forwards(c, s, p) || peer < 0 || node->ports[p].state != 4)
				continue;
			if (c->fabric->nodes[peer].type != RK_NODE_SWITCH)
				c->reached[c->first_port[peer] +
					   (size_t)node->ports[p].remote_port] = true;
			else if (!c->visited[peer]) {
				c->visited[peer] = true;
				c->queue[tail++] = peer;
			}
		}
	}
}

/* Add item to a list of at most LISTED, counting them all. */
static void append(char *list, size_t *used, size_t *count, const char *item)
{
	if (++*count <= LISTED && *used < LIST_SIZE)
		*used += (size_t)snprintf(list + *used, LIST_SIZE - *used, "%s%s",
					  *count > 1 ? ", " : "", item);
}

/* The group's finding, subject "MLID 0xc001": "HEAD MGID ff12:... TAIL: LIST" (with how many
 * ports the list left out). */
static int group_finding(const struct mcast_check *c, struct rk_findings *out,
			 enum rk_severity severity, const char *code, const char *remedy,
			 const char *head, const char *tail, char *list, size_t used, size_t count)
{
	char subject[32], mgid[64];

	if (!count)
		return 0;
	if (count > LISTED && used < LIST_SIZE)
		snprintf(list + used, LIST_SIZE - used, " and %zu more", count - LISTED);
	if (!inet_ntop(AF_INET6, c->mcast->mgids + 16 * c->group, mgid, sizeof(mgid)))
		snprintf(mgid, sizeof(mgid), "unknown");
	snprintf(subject, sizeof(subject), "MLID 0x%04x", c->mcast->mlids[c->group]);
	return rk_findings_add(out, severity, code, subject, remedy, "%s MGID %s %s: %s", head,
			       mgid, tail, list)
		   ? -ENOMEM
		   : 0;
}

/* A CA port of the group's full members, k-th of mcast->ca_ports, and its switch. */
static bool full_member(const struct mcast_check *c, size_t k, int *node, int *port, int *leaf)
{
	const struct rk_audit_mcast *m = c->mcast;

	if (m->membership[c->group * m->nca_ports + k] != RK_MEMBER_FULL)
		return false;
	*node = m->ca_ports[2 * k];
	*port = m->ca_ports[2 * k + 1];
	*leaf = c->fabric->nodes[*node].ports[*port].remote_node;
	return true;
}

/* A full member on switch leaf other than CA port k, the k-th of mcast->ca_ports; -1 if none. */
static long leaf_sender(const struct mcast_check *c, int leaf, size_t k)
{
	int n, p, s;

	for (size_t j = 0; j < c->mcast->nca_ports; j++)
		if (j != k && full_member(c, j, &n, &p, &s) && s == leaf)
			return (long)j;
	return -1;
}

/* Full members that a packet of another member sent into leaf does not reach; each named once. */
static void unreached_from(struct mcast_check *c, int leaf, bool *named, char *list, size_t *used,
			   size_t *count)
{
	int n, p, s;

	follow(c, leaf);
	for (size_t k = 0; k < c->mcast->nca_ports; k++) {
		char name[PORT_NAME_SIZE], from[PORT_NAME_SIZE], item[2 * PORT_NAME_SIZE + 48];
		long sender = -1;

		if (!full_member(c, k, &n, &p, &s) || named[k] ||
		    c->reached[c->first_port[n] + (size_t)p] ||
		    (sender = leaf_sender(c, leaf, k)) < 0)
			continue;
		named[k] = true;
		audit_port_subject(c->fabric, n, p, name, sizeof(name));
		audit_port_subject(c->fabric, c->mcast->ca_ports[2 * sender],
				   c->mcast->ca_ports[2 * sender + 1], from, sizeof(from));
		snprintf(item, sizeof(item), "%s (0x%016llx, not from %s)", name,
			 (unsigned long long)c->fabric->nodes[n].ports[p].guid, from);
		append(list, used, count, item);
	}
}

static int check_unreached(struct mcast_check *c, size_t members, struct rk_findings *out)
{
	char head[96], list[LIST_SIZE] = "";
	bool *named = calloc(c->mcast->nca_ports, sizeof(*named));
	bool *walked = calloc(c->fabric->nnodes, sizeof(*walked)); /* one walk a switch */
	bool ok = named && walked;
	size_t used = 0, count = 0;
	int n, p, leaf;

	for (size_t k = 0; ok && k < c->mcast->nca_ports; k++) {
		if (!full_member(c, k, &n, &p, &leaf) || leaf < 0 ||
		    c->fabric->nodes[leaf].type != RK_NODE_SWITCH || walked[leaf])
			continue;
		walked[leaf] = true;
		unreached_from(c, leaf, named, list, &used, &count);
	}
	free(named);
	free(walked);
	if (!ok)
		return -ENOMEM;
	snprintf(head, sizeof(head), "%zu of the %zu full members of", count, members);
	return group_finding(c, out, RK_SEVERITY_CRITICAL, "MULTICAST_MEMBER_UNREACHED",
			     "the SM programs these tables: let the master SM sweep again (kill "
			     "-HUP opensm) and look in its log for multicast table errors; ibroute "
			     "-M shows a switch's table",
			     head,
			     count == 1 ? "receives no packet of another member through the "
					  "switches' multicast tables"
					: "receive no packet of another member through the "
					  "switches' multicast tables",
			     list, used, count);
}

/* Why entry p of switch s leads out of the group's tree, or NULL when it does not. */
static const char *stray(const struct mcast_check *c, int s, int p, char *peer_name, size_t size)
{
	const struct rk_fabric_port *port = &c->fabric->nodes[s].ports[p];
	int peer = port->remote_node;

	peer_name[0] = '\0';
	if (!port->present || port->state != 4)
		return "a port that is not ACTIVE";
	if (peer < 0) /* up, but the discovery did not reach the node behind: not judged */
		return NULL;
	audit_port_subject(c->fabric, peer, port->remote_port, peer_name, size);
	if (c->fabric->nodes[peer].type == RK_NODE_SWITCH)
		return forwards_any(c, peer) ? NULL : "a switch that forwards none of the group";
	return membership(c, peer, port->remote_port) == RK_MEMBER_NONE ? "a CA that is no member"
									: NULL;
}

static int check_stray(const struct mcast_check *c, struct rk_findings *out)
{
	char head[96], list[LIST_SIZE] = "";
	size_t used = 0, count = 0;

	for (size_t i = 0; i < c->mcast->nmfts; i++) {
		int s = c->mcast->mfts[i].node;

		for (int p = 1; p <= c->fabric->nodes[s].nports; p++) {
			char name[PORT_NAME_SIZE], peer[PORT_NAME_SIZE],
			    item[2 * PORT_NAME_SIZE + 80];
			const char *why =
			    forwards(c, s, p) ? stray(c, s, p, peer, sizeof(peer)) : NULL;

			if (!why)
				continue;
			audit_port_subject(c->fabric, s, p, name, sizeof(name));
			snprintf(item, sizeof(item), "%s (0x%016llx)%s%s: %s", name,
				 (unsigned long long)c->fabric->nodes[s].guid,
				 peer[0] ? " to " : "", peer, why);
			append(list, &used, &count, item);
		}
	}
	snprintf(head, sizeof(head), "%zu entr%s of the switches' multicast tables for", count,
		 count == 1 ? "y" : "ies");
	return group_finding(
	    c, out, RK_SEVERITY_WARNING, "MULTICAST_STRAY_ENTRY",
	    "let the master SM sweep again (kill -HUP opensm) so that it rewrites "
	    "the tables; until then the group's packets also go where no member "
	    "asked for them",
	    head, count == 1 ? "leads out of the group's tree" : "lead out of the group's tree",
	    list, used, count);
}

static size_t full_members(const struct mcast_check *c)
{
	size_t count = 0;

	for (size_t k = 0; k < c->mcast->nca_ports; k++)
		count += c->mcast->membership[c->group * c->mcast->nca_ports + k] == RK_MEMBER_FULL;
	return count;
}

static int check_groups(struct mcast_check *c, struct rk_findings *out)
{
	int err = 0;

	for (c->group = 0; c->group < c->mcast->nasked && !err; c->group++) {
		size_t members = full_members(c);

		if (!members) /* send-only members, or a table the SM left behind: nothing to say */
			continue;
		c->mlid_index = (size_t)(c->mcast->mlids[c->group] - RK_MLID_FIRST);
		err = check_unreached(c, members, out);
		if (!err)
			err = check_stray(c, out);
	}
	return err;
}

int rk_audit_mcast_check(const struct rk_fabric *fabric, const struct rk_audit_mcast *mcast,
			 struct rk_findings *findings, bool *checked)
{
	struct mcast_check c = {.fabric = fabric, .mcast = mcast};
	int err = 0;

	*checked = mcast->sa_status == 0;
	for (size_t i = 0; i < mcast->nmfts; i++)
		*checked &= mcast->mfts[i].status == 0;
	if (!*checked || !mcast->nasked)
		return 0;
	c.table_of = malloc(fabric->nnodes * sizeof(*c.table_of));
	c.first_port = malloc((fabric->nnodes + 1) * sizeof(*c.first_port));
	c.visited = malloc(fabric->nnodes * sizeof(*c.visited));
	c.queue = malloc(fabric->nnodes * sizeof(*c.queue));
	if (c.table_of && c.first_port && c.visited && c.queue) {
		c.first_port[0] = 0;
		for (size_t n = 0; n < fabric->nnodes; n++) {
			c.table_of[n] = -1;
			c.first_port[n + 1] = c.first_port[n] + (size_t)fabric->nodes[n].nports + 1;
		}
		for (size_t i = 0; i < mcast->nmfts; i++)
			c.table_of[mcast->mfts[i].node] = (int)i;
		c.reached = malloc(c.first_port[fabric->nnodes] * sizeof(*c.reached));
	}
	err = c.reached ? check_groups(&c, findings) : -ENOMEM;
	free(c.table_of);
	free(c.first_port);
	free(c.visited);
	free(c.queue);
	free(c.reached);
	return err;
}
