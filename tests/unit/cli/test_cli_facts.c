/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The CLI's JSON names and values against the core's table of facts: every key of a port or
 * device of `status --json`, and of an SM of `sm --json`, is a fact's cli_name (or an index or
 * counter list) and shows what the fact's reader reads; the fabric facts the CLI prints
 * (fabric --json, sweep --json) have the table's names and values, and so have the members of
 * a fabric node and port (a number fact shown by its name: a node's type, a port's state). */
#include "fabric_out.h"
#include "fixture_util.h"
#include "host_out.h"
#include "rdmakit/facts.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The documents the CLI's writers build for status --json, fabric --json and sm --json. */
static json_object *json_status(const struct rk_host *host, const struct port_filter *filter)
{
	struct printer p;

	print_start(&p, stdout, PRINT_FORMAT_JSON);
	print_status(&p, host, filter, false, false);
	return print_take_document(&p);
}

static json_object *json_fabric(const struct rk_fabric *fabric, enum link_selection links)
{
	struct printer p;

	print_start(&p, stdout, PRINT_FORMAT_JSON);
	print_fabric(&p, fabric, links);
	return print_take_document(&p);
}

static json_object *json_sm(const struct rk_sm_status *sm)
{
	struct printer p;

	print_start(&p, stdout, PRINT_FORMAT_JSON);
	print_open_object(&p, NULL);
	print_sm(&p, sm);
	print_close(&p);
	return print_take_document(&p);
}

/* What sweep --json writes on out, as it goes. */
static void print_json_sweep(FILE *out, const struct rk_fabric *fabric,
			     const struct rk_sweep *sweep, bool errors_only)
{
	struct printer p;

	print_start(&p, out, PRINT_FORMAT_JSON_STREAM);
	print_sweep(&p, fabric, sweep, errors_only ? SWEEP_ERRORS : SWEEP_ALL);
	print_end(&p);
}

/* Keys that are not facts: the object's index, and its counters (the catalog's). */
static const char *const not_facts[] = {"name",	     "port",	    "counters", "hw_counters",
					"saturated", "unavailable", "ports",	"pci"};

static bool is_fact_key(enum rk_fact_scope scope, const char *prefix, const char *key)
{
	size_t count, plen = strlen(prefix);
	const struct rk_fact *facts = rk_facts_all(&count);

	for (size_t i = 0; i < count; i++)
		if (facts[i].scope == scope && facts[i].cli_name &&
		    strncmp(facts[i].cli_name, prefix, plen) == 0 &&
		    strcmp(facts[i].cli_name + plen, key) == 0)
			return true;
	return false;
}

static bool index_or_counters(const char *key)
{
	for (size_t i = 0; i < sizeof(not_facts) / sizeof(not_facts[0]); i++)
		if (strcmp(key, not_facts[i]) == 0)
			return true;
	return false;
}

/* Every member of obj is a fact of scope (its cli_name is prefix + key), or not a fact. */
static void check_keys(json_object *obj, enum rk_fact_scope scope, const char *prefix)
{
	json_object_object_foreach(obj, key, value)
	{
		(void)value;
		if (!is_fact_key(scope, prefix, key) &&
		    !(prefix[0] == '\0' && index_or_counters(key)))
			fail_msg("%s%s: not in the table of facts", prefix, key);
	}
}

/* The member a cli_name names: "pci.numa_node" is numa_node of pci; *present when it exists. */
static json_object *member(json_object *obj, const char *cli_name, bool *present)
{
	const char *dot = strchr(cli_name, '.');
	json_object *value = NULL;
	char head[32];

	if (!dot) {
		*present = json_object_object_get_ex(obj, cli_name, &value);
		return value;
	}
	snprintf(head, sizeof(head), "%.*s", (int)(dot - cli_name), cli_name);
	*present = json_object_object_get_ex(obj, head, &value);
	if (!value) /* "pci": null for a virtual device: its members are unknown */
		return NULL;
	return member(value, dot + 1, present);
}

/* How the CLI writes a number that it shows as text: "4X" lanes, hexadecimal ids and masks. */
static double number_of_text(const char *text)
{
	char *end;
	double lanes = strtod(text, &end);

	if (strcmp(end, "X") == 0)
		return lanes;
	return (double)strtoull(text, NULL, 16);
}

