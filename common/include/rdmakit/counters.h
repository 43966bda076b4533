/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Reading a directory of counter files, saturation, and deltas between samples. */
#ifndef RDMAKIT_COUNTERS_H
#define RDMAKIT_COUNTERS_H

#include "rdmakit/catalog.h"
#include "rdmakit/sysfs.h"

#include <stdbool.h>
#include <stdint.h>

enum rk_value_state {
	RK_VALUE_OK,
	RK_VALUE_UNAVAILABLE, /* "N/A (no PMA)", empty or not a number */
	RK_VALUE_SATURATED,   /* stuck at the register's maximum */
};

/* One counter file and its last two samples. */
struct rk_counter {
	char *name;			/* the file name */
	const struct rk_metric *metric; /* never NULL: unknown driver counters get a generic one */
	struct rk_attr attr;
	enum rk_value_state state;
	uint64_t raw;	   /* as read */
	uint64_t value;	   /* raw × scale: bytes for data counters */
	bool has_delta;	   /* two usable samples */
	uint64_t delta;	   /* change between the last two samples, in the unit */
	uint64_t prev_raw; /* the previous sample */
	enum rk_value_state prev_state;
	bool sampled; /* read at least once */
};

/* The counters of one directory. */
struct rk_counter_set {
	struct rk_counter *items;
	size_t count;
};

/** Open every file of reldir as a counter of source; a missing directory is an empty set. */
int rk_counter_set_open(struct rk_sysfs *fs, const char *reldir, enum rk_source source,
			struct rk_counter_set *set);

/** Close every counter of the set. */
void rk_counter_set_close(struct rk_sysfs *fs, struct rk_counter_set *set);

/** Read every counter; -ENODEV when the files are gone (device removed), else 0. */
int rk_counter_set_read(struct rk_sysfs *fs, struct rk_counter_set *set);

/** rk_attr_recheck on every counter of the set: a replaced file is read anew (or refused). */
void rk_counter_set_recheck(struct rk_sysfs *fs, struct rk_counter_set *set);

/** The counter named name in the set, or NULL. */
const struct rk_counter *rk_counter_set_find(const struct rk_counter_set *set, const char *name);

/** Classify a raw value (text already parsed) against the metric's width. */
enum rk_value_state rk_counter_classify(const struct rk_metric *metric, uint64_t raw);

/** Change from prev to cur in raw units: wraps where the metric wraps, else a reset. */
uint64_t rk_counter_raw_delta(const struct rk_metric *metric, uint64_t prev, uint64_t cur);

/** Record one sample's text for a counter: parse, classify, update the delta. */
void rk_counter_update(struct rk_counter *counter, const char *text);

/** Whether the last update found the counter lower than the sample before without it being a
 * wrap (the port's counters were cleared, or the device reset): a discontinuity. */
bool rk_counter_went_back(const struct rk_counter *counter);

#endif
