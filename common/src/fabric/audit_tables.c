/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The audit's checks on the tables it read: GUIDs behind two ports, P_Key tables against the
 * partitions, SL-to-VL maps against the VLs each port runs. */
#include "audit_internal.h"
#include "rdmakit/array.h"
#include "rdmakit/audit.h"
#include "rdmakit/route.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_PKEY   0x7fff
#define FULL_MEMBER    0x8000
#define LISTED_PORTS   4 /* ports a grouped finding names; the others are counted */
#define DR_PATH_SIZE   (3 * (RK_MAD_MAX_HOPS + 1) + 8)
#define PORT_NAME_SIZE (RK_FABRIC_NAME_MAX + 8)

/* ---- GUIDs that answer behind a second port ---------------------------------------------- */

static int check_twin(const struct rk_fabric *fabric, const struct rk_audit_twin *twin,
		      struct rk_findings *out)
{
	char subject[32], behind[PORT_NAME_SIZE], path[DR_PATH_SIZE];
	int port = 0, owner = rk_fabric_find_node(fabric, twin->node_guid);
	uint64_t guid = twin->node_guid;

	if (owner < 0) {
		owner = rk_route_guid_owner(fabric, twin->port_guid, &port);
		guid = twin->port_guid;
	}
	snprintf(subject, sizeof(subject), "GUID 0x%016llx", (unsigned long long)guid);
	if (owner < 0 || rk_findings_find(out, "DUPLICATE_GUID", subject))
		return 0;
	audit_port_subject(fabric, twin->node, twin->port, behind, sizeof(behind));
	audit_dr_path(fabric, twin->node, path, sizeof(path));
	if (rk_findings_add(out, RK_SEVERITY_CRITICAL, "DUPLICATE_GUID", subject,
			    "two devices carry this GUID (a cloned or re-flashed adapter, a "
			    "duplicated virtual GUID): give the one behind that port its own "
			    "GUID; until then the SM and every tool see only one of them",
			    "%s GUID of %s answers again behind %s (DR path %s,%d): two devices "
			    "share it, and the discovery took only one",
			    port || guid == twin->port_guid ? "the port" : "the node",
			    fabric->nodes[owner].name, behind, path, twin->port))
		return -ENOMEM;
	rk_findings_locate(out, fabric->nodes[twin->node].guid, twin->port);
	return 0;
}

/* ---- P_Key tables against the partitions ------------------------------------------------- */

/* One port's disagreement with the partitions, grouped into findings by code and P_Key. */
struct pkey_problem {
	const char *code;
	enum rk_severity severity;
	uint16_t pkey;
	int node, port;
};

struct problems {
	struct pkey_problem *items;
	size_t count, capacity;
};

static bool member_matches(const struct rk_partition_member *m, const struct rk_fabric_node *node,
			   uint64_t port_guid, uint64_t sm_port_guid)
{
	switch (m->who) {
	case RK_PARTITION_GUID:
		return m->guid == port_guid;
	case RK_PARTITION_ALL:
		return true;
	case RK_PARTITION_ALL_CAS:
		return node->type == RK_NODE_CA;
	case RK_PARTITION_ALL_SWITCHES:
		return node->type == RK_NODE_SWITCH;
	case RK_PARTITION_ALL_ROUTERS:
		return node->type == RK_NODE_ROUTER;
	case RK_PARTITION_SELF:
		return sm_port_guid && port_guid == sm_port_guid;
	}
	return false;
}

/* The membership the partition gives the port (RK_PARTITION_FULL / _LIMITED bits). */
static unsigned expected_membership(const struct rk_partition *partition,
				    const struct rk_fabric_node *node, uint64_t port_guid,
				    uint64_t sm_port_guid)
{
	unsigned bits = 0;

	for (size_t m = 0; m < partition->nmembers; m++)
		if (member_matches(&partition->members[m], node, port_guid, sm_port_guid))
			bits |= partition->members[m].membership;
	return bits;
}

/* The membership the port's table gives it in pkey (15 bits). */
static unsigned table_membership(const struct rk_audit_port *entry, uint16_t pkey)
{
	unsigned bits = 0;

	for (size_t k = 0; k < entry->npkeys; k++)
		if ((entry->pkeys[k] & 0x7fff) == pkey)
			bits |= entry->pkeys[k] & FULL_MEMBER ? RK_PARTITION_FULL
							      : RK_PARTITION_LIMITED;
	return bits;
}

static int add_problem(struct problems *list, const char *code, enum rk_severity severity,
		       uint16_t pkey, const struct rk_audit_port *entry)
{
	struct pkey_problem *items =
	    rk_array_room(list->items, &list->capacity, list->count, sizeof(*items), 16);

	if (!items)
		return -ENOMEM;
	list->items = items;
	items[list->count++] =
	    (struct pkey_problem){code, severity, pkey, entry->node, entry->port};
	return 0;
}

