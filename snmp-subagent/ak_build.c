/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Building a snapshot from what the core read: the host, findings, agent stats. */
#include "ak_build.h"

#include "ak_columns.h"
#include "ak_oid.h"

#include "rdmakit/catalog.h"
#include "rdmakit/clock.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ak_parse_hex_bytes(const char *text, unsigned char *out, size_t len)
{
	size_t n = 0;
	int half = -1;

	for (const char *p = text; *p; p++) {
		if (*p == ':')
			continue;
		if (!isxdigit((unsigned char)*p) || n == len)
			return -EINVAL;
		int digit =
		    isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;

		if (half < 0) {
			half = digit;
		} else {
			out[n++] = (unsigned char)(half << 4 | digit);
			half = -1;
		}
	}
	return n == len && half < 0 ? 0 : -EINVAL;
}

/* The cell type of a numeric syntax. */
static const enum ak_cell_type number_cells[] = {
    [RK_SNMP_GAUGE] = AK_CELL_UNSIGNED,
    [RK_SNMP_INTEGER] = AK_CELL_INTEGER,
    [RK_SNMP_COUNTER32] = AK_CELL_COUNTER32,
    [RK_SNMP_TRUTH] = AK_CELL_INTEGER,
};

/* Whether a number is served as the fact says, and the number served. */
static bool served_number(const struct rk_fact *fact, double *value)
{
	bool unknown = isnan(*value) || *value < 0;

	switch (fact->snmp_when) {
	case RK_SNMP_KNOWN:
		return !unknown;
	case RK_SNMP_POSITIVE:
		return !unknown && *value > 0;
	case RK_SNMP_ALWAYS:
		return !isnan(*value);
	case RK_SNMP_OR_ZERO:
		if (unknown)
			*value = 0;
		return true;
	}
	return false;
}

static void set_number(struct ak_row *row, const struct rk_fact *fact, double value)
{
	if (!served_number(fact, &value))
		return;
	if (fact->snmp_syntax == RK_SNMP_TRUTH)
		value = value != 0 ? AK_TRUE : AK_FALSE;
	ak_row_set_number(row, fact->column, number_cells[fact->snmp_syntax],
			  (uint64_t)(int64_t)llround(value * fact->snmp_scale));
}

/* Hex digits as octets (a GID); an unreadable one has no instance. */
static int set_hex(struct ak_row *row, unsigned column, const char *text, size_t len)
{
	unsigned char octets[16];

	if (ak_parse_hex_bytes(text, octets, len) != 0)
		return 0;
	return ak_row_set_octets(row, column, octets, len);
}

static int set_text(struct ak_row *row, const struct rk_fact *fact, const char *text)
{
	switch (fact->snmp_syntax) {
	case RK_SNMP_GID:
		return set_hex(row, fact->column, text, 16);
	case RK_SNMP_NAMED:
		ak_row_set_number(row, fact->column, AK_CELL_INTEGER, fact->snmp_code(text));
		return 0;
	default:
		return ak_row_set_string(row, fact->column, text);
	}
}

int ak_row_set_facts(struct ak_row *row, enum rk_fact_scope scope,
		     const struct rk_fact_subject *subject)
{
	int err = 0;

	for (int id = 0; id < RK_FACT_TABLE_SIZE && !err; id++) {
		const struct rk_fact *fact = rk_fact((enum rk_fact_id)id);
		char buf[RK_FACT_TEXT_MAX];

		if (fact->scope != scope || !rk_fact_served(fact, RK_FRONT_SNMP))
			continue;
		if (fact->kind == RK_KIND_TEXT)
			err = set_text(row, fact, rk_fact_text(fact, subject, buf));
		else
			set_number(row, fact, rk_fact_number(fact, subject));
	}
	return err;
}

static int add_device(struct ak_table *table, uint32_t index, const struct rk_device *dev)
{
	struct ak_row *row = ak_table_add_row(table, &index, 1);
	const struct rk_fact_subject subject = {.device = dev};
	int err;

	if (!row)
		return -ENOMEM;
	err = ak_row_set_facts(row, RK_SCOPE_DEVICE, &subject);
	return err ? err : ak_row_set_string(row, AK_DEVICE_NAME, dev->name);
}

/* The most severe finding about "device:port" (findings are sorted most severe first). */
static const struct rk_finding *worst_finding(const struct rk_findings *findings,
					      const struct rk_device *dev, unsigned port)
{
	for (size_t i = 0; i < findings->count; i++)
		if (findings->items[i].port == (int)port &&
		    strcmp(findings->items[i].device, dev->name) == 0)
			return &findings->items[i];
	return NULL;
}

