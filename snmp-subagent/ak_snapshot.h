/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* An immutable snapshot of everything the subagent serves: tables of typed cells in OID order. */
#ifndef AK_SNAPSHOT_H
#define AK_SNAPSHOT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum ak_cell_type {
	AK_CELL_NONE, /* no instance */
	AK_CELL_INTEGER,
	AK_CELL_UNSIGNED, /* Unsigned32 / Gauge32 */
	AK_CELL_COUNTER32,
	AK_CELL_COUNTER64,
	AK_CELL_TIMETICKS,
	AK_CELL_OCTETS,
	AK_CELL_AGE, /* Unsigned32: seconds since the snapshot was taken, computed when asked */
};

#define AK_CELL_INLINE 8 /* octet strings up to this long (GUIDs, BITS) live in the cell */

struct ak_cell {
	uint8_t type; /* enum ak_cell_type */
	uint16_t len; /* octets */
	union {
		int64_t i;
		uint64_t u;
		unsigned char *bytes;		     /* len > AK_CELL_INLINE */
		unsigned char small[AK_CELL_INLINE]; /* len <= AK_CELL_INLINE */
	};
};

#define AK_INDEX_MAX 10 /* the longest index: a GUID's 8 octets and a port */

/* Columns a table can have (numbers below AK_COLUMN_LIMIT), and serve at most. */
#define AK_COLUMN_LIMIT 100
#define AK_COLUMNS_MAX	32

struct ak_row {
	uint32_t index[AK_INDEX_MAX];
	size_t index_len;
	const unsigned char *slot; /* the table's column -> cell + 1 */
	struct ak_cell *cells;	   /* one per column the table serves */
};

/* Cells come from chunks big enough for malloc to map them on their own, so a freed snapshot
 * goes back to the system at once and a table of thousands of rows costs a few allocations. */
struct ak_cell_chunk {
	struct ak_cell_chunk *next;
	size_t used, size;
	struct ak_cell cells[];
};

struct ak_table {
	unsigned ncolumns; /* cells per row */
	const unsigned char *slot;
	struct ak_cell_chunk *chunks; /* the newest first */
	struct ak_row *rows;	      /* sorted by index once ak_snapshot_seal ran */
	size_t nrows, capacity;
};

enum ak_table_id {
	AK_T_AGENT, /* scalars: one row with index .0 */
	AK_T_DEVICE,
	AK_T_PORT,
	AK_T_PORT_COUNTER,
	AK_T_DRIVER_COUNTER,
	AK_T_FINDING,
	AK_T_FINDING_SUMMARY, /* scalars */
	AK_T_SM_MASTER,	      /* scalars */
	AK_T_SM,
	AK_T_FABRIC_SUMMARY, /* scalars */
	AK_T_FABRIC_NODE,
	AK_T_FABRIC_PORT,
	AK_T_FABRIC_COUNTER,
	AK_T_COUNT,
};

/* A snapshot is shared by reference: the fabric tables are built once per fabric sweep and
 * held by every host snapshot until the next sweep. */
struct ak_snapshot {
	struct ak_table tables[AK_T_COUNT];
	double taken_at; /* monotonic seconds */
	atomic_int refs;
	struct ak_snapshot *fabric;	  /* the SM and fabric tables, or NULL */
	struct ak_snapshot *next_retired; /* in the mailbox's list of snapshots to free */
};

/** An empty snapshot whose tables have the MIB's column counts; NULL when out of memory. */
struct ak_snapshot *ak_snapshot_new(void);

/** Drop a reference; the last one frees the snapshot and everything in it (NULL is fine). */
void ak_snapshot_free(struct ak_snapshot *snapshot);

/** Take another reference to a snapshot; returns it. */
struct ak_snapshot *ak_snapshot_hold(struct ak_snapshot *snapshot);

/** The table a request reads: the SM and fabric ones from the shared fabric part. */
const struct ak_table *ak_snapshot_table(const struct ak_snapshot *snapshot, enum ak_table_id id);

/** The octets of an OCTET STRING cell. */
const unsigned char *ak_cell_octets(const struct ak_cell *cell);

/** Sort every table's rows by index, dropping all but the first of rows that share one;
 * returns how many were dropped. */
int ak_snapshot_seal(struct ak_snapshot *snapshot);

/** Append a row with this index to a table; NULL when out of memory. */
struct ak_row *ak_table_add_row(struct ak_table *table, const uint32_t *index, size_t len);

/** The cell of a column in a row, or NULL when the table has no such column. */
const struct ak_cell *ak_row_cell(const struct ak_row *row, unsigned column);

/** Set a numeric cell of a row (a column the table has; others are ignored). */
void ak_row_set_number(struct ak_row *row, unsigned column, enum ak_cell_type type, uint64_t value);

/** Set an OCTET STRING cell to a copy of len bytes; -ENOMEM. */
int ak_row_set_octets(struct ak_row *row, unsigned column, const void *bytes, size_t len);

/* A DisplayString's longest value (RFC 2579). */
#define AK_DISPLAY_STRING_MAX 255

/** Set a DisplayString cell to a C string made 7-bit (rk_text_clean) and cut at
 * AK_DISPLAY_STRING_MAX octets; -ENOMEM. */
int ak_row_set_string(struct ak_row *row, unsigned column, const char *text);

/** The row with exactly this index, or NULL. */
const struct ak_row *ak_table_find(const struct ak_table *table, const uint32_t *index, size_t len);

/** The first row whose index comes after the given one in OID order (0: the first row);
 * returns its position, or table->nrows when there is none. */
size_t ak_table_after(const struct ak_table *table, const uint32_t *index, size_t len);

/** Compare two OIDs in SNMP order: <0, 0, >0. */
int ak_oid_compare(const uint32_t *a, size_t alen, const uint32_t *b, size_t blen);

#endif
