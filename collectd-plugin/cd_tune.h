/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tune mode: rdmakit tune's audit every TuneInterval, its findings reported once per change. */
#ifndef RDMAKIT_CD_TUNE_H
#define RDMAKIT_CD_TUNE_H

#include "cd_config_keys.h"

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

/** Set the tune mode up. */
int cd_tune_start(const struct cd_config *config, struct cd_tune **out);

/** One read: audit, then log (and notify) each finding that appeared or cleared. */
int cd_tune_read(struct cd_tune *tune);

/** Free the tune mode's state. */
void cd_tune_stop(struct cd_tune *tune);

#endif
