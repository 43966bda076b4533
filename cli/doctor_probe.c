/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* doctor --probe: the loopback probe's result on every ACTIVE port, as findings. */
#include "doctor_probe.h"

#include "rdmakit/verbs.h"

int doctor_add_probe_findings(const struct rk_host *host, struct rk_findings *findings)
{
	struct rk_probe_outcome outcome;
	int err = 0;

	for (size_t d = 0; d < host->ndevices && !err; d++) {
		const struct rk_device *dev = &host->devices[d];

		for (unsigned p = 0; p < dev->nports && !err; p++) {
			if (!rk_probe_wanted(dev, &dev->ports[p]))
				continue;
			rk_probe_port(dev->name, dev->ports[p].num, 0, &outcome);
			err = rk_probe_finding(&outcome, findings);
		}
	}
	return err;
}
