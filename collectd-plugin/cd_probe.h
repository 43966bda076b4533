/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Probe mode: the watch engine's loopback probe every ProbeInterval on the ports chosen here,
 * each round's results and round trips sent under each port's plugin instance, its findings
 * reported once per change. */
#ifndef RDMAKIT_CD_PROBE_H
#define RDMAKIT_CD_PROBE_H

#include "cd_config_keys.h"

#include "rdmakit/watch.h"

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

/** The engine's probe_choose (arg: the config): the ProbeDevice entries, or every ACTIVE port
 * that Port and IgnoreSelected keep; 0 or -ENOMEM. */
int cd_probe_choose(const void *arg, const struct rk_host *host, struct rk_watch_probes *round);

/** Set the probe mode up on the engine's probe job; config must outlive it. */
int cd_probe_start(struct rk_watch *watch, const struct cd_config *config, struct cd_probe **out);

/** The interval of the probe read: a few times per ProbeInterval. */
cdtime_t cd_probe_read_interval(const struct cd_config *config);

/** One read: send the values of a new round, log (and notify) each finding that changed. */
int cd_probe_read(struct cd_probe *probe);

/** Free the probe mode's state. */
void cd_probe_stop(struct cd_probe *probe);

#endif
