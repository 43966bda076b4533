/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A request OID's index part as the sub-identifiers of the snapshot's rows. */
#include "ak_index.h"

#include "ak_snapshot.h"

bool ak_index_decode(const oid *name, size_t len, uint32_t *index)
{
	if (len > AK_INDEX_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (name[i] > UINT32_MAX)
			return false;
		index[i] = (uint32_t)name[i];
	}
	return true;
}
