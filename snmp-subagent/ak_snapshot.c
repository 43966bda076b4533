/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* An immutable snapshot of everything the subagent serves. */
#include "ak_snapshot.h"

#include "ak_oid.h"

#include "rdmakit/text.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct ak_snapshot *ak_snapshot_new(void)
{
	struct ak_snapshot *snapshot = calloc(1, sizeof(*snapshot));

	if (!snapshot)
		return NULL;
	for (int id = 0; id < AK_T_COUNT; id++) {
		snapshot->tables[id].ncolumns = ak_table_def((enum ak_table_id)id)->ncolumns;
		snapshot->tables[id].slot = ak_table_def((enum ak_table_id)id)->slot;
	}
	atomic_init(&snapshot->refs, 1);
	return snapshot;
}

static void free_row(const struct ak_table *table, struct ak_row *row)
{
	for (unsigned c = 0; c < table->ncolumns; c++)
		if (row->cells[c].type == AK_CELL_OCTETS && row->cells[c].len > AK_CELL_INLINE)
			free(row->cells[c].bytes);
}

struct ak_snapshot *ak_snapshot_hold(struct ak_snapshot *snapshot)
{
	atomic_fetch_add(&snapshot->refs, 1);
	return snapshot;
}

static bool is_fabric_table(enum ak_table_id id)
{
	return id == AK_T_SM_MASTER || id == AK_T_SM || id == AK_T_FABRIC_SUMMARY ||
	       id == AK_T_FABRIC_NODE || id == AK_T_FABRIC_PORT || id == AK_T_FABRIC_COUNTER;
}

const struct ak_table *ak_snapshot_table(const struct ak_snapshot *snapshot, enum ak_table_id id)
{
	if (snapshot->fabric && is_fabric_table(id))
		return &snapshot->fabric->tables[id];
	return &snapshot->tables[id];
}

const unsigned char *ak_cell_octets(const struct ak_cell *cell)
{
	return cell->len > AK_CELL_INLINE ? cell->bytes : cell->small;
}

void ak_snapshot_free(struct ak_snapshot *snapshot)
{
	if (!snapshot || atomic_fetch_sub(&snapshot->refs, 1) != 1)
		return;
	ak_snapshot_free(snapshot->fabric);
	for (int id = 0; id < AK_T_COUNT; id++) {
		struct ak_table *table = &snapshot->tables[id];

		for (size_t r = 0; r < table->nrows; r++)
			free_row(table, &table->rows[r]);
		free(table->rows);
		while (table->chunks) {
			struct ak_cell_chunk *next = table->chunks->next;

			free(table->chunks);
			table->chunks = next;
		}
	}
	free(snapshot);
}

int ak_oid_compare(const uint32_t *a, size_t alen, const uint32_t *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;

	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return alen == blen ? 0 : (alen < blen ? -1 : 1);
}

static int compare_rows(const void *x, const void *y)
{
	const struct ak_row *a = x, *b = y;

	return ak_oid_compare(a->index, a->index_len, b->index, b->index_len);
}

int ak_snapshot_seal(struct ak_snapshot *snapshot)
{
	size_t dropped = 0;

	for (int id = 0; id < AK_T_COUNT; id++) {
		struct ak_table *table = &snapshot->tables[id];
		size_t kept = 1;

		if (table->nrows < 2)
			continue; /* sorted already; and qsort must not get an empty table's NULL */
		qsort(table->rows, table->nrows, sizeof(*table->rows), compare_rows);
		for (size_t r = 1; r < table->nrows; r++) {
			if (compare_rows(&table->rows[kept - 1], &table->rows[r]) == 0)
				free_row(table, &table->rows[r]);
			else
				table->rows[kept++] = table->rows[r];
		}
		dropped += table->nrows - kept;
		table->nrows = kept;
	}
	return (int)dropped;
}

