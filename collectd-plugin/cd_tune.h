/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tune mode: rdmakit tune's audit every TuneInterval, its findings reported once per change. */
#ifndef RDMAKIT_CD_TUNE_H
#define RDMAKIT_CD_TUNE_H

#include "cd_config_keys.h"
#include "cd_mon.h"

/* The plugin name of tune's notifications. */
#define CD_TUNE_PLUGIN "rdma_tune"

/* The tune mode's state between reads. */
struct cd_tune;

/** The Tune, TuneInterval, TuneRoot and TuneProfile options; *count gets their number. */
const struct cd_key *cd_tune_keys(size_t *count);

/** Defaults: off, every RK_TUNE_INTERVAL_DEFAULT_S, root /, no profile. */
void cd_tune_config_init(struct cd_tune_config *tune);

/** Free what the tune options hold. */
void cd_tune_config_free(struct cd_tune_config *tune);

/** Set the tune mode up on the shared watch (which audits); config must outlive it. */
int cd_tune_start(struct rk_watch *watch, const struct cd_config *config, struct cd_tune **out);

/** The interval of the tune read: a few times per TuneInterval. */
cdtime_t cd_tune_read_interval(const struct cd_config *config);

/** One read: log (and notify) each finding the watch's audits raised or cleared since. */
int cd_tune_read(struct cd_tune *tune);

/** Free the tune mode's state. */
void cd_tune_stop(struct cd_tune *tune);

#endif
