/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Where RDMAKIT-MIB's objects sit: the one root (as in mibs/RDMAKIT-MIB.txt), each table and
 * its columns. */
#ifndef AK_OID_H
#define AK_OID_H

#include "ak_snapshot.h"

#include <stddef.h>
#include <stdint.h>

/* rdmakitMIB ::= { netSnmpPlaypen 42 }: moving the MIB changes this line and the MIB's. */
#define AK_ROOT_OID 1, 3, 6, 1, 4, 1, 8072, 9999, 9999, 42
#define AK_ROOT_LEN 10

#define AK_OID_MAX 48

/* A registered subtree: a scalar group or a table entry, and the columns it serves. */
struct ak_table_def {
	enum ak_table_id id;
	const char *name;
	uint32_t arcs[4]; /* under the root */
	size_t narcs;
	unsigned columns[AK_COLUMNS_MAX]; /* ascending */
	size_t ncolumns;
	unsigned char slot[AK_COLUMN_LIMIT]; /* column -> its cell + 1, 0 when not served */
};

/** Fill in every table's columns (from the table of facts); call once before the rest. */
void ak_table_defs_init(void);

/** The definition of every table and scalar group; *count receives how many. */
const struct ak_table_def *ak_table_defs(size_t *count);

/** The definition of one table. */
const struct ak_table_def *ak_table_def(enum ak_table_id id);

/* The modes an agent runs (rdmakitServedModes), as bits. */
enum ak_mode {
	AK_MODE_HOST = 1u << 0,
	AK_MODE_FABRIC = 1u << 1,
	AK_MODE_SM = 1u << 2,
	AK_MODE_TUNE = 1u << 3,
	AK_MODE_PROBE = 1u << 4,
	AK_MODE_AUDIT = 1u << 5, /* no table of its own: the fabric audit's scalars are served */
};

/** The mode a table is served in (AK_MODE_HOST, AK_MODE_FABRIC or AK_MODE_SM). */
unsigned ak_table_mode(enum ak_table_id id);

/** The names of the modes set in modes, comma-separated in the MIB's order ("host,sm"). */
void ak_modes_text(unsigned modes, char *buf, size_t size);

/* Notifications: rdmakitNotifications.N */
#define AK_TRAP_FINDING_RAISED	 1
#define AK_TRAP_FINDING_CLEARED	 2
#define AK_TRAP_PORT_STATE	 3
#define AK_TRAP_SM_MASTER_CHANGE 4
#define AK_TRAP_FINDING_CHANGED	 5

#endif
