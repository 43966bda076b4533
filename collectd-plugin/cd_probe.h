/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Probe mode: the core's loopback probe every ProbeInterval on the probed ports, its result and
 * round trip sent under each port's plugin instance, its finding reported once per change. */
#ifndef RDMAKIT_CD_PROBE_H
#define RDMAKIT_CD_PROBE_H

#include "cd_config_keys.h"

/* The type instance of the pass (1) or fail (0) gauge, and of the round trip's duration. */
#define CD_PROBE_PASSED "probe_passed"
#define CD_PROBE_RTT	"probe_rtt"

/* The probe mode's state between reads. */
struct cd_probe;

/** The Probe, ProbeInterval and ProbeDevice options; *count gets their number. */
const struct cd_key *cd_probe_keys(size_t *count);

/** Defaults: off, every RK_PROBE_INTERVAL_DEFAULT_S, every ACTIVE port. */
void cd_probe_config_init(struct cd_probe_config *probe);

/** Free what the probe options hold. */
void cd_probe_config_free(struct cd_probe_config *probe);

/** Set the probe mode up: its own view of the host under SysfsRoot, for the ports' states. */
int cd_probe_start(const struct cd_config *config, struct cd_probe **out);

/** One read: probe each port, send its values, log (and notify) each finding that changed. */
int cd_probe_read(struct cd_probe *probe);

/** Free the probe mode's state. */
void cd_probe_stop(struct cd_probe *probe);

#endif
