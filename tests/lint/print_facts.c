/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Prints the core's table of facts for tests/lint/test_fact_literals.py, one tab-separated row
 * per fact: scope, name, MIB column, whether SNMP serves it (1 or 0), collectd type instance and
 * JSON key ("-" for none). */
#include "rdmakit/facts.h"

#include <stdio.h>

static const char *or_none(const char *text)
{
	return text && text[0] ? text : "-";
}

int main(void)
{
	for (int id = 0; id < RK_FACT_TABLE_SIZE; id++) {
		const struct rk_fact *f = rk_fact((enum rk_fact_id)id);

		printf("%s\t%s\t%u\t%d\t%s\t%s\n", rk_fact_scope_name(f->scope), f->name, f->column,
		       rk_fact_served(f, RK_FRONT_SNMP), or_none(f->cd_instance),
		       or_none(f->cli_name));
	}
	return 0;
}
