/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The tune mode's options: Tune, TuneInterval, TuneRoot, TuneProfile. */
#include "cd_tune.h"

static int set_tune(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_bool(item, shown, &config->tune.enabled);
}

static int set_interval(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_setting(item, shown, RK_SETTING_TUNE_INTERVAL, &config->tune.interval);
}

static int set_root(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_directory(item, shown, &config->tune.root);
}

static int set_profile(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	const char *name = cd_key_string(item);

	config->tune.profile = name ? rk_tune_profile_find(name) : NULL;
	return config->tune.profile ? 0
				    : cd_key_reject(item, shown, "expected latency or throughput");
}

static const struct cd_key keys[] = {
    {"Tune", set_tune},
    {"TuneInterval", set_interval},
    {"TuneRoot", set_root},
    {"TuneProfile", set_profile},
};

const struct cd_key *cd_tune_keys(size_t *count)
{
	*count = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

void cd_tune_config_init(struct cd_tune_config *tune)
{
	*tune = (struct cd_tune_config){.interval = RK_TUNE_INTERVAL_DEFAULT_S};
}

void cd_tune_config_free(struct cd_tune_config *tune)
{
	free(tune->root);
	tune->root = NULL;
}
