/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the table of facts (names, columns, units, help, readers on a fixture host),
 * the rx/tx pairs, and the one-function summaries: a swept counter's value, the fabric summary
 * and the SM summary, on small hand-built sweeps, fabrics and SM statuses. */
#include "fixture_util.h"
#include "rdmakit/facts.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static void every_fact_sits_at_its_id(void **state)
{
	size_t count;
	const struct rk_fact *facts = rk_facts_all(&count);

	(void)state;
	assert_int_equal(count, RK_FACT_COUNT);
	for (size_t i = 0; i < count; i++) {
		assert_int_equal(facts[i].id, i);
		assert_ptr_equal(rk_fact(facts[i].id), &facts[i]);
	}
}

/* The first column a scope's facts may use: tables keep the first ones for their indexes. */
static unsigned first_column(enum rk_fact_scope scope)
{
	return scope == RK_SCOPE_FABRIC || scope == RK_SCOPE_SM ? 1 : RK_COLUMN_FIRST;
}

static void names_and_columns_are_unique_in_a_scope(void **state)
{
	size_t count;
	const struct rk_fact *facts = rk_facts_all(&count);

	(void)state;
	for (size_t i = 0; i < count; i++) {
		assert_true(facts[i].column >= first_column(facts[i].scope));
		for (size_t j = 0; j < i; j++) {
			if (facts[j].scope != facts[i].scope)
				continue;
			assert_int_not_equal(facts[j].column, facts[i].column);
			assert_string_not_equal(facts[j].name, facts[i].name);
			if (facts[i].cli_name && facts[j].cli_name)
				assert_string_not_equal(facts[j].cli_name, facts[i].cli_name);
		}
	}
}

/* Facts of a table (port, device, SM entry) have one reader, of their kind; scalars none. */
static void check_readers(const struct rk_fact *f)
{
	bool text = f->kind == RK_KIND_TEXT;
	int readers = (f->port_number != NULL) + (f->port_text != NULL) +
		      (f->device_number != NULL) + (f->device_text != NULL) +
		      (f->sm_number != NULL) + (f->sm_text != NULL);

	switch (f->scope) {
	case RK_SCOPE_PORT:
		assert_true(text ? f->port_text != NULL : f->port_number != NULL);
		break;
	case RK_SCOPE_DEVICE:
		assert_true(text ? f->device_text != NULL : f->device_number != NULL);
		break;
	case RK_SCOPE_SM_ENTRY:
		assert_true(text ? f->sm_text != NULL : f->sm_number != NULL);
		break;
	case RK_SCOPE_FABRIC: /* numbers from values[], the one text from the subject */
		assert_int_equal(readers, 0);
		return;
	default:
		assert_false(text);
		assert_int_equal(readers, 0);
		return;
	}
	assert_int_equal(readers, 1);
}

static void every_fact_has_a_unit_help_and_reader(void **state)
{
	size_t count;
	const struct rk_fact *facts = rk_facts_all(&count);

	(void)state;
	for (size_t i = 0; i < count; i++) {
		assert_non_null(facts[i].name);
		assert_true(facts[i].name[0] != '\0');
		assert_non_null(facts[i].unit);
		assert_true(facts[i].unit[0] != '\0');
		assert_non_null(facts[i].help);
		assert_true(strlen(facts[i].help) > 10);
		check_readers(&facts[i]);
	}
}

/* The port table could carry the PMA counters too: their columns come after the port facts'. */
static void pma_counters_have_their_own_columns(void **state)
{
	size_t npma, nall, nfacts;
	const struct rk_metric *pma = rk_catalog_pma(&npma);
	const struct rk_metric *all = rk_catalog_all(&nall);
	const struct rk_fact *facts = rk_facts_all(&nfacts);

	(void)state;
	assert_int_equal(pma[0].column, 30);
	assert_int_equal(pma[rk_catalog_pma_index("port_xmit_data")].column, 43);
	for (size_t i = 0; i < npma; i++) {
		assert_true(pma[i].column >= 30);
		for (size_t j = 0; j < i; j++)
			assert_int_not_equal(pma[j].column, pma[i].column);
		for (size_t f = 0; f < nfacts; f++)
			if (facts[f].scope == RK_SCOPE_PORT)
				assert_true(facts[f].column < pma[i].column);
	}
	for (size_t i = npma; i < nall; i++)
		assert_int_equal(all[i].column, 0); /* driver counters: no MIB column */
}

