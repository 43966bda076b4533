/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The probe mode's options: Probe, ProbeInterval, ProbeDevice. */
#include "cd_probe.h"

#include "rdmakit/host.h"

static int set_probe(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_bool(item, shown, &config->probe.enabled);
}

static int set_interval(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_setting(item, shown, RK_SETTING_PROBE_INTERVAL, &config->probe.interval);
}

/* "DEV" or "DEV:PORT": a device name as sysfs has it, and a port number from 1. */
static int parse_target(const char *text, struct cd_probe_target *target)
{
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);

	if (len == 0 || len >= sizeof(target->device) || memchr(text, '/', len) || text[0] == '.')
		return -EINVAL;
	memcpy(target->device, text, len);
	target->device[len] = '\0';
	target->port = 0;
	if (colon && (rk_parse_port_number(colon + 1, &target->port) != 0 || target->port == 0))
		return -EINVAL;
	return 0;
}

static int add_device(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	struct cd_probe_config *probe = &config->probe;
	const char *text = cd_key_string(item);
	struct cd_probe_target target, *grown;

	if (!text || parse_target(text, &target) != 0)
		return cd_key_reject(item, shown,
				     "expected \"DEVICE\" or \"DEVICE:PORT\" (e.g. \"mlx5_0:1\")");
	grown = realloc(probe->targets, (probe->ntargets + 1) * sizeof(*grown));
	if (!grown)
		return cd_key_reject(item, shown, "out of memory");
	probe->targets = grown;
	probe->targets[probe->ntargets++] = target;
	return 0;
}

static const struct cd_key keys[] = {
    {"Probe", set_probe},
    {"ProbeInterval", set_interval},
    {"ProbeDevice", add_device},
};

const struct cd_key *cd_probe_keys(size_t *count)
{
	*count = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

void cd_probe_config_init(struct cd_probe_config *probe)
{
	*probe = (struct cd_probe_config){.interval = RK_PROBE_INTERVAL_DEFAULT_S};
}

void cd_probe_config_free(struct cd_probe_config *probe)
{
	free(probe->targets);
	probe->targets = NULL;
	probe->ntargets = 0;
}
