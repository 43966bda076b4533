/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Parsing the options of a <Plugin rdmakit> block: helpers shared by cd_config*.c. */
#ifndef RDMAKIT_CD_CONFIG_KEYS_H
#define RDMAKIT_CD_CONFIG_KEYS_H

#include "cd_config.h"

#include "rdmakit/limits.h"

/* One option: its name and what applies it ("shown" is its value as written). */
struct cd_key {
	const char *name;
	int (*apply)(struct cd_config *config, const oconfig_item_t *item, const char *shown);
};

/** Log "KEY VALUE: why" as an error and return -1. */
int cd_key_reject(const oconfig_item_t *item, const char *shown, const char *why);

/** The item's single string value, or NULL. */
const char *cd_key_string(const oconfig_item_t *item);

/** A boolean written bare (true) or quoted ("yes"), as collectd's own options accept. */
int cd_key_bool(const oconfig_item_t *item, const char *shown, bool *out);

/** A bare number within the setting's range (rdmakit/limits.h), else rejected with the core's
 * message. */
int cd_key_setting(const oconfig_item_t *item, const char *shown, enum rk_setting setting,
		   double *out);

/** cd_key_setting for a setting of whole numbers (the core's range says so), as unsigned. */
int cd_key_setting_unsigned(const oconfig_item_t *item, const char *shown, enum rk_setting setting,
			    unsigned *out);

/** The absolute path of an existing directory, copied into *out (freeing what it held). */
int cd_key_directory(const oconfig_item_t *item, const char *shown, char **out);

#endif