static void check_number(const char *name, json_object *shown, double value)
{
	if (value < 0) {
		if (shown)
			fail_msg("%s: CLI %s, core unknown", name, json_object_get_string(shown));
		return;
	}
	if (!shown)
		fail_msg("%s: not shown, core %g", name, value);
	switch (json_object_get_type(shown)) {
	case json_type_boolean:
		assert_int_equal(json_object_get_boolean(shown), value != 0);
		break;
	case json_type_string:
		if (number_of_text(json_object_get_string(shown)) != value)
			fail_msg("%s: CLI %s, core %g", name, json_object_get_string(shown), value);
		break;
	default:
		if (json_object_get_double(shown) != value)
			fail_msg("%s: CLI %g, core %g", name, json_object_get_double(shown), value);
	}
}

static void check_text(const char *name, json_object *shown, const char *text)
{
	if (!text[0]) { /* unknown: null, or an empty string (an SM's name) */
		if (shown && json_object_get_string_len(shown) != 0)
			fail_msg("%s: CLI %s, core unknown", name, json_object_get_string(shown));
		return;
	}
	if (!shown || strcmp(json_object_get_string(shown), text) != 0)
		fail_msg("%s: CLI %s, core \"%s\"", name,
			 shown ? json_object_get_string(shown) : "null", text);
}

/* What a fact is about: a device, a port of it, or an SM. */
struct item {
	const struct rk_device *dev;
	const struct rk_port *port;
	const struct rk_sm *sm;
};

static double fact_number(const struct rk_fact *f, const struct item *item)
{
	if (f->scope == RK_SCOPE_SM_ENTRY)
		return f->sm_number(item->sm);
	return f->scope == RK_SCOPE_PORT ? f->port_number(item->port) : f->device_number(item->dev);
}

static const char *fact_text(const struct rk_fact *f, const struct item *item, char *buf)
{
	if (f->scope == RK_SCOPE_SM_ENTRY)
		return f->sm_text(item->sm, buf);
	return f->scope == RK_SCOPE_PORT ? f->port_text(item->port) : f->device_text(item->dev);
}

/* Every fact of scope with a cli_name is shown as its reader reads it: an unknown one as null,
 * or left out. */
static void check_facts(json_object *obj, enum rk_fact_scope scope, const struct item *item)
{
	size_t count;
	const struct rk_fact *facts = rk_facts_all(&count);

	check_keys(obj, scope, "");
	for (size_t i = 0; i < count; i++) {
		const struct rk_fact *f = &facts[i];
		char buf[RK_FACT_TEXT_MAX];
		bool present;
		json_object *shown;

		if (f->scope != scope || !f->cli_name)
			continue;
		shown = member(obj, f->cli_name, &present);
		if (f->kind == RK_KIND_TEXT)
			check_text(f->cli_name, shown, fact_text(f, item, buf));
		else
			check_number(f->cli_name, shown, fact_number(f, item));
	}
}

static void check_fixture(const char *name)
{
	struct rk_host *host = NULL;
	struct port_filter all = {0};
	json_object *doc, *devices;

	assert_int_equal(rk_host_open(fixture_path(name), &host), 0);
	assert_int_equal(rk_host_refresh(host), 0);
	doc = json_status(host, &all);
	devices = json_object_object_get(doc, "devices");
	assert_int_equal(json_object_array_length(devices), host->ndevices);
	for (size_t d = 0; d < host->ndevices; d++) {
		json_object *dev = json_object_array_get_idx(devices, d);
		json_object *ports = json_object_object_get(dev, "ports");

		json_object *pci = json_object_object_get(dev, "pci");

		struct item device = {.dev = &host->devices[d]};

		check_facts(dev, RK_SCOPE_DEVICE, &device);
		if (pci)
			check_keys(pci, RK_SCOPE_DEVICE, "pci.");
		assert_int_equal(json_object_array_length(ports), host->devices[d].nports);
		for (unsigned p = 0; p < host->devices[d].nports; p++) {
			struct item port = {.dev = &host->devices[d],
					    .port = &host->devices[d].ports[p]};

			check_facts(json_object_array_get_idx(ports, p), RK_SCOPE_PORT, &port);
		}
	}
	json_object_put(doc);
	rk_host_close(host);
}

