/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The loopback probe in the subagent, every probe-interval on each ACTIVE port. */
#include "ak_probe.h"

#include "ak_columns.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct rk_probe_outcome *outcome_of(const struct rk_watch_probes *probes,
						 const char *device, unsigned port)
{
	for (size_t i = 0; i < probes->count; i++)
		if (probes->items[i].port == port && strcmp(probes->items[i].device, device) == 0)
			return &probes->items[i];
	return NULL;
}

/* Status always; the round trip in microseconds when it passed; "STEP: message" when it
 * failed, "" otherwise. */
static int fill_row(struct ak_row *row, const struct rk_probe_outcome *outcome)
{
	const struct rk_probe_result *r = outcome ? &outcome->result : NULL;
	enum ak_probe_status status = !outcome || outcome->status ? AK_PROBE_NOT_RUN
				      : r->passed		  ? AK_PROBE_PASSED
								  : AK_PROBE_FAILED;
	char failure[256] = "";

	ak_row_set_number(row, AK_PORT_PROBE_STATUS, AK_CELL_INTEGER, status);
	if (status == AK_PROBE_PASSED)
		ak_row_set_number(row, AK_PORT_PROBE_RTT, AK_CELL_UNSIGNED,
				  (uint64_t)lround(r->rtt_seconds * 1e6));
	if (status == AK_PROBE_FAILED)
		snprintf(failure, sizeof(failure), "%s: %.*s", rk_probe_step_name(r->failed_step),
			 200, r->message);
	return ak_row_set_string(row, AK_PORT_PROBE_FAILURE, failure);
}

int ak_probe_fill(const struct rk_watch_probes *probes, struct ak_table *ports)
{
	int err = 0;

	for (size_t i = 0; i < ports->nrows && !err; i++) {
		struct ak_row *row = &ports->rows[i];
		const struct ak_cell *name = ak_row_cell(row, AK_PORT_DEVICE_NAME);
		char device[64];

		if (row->index_len != 2 || !name || name->type != AK_CELL_OCTETS ||
		    name->len >= sizeof(device))
			continue;
		memcpy(device, ak_cell_octets(name), name->len);
		device[name->len] = '\0';
		err = fill_row(row, outcome_of(probes, device, row->index[1]));
	}
	return err;
}