static void pairs_join_an_rx_and_a_tx_counter(void **state)
{
	size_t count;
	const struct rk_counter_pair *pairs = rk_counter_pairs(&count);
	bool is_tx = false;

	(void)state;
	assert_int_equal(count, 4);
	for (size_t i = 0; i < count; i++) {
		const struct rk_metric *rx = rk_catalog_find(RK_SRC_PORT_COUNTERS, pairs[i].rx);
		const struct rk_metric *tx = rk_catalog_find(RK_SRC_PORT_COUNTERS, pairs[i].tx);

		assert_non_null(rx);
		assert_non_null(tx);
		assert_non_null(strstr(rx->name, "rcv"));
		assert_non_null(strstr(tx->name, "xmit"));
		assert_string_equal(rx->unit, tx->unit);
		assert_int_equal(rx->scale, tx->scale);
	}
	assert_ptr_equal(rk_counter_pair_of("port_xmit_data", &is_tx), &pairs[0]);
	assert_true(is_tx);
	assert_string_equal(rk_counter_pair_of("multicast_rcv_packets", &is_tx)->name,
			    "multicast_packets");
	assert_false(is_tx);
	assert_null(rk_counter_pair_of("symbol_error", &is_tx));
}

static double port_number(const struct rk_port *port, enum rk_fact_id id)
{
	return rk_fact(id)->port_number(port);
}

static const char *port_text(const struct rk_port *port, enum rk_fact_id id)
{
	return rk_fact(id)->port_text(port);
}

static double device_number(const struct rk_device *device, enum rk_fact_id id)
{
	return rk_fact(id)->device_number(device);
}

static const char *device_text(const struct rk_device *device, enum rk_fact_id id)
{
	return rk_fact(id)->device_text(device);
}

/* tests/fixtures/sysfs/ib-hdr: mlx5_1 port 1 is ACTIVE/LinkUp at 200 Gb/s (4X HDR), LID 6. */
static void readers_give_a_fixture_hosts_values(void **state)
{
	struct rk_host *host = NULL;
	const struct rk_device *dev;
	const struct rk_port *port;

	(void)state;
	assert_int_equal(rk_host_open(fixture_path("ib-hdr"), &host), 0);
	assert_int_equal(rk_host_refresh(host), 0);
	dev = rk_host_find_device(host, "mlx5_1");
	assert_non_null(dev);
	port = &dev->ports[0];
	assert_true(port_number(port, RK_FACT_PORT_STATE) == 4);
	assert_string_equal(port_text(port, RK_FACT_PORT_STATE_NAME), "ACTIVE");
	assert_true(port_number(port, RK_FACT_PORT_PHYS_STATE) == 5);
	assert_string_equal(port_text(port, RK_FACT_PORT_PHYS_STATE_NAME), "LinkUp");
	assert_true(port_number(port, RK_FACT_PORT_RATE) == 200);
	assert_true(port_number(port, RK_FACT_PORT_WIDTH) == 4);
	assert_string_equal(port_text(port, RK_FACT_PORT_SPEED), "HDR");
	assert_true(port_number(port, RK_FACT_PORT_LID) == 6);
	assert_true(port_number(port, RK_FACT_PORT_SM_LID) == 1);
	assert_true(port_number(port, RK_FACT_PORT_LMC) == 0);
	assert_true(port_number(port, RK_FACT_PORT_CAP_MASK) == 0xa651e848);
	assert_string_equal(port_text(port, RK_FACT_PORT_LINK_LAYER), "InfiniBand");
	assert_string_equal(device_text(dev, RK_FACT_DEVICE_FW_VER), "20.31.1014");
	assert_string_equal(device_text(dev, RK_FACT_DEVICE_NODE_GUID), "b859:9f03:00d4:6f2b");
	assert_string_equal(device_text(dev, RK_FACT_DEVICE_HCA_TYPE), "MT4123");
	assert_true(device_number(dev, RK_FACT_DEVICE_NODE_TYPE) == 1);
	assert_true(device_number(dev, RK_FACT_DEVICE_NUM_PORTS) == 1);
	assert_true(device_number(dev, RK_FACT_DEVICE_VANISHED) == 0);
	assert_string_equal(device_text(dev, RK_FACT_DEVICE_PCI_ADDRESS), "0000:3b:00.1");
	rk_host_close(host);
}

