/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The value checks every option of the <Plugin rdmakit> block goes through. */
#include "cd_config_keys.h"

#include "cd_submit.h"

#include <math.h>
#include <sys/stat.h>

int cd_key_reject(const oconfig_item_t *item, const char *shown, const char *why)
{
	cd_log(LOG_ERR, "%s %s: %s", item->key, shown, why);
	return -1;
}

const char *cd_key_string(const oconfig_item_t *item)
{
	if (item->values_num != 1 || item->values[0].type != OCONFIG_TYPE_STRING)
		return NULL;
	return item->values[0].value.string;
}

int cd_key_bool(const oconfig_item_t *item, const char *shown, bool *out)
{
	static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no",
									       "off"};
	const char *text = cd_key_string(item);

	if (item->values_num == 1 && item->values[0].type == OCONFIG_TYPE_BOOLEAN) {
		*out = item->values[0].value.boolean != 0;
		return 0;
	}
	for (size_t i = 0; text && i < 3; i++) {
		if (strcasecmp(text, yes[i]) == 0 || strcasecmp(text, no[i]) == 0) {
			*out = strcasecmp(text, yes[i]) == 0;
			return 0;
		}
	}
	return cd_key_reject(item, shown, "expected true or false");
}

int cd_key_setting(const oconfig_item_t *item, const char *shown, enum rk_setting setting,
		   double *out)
{
	char why[128];
	bool number = item->values_num == 1 && item->values[0].type == OCONFIG_TYPE_NUMBER;
	double value = number ? item->values[0].value.number : NAN;

	if (rk_limit_check(setting, value, why, sizeof(why)) != 0)
		return cd_key_reject(item, shown, why);
	*out = value;
	return 0;
}

int cd_key_setting_unsigned(const oconfig_item_t *item, const char *shown, enum rk_setting setting,
			    unsigned *out)
{
	double value;

	if (cd_key_setting(item, shown, setting, &value) != 0)
		return -1;
	*out = (unsigned)value;
	return 0;
}

int cd_key_directory(const oconfig_item_t *item, const char *shown, char **out)
{
	const char *path = cd_key_string(item);
	struct stat st;
	char *copy;

	if (!path || path[0] != '/' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return cd_key_reject(item, shown,
				     "expected the absolute path of an existing directory");
	copy = strdup(path);
	if (!copy)
		return cd_key_reject(item, shown, "out of memory");
	free(*out);
	*out = copy;
	return 0;
}
