/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A request OID's index part as the sub-identifiers of the snapshot's rows. */
#ifndef AK_INDEX_H
#define AK_INDEX_H

#include <net-snmp/net-snmp-config.h>

#include <net-snmp/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Decode len sub-identifiers into index; false when no row can have them (too long, or one
 * beyond 32 bits). */
bool ak_index_decode(const oid *name, size_t len, uint32_t *index);

#endif