/* How the port's membership in one partition differs from the file's: a problem or none. */
static int compare_partition(const struct rk_partition *partition, unsigned want, unsigned have,
			     const struct rk_audit_port *entry, struct problems *list)
{
	if (!want && have)
		return add_problem(list, "PARTITION_UNEXPECTED",
				   have & RK_PARTITION_FULL ? RK_SEVERITY_CRITICAL
							    : RK_SEVERITY_WARNING,
				   partition->pkey, entry);
	if (want && !have)
		return add_problem(list,
				   partition->pkey == DEFAULT_PKEY ? "PARTITION_DEFAULT_MISSING"
								   : "PARTITION_MISSING",
				   partition->pkey == DEFAULT_PKEY ? RK_SEVERITY_CRITICAL
								   : RK_SEVERITY_WARNING,
				   partition->pkey, entry);
	if (want && ((want & RK_PARTITION_FULL) != 0) != ((have & RK_PARTITION_FULL) != 0))
		return add_problem(list, "PARTITION_MEMBERSHIP", RK_SEVERITY_WARNING,
				   partition->pkey, entry);
	return 0;
}

static bool pkey_in_partitions(const struct rk_partitions *partitions, uint16_t pkey)
{
	for (size_t i = 0; i < partitions->count; i++)
		if (partitions->items[i].pkey == pkey)
			return true;
	return false;
}

/* Whether entry k of the port's table repeats the P_Key of an earlier one. */
static bool repeats_earlier(const struct rk_audit_port *entry, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if ((entry->pkeys[j] & 0x7fff) == (entry->pkeys[k] & 0x7fff))
			return true;
	return false;
}

/* P_Keys in the port's table that no partition has (each once). */
static int unknown_pkeys(const struct rk_partitions *partitions, const struct rk_audit_port *entry,
			 struct problems *list)
{
	int err = 0;

	for (size_t k = 0; k < entry->npkeys && !err; k++) {
		uint16_t pkey = entry->pkeys[k] & 0x7fff;

		if (pkey && !repeats_earlier(entry, k) && !pkey_in_partitions(partitions, pkey))
			err = add_problem(list, "PARTITION_UNEXPECTED",
					  entry->pkeys[k] & FULL_MEMBER ? RK_SEVERITY_CRITICAL
									: RK_SEVERITY_WARNING,
					  pkey, entry);
	}
	return err;
}

static int port_problems(const struct rk_fabric *fabric, const struct rk_audit_port *entry,
			 const struct rk_partitions *partitions, uint64_t sm_port_guid,
			 struct problems *list)
{
	const struct rk_fabric_node *node = &fabric->nodes[entry->node];
	uint64_t guid = node->ports[entry->port].guid;
	int err = 0;

	for (size_t i = 0; i < partitions->count && !err; i++) {
		const struct rk_partition *partition = &partitions->items[i];

		err = compare_partition(partition,
					expected_membership(partition, node, guid, sm_port_guid),
					table_membership(entry, partition->pkey), entry, list);
	}
	return err ? err : unknown_pkeys(partitions, entry, list);
}

/* The read of port p of node n (the reads are in node and port order), or NULL. */
static const struct rk_audit_port *read_of(const struct rk_audit_reads *reads, int n, int p)
{
	size_t lo = 0, hi = reads->nports;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct rk_audit_port *e = &reads->ports[mid];

		if (e->node < n || (e->node == n && e->port < p))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < reads->nports && reads->ports[lo].node == n && reads->ports[lo].port == p)
		return &reads->ports[lo];
	return NULL;
}

/* Whether the SM set a switch port up for partitions: it enforces them, or its table holds a
 * P_Key besides the default one every port has. */
static bool switch_port_programmed(const struct rk_fabric *fabric,
				   const struct rk_audit_port *entry)
{
	if (fabric->nodes[entry->node].ports[entry->port].pkey_enforcement)
		return true;
	for (size_t k = 0; k < entry->npkeys; k++) {
		uint16_t pkey = entry->pkeys[k] & 0x7fff;

		if (pkey && pkey != DEFAULT_PKEY)
			return true;
	}
	return false;
}

/* The P_Keys the CA behind a switch port holds that the switch port lacks: enforcing
 * partitions, the switch drops those packets to and from the CA. Membership is not compared:
 * OpenSM copies the CA's entries, and one full member on either side makes a match. */