static void readers_say_unknown_for_missing_values(void **state)
{
	struct rk_port port = {.state = -1,
			       .rate_gbps = -1,
			       .width = -1,
			       .lid = -1,
			       .sm_lid = -1,
			       .sm_sl = -1,
			       .lmc = -1,
			       .cap_mask = -1};
	size_t count;
	const struct rk_fact *facts = rk_facts_all(&count);

	(void)state;
	port.phys_state = -1;
	for (size_t i = 0; i < count; i++) {
		if (facts[i].port_number)
			assert_true(facts[i].port_number(&port) < 0);
		if (facts[i].port_text)
			assert_string_equal(facts[i].port_text(&port), "");
	}
}

static void sm_entry_readers_know_only_the_lid_of_a_silent_sm(void **state)
{
	struct rk_sm sm = {.lid = 5,
			   .guid = 0x0002c90300000021,
			   .priority = 5,
			   .state = RK_SM_STANDBY,
			   .activity_count = 77,
			   .name = "host2 HCA-1"};
	char buf[RK_FACT_TEXT_MAX];

	(void)state;
	assert_true(rk_fact(RK_FACT_SM_ENTRY_LID)->sm_number(&sm) == 5);
	assert_true(rk_fact(RK_FACT_SM_ENTRY_ANSWERED)->sm_number(&sm) == 1);
	assert_string_equal(rk_fact(RK_FACT_SM_ENTRY_GUID)->sm_text(&sm, buf),
			    "0x0002c90300000021");
	assert_true(rk_fact(RK_FACT_SM_ENTRY_PRIORITY)->sm_number(&sm) == 5);
	assert_true(rk_fact(RK_FACT_SM_ENTRY_STATE)->sm_number(&sm) == 2);
	assert_string_equal(rk_fact(RK_FACT_SM_ENTRY_STATE_NAME)->sm_text(&sm, buf), "STANDBY");
	assert_true(rk_fact(RK_FACT_SM_ENTRY_ACTIVITY)->sm_number(&sm) == 77);
	assert_string_equal(rk_fact(RK_FACT_SM_ENTRY_NAME)->sm_text(&sm, buf), "host2 HCA-1");
	sm.status = -110; /* no answer: only where it was asked is known */
	assert_true(rk_fact(RK_FACT_SM_ENTRY_LID)->sm_number(&sm) == 5);
	assert_true(rk_fact(RK_FACT_SM_ENTRY_ANSWERED)->sm_number(&sm) == 0);
	assert_string_equal(rk_fact(RK_FACT_SM_ENTRY_GUID)->sm_text(&sm, buf), "");
	assert_true(rk_fact(RK_FACT_SM_ENTRY_PRIORITY)->sm_number(&sm) < 0);
	assert_true(rk_fact(RK_FACT_SM_ENTRY_ACTIVITY)->sm_number(&sm) < 0);
	assert_string_equal(rk_fact(RK_FACT_SM_ENTRY_NAME)->sm_text(&sm, buf), "");
}

static void swept_values_are_in_the_catalogs_unit(void **state)
{
	struct rk_sweep_port port = {0};
	int data = rk_catalog_pma_index("port_xmit_data");
	int packets = rk_catalog_pma_index("port_xmit_packets");
	int symbols = rk_catalog_pma_index("symbol_error");

	(void)state;
	port.raw[data] = 1000; /* 4-byte words */
	port.raw[packets] = 1000;
	port.raw[symbols] = 65535;
	assert_int_equal(rk_sweep_value(&port, (size_t)data), 4000);
	assert_int_equal(rk_sweep_value(&port, (size_t)packets), 1000);
	assert_int_equal(rk_sweep_value(&port, (size_t)symbols), 65535);
	port.raw[data] = UINT64_C(1) << 40;
	assert_true(rk_sweep_value(&port, (size_t)data) == UINT64_C(1) << 42);
}

/* Two switches, three CAs, a router; four links: one below what both ends enable, one below
 * its peers, one whose ends disagree (not degraded by itself), one healthy. */
