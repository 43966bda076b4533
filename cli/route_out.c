/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The routes of a fabric through the one writer (print.h). */
#include "route_out.h"

#include "facts_out.h"
#include "host_out.h"

#include <errno.h>
#include <stddef.h>

#define SUMMARY(name, fmt, type)                                                                   \
	{                                                                                          \
#name, fmt, type, offsetof(struct rk_route_summary, name)                          \
	}

/* The summary of a check, in route check --json's order. */
static const struct print_member summary_members[] = {
    SUMMARY(switches, "Routes: %llu switches", PRINT_SIZE),
    SUMMARY(tables_read, " (%llu tables read)", PRINT_SIZE),
    SUMMARY(destinations, ", %llu destination LIDs", PRINT_SIZE),
    SUMMARY(routes, ", %llu routes followed\n", PRINT_SIZE),
    SUMMARY(reached, "  reached %llu", PRINT_SIZE),
    SUMMARY(holes, ", holes %llu", PRINT_SIZE),
    SUMMARY(loops, ", loops %llu", PRINT_SIZE),
    SUMMARY(dead_ends, ", dead ends %llu", PRINT_SIZE),
    SUMMARY(degraded, ", through degraded links %llu", PRINT_SIZE),
    SUMMARY(longer, ", longer than needed %llu", PRINT_SIZE),
    SUMMARY(unknown, ", not checked %llu\n", PRINT_SIZE),
    SUMMARY(max_hops, "  max hops %llu", PRINT_U32),
    SUMMARY(unbalanced_switches, "; %llu switches unbalanced", PRINT_SIZE),
    SUMMARY(worst_cv, ", worst up-link spread CV %.2f", PRINT_DOUBLE),
};

/* A node's GUID, name and LID (its facts' keys). */
static void print_node(struct printer *p, const struct rk_fabric_node *node, const char *fmt)
{
	static const struct fact_field name_field = {RK_FACT_NODE_NAME, NULL, STYLE_PLAIN};
	static const struct fact_field lid_field = {RK_FACT_NODE_LID, NULL, STYLE_PLAIN};
	struct rk_fact_subject subject = {.node = node};

	print_guid(p, PRINT_JSON, "guid", NULL, node->guid);
	print_fact(p, &name_field, &subject);
	print_fact(p, &lid_field, &subject);
	print_string(p, PRINT_TEXT, NULL, fmt, node->name);
}

static void print_summary(struct printer *p, const struct rk_fabric *fabric,
			  const struct rk_routes *routes, const struct rk_route_check *check,
			  double check_seconds)
{
	const struct rk_route_summary *s = &check->summary;

	print_open_object(p, "summary");
	print_members(p, summary_members, sizeof(summary_members) / sizeof(summary_members[0]), s);
	print_string(p, PRINT_TEXT, NULL, " (%s)",
		     s->worst_node >= 0 ? fabric->nodes[s->worst_node].name : "none");
	print_double(p, PRINT_ANY, "read_seconds", "\n  tables read in %.3f s", routes->seconds);
	print_uint(p, PRINT_ANY, "smps", " (%llu SMPs", routes->stats.sent);
	print_uint(p, PRINT_ANY, "smp_failures", ", %llu failed)",
		   routes->stats.timeouts + routes->stats.errors);
	print_double(p, PRINT_ANY, "check_seconds", ", routes checked in %.3f s\n", check_seconds);
	print_close(p);
}

static void print_balance(struct printer *p, const struct rk_fabric *fabric,
			  const struct rk_route_check *check, size_t shown)
{
	print_open_array(p, "balance");
	if (check->nbalance && shown)
		print_text(p, "Up-link balance (CA LIDs per up-link), worst first:\n");
	for (size_t i = 0; i < check->nbalance && i < shown; i++) {
		const struct rk_route_balance *b = &check->balance[i];

		print_open_object(p, NULL);
		print_node(p, &fabric->nodes[b->node], "  %-24s");
		print_int(p, PRINT_ANY, "rank", " rank %lld", b->rank);
		print_uint(p, PRINT_ANY, "uplinks", ", %llu up-links", b->uplinks);
		print_uint(p, PRINT_ANY, "min", ": %llu", b->min);
		print_uint(p, PRINT_ANY, "max", "..%llu", b->max);
		print_double(p, PRINT_ANY, "cv", ", CV %.2f", b->cv);
		print_bool(p, PRINT_JSON, "unbalanced", NULL, b->unbalanced);
		print_text(p, "%s", b->unbalanced ? "  UNBALANCED" : "");
		print_text(p, "\n");
		print_close(p);
	}
	print_close(p);
}

void print_route_check(struct printer *p, const struct rk_fabric *fabric,
		       const struct rk_routes *routes, const struct rk_route_check *check,
		       const struct rk_findings *findings, double check_seconds, size_t shown)
{
	print_open_object(p, NULL);
	print_summary(p, fabric, routes, check, check_seconds);
	print_balance(p, fabric, check, shown);
	print_findings_array(p, findings);
	print_findings_summary(p, findings);
	print_close(p);
}