/* 256 KiB: above glibc's mmap threshold */
#define AK_CHUNK_CELLS (256 * 1024 / sizeof(struct ak_cell))

/* ncolumns zeroed cells for a new row. */
static struct ak_cell *take_cells(struct ak_table *table)
{
	struct ak_cell_chunk *chunk = table->chunks;

	if (!chunk || chunk->size - chunk->used < table->ncolumns) {
		size_t size = AK_CHUNK_CELLS > table->ncolumns ? AK_CHUNK_CELLS : table->ncolumns;

		chunk = calloc(1, sizeof(*chunk) + size * sizeof(chunk->cells[0]));
		if (!chunk)
			return NULL;
		chunk->size = size;
		chunk->next = table->chunks;
		table->chunks = chunk;
	}
	chunk->used += table->ncolumns;
	return &chunk->cells[chunk->used - table->ncolumns];
}

struct ak_row *ak_table_add_row(struct ak_table *table, const uint32_t *index, size_t len)
{
	struct ak_row *row;

	if (len > AK_INDEX_MAX)
		return NULL;
	if (table->nrows == table->capacity) {
		size_t capacity = table->capacity ? table->capacity * 2 : 16;
		struct ak_row *rows = realloc(table->rows, capacity * sizeof(*rows));

		if (!rows)
			return NULL;
		table->rows = rows;
		table->capacity = capacity;
	}
	row = &table->rows[table->nrows];
	memset(row, 0, sizeof(*row));
	row->cells = take_cells(table);
	row->slot = table->slot;
	if (!row->cells)
		return NULL;
	memcpy(row->index, index, len * sizeof(*index));
	row->index_len = len;
	table->nrows++;
	return row;
}

static struct ak_cell *cell_of(struct ak_row *row, unsigned column)
{
	return column < AK_COLUMN_LIMIT && row->slot[column] ? &row->cells[row->slot[column] - 1]
							     : NULL;
}

const struct ak_cell *ak_row_cell(const struct ak_row *row, unsigned column)
{
	return column < AK_COLUMN_LIMIT && row->slot[column] ? &row->cells[row->slot[column] - 1]
							     : NULL;
}

void ak_row_set_number(struct ak_row *row, unsigned column, enum ak_cell_type type, uint64_t value)
{
	struct ak_cell *cell = cell_of(row, column);

	if (!cell)
		return;
	cell->type = (uint8_t)type;
	cell->u = value;
}

int ak_row_set_octets(struct ak_row *row, unsigned column, const void *bytes, size_t len)
{
	struct ak_cell *cell = cell_of(row, column);

	if (!cell)
		return 0; /* a column the table does not serve */
	if (len > UINT16_MAX)
		return -EINVAL;
	if (len > AK_CELL_INLINE) {
		cell->bytes = malloc(len);
		if (!cell->bytes)
			return -ENOMEM;
	}
	memcpy(len > AK_CELL_INLINE ? cell->bytes : cell->small, bytes, len);
	cell->len = (uint16_t)len;
	cell->type = AK_CELL_OCTETS;
	return 0;
}

int ak_row_set_string(struct ak_row *row, unsigned column, const char *text)
{
	char clean[AK_DISPLAY_STRING_MAX + 1];
	size_t len = rk_text_clean(text, SIZE_MAX, clean, sizeof(clean));

	return ak_row_set_octets(row, column, clean, len);
}

const struct ak_row *ak_table_find(const struct ak_table *table, const uint32_t *index, size_t len)
{
	size_t lo = 0, hi = table->nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ak_row *row = &table->rows[mid];
		int order = ak_oid_compare(row->index, row->index_len, index, len);

		if (order == 0)
			return row;
		if (order < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t ak_table_after(const struct ak_table *table, const uint32_t *index, size_t len)
{
	size_t lo = 0, hi = table->nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ak_row *row = &table->rows[mid];

		if (ak_oid_compare(row->index, row->index_len, index, len) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
