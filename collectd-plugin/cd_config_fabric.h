/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The fabric and SM options of the <Plugin rdmakit> block (cd_config_fabric.c). */
#ifndef RDMAKIT_CD_CONFIG_FABRIC_H
#define RDMAKIT_CD_CONFIG_FABRIC_H

#include "cd_config_keys.h"

/** The fabric and SM options; *count receives their number. */
const struct cd_key *cd_fabric_keys(size_t *count);

/** Defaults of the fabric and SM options. */
void cd_fabric_config_init(struct cd_fabric_config *fabric);

/** Checks across fabric options after a block; logs each conflict and returns -1 if any. */
int cd_fabric_config_check(const struct cd_fabric_config *fabric);

/** Free what the fabric options hold. */
void cd_fabric_config_free(struct cd_fabric_config *fabric);

#endif
