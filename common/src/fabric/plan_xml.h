/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A small XML reader for plan files (plan_ibfc.c): elements, attributes and text, with the five
 * named entities and character references; comments, processing instructions and a DOCTYPE
 * passed over, CDATA read as text. Bounded: names, attribute values and text have a fixed
 * room; no namespaces, no DTD, no external anything. Well-formedness of the nesting is the
 * caller's (it keeps the open elements). */
#ifndef RDMAKIT_PLAN_XML_H
#define RDMAKIT_PLAN_XML_H

#include "rdmakit/plan.h"

#include <stdbool.h>
#include <stdio.h>

#define XML_NAME_MAX  63
#define XML_ATTRS_MAX 16
#define XML_VALUE_MAX RK_PLAN_MAX_LINE

struct xml_attr {
	char name[XML_NAME_MAX + 1];
	char value[XML_VALUE_MAX + 1];
};

enum xml_kind {
	XML_EOF,
	XML_START, /* <name attr="value" ...>, or <name .../> (empty) */
	XML_END,   /* </name> */
	XML_TEXT,
	XML_BAD, /* not well-formed: the reader's error says why */
};

struct xml_token {
	enum xml_kind kind;
	unsigned line; /* where it starts */
	char name[XML_NAME_MAX + 1];
	bool empty;
	struct xml_attr attrs[XML_ATTRS_MAX]; /* the first ones; more are read and dropped */
	size_t nattrs;
	char text[XML_VALUE_MAX + 1];
	bool truncated; /* the text was longer than XML_VALUE_MAX: cut */
};

struct xml_reader {
	FILE *in;
	unsigned line; /* of the next byte */
	char error[96];
};

/** Start reading in, whose first byte is on line 1. */
void xml_start(struct xml_reader *r, FILE *in);

/** The next token into t, its kind also returned (XML_BAD: r->error says why). */
enum xml_kind xml_next(struct xml_reader *r, struct xml_token *t);

/** The value of t's attribute name, or NULL. */
const char *xml_attr(const struct xml_token *t, const char *name);

#endif