static void status_json_shows_the_port_and_device_facts(void **state)
{
	static const char *const fixtures[] = {"ib-hdr",      "roce",	"rxe",
					       "port-states", "no-pma", "pcie-slow",
					       "pcie-x8",     "messy",	"degraded-rate"};

	(void)state;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
		check_fixture(fixtures[i]);
}

/* A switch (ports 1, 2) and a CA (port 1), linked once. */
static void two_nodes(struct rk_fabric *fabric, struct rk_fabric_node nodes[2],
		      struct rk_fabric_port ports[5], struct rk_fabric_link *link)
{
	memset(ports, 0, 5 * sizeof(*ports));
	for (int i = 0; i < 5; i++)
		ports[i] = (struct rk_fabric_port){
		    .num = i < 3 ? i : i - 3, .present = true, .state = 4, .remote_node = -1};
	nodes[0] = (struct rk_fabric_node){
	    .guid = 0x10, .type = RK_NODE_SWITCH, .name = "leaf1", .nports = 2, .ports = ports};
	nodes[1] = (struct rk_fabric_node){
	    .guid = 0x20, .type = RK_NODE_CA, .name = "host1", .nports = 1, .ports = ports + 3};
	*link = (struct rk_fabric_link){
	    .node_a = 0, .port_a = 1, .node_b = 1, .port_b = 1, .width = 4, .speed = RK_SPEED_EDR};
	*fabric = (struct rk_fabric){
	    .nodes = nodes, .nnodes = 2, .links = link, .nlinks = 1, .discovery_seconds = 0.125};
}

static json_object *sweep_json(const struct rk_fabric *fabric, const struct rk_sweep *sweep)
{
	FILE *out = tmpfile();
	char text[4096];
	size_t len;

	assert_non_null(out);
	print_json_sweep(out, fabric, sweep, false);
	rewind(out);
	len = fread(text, 1, sizeof(text) - 1, out);
	text[len] = '\0';
	fclose(out);
	return json_tokener_parse(text);
}

static void fabric_and_sweep_json_show_the_fabric_facts(void **state)
{
	struct rk_fabric fabric;
	struct rk_fabric_node nodes[2];
	struct rk_fabric_port ports[5];
	struct rk_fabric_link link;
	struct rk_sweep_port swept[3] = {
	    {.node_guid = 0x10, .node = 0, .port = 1, .lid = 1, .sampled = true},
	    {.node_guid = 0x10, .node = 0, .port = 2, .lid = 1, .sampled = true},
	    {.node_guid = 0x20, .node = 1, .port = 1, .lid = 2, .status = -110},
	};
	struct rk_sweep sweep = {.ports = swept, .count = 3, .answered = 2, .failed = 1};
	double values[RK_FACT_COUNT];
	json_object *docs[2];
	size_t count, shown = 0;
	const struct rk_fact *facts = rk_facts_all(&count);

	(void)state;
	two_nodes(&fabric, nodes, ports, &link);
	rk_fabric_fact_values(&fabric, &sweep, 0.5, values);
	docs[0] = json_fabric(&fabric, LINKS_ALL);
	docs[1] = sweep_json(&fabric, &sweep);
	assert_non_null(docs[1]);
	for (size_t i = 0; i < count; i++) {
		json_object *value = NULL;

		if (facts[i].scope != RK_SCOPE_FABRIC || !facts[i].cli_name)
			continue;
		if (!json_object_object_get_ex(docs[0], facts[i].cli_name, &value))
			json_object_object_get_ex(docs[1], facts[i].cli_name, &value);
		if (!value)
			fail_msg("%s: not in fabric --json nor sweep --json", facts[i].cli_name);
		assert_true(json_object_get_double(value) == values[facts[i].id]);
		shown++;
	}
	assert_int_equal(shown, 2); /* discovery_seconds and ports_swept */
	json_object_put(docs[0]);
	json_object_put(docs[1]);
}

/* Keys of a fabric node's or port's object that are not facts: indexes, and what the topology's
 * MIB tables have no column for. */
