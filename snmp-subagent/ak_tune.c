/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tune mode: the core's audit of the host every tune-interval. */
#include "ak_tune.h"

#include <string.h>

void ak_tune_settings(const struct ak_config *config, struct rk_watch_settings *settings)
{
	settings->tune = config->tune;
	settings->tune_interval_s = config->tune_interval;
	settings->tune_root = config->tune_root;
	settings->tune_profile = config->tune_profile;
}

/* Roots compare as given, with / for the default. */
static bool same_root(const char *a, const char *b)
{
	return strcmp(a ? a : "/", b ? b : "/") == 0;
}

bool ak_tune_same_audit(const struct ak_config *a, const struct ak_config *b)
{
	return a->tune == b->tune && same_root(a->tune_root, b->tune_root) &&
	       a->tune_profile == b->tune_profile;
}
