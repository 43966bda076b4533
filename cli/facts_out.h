/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The core's facts (rdmakit/facts.h) through the one writer: each one's JSON key is its
 * cli_name and its value what its reader reads; the CLI says only where it goes and its text. */
#ifndef RDMAKIT_CLI_FACTS_OUT_H
#define RDMAKIT_CLI_FACTS_OUT_H

#include "print.h"
#include "rdmakit/facts.h"

#include <stdbool.h>

/* How a fact reads beyond what its kind says (a text, or a number that is unknown below 0). */
enum fact_style {
	STYLE_PLAIN,
	STYLE_FLAG,   /* true or false; in text, fmt only when true */
	STYLE_YES_NO, /* true or false; in text, fmt with "yes" or "no" */
	STYLE_LANES,  /* "4X" */
	STYLE_MASK,   /* "0xa651e848" */
	STYLE_PCI_ID, /* "0x15b3", and 15b3 in text as lspci shows it */
};

/* A fact where the CLI shows it; fmt is its text, with one conversion (%s, or %g for a plain
 * number). */
struct fact_field {
	enum rk_fact_id id;
	const char *fmt;
	enum fact_style style;
};

/* What a fact is read from, by its scope: a device, a port of it, or an SM. */
struct fact_item {
	const struct rk_device *dev;
	const struct rk_port *port;
	const struct rk_sm *sm;
};

#define FIELDS(array) array, sizeof(array) / sizeof(array[0])

/** One fact of item, under its cli_name (after a "pci." prefix: the member of an object). */
void print_fact(struct printer *p, const struct fact_field *field, const struct fact_item *item);

/** Each of count fields of item, in order. */
void print_facts(struct printer *p, const struct fact_field *fields, size_t count,
		 const struct fact_item *item);

/** True when the fact of item is known (a number not below 0, a text not empty). */
bool fact_known(const struct fact_field *field, const struct fact_item *item);

/** "4X" for 4 lanes, or null when the width is unknown (0 or less). */
void print_width(struct printer *p, const char *key, const char *fmt, int lanes);

#endif