/* The state, width and speed of the port a hop leaves by (its facts). */
static void print_out_port(struct printer *p, const struct rk_fabric *fabric,
			   const struct rk_route_hop *hop)
{
	static const struct fact_field port_fields[] = {
	    {RK_FACT_FABRIC_PORT_STATE, " %s", STYLE_PORT_STATE},
	    {RK_FACT_FABRIC_PORT_WIDTH, " %s", STYLE_LANES},
	    {RK_FACT_FABRIC_PORT_SPEED, " %s", STYLE_SPEED},
	};
	const struct rk_fabric_node *node = &fabric->nodes[hop->node];
	struct rk_fabric_port_ref ref = {.fabric = fabric, .node = (size_t)hop->node};

	print_int(p, PRINT_ANY, "out_port", " out [%lld]", hop->out_port);
	if (hop->out_port < 1 || hop->out_port > node->nports ||
	    !node->ports[hop->out_port].present)
		return;
	ref.port = &node->ports[hop->out_port];
	print_facts(p, FIELDS(port_fields), &(struct rk_fact_subject){.fabric_port = &ref});
	bool degraded = hop->link >= 0 && rk_link_degraded(&fabric->links[hop->link]);

	print_bool(p, PRINT_JSON, "link_degraded", NULL, degraded);
	print_text(p, "%s", degraded ? " (degraded link)" : "");
}

static void print_hop(struct printer *p, const struct rk_fabric *fabric,
		      const struct rk_route_hop *hop, bool last)
{
	print_open_object(p, NULL);
	print_string(p, PRINT_TEXT, NULL, "  %-8s",
		     rk_node_type_name(fabric->nodes[hop->node].type));
	print_node(p, &fabric->nodes[hop->node], " %-24s");
	if (last && hop->out_port == 0)
		print_int(p, PRINT_ANY, "out_port", " (destination)", 0);
	else if (hop->out_port == RK_ROUTE_NO_PORT)
		print_int(p, PRINT_ANY, "out_port", " no out port (255)", hop->out_port);
	else if (hop->out_port < 0)
		print_null(p, PRINT_ANY, "out_port", " out %s (table not read)");
	else
		print_out_port(p, fabric, hop);
	print_text(p, "\n");
	print_close(p);
}

void print_route_trace(struct printer *p, const struct rk_fabric *fabric,
		       const struct rk_route_path *path, uint16_t lid)
{
	print_open_object(p, NULL);
	print_uint(p, PRINT_ANY, "destination_lid", "Route to LID %llu", lid);
	print_string(p, PRINT_ANY, "end", ": %s", rk_route_end_name(path->end));
	print_uint(p, PRINT_ANY, "hop_count", " after %llu hops\n",
		   path->nhops ? path->nhops - 1 : 0);
	print_open_array(p, "hops");
	for (size_t i = 0; i < path->nhops; i++)
		print_hop(p, fabric, &path->hops[i], i + 1 == path->nhops);
	print_close(p);
	print_close(p);
}

/* What an entry leads to: the destination's type and name, as ibroute shows it. */
static void print_entry(struct printer *p, const struct rk_fabric *fabric, uint16_t lid, int out)
{
	int owner = rk_route_lid_owner(fabric, lid, NULL);

	print_open_object(p, NULL);
	print_uint(p, PRINT_ANY, "dest_lid", "  0x%04llx", lid);
	print_int(p, PRINT_ANY, "out_port", " %03lld", out);
	print_string(p, PRINT_TEXT, NULL, " : (%s",
		     owner >= 0 ? rk_node_type_name(fabric->nodes[owner].type) : "unknown");
	print_string_or_null(p, PRINT_ANY, "destination", " '%s')\n",
			     owner >= 0 ? fabric->nodes[owner].name : "");
	print_close(p);
}

static void print_table(struct printer *p, const struct rk_fabric *fabric,
			const struct rk_route_table *table)
{
	size_t valid = 0;

	print_open_object(p, NULL);
	const struct rk_fabric_node *node = &fabric->nodes[table->node];
	char guid[24];

	rk_format_guid(node->guid, guid, sizeof(guid));
	print_uint(p, PRINT_ANY, "top", "Unicast lids [0x0-0x%llx] of switch", table->top);
	print_text(p, " lid %u guid %s", node->ports[0].lid, guid);
	print_node(p, node, " '%s':\n");
	if (table->status) {
		print_string(p, PRINT_ANY, "error", "  not read: %s\n",
			     table->status == -ERANGE	? "LinearFDBTop past the unicast range"
			     : table->status == -ENOENT ? "no path to it"
							: "no answer");
		print_close(p);
		return;
	}
	print_text(p, "  Lid    Out   Destination\n");
	print_open_array(p, "entries");
	for (unsigned lid = 1; lid <= table->top; lid++)
		if (table->ports[lid] != RK_ROUTE_NO_PORT) {
			print_entry(p, fabric, (uint16_t)lid, table->ports[lid]);
			valid++;
		}
	print_close(p);
	print_uint(p, PRINT_TEXT, NULL, "%llu valid lids dumped\n\n", valid);
	print_close(p);
}

void print_route_dump(struct printer *p, const struct rk_fabric *fabric,
		      const struct rk_routes *routes, int node)
{
	print_open_object(p, NULL);
	print_open_array(p, "switches");
	for (size_t i = 0; i < routes->count; i++)
		if (node < 0 || routes->tables[i].node == node)
			print_table(p, fabric, &routes->tables[i]);
	print_close(p);
	print_close(p);
}
