/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tune mode: the core's audit of the host (rdmakit tune audit) every tune-interval, run by the
 * watch engine; its findings join the findings table and their changes become traps. */
#ifndef AK_TUNE_H
#define AK_TUNE_H

#include "ak_config.h"

#include "rdmakit/watch.h"

#include <stdbool.h>

/** The tune options as the watch engine's settings (the strings stay the config's). */
void ak_tune_settings(const struct ak_config *config, struct rk_watch_settings *settings);

/** Whether two configs ask for the same audit: tune on or off, root and profile (not the
 * interval). */
bool ak_tune_same_audit(const struct ak_config *a, const struct ak_config *b);

#endif
