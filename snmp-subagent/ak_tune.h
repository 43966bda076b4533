/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tune mode: the core's audit of the host (rdmakit tune audit) every tune-interval, run by the
 * refresh thread; its findings join the findings table and their changes become traps. */
#ifndef AK_TUNE_H
#define AK_TUNE_H

#include "ak_config.h"

#include "rdmakit/events.h"
#include "rdmakit/health.h"
#include "rdmakit/tune.h"

#include <stdbool.h>

struct ak_tune_watch {
	bool enabled;
	double interval, next_at;
	struct rk_tune_options options; /* root and profile; nothing is ever applied */
	char *root;
	struct rk_findings findings; /* of the last audit that finished, ok ones left out */
	struct rk_event_tracker *tracker;
	struct rk_event_list events; /* raised and cleared by the last poll's audit */
	bool audited_once;	     /* the first audit only primes the tracker */
};

/** Set tune mode up from the config (off unless config->tune); -ENOMEM. */
int ak_tune_open(struct ak_tune_watch *watch, const struct ak_config *config);

/** Audit when due; events get what that audit raised and cleared (empty when none ran or it
 * failed), findings stay those of the last audit that finished. */
void ak_tune_poll(struct ak_tune_watch *watch);

/** Whether two configs ask for the same tune mode (a SIGHUP does not change it). */
bool ak_tune_same_config(const struct ak_config *a, const struct ak_config *b);

/** Release the findings, the events and the tracker. */
void ak_tune_close(struct ak_tune_watch *watch);

#endif