static const char *const not_topology_facts[] = {"guid", "device_id", "ports",
						 "port", "lid",	      "remote"};

static bool is_topology_fact_key(enum rk_fact_scope scope, const char *prefix, const char *key)
{
	size_t count, plen = strlen(prefix);
	const struct rk_fact *facts = rk_facts_topology(&count);

	for (size_t i = 0; i < count; i++)
		if (facts[i].scope == scope && facts[i].cli_name &&
		    strncmp(facts[i].cli_name, prefix, plen) == 0 &&
		    strcmp(facts[i].cli_name + plen, key) == 0)
			return true;
	return false;
}

static void check_topology_keys(json_object *obj, enum rk_fact_scope scope, const char *prefix)
{
	json_object_object_foreach(obj, key, value)
	{
		bool listed = false;

		(void)value;
		for (size_t i = 0; i < sizeof(not_topology_facts) / sizeof(not_topology_facts[0]);
		     i++)
			listed = listed || strcmp(key, not_topology_facts[i]) == 0;
		if (!is_topology_fact_key(scope, prefix, key) && !(prefix[0] == '\0' && listed))
			fail_msg("%s%s: not in the table of facts", prefix, key);
	}
}

/* The hex digits of a GUID however it is written ("0x0002c9..." or "0002:c903:..."). */
static void guid_digits(const char *text, char *digits, size_t size)
{
	size_t n = 0;

	if (strncmp(text, "0x", 2) == 0)
		text += 2;
	for (; *text && n + 1 < size; text++)
		if (*text != ':')
			digits[n++] = *text;
	digits[n] = '\0';
}

/* The name the CLI shows a number fact by (a node's type, a port's states and speed), or NULL
 * for a number shown as it is. */
static const char *name_of_number(enum rk_fact_id id, double value)
{
	switch (id) {
	case RK_FACT_NODE_TYPE:
		return rk_node_type_name((enum rk_node_type)value);
	case RK_FACT_FABRIC_PORT_STATE:
		return rk_port_state_name((int)value);
	case RK_FACT_FABRIC_PORT_PHYS_STATE:
		return rk_phys_state_name((int)value);
	case RK_FACT_FABRIC_PORT_SPEED:
		return value == RK_SPEED_NONE ? NULL : rk_speed_name((enum rk_speed)value);
	default:
		return NULL;
	}
}

static void check_topology_number(const struct rk_fact *f, json_object *shown, double value)
{
	const char *name = name_of_number(f->id, value);

	if (!name && !rk_fact_served(f, RK_FRONT_CLI))
		return;
	if ((f->id == RK_FACT_FABRIC_PORT_SPEED && value == RK_SPEED_NONE) ||
	    (f->id == RK_FACT_FABRIC_PORT_WIDTH && value == 0)) /* a port that is down */
		assert_null(shown);
	else if (name)
		check_text(f->cli_name, shown, name);
	else
		check_number(f->cli_name, shown, value);
}

/* Every fact of a fabric node or port with a cli_name is shown as its reader reads it. */
static void check_topology_facts(json_object *obj, enum rk_fact_scope scope,
				 const struct rk_fact_subject *subject)
{
	size_t count;
	const struct rk_fact *facts = rk_facts_topology(&count);

	check_topology_keys(obj, scope, "");
	for (size_t i = 0; i < count; i++) {
		const struct rk_fact *f = &facts[i];
		char buf[RK_FACT_TEXT_MAX], shown_digits[40], fact_digits[40];
		bool present;
		json_object *shown;

		if (f->scope != scope || !f->cli_name)
			continue;
		shown = member(obj, f->cli_name, &present);
		if (f->kind != RK_KIND_TEXT) {
			check_topology_number(f, shown, rk_fact_number(f, subject));
			continue;
		}
		if (f->id != RK_FACT_FABRIC_PORT_PEER_GUID || !shown) {
			check_text(f->cli_name, shown, rk_fact_text(f, subject, buf));
			continue;
		}
		guid_digits(json_object_get_string(shown), shown_digits, sizeof(shown_digits));
		guid_digits(rk_fact_text(f, subject, buf), fact_digits, sizeof(fact_digits));
		assert_string_equal(shown_digits, fact_digits);
	}
}

