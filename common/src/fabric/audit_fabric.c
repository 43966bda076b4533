/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The audit's identity and port checks on a discovered fabric. */
#include "rdmakit/audit.h"

#include "audit_internal.h"
#include "rdmakit/route.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A port that answers to LIDs: a switch's port 0, a CA's or router's linked port. */
struct endpoint {
	int node, port;
	uint16_t first, last; /* its LIDs: base to base + 2^LMC - 1 */
};

static int located(int err, struct rk_findings *out, uint64_t guid, int port)
{
	if (!err)
		rk_findings_locate(out, guid, port);
	return err;
}

/* Whether the port of node should have a LID: a switch's port 0; an ACTIVE port of a CA or
 * router (a port that is down has none, legally). */
static bool needs_lid(const struct rk_fabric_node *node, int p)
{
	const struct rk_fabric_port *port = &node->ports[p];

	if (!port->present)
		return false;
	if (node->type == RK_NODE_SWITCH)
		return p == 0;
	return p > 0 && port->state == 4;
}

void audit_port_subject(const struct rk_fabric *fabric, int n, int p, char *out, size_t size)
{
	rk_fabric_port_label(fabric, (size_t)n, p, out, size);
}

/* What a LID that addresses no port is: none, the permissive LID or a multicast one. */
static const char *non_unicast_kind(unsigned lid)
{
	return lid == 0 ? "no" : lid == 0xffff ? "the permissive" : "the multicast";
}

static int check_lid(const struct rk_fabric *fabric, int n, int p, struct rk_findings *out)
{
	const struct rk_fabric_node *node = &fabric->nodes[n];
	const struct rk_fabric_port *port = &node->ports[p];
	unsigned count = 1u << (port->lmc & 7);
	char subject[RK_FINDING_SUBJECT_MAX];

	audit_port_subject(fabric, n, p, subject, sizeof(subject));
	if (!rk_lid_is_unicast(port->lid))
		return located(rk_findings_add(out, RK_SEVERITY_CRITICAL, "LID_UNASSIGNED", subject,
					       "check the SM's log for this port (its GUID), and "
					       "that the SM sweeps (opensm -s)",
					       "port 0x%016llx has %s LID %u: nothing can reach it",
					       (unsigned long long)port->guid,
					       non_unicast_kind(port->lid), port->lid),
			       out, node->guid, p);
	if ((port->lid & (count - 1)) == 0 && port->lid + count - 1 <= RK_UNICAST_LID_MAX)
		return 0;
	return located(
	    rk_findings_add(out, RK_SEVERITY_WARNING, "LID_OUTSIDE_LMC", subject,
			    "the SM assigns LIDs aligned to 2^LMC: look for a LID set by "
			    "hand or a second SM, and let the SM sweep again",
			    "base LID %u with LMC %u: its %u LIDs are %s", port->lid, port->lmc,
			    count,
			    port->lid + count - 1 > RK_UNICAST_LID_MAX ? "past the unicast range"
								       : "not aligned to 2^LMC"),
	    out, node->guid, p);
}

static int compare_endpoints(const void *a, const void *b)
{
	const struct endpoint *x = a, *y = b;

	return x->first != y->first ? (x->first < y->first ? -1 : 1) : 0;
}

/* The ports that answer to LIDs, with the LID checks of each on the way; NULL with *count 0
 * when out of memory (*err set). */
static struct endpoint *endpoints_of(const struct rk_fabric *fabric, size_t *count,
				     struct rk_findings *out, int *err)
{
	size_t cap = 0;
	struct endpoint *list;

	for (size_t n = 0; n < fabric->nnodes; n++)
		cap += (size_t)fabric->nodes[n].nports + 1;
	list = calloc(cap ? cap : 1, sizeof(*list));
	*count = 0;
	if (!list) {
		*err = -ENOMEM;
		return NULL;
	}
	for (size_t n = 0; n < fabric->nnodes && !*err; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];

		for (int p = 0; p <= node->nports && !*err; p++) {
			const struct rk_fabric_port *port = &node->ports[p];

			if (!needs_lid(node, p))
				continue;
			*err = check_lid(fabric, (int)n, p, out);
			if (rk_lid_is_unicast(port->lid))
				list[(*count)++] = (struct endpoint){
				    (int)n, p, port->lid,
				    (uint16_t)(port->lid + (1u << (port->lmc & 7)) - 1)};
		}
	}
	return list;
}

static int duplicate(const struct rk_fabric *fabric, const struct endpoint *a,
		     const struct endpoint *b, struct rk_findings *out)
{
	char subject[32], first[RK_FINDING_SUBJECT_MAX / 2 - 8],
	    second[RK_FINDING_SUBJECT_MAX / 2 - 8];
	uint16_t lid = b->first; /* sorted by first LID: b starts within a */

	snprintf(subject, sizeof(subject), "LID %u", lid);
	audit_port_subject(fabric, a->node, a->port, first, sizeof(first));
	audit_port_subject(fabric, b->node, b->port, second, sizeof(second));
	return located(
	    rk_findings_add(out, RK_SEVERITY_CRITICAL, "LID_DUPLICATE", subject,
			    "two ports answer to one LID: packets to it reach one of them; "
			    "look for a LID set by hand or a second SM, and let the master "
			    "SM sweep again",
			    "%s (0x%016llx) and %s (0x%016llx) both have LID %u", first,
			    (unsigned long long)fabric->nodes[a->node].ports[a->port].guid, second,
			    (unsigned long long)fabric->nodes[b->node].ports[b->port].guid, lid),
	    out, fabric->nodes[a->node].guid, a->port);
}