static void fabric_summary_counts_by_type_and_degraded_links(void **state)
{
	struct rk_fabric_node nodes[6] = {
	    {.type = RK_NODE_SWITCH}, {.type = RK_NODE_SWITCH}, {.type = RK_NODE_CA},
	    {.type = RK_NODE_CA},     {.type = RK_NODE_CA},	{.type = RK_NODE_ROUTER},
	};
	struct rk_fabric_link links[4] = {
	    {.below_enabled = true}, {.below_peers = true}, {.ends_disagree = true}, {0}};
	struct rk_fabric fabric = {.nodes = nodes, .nnodes = 6, .links = links, .nlinks = 4};
	struct rk_fabric_summary summary;

	(void)state;
	rk_fabric_summarize(&fabric, &summary);
	assert_int_equal(summary.nodes, 6);
	assert_int_equal(summary.switches, 2);
	assert_int_equal(summary.cas, 3);
	assert_int_equal(summary.routers, 1);
	assert_int_equal(summary.links, 4);
	assert_int_equal(summary.degraded_links, 2);
	fabric.nlinks = 0;
	fabric.nnodes = 0;
	rk_fabric_summarize(&fabric, &summary);
	assert_int_equal(summary.nodes + summary.switches + summary.degraded_links, 0);
}

static void fabric_fact_values_follow_the_summary_and_the_sweep(void **state)
{
	struct rk_fabric_node nodes[3] = {
	    {.type = RK_NODE_SWITCH}, {.type = RK_NODE_CA}, {.type = RK_NODE_CA}};
	struct rk_fabric_link links[2] = {{.below_peers = true}, {0}};
	struct rk_fabric fabric = {
	    .nodes = nodes, .nnodes = 3, .links = links, .nlinks = 2, .discovery_seconds = 0.5};
	struct rk_sweep sweep = {.count = 10, .answered = 9, .failed = 1};
	double v[RK_FACT_COUNT];

	(void)state;
	rk_fabric_fact_values(&fabric, &sweep, 0.25, v);
	assert_true(v[RK_FACT_FABRIC_NODES] == 3 && v[RK_FACT_FABRIC_SWITCHES] == 1);
	assert_true(v[RK_FACT_FABRIC_CAS] == 2 && v[RK_FACT_FABRIC_ROUTERS] == 0);
	assert_true(v[RK_FACT_FABRIC_LINKS] == 2 && v[RK_FACT_FABRIC_DEGRADED_LINKS] == 1);
	assert_true(v[RK_FACT_FABRIC_SWEPT_PORTS] == 10 && v[RK_FACT_FABRIC_ANSWERED_PORTS] == 9);
	assert_true(v[RK_FACT_FABRIC_UNANSWERED_PORTS] == 1);
	assert_true(v[RK_FACT_FABRIC_SWEEP_SECONDS] == 0.25);
	assert_true(v[RK_FACT_FABRIC_DISCOVERY_SECONDS] == 0.5);
	rk_fabric_fact_values(&fabric, NULL, 0.25, v); /* discovered, not swept */
	assert_true(isnan(v[RK_FACT_FABRIC_SWEPT_PORTS]) && isnan(v[RK_FACT_FABRIC_SWEEP_SECONDS]));
	assert_true(v[RK_FACT_FABRIC_NODES] == 3);
}

/* What a watch snapshot keeps of a sweep gives the same facts as the sweep. */
static void readings_give_the_sweeps_fact_values(void **state)
{
	struct rk_fabric_node nodes[2] = {{.type = RK_NODE_SWITCH}, {.type = RK_NODE_CA}};
	struct rk_fabric fabric = {.nodes = nodes, .nnodes = 2, .discovery_seconds = 0.5};
	struct rk_sweep_port ports[2] = {{.node_guid = 0x10, .port = 1, .sampled = true},
					 {.node_guid = 0x20, .port = 1, .status = -ETIMEDOUT}};
	struct rk_sweep sweep = {.ports = ports, .count = 2, .answered = 1, .failed = 1};
	struct rk_sweep_readings readings;
	int data = rk_catalog_pma_index("port_xmit_data");
	double v[RK_FACT_COUNT];

	(void)state;
	ports[0].raw[data] = 1000; /* 4-byte words */
	ports[0].state[data] = RK_VALUE_SATURATED;
	ports[0].prev[data] = 7;
	assert_int_equal(rk_sweep_readings_make(&sweep, &readings), 0);
	assert_int_equal(readings.count, 2);
	assert_true(readings.ports[0].value[data] == 4000); /* in the catalog's unit */
	assert_int_equal(readings.ports[0].state[data], RK_VALUE_SATURATED);
	assert_true(readings.ports[1].node_guid == 0x20 && readings.ports[1].status == -ETIMEDOUT);
	assert_false(readings.ports[1].sampled);
	rk_fabric_readings_fact_values(&fabric, &readings, 0.25, v);
	assert_true(v[RK_FACT_FABRIC_SWEPT_PORTS] == 2 && v[RK_FACT_FABRIC_ANSWERED_PORTS] == 1);
	assert_true(v[RK_FACT_FABRIC_UNANSWERED_PORTS] == 1 &&
		    v[RK_FACT_FABRIC_SWEEP_SECONDS] == 0.25);
	assert_true(v[RK_FACT_FABRIC_NODES] == 2 && v[RK_FACT_FABRIC_DISCOVERY_SECONDS] == 0.5);
	rk_fabric_readings_fact_values(&fabric, NULL, 0.25, v); /* discovered, not swept */
	assert_true(isnan(v[RK_FACT_FABRIC_SWEPT_PORTS]) && isnan(v[RK_FACT_FABRIC_SWEEP_SECONDS]));
	rk_sweep_readings_free(&readings);
	assert_null(readings.ports);
}