static void check_fabric_ports(json_object *ports, const struct rk_fabric *fabric, size_t node)
{
	const struct rk_fabric_node *n = &fabric->nodes[node];
	size_t shown = 0;

	for (int i = n->type == RK_NODE_SWITCH ? 1 : 0; i <= n->nports; i++) {
		struct rk_fabric_port_ref ref = {
		    .fabric = fabric, .node = node, .port = &n->ports[i]};
		json_object *port = json_object_array_get_idx(ports, shown++), *remote;

		assert_int_equal(json_object_get_int(json_object_object_get(port, "port")),
				 n->ports[i].num);
		check_topology_facts(port, RK_SCOPE_FABRIC_PORT,
				     &(struct rk_fact_subject){.fabric_port = &ref});
		if (json_object_object_get_ex(port, "remote", &remote))
			check_topology_keys(remote, RK_SCOPE_FABRIC_PORT, "remote.");
		assert_int_equal(json_object_object_get_ex(port, "remote", NULL),
				 n->ports[i].remote_node >= 0);
	}
	assert_int_equal(json_object_array_length(ports), shown);
}

static void fabric_json_shows_the_node_and_port_facts(void **state)
{
	struct rk_fabric fabric;
	struct rk_fabric_node nodes[2];
	struct rk_fabric_port ports[5];
	struct rk_fabric_link link;
	json_object *doc, *array;

	(void)state;
	two_nodes(&fabric, nodes, ports, &link);
	strcpy(nodes[0].description, "MF0;leaf1:SX6036/U1");
	nodes[0].lid = 1;
	nodes[1].lid = 2;
	nodes[1].guid = 0x0002c90300000021;
	ports[1] = (struct rk_fabric_port){.num = 1,
					   .present = true,
					   .state = 4,
					   .phys_state = 5,
					   .active_width = 4,
					   .active_speed = RK_SPEED_EDR,
					   .remote_node = 1,
					   .remote_port = 1};
	ports[2].state = 1; /* down: no width, no speed, no peer */
	ports[2].phys_state = 3;
	ports[4] = ports[1];
	ports[4].remote_node = 0;
	ports[4].active_speed = RK_SPEED_XDR;
	doc = json_fabric(&fabric, LINKS_NONE);
	array = json_object_object_get(doc, "nodes");
	assert_int_equal(json_object_array_length(array), 2);
	for (size_t i = 0; i < 2; i++) {
		json_object *node = json_object_array_get_idx(array, i);

		check_topology_facts(node, RK_SCOPE_FABRIC_NODE,
				     &(struct rk_fact_subject){.node = &nodes[i]});
		check_fabric_ports(json_object_object_get(node, "ports"), &fabric, i);
	}
	json_object_put(doc);
}

static void sm_json_shows_the_sm_entry_facts(void **state)
{
	struct rk_sm sms[3] = {
	    {.lid = 1,
	     .guid = 0x0002c90300000011,
	     .priority = 10,
	     .state = RK_SM_MASTER,
	     .activity_count = 900,
	     .name = "host1 HCA-1"},
	    {.lid = 5, .guid = 0x0002c90300000021, .priority = 5, .state = RK_SM_STANDBY},
	    {.lid = 9, .status = -110}, /* did not answer */
	};
	struct rk_sm_status status = {.sms = sms, .count = 3, .local_lid = 3, .local_sm_lid = 1};
	json_object *doc = json_sm(&status), *array = json_object_object_get(doc, "sms");

	(void)state;
	assert_int_equal(json_object_array_length(array), 3);
	for (size_t i = 0; i < 3; i++) {
		struct item sm = {.sm = &sms[i]};

		check_facts(json_object_array_get_idx(array, i), RK_SCOPE_SM_ENTRY, &sm);
	}
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(status_json_shows_the_port_and_device_facts),
	    cmocka_unit_test(fabric_and_sweep_json_show_the_fabric_facts),
	    cmocka_unit_test(fabric_json_shows_the_node_and_port_facts),
	    cmocka_unit_test(sm_json_shows_the_sm_entry_facts),
	};

	return cmocka_run_group_tests_name("cli_facts", tests, NULL, NULL);
}