/* Two ports whose LID ranges overlap: one finding a pair, sorted by LID. */
static int check_duplicates(const struct rk_fabric *fabric, struct endpoint *list, size_t count,
			    struct rk_findings *out)
{
	int err = 0;

	qsort(list, count, sizeof(*list), compare_endpoints);
	for (size_t i = 0; i + 1 < count && !err; i++)
		for (size_t j = i + 1; j < count && list[j].first <= list[i].last && !err; j++)
			err = duplicate(fabric, &list[i], &list[j], out);
	return err;
}

static int compare_descriptions(const void *a, const void *b)
{
	const struct rk_fabric_node *const *x = a, *const *y = b;

	return strcmp((*x)->description, (*y)->description);
}

/* Nodes sharing a description: one ok finding a description, with how many. */
static int check_descriptions(const struct rk_fabric *fabric, struct rk_findings *out)
{
	const struct rk_fabric_node **sorted = calloc(fabric->nnodes + 1, sizeof(*sorted));
	int err = 0;

	if (!sorted)
		return -ENOMEM;
	for (size_t n = 0; n < fabric->nnodes; n++)
		sorted[n] = &fabric->nodes[n];
	qsort(sorted, fabric->nnodes, sizeof(*sorted), compare_descriptions);
	for (size_t i = 0, j; i < fabric->nnodes && !err; i = j) {
		for (j = i + 1; j < fabric->nnodes &&
				strcmp(sorted[j]->description, sorted[i]->description) == 0;
		     j++)
			;
		if (j - i > 1)
			err = rk_findings_add(
			    out, RK_SEVERITY_OK, "DUPLICATE_NODE_DESC", sorted[i]->description,
			    "give each node its own description (its hostname: "
			    "/sys/class/infiniband/*/node_desc), or name them in a node name map",
			    "%zu nodes share this description (their names carry the GUID)", j - i);
	}
	free(sorted);
	return err;
}

/* "3, 7" into out: the ports of node in state; how many. */
static unsigned stuck_ports(const struct rk_fabric_node *node, int state, char *out, size_t size)
{
	unsigned count = 0;
	size_t used = 0;

	out[0] = '\0';
	for (int p = 1; p <= node->nports; p++) {
		const struct rk_fabric_port *port = &node->ports[p];

		if (!port->present || port->state != state || port->phys_state != 5)
			continue;
		if (used < size)
			used +=
			    (size_t)snprintf(out + used, size - used, "%s%d", count ? ", " : "", p);
		count++;
	}
	return count;
}

void audit_dr_path(const struct rk_fabric *fabric, int node, char *out, size_t size)
{
	uint8_t path[RK_MAD_MAX_HOPS + 1];
	uint8_t hops = 0;
	size_t used;

	if (rk_route_directed(fabric, 0, 0, node, path, &hops) != 0) {
		snprintf(out, size, "unknown");
		return;
	}
	used = (size_t)snprintf(out, size, "0");
	for (unsigned h = 1; h <= hops && used < size; h++)
		used += (size_t)snprintf(out + used, size - used, ",%u", path[h]);
}

/* A node's ports whose link is up but that the SM left in INIT or ARMED: one finding a state. */
static int check_stuck(const struct rk_fabric *fabric, int n, struct rk_findings *out)
{
	static const struct {
		int state;
		const char *code, *name;
	} states[] = {{2, "PORT_STUCK_INIT", "INIT"}, {3, "PORT_STUCK_ARMED", "ARMED"}};
	const struct rk_fabric_node *node = &fabric->nodes[n];
	int err = 0;

	for (size_t s = 0; s < sizeof(states) / sizeof(states[0]) && !err; s++) {
		char ports[160], path[3 * (RK_MAD_MAX_HOPS + 1) + 8];
		unsigned count = stuck_ports(node, states[s].state, ports, sizeof(ports));

		if (!count)
			continue;
		audit_dr_path(fabric, n, path, sizeof(path));
		err = rk_findings_add(
		    out, RK_SEVERITY_WARNING, states[s].code, node->name,
		    "the link is up but the SM has not made it ACTIVE: check that a master SM runs "
		    "and sweeps (sminfo), and its log for these ports",
		    "%u port%s in %s with the link up: %s (node 0x%016llx, LID %u, DR path %s)",
		    count, count == 1 ? "" : "s", states[s].name, ports,
		    (unsigned long long)node->guid, node->lid, path);
		if (!err)
			rk_findings_locate(out, node->guid, 0);
	}
	return err;
}

int rk_audit_fabric(const struct rk_fabric *fabric, struct rk_findings *findings)
{
	size_t count;
	int err = 0;
	struct endpoint *list = endpoints_of(fabric, &count, findings, &err);

	if (!err)
		err = check_duplicates(fabric, list, count, findings);
	free(list);
	if (!err)
		err = check_descriptions(fabric, findings);
	for (size_t n = 0; n < fabric->nnodes && !err; n++)
		err = check_stuck(fabric, (int)n, findings);
	return err;
}