static int set_worst(struct ak_row *row, const struct rk_finding *worst)
{
	char text[360];

	ak_row_set_number(row, AK_PORT_WORST_SEVERITY, AK_CELL_INTEGER,
			  worst ? (uint64_t)worst->severity + 1 : 1);
	if (worst)
		snprintf(text, sizeof(text), "%s: %s", worst->code, worst->message);
	else
		text[0] = '\0';
	text[255] = '\0'; /* DisplayString (SIZE(0..255)) */
	return ak_row_set_string(row, AK_PORT_WORST_FINDING, text);
}

static int add_port(struct ak_table *table, uint32_t dev_index, const struct rk_device *dev,
		    const struct rk_port *port, const struct rk_findings *findings)
{
	uint32_t index[2] = {dev_index, port->num};
	struct ak_row *row = ak_table_add_row(table, index, 2);
	const struct rk_fact_subject subject = {.port = port};
	int err;

	if (!row)
		return -ENOMEM;
	err = ak_row_set_facts(row, RK_SCOPE_PORT, &subject);
	if (!err)
		err = ak_row_set_string(row, AK_PORT_DEVICE_NAME, dev->name);
	return err ? err : set_worst(row, worst_finding(findings, dev, port->num));
}

static struct ak_discontinuity *find_discontinuity(struct ak_build_state *state, const char *device,
						   unsigned port)
{
	struct ak_discontinuity *list;

	for (size_t i = 0; i < state->ndiscontinuities; i++)
		if (state->discontinuities[i].port == port &&
		    strcmp(state->discontinuities[i].device, device) == 0)
			return &state->discontinuities[i];
	list = realloc(state->discontinuities, (state->ndiscontinuities + 1) * sizeof(*list));
	if (!list)
		return NULL;
	state->discontinuities = list;
	list = &list[state->ndiscontinuities++];
	memset(list, 0, sizeof(*list));
	snprintf(list->device, sizeof(list->device), "%s", device);
	list->port = port;
	return list;
}

/* One PMA counter: its value, or its bit (its place in the catalog) in the saturated or
 * unavailable set. */
static bool set_pma_counter(struct ak_row *row, const struct rk_metric *metric, unsigned bit,
			    const struct rk_counter *counter, unsigned char *saturated,
			    unsigned char *unavailable)
{
	if (!counter || !counter->sampled || counter->state == RK_VALUE_UNAVAILABLE)
		unavailable[bit / 8] |= (unsigned char)(0x80 >> (bit % 8));
	else if (counter->state == RK_VALUE_SATURATED)
		saturated[bit / 8] |= (unsigned char)(0x80 >> (bit % 8));
	else
		ak_row_set_number(row, metric->column, AK_CELL_COUNTER64, counter->value);
	return counter && rk_counter_went_back(counter);
}

static int add_port_counters(struct ak_build_state *state, struct ak_table *table,
			     uint32_t dev_index, const struct rk_device *dev,
			     const struct rk_port *port)
{
	uint32_t index[2] = {dev_index, port->num};
	unsigned char saturated[3] = {0}, unavailable[3] = {0};
	struct ak_discontinuity *disc = find_discontinuity(state, dev->name, port->num);
	struct ak_row *row = ak_table_add_row(table, index, 2);
	size_t npma;
	const struct rk_metric *pma = rk_catalog_pma(&npma);
	bool cleared = false;
	int err;

	if (!row || !disc)
		return -ENOMEM;
	for (size_t j = 0; j < npma && j < 8 * sizeof(saturated); j++)
		cleared |= set_pma_counter(row, &pma[j], (unsigned)j,
					   rk_counter_set_find(&port->counters, pma[j].name),
					   saturated, unavailable);
	if (cleared)
		disc->ticks = (uint32_t)((rk_monotonic_seconds() - state->started_at) * 100);
	ak_row_set_number(row, AK_PC_DISCONTINUITY, AK_CELL_TIMETICKS, disc->ticks);
	err = ak_row_set_octets(row, AK_PC_SATURATED, saturated, sizeof(saturated));
	return err ? err
		   : ak_row_set_octets(row, AK_PC_UNAVAILABLE, unavailable, sizeof(unavailable));
}

/* The row of one driver counter: its names and its state. */
static struct ak_row *add_driver_counter(struct ak_table *table, const uint32_t index[3],
					 const struct rk_device *dev,
					 const struct rk_counter *counter)
{
	struct ak_row *row = ak_table_add_row(table, index, 3);

	if (!row || ak_row_set_string(row, AK_DC_NAME, counter->name) != 0 ||
	    ak_row_set_string(row, AK_DC_DEVICE_NAME, dev->name) != 0)
		return NULL;
	ak_row_set_number(row, AK_DC_PORT_NUM, AK_CELL_UNSIGNED, index[1] ? index[1] - 1 : 0);
	return row;
}

/* Driver counters of one directory; port_key is the port number + 1, or 0 for the device.
 * Every file takes its number by name (lifespan too, so that the first numbers are the
 * files' places in name order). */
