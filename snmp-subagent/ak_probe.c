/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "ak_probe.h"

#include "ak_columns.h"

#include "rdmakit/clock.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t count_wanted(const struct rk_host *host)
{
	size_t n = 0;

	for (size_t d = 0; d < host->ndevices; d++)
		for (unsigned p = 0; p < host->devices[d].nports; p++)
			n += rk_probe_wanted(&host->devices[d], &host->devices[d].ports[p]);
	return n;
}

int ak_probe_poll(struct ak_probe *probe, const struct rk_host *host)
{
	double now = rk_monotonic_seconds();
	size_t n = 0, wanted = count_wanted(host);
	struct rk_probe_outcome *outcomes;

	if (!probe->config.enabled ||
	    (probe->last_round > 0 && now - probe->last_round < probe->config.interval))
		return 0;
	outcomes = calloc(wanted ? wanted : 1, sizeof(*outcomes));
	if (!outcomes)
		return -ENOMEM;
	for (size_t d = 0; d < host->ndevices; d++) {
		const struct rk_device *dev = &host->devices[d];

		for (unsigned p = 0; p < dev->nports; p++)
			if (n < wanted && rk_probe_wanted(dev, &dev->ports[p]))
				rk_probe_port(dev->name, dev->ports[p].num,
					      RK_PROBE_DAEMON_TIMEOUT_S, &outcomes[n++]);
	}
	free(probe->outcomes);
	probe->outcomes = outcomes;
	probe->count = n;
	probe->last_round = now;
	return 0;
}

int ak_probe_findings(const struct ak_probe *probe, struct rk_findings *findings)
{
	int err = 0;

	for (size_t i = 0; i < probe->count && !err; i++)
		err = rk_probe_finding(&probe->outcomes[i], findings);
	return err;
}

static const struct rk_probe_outcome *outcome_of(const struct ak_probe *probe, const char *device,
						 unsigned port)
{
	for (size_t i = 0; i < probe->count; i++)
		if (probe->outcomes[i].port == port &&
		    strcmp(probe->outcomes[i].device, device) == 0)
			return &probe->outcomes[i];
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

int ak_probe_fill(const struct ak_probe *probe, const struct rk_host *host, struct ak_table *ports)
{
	int err = 0;

	for (size_t i = 0; i < ports->nrows && !err; i++) {
		struct ak_row *row = &ports->rows[i];
		size_t d = row->index[0] - 1;

		if (row->index_len == 2 && d < host->ndevices)
			err =
			    fill_row(row, outcome_of(probe, host->devices[d].name, row->index[1]));
	}
	return err;
}

void ak_probe_free(struct ak_probe *probe)
{
	free(probe->outcomes);
	probe->outcomes = NULL;
	probe->count = 0;
}