static void sm_summary_finds_the_master_and_counts_by_state(void **state)
{
	struct rk_sm sms[5] = {
	    {.lid = 3, .state = RK_SM_STANDBY},
	    {.lid = 1, .priority = 10, .state = RK_SM_MASTER, .activity_count = 900},
	    {.lid = 5, .state = RK_SM_DISCOVERING},
	    {.lid = 7, .state = RK_SM_NOT_ACTIVE},
	    {.lid = 9, .state = RK_SM_STANDBY, .status = -110}, /* did not answer */
	};
	struct rk_sm_status status = {.sms = sms, .count = 5, .local_sm_lid = 1};
	struct rk_sm_summary s;

	(void)state;
	rk_sm_summarize(&status, &s);
	assert_ptr_equal(s.master, &sms[1]);
	assert_ptr_equal(s.described, &sms[1]);
	assert_int_equal(s.answered, 4);
	assert_int_equal(s.in_state[RK_SM_MASTER], 1);
	assert_int_equal(s.in_state[RK_SM_STANDBY],
			 1); /* the one that did not answer is not counted */
	assert_int_equal(s.in_state[RK_SM_DISCOVERING], 1);
	assert_int_equal(s.in_state[RK_SM_NOT_ACTIVE], 1);
	sms[2].state = RK_SM_MASTER; /* two masters: the first one is the master */
	rk_sm_summarize(&status, &s);
	assert_ptr_equal(s.master, &sms[1]);
	assert_int_equal(s.in_state[RK_SM_MASTER], 2);
}

static void without_a_master_the_local_ports_sm_is_described(void **state)
{
	struct rk_sm sms[2] = {
	    {.lid = 1, .priority = 10, .state = RK_SM_DISCOVERING},
	    {.lid = 5, .state = RK_SM_STANDBY},
	};
	struct rk_sm_status status = {.sms = sms, .count = 2, .local_sm_lid = 1};
	struct rk_sm_summary s;
	double v[RK_FACT_COUNT];

	(void)state;
	rk_sm_summarize(&status, &s);
	assert_null(s.master);
	assert_ptr_equal(s.described, &sms[0]);
	rk_sm_fact_values(&status, v);
	assert_true(v[RK_FACT_SM_MASTER_LID] == 1 && v[RK_FACT_SM_MASTER_STATE] == 1);
	assert_true(v[RK_FACT_SM_MASTERS] == 0 && v[RK_FACT_SM_STANDBYS] == 1);
	assert_true(v[RK_FACT_SM_DISCOVERING] == 1 && v[RK_FACT_SM_ANSWERED] == 2);
	sms[0].status = -110; /* the local port's SM does not answer: nothing to describe */
	rk_sm_summarize(&status, &s);
	assert_null(s.described);
	rk_sm_fact_values(&status, v);
	assert_true(isnan(v[RK_FACT_SM_MASTER_LID]) && isnan(v[RK_FACT_SM_MASTER_ACTIVITY]));
	assert_true(v[RK_FACT_SM_ANSWERED] == 1);
	status.count = 0; /* no SM at all */
	rk_sm_summarize(&status, &s);
	assert_true(!s.master && !s.described && s.answered == 0);
}

