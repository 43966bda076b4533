/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The one table of every counter rdmakit knows: name, width, kind, unit, help, MIB column. */
#ifndef RDMAKIT_CATALOG_H
#define RDMAKIT_CATALOG_H

#include "rdmakit/catalog_pma.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How many PMA port counters the catalog has: the rows of catalog_pma.h. */
#define RK_PMA_COUNT_ONE(...) +1
enum { RK_PMA_COUNT = 0 RK_PMA_COUNTERS(RK_PMA_COUNT_ONE, RK_PMA_COUNT_ONE) };

/* Where a counter lives. */
enum rk_source {
	RK_SRC_PORT_COUNTERS,	 /* ports/N/counters/: the IB PMA counters */
	RK_SRC_HW_COUNTERS,	 /* ports/N/hw_counters/ and the device's hw_counters/ */
	RK_SRC_PORT_VL_COUNTERS, /* a PMA attribute of one counter per VL, read by fabric sweeps
				  * only: pma_field is VL 0's field, VL n's is pma_field + n */
};

enum rk_kind {
	RK_KIND_COUNTER, /* only goes up (until reset or saturation) */
	RK_KIND_GAUGE,	 /* a level or setting */
	RK_KIND_TEXT,	 /* a name, GUID or version string (facts.h only) */
};

/* MIB columns: in a table, columns below this one are kept for the index objects; a column,
 * once published, is never renumbered nor reused (see facts.h). */
#define RK_COLUMN_FIRST 3

/* One metric. */
struct rk_metric {
	const char *name;	 /* the kernel's sysfs file name */
	enum rk_source source;	 /* which directory it is read from */
	unsigned width;		 /* bits of the hardware register */
	unsigned narrow_width;	 /* bits when the PMA lacks extended counters, else 0 */
	enum rk_kind kind;	 /* counter or gauge */
	unsigned scale;		 /* multiply the raw value by this to get the unit */
	const char *unit;	 /* bytes, packets, errors, ticks, events, ms */
	bool is_error;		 /* a rising value means a fault */
	bool wraps;		 /* wraps at its width instead of sticking at the maximum */
	const char *help;	 /* one line for people */
	int pma_field;		 /* libibmad field in PortCounters (enum MAD_FIELDS), 0 if none */
	int pma_ext_field;	 /* libibmad field in PortCountersExtended, 0 if none */
	bool pma_ext_additional; /* pma_ext_field is one of PortCountersExtended's additional
				  * counters: read only where the node's ClassPortInfo says so */
	int reset_bit;		 /* CounterSelect bit that clears it, -1 if it cannot be reset */
	unsigned column;	 /* MIB column in the port counter table (PMA counters), else 0 */
};

/** The metric for a file name in a source, or NULL when the catalog lacks it. */
const struct rk_metric *rk_catalog_find(enum rk_source source, const char *name);

/** The catalog entry to use for a driver counter the catalog does not describe. */
const struct rk_metric *rk_catalog_unknown_hw(void);

/** Every metric of the catalog; *count receives the number of entries. */
const struct rk_metric *rk_catalog_all(size_t *count);

/** The PMA counters (the first entries of the catalog); *count receives how many. */
const struct rk_metric *rk_catalog_pma(size_t *count);

/** Index of a PMA counter in rk_catalog_pma(), or -1. */
int rk_catalog_pma_index(const char *name);

/** Largest raw value the metric's register (of the given width) can hold. */
uint64_t rk_metric_max(unsigned width);

#endif
