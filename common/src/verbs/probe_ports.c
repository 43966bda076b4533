/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The loopback probe of a host's ports as doctor --probe and the daemons run it, and the one
 * finding each outcome gives. */
#include "rdmakit/verbs.h"

#include <stdio.h>
#include <string.h>

bool rk_probe_wanted(const struct rk_device *dev, const struct rk_port *port)
{
	return !dev->vanished && port->state == RK_PORT_ACTIVE;
}

void rk_probe_port(const char *device, unsigned port, double timeout, struct rk_probe_outcome *out)
{
	const struct rk_probe_options options = {
	    .device = device, .port = port, .timeout = timeout};

	memset(out, 0, sizeof(*out));
	snprintf(out->device, sizeof(out->device), "%s", device);
	out->port = port;
	out->status = rk_probe_run(&options, &out->result);
}

/* The finding of one probe outcome, its subject "device:port". */
static int add_probe_finding(const struct rk_probe_outcome *outcome, struct rk_findings *findings)
{
	const struct rk_probe_result *r = &outcome->result;
	char subject[96];

	snprintf(subject, sizeof(subject), "%s:%u", outcome->device, outcome->port);
	if (outcome->status != 0)
		return rk_findings_add(
		    findings, RK_SEVERITY_WARNING, "PROBE_NOT_RUN", subject,
		    "check that the device's verbs driver is loaded (ibv_devices)",
		    "the loopback probe could not open the device: %s", strerror(-outcome->status));
	if (r->passed)
		return rk_findings_add(findings, RK_SEVERITY_OK, "PROBE_PASSED", subject,
				       "nothing to do",
				       "loopback RDMA write, read and send of %zu bytes passed, "
				       "round trip %.3f ms",
				       r->size, r->rtt_seconds * 1e3);
	return rk_findings_add(findings, RK_SEVERITY_CRITICAL, "PROBE_FAILED", subject, r->hint,
			       "loopback probe failed at %s: %s",
			       rk_probe_step_name(r->failed_step), r->message);
}

int rk_probe_finding(const struct rk_probe_outcome *outcome, struct rk_findings *findings)
{
	size_t first = findings->count;
	int err = add_probe_finding(outcome, findings);

	rk_findings_locate_device(findings, first, outcome->device, (int)outcome->port);
	return err;
}