static int switch_port_problems(const struct rk_fabric *fabric, const struct rk_audit_reads *reads,
				const struct rk_audit_port *entry, struct problems *list)
{
	const struct rk_fabric_port *port = &fabric->nodes[entry->node].ports[entry->port];
	const struct rk_audit_port *peer = read_of(reads, port->remote_node, port->remote_port);
	int err = 0;

	if (!peer || peer->pkey_status != 0 || !switch_port_programmed(fabric, entry))
		return 0;
	for (size_t k = 0; k < peer->npkeys && !err; k++) {
		uint16_t pkey = peer->pkeys[k] & 0x7fff;

		if (pkey && !repeats_earlier(peer, k) && !table_membership(entry, pkey))
			err = add_problem(list, "PARTITION_SWITCH_PORT", RK_SEVERITY_CRITICAL, pkey,
					  entry);
	}
	return err;
}

static int compare_problems(const void *a, const void *b)
{
	const struct pkey_problem *x = a, *y = b;
	int code = strcmp(x->code, y->code);

	return code ? code : (x->pkey > y->pkey) - (x->pkey < y->pkey);
}

static const char *partition_name(const struct rk_partitions *partitions, uint16_t pkey)
{
	for (size_t i = 0; i < partitions->count; i++)
		if (partitions->items[i].pkey == pkey)
			return partitions->items[i].name;
	return NULL;
}

static const struct {
	const char *code, *what, *remedy;
} pkey_texts[] = {
    {"PARTITION_MISSING", "not in this partition, which the partitions file gives them",
     "the SM did not program these ports: check that the master SM runs this partitions file "
     "and its log for them, and let it sweep again"},
    {"PARTITION_DEFAULT_MISSING", "not in the Default partition (0x7fff)",
     "without the Default partition a port cannot reach the SA (no path records, no IPoIB "
     "join): check the master SM's partitions file and log, and let it sweep again"},
    {"PARTITION_UNEXPECTED", "in this partition, which the partitions file does not give them",
     "isolation is weaker than designed: check for another SM or a P_Key set by hand, and "
     "let the master SM sweep again"},
    {"PARTITION_MEMBERSHIP", "members of another kind (full or limited) than the file says",
     "a limited member cannot talk to other limited members, a full member to every member: "
     "let the master SM sweep again, and check its partitions file"},
    {"PARTITION_SWITCH_PORT",
     "switch-side and without this P_Key, which the CA behind holds: enforcing partitions, "
     "the switch drops the partition's packets to and from that CA",
     "the SM programs a switch port's table from the CA behind it: let the master SM sweep "
     "again (kill -HUP opensm) and check its log for P_Key table errors on these switches"},
};

/* "a[1] (0x..), b[1] (0x..) and 3 more" for the group's ports. */
static void list_ports(const struct rk_fabric *fabric, const struct pkey_problem *group,
		       size_t count, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < count && i < LISTED_PORTS && used < size; i++) {
		char name[PORT_NAME_SIZE];

		audit_port_subject(fabric, group[i].node, group[i].port, name, sizeof(name));
		used += (size_t)snprintf(
		    out + used, size - used, "%s%s (0x%016llx)", i ? ", " : "", name,
		    (unsigned long long)fabric->nodes[group[i].node].ports[group[i].port].guid);
	}
	if (count > LISTED_PORTS && used < size)
		snprintf(out + used, size - used, " and %zu more", count - LISTED_PORTS);
}

static int pkey_finding(const struct rk_fabric *fabric, const struct rk_partitions *partitions,
			const struct pkey_problem *group, size_t count, struct rk_findings *out)
{
	enum rk_severity severity = RK_SEVERITY_OK;
	const char *name = partition_name(partitions, group->pkey);
	char subject[96], ports[256];
	size_t t = 0;

	while (strcmp(pkey_texts[t].code, group->code) != 0)
		t++;
	for (size_t i = 0; i < count; i++)
		severity = group[i].severity > severity ? group[i].severity : severity;
	if (name)
		snprintf(subject, sizeof(subject), "partition %s (0x%04x)", name, group->pkey);
	else
		snprintf(subject, sizeof(subject), "P_Key 0x%04x", group->pkey);
	list_ports(fabric, group, count, ports, sizeof(ports));
	if (rk_findings_add(out, severity, group->code, subject, pkey_texts[t].remedy,
			    "%zu port%s %s %s: %s", count, count == 1 ? "" : "s",
			    count == 1 ? "is" : "are", pkey_texts[t].what, ports))
		return -ENOMEM;
	rk_findings_locate(out, fabric->nodes[group->node].guid, group->port);
	return 0;
}

static int check_partitions(const struct rk_fabric *fabric, const struct rk_audit_reads *reads,
			    const struct rk_partitions *partitions, uint64_t sm_port_guid,
			    struct rk_findings *out)
{
	struct problems list = {0};
	int err = 0;

