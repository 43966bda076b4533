/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: the subagent's OID index decoding (ak_index_decode) and the lookups a GET
 * and a GETNEXT make with it (ak_table_find, ak_table_after) in a sealed table. Input: a row
 * count, each row's index (a length byte, 4 bytes per sub-identifier), then the request's index
 * (a length byte, 8 bytes per sub-identifier). The answers are checked against the order. */
#include "ak_index.h"
#include "ak_oid.h"
#include "ak_snapshot.h"

#include "fuzz_util.h"

#include <stdlib.h>
#include <string.h>

#define QUERY_MAX (AK_INDEX_MAX + 4)

struct reader {
	const uint8_t *data;
	size_t size;
};

static bool take(struct reader *in, void *out, size_t len)
{
	if (in->size < len)
		return false;
	memcpy(out, in->data, len);
	in->data += len;
	in->size -= len;
	return true;
}

static void add_rows(struct reader *in, struct ak_snapshot *snap)
{
	uint8_t nrows = 0, len;
	uint32_t index[AK_INDEX_MAX];

	take(in, &nrows, 1);
	for (unsigned r = 0; r < nrows % 17 && take(in, &len, 1); r++) {
		len %= AK_INDEX_MAX + 1;
		if (!take(in, index, len * sizeof(*index)))
			break;
		if (!ak_table_add_row(&snap->tables[AK_T_PORT], index, len))
			abort();
	}
	ak_snapshot_seal(snap);
}

static void check_lookups(const struct ak_table *table, const uint32_t *index, size_t len)
{
	const struct ak_row *row = ak_table_find(table, index, len);
	size_t pos = ak_table_after(table, index, len);

	if (row && ak_oid_compare(row->index, row->index_len, index, len) != 0)
		abort();
	if (pos > table->nrows)
		abort();
	if (pos < table->nrows &&
	    ak_oid_compare(table->rows[pos].index, table->rows[pos].index_len, index, len) <= 0)
		abort();
	if (pos > 0 && ak_oid_compare(table->rows[pos - 1].index, table->rows[pos - 1].index_len,
				      index, len) > 0)
		abort();
	if (row != (pos > 0 && ak_oid_compare(table->rows[pos - 1].index,
					      table->rows[pos - 1].index_len, index, len) == 0
			? &table->rows[pos - 1]
			: NULL))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool defs_ready;
	struct reader in = {data, size};
	struct ak_snapshot *snap;
	uint64_t wide[QUERY_MAX];
	oid name[QUERY_MAX];
	uint32_t index[AK_INDEX_MAX];
	uint8_t len = 0;
	bool fits = true;

	fuzz_quiet_log();
	if (!defs_ready) {
		ak_table_defs_init();
		defs_ready = true;
	}
	snap = ak_snapshot_new();
	if (!snap)
		abort();
	add_rows(&in, snap);
	take(&in, &len, 1);
	len %= QUERY_MAX + 1;
	memset(wide, 0, sizeof(wide));
	take(&in, wide, len * sizeof(*wide));
	for (size_t i = 0; i < len; i++) {
		name[i] = (oid)wide[i];
		fits = fits && name[i] <= UINT32_MAX;
	}
	if (ak_index_decode(name, len, index) != (fits && len <= AK_INDEX_MAX))
		abort();
	if (fits && len <= AK_INDEX_MAX)
		check_lookups(ak_snapshot_table(snap, AK_T_PORT), index, len);
	ak_snapshot_free(snap);
	return 0;
}
