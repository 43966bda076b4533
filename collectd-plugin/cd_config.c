/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The <Plugin rdmakit> block: its keys, their values, and the checks. */
#include "cd_config.h"

#include "cd_config_fabric.h"
#include "cd_config_keys.h"
#include "cd_probe.h"
#include "cd_submit.h"
#include "cd_tune.h"

#include "rdmakit/catalog.h"

#include <errno.h>

/* Longest HwCounter name: it becomes a type instance. */
#define HW_NAME_MAX 63

/* Print an item's values as written, for messages: "x", 3, true, or (no value). */
static void show_values(const oconfig_item_t *item, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	if (item->values_num == 0)
		snprintf(buf, size, "(no value)");
	for (int i = 0; i < item->values_num && used < size; i++) {
		const oconfig_value_t *v = &item->values[i];
		const char *sep = i ? " " : "";
		int len;

		if (v->type == OCONFIG_TYPE_STRING)
			len = snprintf(buf + used, size - used, "%s\"%s\"", sep, v->value.string);
		else if (v->type == OCONFIG_TYPE_NUMBER)
			len = snprintf(buf + used, size - used, "%s%g", sep, v->value.number);
		else
			len = snprintf(buf + used, size - used, "%s%s", sep,
				       v->value.boolean ? "true" : "false");
		used += len > 0 ? (size_t)len : 0;
	}
}

static int set_sysfs_root(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_directory(item, shown, &config->sysfs_root);
}

static int add_port(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	const char *entry = cd_key_string(item);
	char why[192] = "expected one string";

	if (!entry || cd_ports_add(&config->ports, entry, why, sizeof(why)) != 0)
		return cd_key_reject(item, shown, why);
	return 0;
}

static int set_ignore_selected(struct cd_config *config, const oconfig_item_t *item,
			       const char *shown)
{
	return cd_key_bool(item, shown, &config->ports.ignore_selected);
}

static int set_hw_counters(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_bool(item, shown, &config->hw_counters);
}

static int set_rescan(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_setting(item, shown, RK_SETTING_RESCAN_S, &config->rescan);
}

static int set_notifications(struct cd_config *config, const oconfig_item_t *item,
			     const char *shown)
{
	return cd_key_bool(item, shown, &config->notifications);
}

static int add_hw_counter(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	const char *name = cd_key_string(item);
	char **grown;

	if (!name || !name[0] || strlen(name) > HW_NAME_MAX || strchr(name, '/') || name[0] == '.')
		return cd_key_reject(item, shown, "expected the file name of a driver counter");
	if (!rk_catalog_find(RK_SRC_HW_COUNTERS, name))
		cd_log(LOG_INFO,
		       "HwCounter \"%s\" is not in rdmakit's catalog: sent as derive "
		       "where the driver has it",
		       name);
	grown = realloc(config->hw_names, (config->hw_count + 1) * sizeof(*grown));
	if (!grown)
		return cd_key_reject(item, shown, "out of memory");
	config->hw_names = grown;
	grown[config->hw_count] = strdup(name);
	if (!grown[config->hw_count])
		return cd_key_reject(item, shown, "out of memory");
	config->hw_count++;
	return 0;
}

/* Host-mode keys; the fabric and SM keys are in cd_config_fabric.c. */
static const struct cd_key keys[] = {
    {"SysfsRoot", set_sysfs_root},
    {"Port", add_port},
    {"IgnoreSelected", set_ignore_selected},
    {"HwCounters", set_hw_counters},
    {"HwCounter", add_hw_counter},
    {"Notifications", set_notifications},
    {"Rescan", set_rescan},
};

static const struct cd_key *host_keys(size_t *count)
{
	*count = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

/* Every mode's options, in the order the unknown-option message lists them. */
static const struct cd_key *(*const key_lists[])(size_t *count) = {
    host_keys,
    cd_fabric_keys,
    cd_tune_keys,
    cd_probe_keys,
};

#define KEY_LISTS (sizeof(key_lists) / sizeof(key_lists[0]))

static const struct cd_key *find_key(const char *name)
{
	for (size_t l = 0; l < KEY_LISTS; l++) {
		size_t count;
		const struct cd_key *list = key_lists[l](&count);

		for (size_t i = 0; i < count; i++)
			if (strcasecmp(name, list[i].name) == 0)
				return &list[i];
	}
	return NULL;
}

/* Append ", NAME" (just NAME first) for every key of list. */
static void append_names(char *names, size_t size, const struct cd_key *list, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		size_t used = strlen(names);

		snprintf(names + used, size - used, "%s%s", used ? ", " : "", list[i].name);
	}
}

static int reject_unknown(const oconfig_item_t *item, const char *shown)
{
	char names[640] = "", why[672];

	for (size_t l = 0; l < KEY_LISTS; l++) {
		size_t count;
		const struct cd_key *list = key_lists[l](&count);

		append_names(names, sizeof(names), list, count);
	}
	snprintf(why, sizeof(why), "unknown option (known: %s)", names);
	return cd_key_reject(item, shown, why);
}

static int apply_item(struct cd_config *config, const oconfig_item_t *item)
{
	const struct cd_key *key = find_key(item->key);
	char shown[256];

	show_values(item, shown, sizeof(shown));
	if (!key)
		return reject_unknown(item, shown);
	if (item->children_num > 0)
		return cd_key_reject(item, shown, "is an option, not a block");
	return key->apply(config, item, shown);
}

int cd_config_init(struct cd_config *config)
{
	memset(config, 0, sizeof(*config));
	config->hw_counters = true;
	config->rescan = RK_RESCAN_DEFAULT_S;
	config->sysfs_root = strdup("/sys");
	cd_fabric_config_init(&config->fabric);
	cd_tune_config_init(&config->tune);
	cd_probe_config_init(&config->probe);
	return config->sysfs_root ? 0 : -ENOMEM;
}

int cd_config_apply(struct cd_config *config, const oconfig_item_t *block)
{
	int status = 0;

	for (int i = 0; i < block->children_num; i++)
		if (apply_item(config, &block->children[i]) != 0)
			status = -1;
	if (config->hw_count > 0 && !config->hw_counters) {
		cd_log(LOG_ERR, "HwCounter \"%s\" given with HwCounters false: choose one",
		       config->hw_names[0]);
		status = -1;
	}
	if (cd_fabric_config_check(&config->fabric) != 0)
		status = -1;
	return status;
}

bool cd_config_wants_hw(const struct cd_config *config, const char *name)
{
	if (!config->hw_counters)
		return false;
	if (config->hw_count == 0)
		return true;
	for (size_t i = 0; i < config->hw_count; i++)
		if (strcmp(config->hw_names[i], name) == 0)
			return true;
	return false;
}

void cd_config_free(struct cd_config *config)
{
	free(config->sysfs_root);
	cd_ports_free(&config->ports);
	for (size_t i = 0; i < config->hw_count; i++)
		free(config->hw_names[i]);
	free(config->hw_names);
	cd_fabric_config_free(&config->fabric);
	cd_tune_config_free(&config->tune);
	cd_probe_config_free(&config->probe);
	memset(config, 0, sizeof(*config));
}
