/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "doctor_probe.h"

#include "rdmakit/verbs.h"

#include <stdio.h>

static int add_probe_finding(const struct rk_device *dev, const struct rk_port *port,
			     struct rk_findings *findings)
{
	struct rk_probe_options options = {.device = dev->name, .port = port->num};
	struct rk_probe_result r;
	char subject[96];

	snprintf(subject, sizeof(subject), "%s:%u", dev->name, port->num);
	if (rk_probe_run(&options, &r) != 0)
		return rk_findings_add(
		    findings, RK_SEVERITY_WARNING, "PROBE_NOT_RUN", subject,
		    "check that the device's verbs driver is loaded (ibv_devices)",
		    "the loopback probe could not open the device");
	if (r.passed)
		return rk_findings_add(findings, RK_SEVERITY_OK, "PROBE_PASSED", subject,
				       "nothing to do",
				       "loopback RDMA write, read and send of %zu bytes passed, "
				       "round trip %.3f ms",
				       r.size, r.rtt_seconds * 1e3);
	return rk_findings_add(findings, RK_SEVERITY_CRITICAL, "PROBE_FAILED", subject, r.hint,
			       "loopback probe failed at %s: %s", rk_probe_step_name(r.failed_step),
			       r.message);
}

int doctor_add_probe_findings(const struct rk_host *host, struct rk_findings *findings)
{
	int err = 0;

	for (size_t d = 0; d < host->ndevices && !err; d++) {
		const struct rk_device *dev = &host->devices[d];

		for (unsigned p = 0; p < dev->nports && !err; p++)
			if (!dev->vanished && dev->ports[p].state == RK_PORT_ACTIVE)
				err = add_probe_finding(dev, &dev->ports[p], findings);
	}
	return err;
}