	for (size_t i = 0; i < reads->nports && !err; i++) {
		const struct rk_audit_port *entry = &reads->ports[i];

		if (entry->pkey_status != 0)
			continue;
		if (fabric->nodes[entry->node].type == RK_NODE_SWITCH)
			err = switch_port_problems(fabric, reads, entry, &list);
		else
			err = port_problems(fabric, entry, partitions, sm_port_guid, &list);
	}
	if (!err && list.count)
		qsort(list.items, list.count, sizeof(*list.items), compare_problems);
	for (size_t i = 0, j; i < list.count && !err; i = j) {
		for (j = i + 1;
		     j < list.count && compare_problems(&list.items[i], &list.items[j]) == 0; j++)
			;
		err = pkey_finding(fabric, partitions, &list.items[i], j - i, out);
	}
	free(list.items);
	return err;
}

/* ---- SL-to-VL maps against the VLs each port runs ---------------------------------------- */

/* Data VLs a port runs from PortInfo OperVLs (1: VL0 .. 5: VL0-14); 0 when unknown. */
static unsigned data_vls(uint8_t oper_vls)
{
	if (oper_vls >= 1 && oper_vls <= 4)
		return 1u << (oper_vls - 1);
	return oper_vls == 5 ? 15 : 0;
}

/* "port 3: SL 2 to VL15, SL 9 to VL4 (runs VL0-3)" of one map into out; how many SLs. */
static unsigned bad_sls(const struct rk_fabric *fabric, const struct rk_audit_port *entry,
			uint16_t sls_in_use, char *out, size_t size)
{
	unsigned vls = data_vls(fabric->nodes[entry->node].ports[entry->port].oper_vls), count = 0;
	size_t used = 0;

	out[0] = '\0';
	for (int sl = 0; sl < 16 && vls; sl++) {
		unsigned vl = entry->vl_of_sl[sl];

		if (!(sls_in_use & (1u << sl)) || (vl != 15 && vl < vls))
			continue;
		if (used < size)
			used += (size_t)snprintf(out + used, size - used, "%s SL %d to VL%u",
						 count ? "," : "", sl, vl);
		count++;
	}
	if (count && used < size)
		snprintf(out + used, size - used, " (it runs VL0-%u)", vls - 1);
	return count;
}

/* One finding for the node of reads->ports[first..]: every map of it with an SL off its VLs;
 * *next: the entry after the node's. */
static int check_node_maps(const struct rk_fabric *fabric, const struct rk_audit_reads *reads,
			   uint16_t sls_in_use, size_t first, size_t *next, struct rk_findings *out)
{
	int n = reads->ports[first].node;
	char text[256] = "";
	size_t used = 0, i;
	unsigned ports = 0, sls = 0;

	for (i = first; i < reads->nports && reads->ports[i].node == n; i++) {
		char one[160];
		unsigned count;

		if (reads->ports[i].sl2vl_status != 0)
			continue;
		count = bad_sls(fabric, &reads->ports[i], sls_in_use, one, sizeof(one));
		if (!count)
			continue;
		if (used < sizeof(text))
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%sport %d:%s",
						 ports ? "; " : "", reads->ports[i].port, one);
		ports++;
		sls += count;
	}
	*next = i;
	if (!ports)
		return 0;
	if (rk_findings_add(out, RK_SEVERITY_WARNING, "SL_TO_VL_INVALID", fabric->nodes[n].name,
			    "packets on these SLs are dropped at these ports: check the SM's QoS "
			    "settings (qos_*_sl2vl) and let it sweep again",
			    "%u SL%s mapped to VL15 or past the VLs the port runs, on %u port%s of "
			    "node 0x%016llx: %s",
			    sls, sls == 1 ? "" : "s", ports, ports == 1 ? "" : "s",
			    (unsigned long long)fabric->nodes[n].guid, text))
		return -ENOMEM;
	rk_findings_locate(out, fabric->nodes[n].guid, 0);
	return 0;
}

int rk_audit_tables(const struct rk_fabric *fabric, const struct rk_audit_reads *reads,
		    const struct rk_audit_context *context, struct rk_findings *findings)
{
	int err = 0;

	for (size_t t = 0; t < reads->ntwins && !err; t++)
		if (reads->twins[t].status == 0)
			err = check_twin(fabric, &reads->twins[t], findings);
	if (!err && context->partitions)
		err = check_partitions(fabric, reads, context->partitions, context->sm_port_guid,
				       findings);
	for (size_t i = 0; i < reads->nports && !err;)
		err = check_node_maps(fabric, reads, context->sls_in_use, i, &i, findings);
	return err;
}