static int add_driver_counters(struct ak_build_state *build, struct ak_table *table,
			       uint32_t dev_index, const struct rk_device *dev, uint32_t port_key,
			       const struct rk_counter_set *set)
{
	for (size_t i = 0; i < set->count; i++) {
		const struct rk_counter *counter = &set->items[i];
		uint32_t index[3] = {
		    dev_index, port_key,
		    ak_index_map_counter(&build->indexes, dev->name, port_key, counter->name)};
		struct ak_row *row;
		unsigned state;

		if (counter->metric->kind != RK_KIND_COUNTER || index[2] == 0)
			continue; /* lifespan is a setting; 0: the directory has no number left */
		row = add_driver_counter(table, index, dev, counter);
		if (!row)
			return -ENOMEM;
		state = !counter->sampled || counter->state == RK_VALUE_UNAVAILABLE ? 2
			: counter->state == RK_VALUE_SATURATED			    ? 3
										    : 1;
		ak_row_set_number(row, AK_DC_STATE, AK_CELL_INTEGER, state);
		if (state == 1)
			ak_row_set_number(row, AK_DC_VALUE, AK_CELL_COUNTER64, counter->value);
	}
	return 0;
}

static int add_device_rows(struct ak_build_state *state, struct ak_snapshot *snap, uint32_t index,
			   const struct rk_device *dev, const struct rk_findings *findings)
{
	int err = add_device(&snap->tables[AK_T_DEVICE], index, dev);

	if (!err)
		err = add_driver_counters(state, &snap->tables[AK_T_DRIVER_COUNTER], index, dev, 0,
					  &dev->hw_counters);
	for (unsigned p = 0; p < dev->nports && !err; p++) {
		const struct rk_port *port = &dev->ports[p];

		err = add_port(&snap->tables[AK_T_PORT], index, dev, port, findings);
		if (!err && port->counters.count > 0)
			err = add_port_counters(state, &snap->tables[AK_T_PORT_COUNTER], index, dev,
						port);
		if (!err)
			err = add_driver_counters(state, &snap->tables[AK_T_DRIVER_COUNTER], index,
						  dev, port->num + 1, &port->hw_counters);
	}
	return err;
}

static int add_agent(struct ak_snapshot *snap, const struct ak_refresh_stats *stats,
		     size_t nfindings)
{
	uint32_t zero = 0;
	struct ak_row *row = ak_table_add_row(&snap->tables[AK_T_AGENT], &zero, 1);
	char modes[32];

	if (!row)
		return -ENOMEM;
	ak_row_set_number(row, AK_AGENT_HOST_REFRESHED_AT, AK_CELL_UNSIGNED, stats->refreshed_at);
	ak_row_set_number(row, AK_AGENT_HOST_REFRESH_DURATION, AK_CELL_UNSIGNED,
			  stats->duration_ms);
	ak_row_set_number(row, AK_AGENT_SNAPSHOT_AGE, AK_CELL_AGE, 0);
	ak_row_set_number(row, AK_AGENT_REFRESH_ERRORS, AK_CELL_COUNTER32, stats->errors);
	ak_row_set_number(row, AK_AGENT_FABRIC_SWEPT_AT, AK_CELL_UNSIGNED, stats->fabric_swept_at);
	if (stats->fabric) {
		ak_row_set_number(row, AK_AGENT_FABRIC_SWEEP_DURATION, AK_CELL_UNSIGNED,
				  stats->fabric_duration_ms);
		ak_row_set_number(row, AK_AGENT_FABRIC_SWEEP_ERRORS, AK_CELL_COUNTER32,
				  stats->fabric_errors);
	}
	ak_row_set_number(row, AK_AGENT_ACTIVE_FINDINGS, AK_CELL_UNSIGNED, nfindings);
	ak_modes_text(stats->modes, modes, sizeof(modes));
	if (ak_row_set_string(row, AK_AGENT_SERVED_MODES, modes) != 0)
		return -ENOMEM;
	return ak_row_set_string(row, AK_AGENT_VERSION, RDMAKIT_VERSION);
}

int ak_build_host(struct ak_build_state *state, const struct rk_host *host,
		  const struct rk_findings *findings, const struct ak_refresh_stats *stats,
		  struct ak_snapshot **out)
{
	struct ak_snapshot *snap = ak_snapshot_new();
	int err;

	if (!snap)
		return -ENOMEM;
	snap->taken_at = rk_monotonic_seconds();
	err = add_agent(snap, stats, findings->count);
	for (size_t i = 0; i < host->ndevices && !err; i++) {
		const struct rk_device *dev = &host->devices[i];
		uint32_t index = ak_index_map_device(&state->indexes, dev->name);

		if (!dev->vanished && index != 0)
			err = add_device_rows(state, snap, index, dev, findings);
	}
	ak_index_map_save(&state->indexes);
	if (!err)
		err = ak_build_findings(state, findings, snap);
	if (err) {
		ak_snapshot_free(snap);
		return err;
	}
	*out = snap;
	return 0;
}
