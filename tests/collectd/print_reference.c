/* Prints what rdmakit.so sends for every catalog entry and port gauge, one tab-separated row
 * each: from, type, type instance, data source, unit, scale, help. The collectd tests compare
 * it with collectd-plugin/README.md and use it to find each counter among the daemon's values.
 */
#include "cd_values.h"

#include "rdmakit/catalog.h"

#include <stdio.h>

static void print_metric(const struct rk_metric *metric)
{
	struct cd_slot slot;

	cd_slot_for(metric, metric->name, &slot);
	printf("%s/%s\t%s\t%s\t%s\t%s\t%u\t%s\n",
	       metric->source == RK_SRC_PORT_COUNTERS ? "counters" : "hw_counters", metric->name,
	       slot.type, slot.type_instance, slot.ds_name, metric->unit, metric->scale,
	       metric->help);
}

int main(void)
{
	size_t count;
	const struct rk_metric *all = rk_catalog_all(&count);
	const struct cd_port_gauge *gauges;

	for (size_t i = 0; i < count; i++)
		print_metric(&all[i]);
	gauges = cd_port_gauges(&count);
	for (size_t i = 0; i < count; i++)
		printf("%s\tgauge\t%s\tvalue\t%s\t1\t%s\n", gauges[i].type_instance,
		       gauges[i].type_instance, gauges[i].unit, gauges[i].help);
	return 0;
}