/* A fact collectd gets has a type of types.db and an instance; a counter is a derive. */
static void check_collectd(const struct rk_fact *f)
{
	static const char *const types[] = {"gauge", "count", "duration", "derive", "percent"};
	bool known = false;

	if (!rk_fact_served(f, RK_FRONT_COLLECTD)) {
		assert_null(f->cd_instance);
		return;
	}
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		known |= strcmp(f->cd_type, types[t]) == 0;
	assert_true(known);
	assert_true(f->cd_instance && f->cd_instance[0]);
	assert_int_not_equal(f->kind, RK_KIND_TEXT);
	assert_int_equal(f->kind == RK_KIND_COUNTER, strcmp(f->cd_type, "derive") == 0);
}

/* SNMP serves a text with a text syntax, a number with a numeric one, scaled by 1, 100 or 1000. */
static void check_snmp(const struct rk_fact *f)
{
	bool text_syntax = f->snmp_syntax == RK_SNMP_TEXT || f->snmp_syntax == RK_SNMP_GID ||
			   f->snmp_syntax == RK_SNMP_NAMED;

	if (!rk_fact_served(f, RK_FRONT_SNMP))
		return;
	assert_true(f->column >= 1);
	assert_int_equal(f->kind == RK_KIND_TEXT, text_syntax);
	assert_true(f->snmp_scale == 1 || f->snmp_scale == 100 || f->snmp_scale == 1000);
	assert_int_equal(f->snmp_syntax == RK_SNMP_NAMED, f->snmp_code != NULL);
	if (f->snmp_code)
		assert_int_equal(f->snmp_code(""), 0); /* 0: none of the names */
}

static void every_fact_says_how_each_front_end_shows_it(void **state)
{
	(void)state;
	for (int id = 0; id < RK_FACT_TABLE_SIZE; id++) {
		const struct rk_fact *f = rk_fact((enum rk_fact_id)id);

		assert_int_equal(f->id, id);
		assert_true(f->label && f->label[0]);
		assert_non_null(f->text_unit);
		assert_int_equal(rk_fact_served(f, RK_FRONT_CLI), f->cli_name != NULL);
		check_collectd(f);
		check_snmp(f);
	}
	assert_int_equal(rk_fact(RK_FACT_PORT_RATE)->snmp_scale, 1000);		   /* Mb/s */
	assert_int_equal(rk_fact(RK_FACT_DEVICE_PCIE_SPEED)->snmp_scale, 1000);	   /* MT/s */
	assert_int_equal(rk_fact(RK_FACT_FABRIC_SWEEP_SECONDS)->snmp_scale, 1000); /* ms */
	assert_int_equal(rk_fact(RK_FACT_FABRIC_NODES)->snmp_scale, 1);
	assert_string_equal(rk_fact(RK_FACT_FABRIC_SWEEP_SECONDS)->cd_instance, "sweep");
	assert_string_equal(rk_fact(RK_FACT_SM_ANSWERED)->cd_instance, "sms");
	assert_false(rk_fact_served(rk_fact(RK_FACT_PORT_STATE_NAME), RK_FRONT_SNMP));
	assert_false(rk_fact_served(rk_fact(RK_FACT_SM_ENTRY_GUID), RK_FRONT_SNMP)); /* index */
}

/* The PMA counter at a MIB column, or -1. */
static int column_of_pma(unsigned column)
{
	size_t count;
	const struct rk_metric *pma = rk_catalog_pma(&count);

	for (size_t i = 0; i < count; i++)
		if (pma[i].column == column)
			return (int)i;
	return -1;
}

/* A swept port's transmit wait: its share where it answered and the tick is known, at most all
 * of the interval; unknown (negative, so served by no front end) otherwise. */
static void a_swept_ports_wait_is_its_share_of_the_interval(void **state)
{
	const struct rk_fact *f = rk_fact(RK_FACT_FABRIC_COUNTER_XMIT_WAIT);
	struct rk_sweep_reading reading = {.status = 0, .xmit_wait = 12.8};
	const struct rk_fact_subject subject = {.reading = &reading};

	(void)state;
	assert_int_equal(f->scope, RK_SCOPE_FABRIC_COUNTER);
	assert_true(fabs(rk_fact_number(f, &subject) - 12.8) < 1e-9);
	reading.xmit_wait = 250; /* a tick longer than the node's real one */
	assert_true(rk_fact_number(f, &subject) == 100);
	reading.xmit_wait = -1; /* the tick unknown */
	assert_true(rk_fact_number(f, &subject) < 0);
	reading.xmit_wait = NAN;
	assert_true(rk_fact_number(f, &subject) < 0);
	reading.xmit_wait = 5;
	reading.status = -110; /* no answer */
	assert_true(rk_fact_number(f, &subject) < 0);
}

