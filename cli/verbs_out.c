/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What verbs knows (MTUs, GIDs, P_Keys, probes), through the one writer. */
#include "verbs_out.h"

#include "facts_out.h"

#include <string.h>

static void print_gid(struct printer *p, const struct rk_verbs_gid *gid)
{
	print_open_object(p, NULL);
	print_uint(p, PRINT_ANY, "index", "\t%-5llu", gid->index);
	print_string(p, PRINT_ANY, "gid", " %-39s", gid->gid);
	print_string(p, PRINT_ANY, "type", "  %-7s", rk_gid_type_name(gid->type));
	print_string_or_null(p, PRINT_ANY, "netdev", "  %s\n", gid->netdev);
	print_close(p);
}

/* The P_Keys, [hex] in JSON after the GID table (the text has them on the port's line). */
static void print_pkeys(struct printer *p, const struct rk_verbs_port *port)
{
	char hex[8];

	print_open_array(p, "pkeys");
	for (size_t i = 0; i < port->npkeys; i++) {
		snprintf(hex, sizeof(hex), "0x%04x", port->pkeys[i]);
		print_string(p, PRINT_JSON, NULL, NULL, hex);
	}
	print_close(p);
}

void print_verbs_port(struct printer *p, const char *device, const struct rk_verbs_port *port)
{
	print_text(p, "%s port %u: ", device, port->num);
	print_uint(p, PRINT_ANY, "active_mtu_bytes", "active MTU %llu", port->active_mtu);
	print_uint(p, PRINT_ANY, "max_mtu_bytes", ", max MTU %llu", port->max_mtu);
	for (size_t i = 0; i < port->npkeys; i++)
		print_text(p, "%s0x%04x", i == 0 ? ", P_Keys " : " ", port->pkeys[i]);
	print_text(p, "\n");
	print_open_array(p, "gids");
	if (port->ngids > 0)
		print_text(p, "\t%-5s %-39s  %-7s  %s\n", "GID", "address", "type", "netdev");
	for (size_t i = 0; i < port->ngids; i++)
		print_gid(p, &port->gids[i]);
	print_close(p);
	print_pkeys(p, port);
}

static void print_failure(struct printer *p, const struct rk_probe_result *r)
{
	if (r->passed) {
		print_null(p, PRINT_JSON, "failure", NULL);
		return;
	}
	print_open_object(p, "failure");
	print_string(p, PRINT_ANY, "step", "  failed at %s", rk_probe_step_name(r->failed_step));
	print_string(p, PRINT_ANY, "message", ": %s", r->message);
	print_int(p, PRINT_JSON, "errno", NULL, r->error);
	print_string(p, PRINT_ANY, "error", r->error ? " (%s)" : NULL,
		     r->error ? strerror(r->error) : NULL);
	print_string(p, PRINT_JSON, "wc_status", NULL,
		     r->wc_status >= 0 ? r->wc_status_text : NULL);
	print_string(p, PRINT_ANY, "hint", "\n  check: %s\n", r->hint);
	print_close(p);
}

/* The steps that ran, each with its time: seconds in JSON, milliseconds in text. */
static void print_steps(struct printer *p, const struct rk_probe_result *r)
{
	int last = r->passed ? RK_PROBE_STEPS : r->failed_step;

	print_open_array(p, "steps");
	for (int s = 0; s < last; s++) {
		print_open_object(p, NULL);
		print_string(p, PRINT_ANY, "step", "  %-6s", rk_probe_step_name(s));
		print_double(p, PRINT_JSON, "seconds", NULL, r->seconds[s]);
		print_text(p, " %10.3f ms\n", r->seconds[s] * 1e3);
		print_close(p);
	}
	print_close(p);
}

void print_probe(struct printer *p, const struct rk_probe_result *r)
{
	bool gid = r->gid_index >= 0;

	print_open_object(p, NULL);
	print_int(p, PRINT_JSON, "schema_version", NULL, 1);
	print_string(p, PRINT_ANY, "device", "probe %s", r->device);
	print_uint(p, PRINT_ANY, "port", ":%llu", r->port);
	print_string(p, PRINT_JSON, fact_key(RK_FACT_PORT_LINK_LAYER), NULL, r->link_layer);
	print_text(p, " (%s", r->link_layer[0] ? r->link_layer : "?");
	print_number_or_null(p, PRINT_ANY, "gid_index", gid ? ", GID %.0f" : NULL, r->gid_index);
	print_string(p, PRINT_ANY, "gid_type", gid ? " %s" : NULL,
		     r->link_layer[0] ? rk_gid_type_name(r->gid_type) : NULL);
	print_uint(p, PRINT_ANY, "mtu_bytes", ", MTU %llu", r->mtu);
	print_uint(p, PRINT_ANY, "size_bytes", ", %llu bytes)", r->size);
	print_string(p, PRINT_JSON, "result", NULL, r->passed ? "pass" : "fail");
	print_text(p, ": %s\n", r->passed ? "PASS" : "FAIL");
	print_steps(p, r);
	print_double_or_null(p, PRINT_JSON, "rtt_seconds", NULL, r->passed ? r->rtt_seconds : -1);
	if (r->passed)
		print_text(p, "  send/receive round trip %.3f ms\n", r->rtt_seconds * 1e3);
	print_failure(p, r);
	print_close(p);
}
