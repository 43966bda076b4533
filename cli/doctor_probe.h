/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* doctor --probe: the loopback probe's result on every ACTIVE port, as findings. */
#ifndef RDMAKIT_CLI_DOCTOR_PROBE_H
#define RDMAKIT_CLI_DOCTOR_PROBE_H

#include "rdmakit/health.h"
#include "rdmakit/host.h"

/** Probe every ACTIVE port: PROBE_PASSED (ok), PROBE_FAILED (critical) or PROBE_NOT_RUN. */
int doctor_add_probe_findings(const struct rk_host *host, struct rk_findings *findings);

#endif
