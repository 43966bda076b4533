/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The core's facts (rdmakit/facts.h) through the one writer: each one's JSON key is its
 * cli_name and its value what its reader reads; the CLI says only where it goes and its text.
 * The writers of the other objects (fabric_out.c) take their facts' fields from here too. */
#ifndef RDMAKIT_CLI_FACTS_OUT_H
#define RDMAKIT_CLI_FACTS_OUT_H

#include "print.h"
#include "rdmakit/facts.h"

/* How a fact reads beyond what its kind says (a text, or a number that is unknown below 0). */
enum fact_style {
	STYLE_PLAIN,
	STYLE_FLAG,	  /* true or false; in text, fmt only when true */
	STYLE_YES_NO,	  /* true or false; in text, fmt with "yes" or "no" */
	STYLE_LANES,	  /* "4X" */
	STYLE_MASK,	  /* "0xa651e848" */
	STYLE_PCI_ID,	  /* "0x15b3", and 15b3 in text as lspci shows it */
	STYLE_NODE_TYPE,  /* the node type's name: "Switch" */
	STYLE_PORT_STATE, /* the logical state's name: "Active" */
	STYLE_PHYS_STATE, /* the physical state's name: "LinkUp" */
	STYLE_SPEED,	  /* the link speed's name: "EDR", null when unknown */
};

/* A fact where the CLI shows it; fmt is its text, with one conversion: %s, or a double's for a
 * plain number. */
struct fact_field {
	enum rk_fact_id id;
	const char *fmt;
	enum fact_style style;
};

#define FIELDS(array) array, sizeof(array) / sizeof(array[0])

/** A fact's key in the object it is a member of: its cli_name after the last dot. */
const char *fact_key(enum rk_fact_id id);

/** Open the object a nested fact is a member of ("remote" of "remote.guid"). */
void print_open_fact_object(struct printer *p, enum rk_fact_id id);

/** One fact of a subject, under its key (fact_key), as the field says. */
void print_fact(struct printer *p, const struct fact_field *field,
		const struct rk_fact_subject *subject);

/** Each of count fields of a subject, in order. */
void print_facts(struct printer *p, const struct fact_field *fields, size_t count,
		 const struct rk_fact_subject *subject);

/** The port's facts the CLI shows, in the table's order, a line each in text. */
void print_port_facts(struct printer *p, const struct rk_device *dev, const struct rk_port *port);

/** The device's facts at the top of its object (not "pci"'s nor vanished), in the table's
 * order, a line each in text. */
void print_device_facts(struct printer *p, const struct rk_device *dev);

/** The device's "pci" object, its facts in the table's order; null (and "none" in text) for a
 * virtual device. */
void print_pci_facts(struct printer *p, const struct rk_device *dev);

/** "vanished": true or false (" (vanished)" in text when true). */
void print_vanished(struct printer *p, const struct rk_device *dev);

/** Text only: the heading of the SMs' table, the labels of the facts print_sm_facts writes. */
void print_sm_heading(struct printer *p);

/** The SM's facts, a loop over the table (its order is sm --json's); one that did not answer
 * has only its LID and that. */
void print_sm_facts(struct printer *p, const struct rk_sm *sm);

/** "4X" for 4 lanes, or null when the width is unknown (0 or less). */
void print_width(struct printer *p, const char *key, const char *fmt, int lanes);

/** A link speed by name, null when there is none. */
void print_speed(struct printer *p, const char *key, const char *fmt, enum rk_speed speed);

#endif