/* The bandwidth a swept port's link lost: known where it answered and its tick is known. */
static void a_swept_ports_lost_bandwidth_where_it_is_known(void **state)
{
	const struct rk_fact *f = rk_fact(RK_FACT_FABRIC_COUNTER_LOST_BANDWIDTH);
	struct rk_sweep_reading reading = {.status = 0, .lost_gbps = 12.8};
	const struct rk_fact_subject subject = {.reading = &reading};

	(void)state;
	assert_int_equal(f->scope, RK_SCOPE_FABRIC_COUNTER);
	assert_int_equal(f->snmp_scale, 1000); /* Mb/s */
	assert_true(fabs(rk_fact_number(f, &subject) - 12.8) < 1e-9);
	reading.lost_gbps = -1; /* the tick unknown */
	assert_true(rk_fact_number(f, &subject) < 0);
	reading.lost_gbps = NAN;
	assert_true(rk_fact_number(f, &subject) < 0);
	reading.lost_gbps = 5;
	reading.status = -110; /* no answer */
	assert_true(rk_fact_number(f, &subject) < 0);
}

static void topology_facts_have_their_scopes_and_columns(void **state)
{
	size_t count;
	const struct rk_fact *facts = rk_facts_topology(&count);

	(void)state;
	assert_int_equal(count, RK_FACT_TABLE_SIZE - RK_FACT_COUNT);
	assert_int_equal(facts[0].id, RK_FACT_COUNT);
	for (size_t i = 0; i < count; i++) {
		assert_true(facts[i].scope == RK_SCOPE_FABRIC_NODE ||
			    facts[i].scope == RK_SCOPE_FABRIC_PORT ||
			    facts[i].scope == RK_SCOPE_FABRIC_COUNTER);
		assert_true(facts[i].column >= 2); /* 1: the GUID index */
		/* every one, but the peer's GUID as octets (a deprecated column; its text is) */
		assert_int_equal(rk_fact_served(&facts[i], RK_FRONT_SNMP),
				 facts[i].id != RK_FACT_FABRIC_PORT_PEER_GUID);
		assert_true(facts[i].kind == RK_KIND_TEXT
				? facts[i].node_text || facts[i].fabric_port_text
				: facts[i].node_number || facts[i].fabric_port_number ||
				      facts[i].reading_number);
		if (facts[i].scope == RK_SCOPE_FABRIC_COUNTER) /* beside the catalog's counters */
			assert_int_equal(column_of_pma(facts[i].column), -1);
		for (size_t j = 0; j < i; j++)
			if (facts[j].scope == facts[i].scope)
				assert_int_not_equal(facts[j].column, facts[i].column);
	}
	assert_int_equal(rk_fact(RK_FACT_NODE_TYPE)->column, 2);
	assert_int_equal(rk_fact(RK_FACT_FABRIC_PORT_DEGRADED_REASON)->column, 9);
}

/* A switch whose port 1 links to a CA below the speed both ends enable, and a port 2 with no
 * peer; the fabric's findings say why the link is degraded. */
