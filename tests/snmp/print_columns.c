/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Prints the core's MIB columns for tests/snmp/test_columns.py: "fact SCOPE NAME COLUMN OBJECT"
 * for every fact of the table of facts (OBJECT: its RDMAKIT-MIB object, "-" for none), "pma NAME
 * COLUMN" for every PMA counter of the catalog, "speed NAME NUMBER" for every link speed (the
 * number the agent serves); with --topology, the "fact" lines of the fabric's nodes and ports. */
#include "rdmakit/catalog.h"
#include "rdmakit/facts.h"
#include "rdmakit/link.h"

#include <stdio.h>
#include <string.h>

static void print_facts(const struct rk_fact *facts, size_t count)
{
	char object[64];

	for (size_t i = 0; i < count; i++)
		printf("fact %s %s %u %s\n", rk_fact_scope_name(facts[i].scope), facts[i].name,
		       facts[i].column,
		       rk_fact_in_mib(&facts[i])
			   ? rk_fact_mib_name(&facts[i], object, sizeof(object))
			   : "-");
}

int main(int argc, char **argv)
{
	size_t nfacts, npma;
	const struct rk_fact *facts;
	const struct rk_metric *pma = rk_catalog_pma(&npma);

	if (argc > 1 && strcmp(argv[1], "--topology") == 0) {
		facts = rk_facts_topology(&nfacts);
		print_facts(facts, nfacts);
		return 0;
	}
	facts = rk_facts_all(&nfacts);
	print_facts(facts, nfacts);
	for (size_t i = 0; i < npma; i++)
		printf("pma %s %u\n", pma[i].name, pma[i].column);
	for (int s = RK_SPEED_NONE; s < RK_SPEED_COUNT; s++)
		printf("speed %s %d\n", s == RK_SPEED_NONE ? "unknown" : rk_speed_name(s), s);
	return 0;
}
