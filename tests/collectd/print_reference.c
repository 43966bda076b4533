/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Prints what rdmakit.so sends, one tab-separated row per value, for the collectd tests to
 * compare with collectd-plugin/README.md and to find each counter among the daemon's values.
 * Without arguments, the host mode: every catalog entry read from sysfs (the per-VL counters
 * are the fabric sweep's only) and port gauge (from, type, type
 * instance, data source, unit, scale, help; units and help from the core's catalog and facts). With
 * --fabric, the fabric and SM modes: plugin, plugin instance, type, type instance, data source,
 * unit, when it is sent, help. With --errors, the error counters (the catalog's is_error) each
 * mode sends: mode (host or fabric), type, type instance (for the Prometheus rules' lists).
 */
#include "cd_fabric_values.h"
#include "cd_values.h"

#include "rdmakit/catalog.h"

#include <stdio.h>
#include <string.h>

static void print_metric(const struct rk_metric *metric)
{
	struct cd_slot slot;

	cd_slot_for(metric, metric->name, &slot);
	printf("%s/%s\t%s\t%s\t%s\t%s\t%u\t%s\n",
	       metric->source == RK_SRC_PORT_COUNTERS ? "counters" : "hw_counters", metric->name,
	       slot.type, slot.type_instance, slot.ds_name, metric->unit, metric->scale,
	       metric->help);
}

static void print_host(void)
{
	size_t count;
	const struct rk_metric *all = rk_catalog_all(&count);
	const struct cd_port_gauge *gauges;

	for (size_t i = 0; i < count; i++)
		if (all[i].source != RK_SRC_PORT_VL_COUNTERS)
			print_metric(&all[i]);
	gauges = cd_port_gauges(&count);
	for (size_t i = 0; i < count; i++)
		printf("%s\tgauge\t%s\tvalue\t%s\t1\t%s\n", gauges[i].type_instance,
		       gauges[i].type_instance, gauges[i].fact->unit, gauges[i].fact->help);
}

static const char *const rules[] = {
    [CD_SEND_ALWAYS] = "every sweep",
    [CD_SEND_PACKETS] = "with FabricPackets true",
    [CD_SEND_NONZERO] = "once non-zero",
};

static void print_facts(const char *plugin, const char *instance, const struct cd_fact *facts,
			size_t count)
{
	for (size_t i = 0; i < count; i++) {
		const struct rk_fact *fact = rk_fact(facts[i].fact);

		printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", plugin, instance, facts[i].type,
		       facts[i].type_instance, facts[i].ds_name, fact->unit, facts[i].when,
		       fact->help);
	}
}

static void print_fabric(void)
{
	struct cd_fabric_item items[RK_SWEEP_COUNTERS];
	size_t nitems = cd_fabric_items(items), count;
	const struct rk_metric *pma = rk_catalog_pma(&count);
	const struct cd_fact *facts;

	for (size_t i = 0; i < nitems; i++) {
		for (int k = 0; k < 2 && items[i].counter[k] >= 0; k++) {
			const struct rk_metric *m = &pma[items[i].counter[k]];

			printf("%s\tNODE-PORT\t%s\t%s\t%s\t%s\t%s\t%s\n", CD_FABRIC_PLUGIN,
			       items[i].slot.type, items[i].slot.type_instance,
			       items[i].counter[1] < 0 ? "value"
			       : k		       ? "tx"
						       : "rx",
			       m->unit, rules[items[i].rule], m->help);
		}
	}
	facts = cd_fact_list(RK_SCOPE_FABRIC_COUNTER, &count);
	print_facts(CD_FABRIC_PLUGIN, "NODE-PORT", facts, count);
	facts = cd_fact_list(RK_SCOPE_FABRIC, &count);
	print_facts(CD_FABRIC_PLUGIN, "", facts, count);
	facts = cd_fact_list(RK_SCOPE_SM, &count);
	print_facts(CD_SM_PLUGIN, "", facts, count);
}

static void print_errors(void)
{
	struct cd_fabric_item items[RK_SWEEP_COUNTERS];
	size_t nitems = cd_fabric_items(items), count, npma;
	const struct rk_metric *all = rk_catalog_all(&count);
	const struct rk_metric *pma = rk_catalog_pma(&npma);
	struct cd_slot slot;

	for (size_t i = 0; i < count; i++) {
		if (!all[i].is_error)
			continue;
		cd_slot_for(&all[i], all[i].name, &slot);
		printf("host\t%s\t%s\n", slot.type, slot.type_instance);
	}
	for (size_t i = 0; i < nitems; i++)
		if (items[i].counter[1] < 0 && pma[items[i].counter[0]].is_error)
			printf("fabric\t%s\t%s\n", items[i].slot.type, items[i].slot.type_instance);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--fabric") == 0)
		print_fabric();
	else if (argc > 1 && strcmp(argv[1], "--errors") == 0)
		print_errors();
	else
		print_host();
	return 0;
}
