/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "verbs_out.h"

#include <string.h>

static void print_gid(struct printer *p, const struct rk_verbs_gid *gid)
{
	print_open_object(p, NULL);
	print_uint(p, PRINT_ANY, "index", "\t\t  %-5llu", gid->index);
	print_string(p, PRINT_ANY, "gid", " %-39s", gid->gid);
	print_string(p, PRINT_ANY, "type", "  %-7s", rk_gid_type_name(gid->type));
	print_string_or_null(p, PRINT_ANY, "netdev", "  %s\n", gid->netdev);
	print_close(p);
}

void print_verbs_port(struct printer *p, const struct rk_verbs_port *port)
{
	char hex[8];

	print_uint(p, PRINT_ANY, "active_mtu_bytes", "\t\tActive MTU:      %llu\n",
		   port->active_mtu);
	print_uint(p, PRINT_ANY, "max_mtu_bytes", "\t\tMax MTU:         %llu\n", port->max_mtu);
	print_open_array(p, "gids");
	if (port->ngids > 0)
		print_text(p, "\t\t  %-5s %-39s  %-7s  %s\n", "GID", "address", "type", "netdev");
	for (size_t i = 0; i < port->ngids; i++)
		print_gid(p, &port->gids[i]);
	print_close(p);
	print_open_array(p, "pkeys");
	print_text(p, "\t\tP_Keys:         ");
	for (size_t i = 0; i < port->npkeys; i++) {
		snprintf(hex, sizeof(hex), "0x%04x", port->pkeys[i]);
		print_string(p, PRINT_ANY, NULL, " %s", hex);
	}
	print_text(p, "\n");
	print_close(p);
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
	print_string(p, PRINT_ANY, "wc_status", r->wc_status >= 0 ? ", completion %s" : NULL,
		     r->wc_status >= 0 ? r->wc_status_text : NULL);
	print_string(p, PRINT_ANY, "hint", "\n  check: %s\n", r->hint);
	print_close(p);
}

static void print_steps(struct printer *p, const struct rk_probe_result *r)
{
	int last = r->passed ? RK_PROBE_STEPS : r->failed_step;

	print_open_array(p, "steps");
	for (int s = 0; s < last; s++) {
		print_open_object(p, NULL);
		print_string(p, PRINT_ANY, "step", "  %-6s", rk_probe_step_name(s));
		print_double(p, PRINT_ANY, "seconds", " %12.6f s\n", r->seconds[s]);
		print_close(p);
	}
	print_close(p);
}

void print_probe(struct printer *p, const struct rk_probe_result *r)
{
	print_open_object(p, NULL);
	print_int(p, PRINT_JSON, "schema_version", NULL, 1);
	print_string(p, PRINT_ANY, "device", "probe %s", r->device);
	print_uint(p, PRINT_ANY, "port", ":%llu", r->port);
	print_string(p, PRINT_ANY, "link_layer", " (%s", r->link_layer);
	print_number_or_null(p, PRINT_ANY, "gid_index", ", GID %.0f", r->gid_index);
	print_string(p, PRINT_ANY, "gid_type", " %s",
		     r->link_layer[0] ? rk_gid_type_name(r->gid_type) : NULL);
	print_uint(p, PRINT_ANY, "mtu_bytes", ", MTU %llu", r->mtu);
	print_uint(p, PRINT_ANY, "size_bytes", ", %llu bytes)", r->size);
	print_string(p, PRINT_ANY, "result", ": %s\n", r->passed ? "pass" : "fail");
	print_steps(p, r);
	print_double_or_null(p, PRINT_ANY, "rtt_seconds",
			     r->passed ? "  send/receive round trip %.6f s\n" : NULL,
			     r->passed ? r->rtt_seconds : -1);
	print_failure(p, r);
	print_close(p);
}