static void fabric_port_facts_read_the_peer_and_the_degraded_link(void **state)
{
	struct rk_fabric_port sw_ports[3] = {
	    {.num = 0, .present = true, .remote_node = -1},
	    {.num = 1,
	     .present = true,
	     .state = 4,
	     .active_width = 4,
	     .remote_node = 1,
	     .remote_port = 1},
	    {.num = 2, .present = true, .state = 1, .remote_node = -1},
	};
	struct rk_fabric_node nodes[2] = {
	    {.guid = 0x0002c90300000011,
	     .type = RK_NODE_SWITCH,
	     .lid = 2,
	     .nports = 2,
	     .ports = sw_ports,
	     .name = "sw1"},
	    {.guid = 0x0002c90300000021, .type = RK_NODE_CA, .lid = 5, .nports = 1},
	};
	struct rk_fabric_link link = {
	    .node_a = 0, .port_a = 1, .node_b = 1, .port_b = 1, .below_enabled = true};
	struct rk_fabric fabric = {.nodes = nodes, .nnodes = 2, .links = &link, .nlinks = 1};
	struct rk_finding finding = {.code = "LINK_DEGRADED",
				     .message = "4X SDR, both do 4X EDR",
				     .node_guid = 0x0002c90300000011,
				     .port = 1};
	struct rk_findings findings = {.items = &finding, .count = 1};
	struct rk_fabric_port_ref ref = {&fabric, 0, &sw_ports[1], &findings};
	struct rk_fact_subject port = {.fabric_port = &ref}, node = {.node = &nodes[0]};
	char buf[RK_FACT_TEXT_MAX];

	(void)state;
	assert_true(rk_fact_number(rk_fact(RK_FACT_NODE_TYPE), &node) == RK_NODE_SWITCH);
	assert_string_equal(rk_fact_text(rk_fact(RK_FACT_NODE_NAME), &node, buf), "sw1");
	assert_true(rk_fact_number(rk_fact(RK_FACT_NODE_PORTS), &node) == 2);
	assert_true(rk_fact_number(rk_fact(RK_FACT_FABRIC_PORT_WIDTH), &port) == 4);
	assert_string_equal(rk_fact_text(rk_fact(RK_FACT_FABRIC_PORT_PEER_GUID), &port, buf),
			    "0002:c903:0000:0021");
	assert_true(rk_fact_number(rk_fact(RK_FACT_FABRIC_PORT_PEER_PORT), &port) == 1);
	assert_true(rk_fact_number(rk_fact(RK_FACT_FABRIC_PORT_DEGRADED), &port) == 1);
	assert_string_equal(rk_fact_text(rk_fact(RK_FACT_FABRIC_PORT_DEGRADED_REASON), &port, buf),
			    "4X SDR, both do 4X EDR");
	ref.port = &sw_ports[2]; /* no peer, no link */
	assert_string_equal(rk_fact_text(rk_fact(RK_FACT_FABRIC_PORT_PEER_GUID), &port, buf), "");
	assert_true(rk_fact_number(rk_fact(RK_FACT_FABRIC_PORT_PEER_PORT), &port) < 0);
	assert_true(rk_fact_number(rk_fact(RK_FACT_FABRIC_PORT_DEGRADED), &port) == 0);
	assert_string_equal(rk_fact_text(rk_fact(RK_FACT_FABRIC_PORT_DEGRADED_REASON), &port, buf),
			    "");
}

/* Every scope a fact has is named, and a scope out of range is "?". */
static void every_scope_has_a_name(void **state)
{
	(void)state;
	for (int id = 0; id < RK_FACT_TABLE_SIZE; id++)
		assert_string_not_equal(rk_fact_scope_name(rk_fact((enum rk_fact_id)id)->scope),
					"?");
	assert_string_equal(rk_fact_scope_name(RK_SCOPE_SM_ENTRY), "sm_entry");
	assert_string_equal(rk_fact_scope_name((enum rk_fact_scope)99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_fact_sits_at_its_id),
	    cmocka_unit_test(names_and_columns_are_unique_in_a_scope),
	    cmocka_unit_test(every_fact_has_a_unit_help_and_reader),
	    cmocka_unit_test(pma_counters_have_their_own_columns),
	    cmocka_unit_test(pairs_join_an_rx_and_a_tx_counter),
	    cmocka_unit_test(readers_give_a_fixture_hosts_values),
	    cmocka_unit_test(readers_say_unknown_for_missing_values),
	    cmocka_unit_test(sm_entry_readers_know_only_the_lid_of_a_silent_sm),
	    cmocka_unit_test(swept_values_are_in_the_catalogs_unit),
	    cmocka_unit_test(fabric_summary_counts_by_type_and_degraded_links),
	    cmocka_unit_test(fabric_fact_values_follow_the_summary_and_the_sweep),
	    cmocka_unit_test(readings_give_the_sweeps_fact_values),
	    cmocka_unit_test(sm_summary_finds_the_master_and_counts_by_state),
	    cmocka_unit_test(without_a_master_the_local_ports_sm_is_described),
	    cmocka_unit_test(every_fact_says_how_each_front_end_shows_it),
	    cmocka_unit_test(topology_facts_have_their_scopes_and_columns),
	    cmocka_unit_test(a_swept_ports_wait_is_its_share_of_the_interval),
	    cmocka_unit_test(a_swept_ports_lost_bandwidth_where_it_is_known),
	    cmocka_unit_test(fabric_port_facts_read_the_peer_and_the_degraded_link),
	    cmocka_unit_test(every_scope_has_a_name),
	};

	return cmocka_run_group_tests_name("facts", tests, NULL, NULL);
}
