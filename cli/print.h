/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* One writer for text and JSON: an object is written once, a field a call, and each call is
 * either a line of text for people (its printf format) or a member of a JSON document (its key;
 * json-c writes every value). Unknown values are JSON null and "-" in text. */
#ifndef RDMAKIT_CLI_PRINT_H
#define RDMAKIT_CLI_PRINT_H

#include "json_stream.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PRINT_DEPTH JSON_STREAM_DEPTH /* objects and arrays open at once, at most */

/* Where a call writes: in both outputs, or in one only (a heading, a summary, a value that the
 * other output shows in another way). */
enum print_where {
	PRINT_ANY,
	PRINT_TEXT,
	PRINT_JSON,
};

enum print_format {
	PRINT_FORMAT_TEXT,	  /* the formats, for people */
	PRINT_FORMAT_JSON,	  /* one pretty document, written by print_end */
	PRINT_FORMAT_JSON_LINE,	  /* one document on one line, written by print_end */
	PRINT_FORMAT_JSON_STREAM, /* one line, written as it goes (a big document) */
};

struct printer {
	FILE *out;
	enum print_format format;
	int depth;			    /* objects and arrays open */
	json_object *open[PRINT_DEPTH + 1]; /* what is open, when the document is built */
	bool in_array[PRINT_DEPTH + 1];	    /* what is open at each depth is an array */
	json_object *document;		    /* the built document, once closed */
	struct json_stream stream;	    /* PRINT_FORMAT_JSON_STREAM */
	bool text_off;			    /* print_text_off */
};

/** Start writing to out in format. */
void print_start(struct printer *p, FILE *out, enum print_format format);

/** The JSON format the --json of a command means: pretty, or one line each when it prints
 * several documents. */
enum print_format print_json_format(bool json, bool one_line);

/** Write the document that was built (pretty or one line) and flush the output; false when
 * anything written to it failed (main says so and exits non-zero). */
bool print_end(struct printer *p);

/** The errno of the first output print_end could not write, or 0. */
int print_write_error(void);

/** The document that was built, which print_end will then not write (the caller puts it);
 * NULL before it is closed, or when it is streamed. */
json_object *print_take_document(struct printer *p);

/** True when the printer writes JSON. */
bool print_is_json(const struct printer *p);

/** Open an object: the document, an array's item, or (key not NULL) a member; JSON only. */
void print_open_object(struct printer *p, const char *key);

/** Open an array, the same way; JSON only. */
void print_open_array(struct printer *p, const char *key);

/** Close the innermost open object or array. */
void print_close(struct printer *p);

/** A string (NULL: null, and "-" in text); key is ignored in an array, fmt (NULL: nothing
 * printed) takes one %s. */
void print_string(struct printer *p, enum print_where where, const char *key, const char *fmt,
		  const char *value);

/** A GUID as rk_format_guid writes it ("0x0002c90300000001"); fmt takes one %s. */
void print_guid(struct printer *p, enum print_where where, const char *key, const char *fmt,
		uint64_t guid);

/** A string that is unknown when empty: null, and "-" in text. */
void print_string_or_null(struct printer *p, enum print_where where, const char *key,
			  const char *fmt, const char *value);

/** len bytes of value (NULL: null); fmt takes an int and the bytes (%.*s). */
void print_string_len(struct printer *p, enum print_where where, const char *key, const char *fmt,
		      const char *value, size_t len);

/** Leave the text out while on (a part the text shows elsewhere, or only on request). */
void print_text_off(struct printer *p, bool off);

/** A signed whole number; fmt takes one long long (%lld). */
void print_int(struct printer *p, enum print_where where, const char *key, const char *fmt,
	       long long value);

/** An unsigned whole number; fmt takes one unsigned long long (%llu). */
void print_uint(struct printer *p, enum print_where where, const char *key, const char *fmt,
		unsigned long long value);

/** A number that is unknown when negative; JSON writes a whole one as an integer (200, not
 * 200.0), fmt takes one double. */
void print_number_or_null(struct printer *p, enum print_where where, const char *key,
			  const char *fmt, double value);

/** A decimal (JSON always with a fraction: 200.0); fmt takes one double. */
void print_double(struct printer *p, enum print_where where, const char *key, const char *fmt,
		  double value);

/** A decimal that is unknown when negative. */
void print_double_or_null(struct printer *p, enum print_where where, const char *key,
			  const char *fmt, double value);

/** true or false; fmt takes one %s, "yes" or "no" (or none, to print fmt as it is). */
void print_bool(struct printer *p, enum print_where where, const char *key, const char *fmt,
		bool value);

/** An unknown value: null, and fmt with "-" for its one conversion in text. */
void print_null(struct printer *p, enum print_where where, const char *key, const char *fmt);

/** Text only: fmt with text for its one conversion, in the same width (a column's heading). */
void print_column_heading(struct printer *p, const char *fmt, const char *text);

/* A member of a C struct that is written as it is: key, text, type and offset. */
struct print_member {
	const char *key, *fmt; /* fmt: %llu for a whole number, a double's conversion else */
	enum { PRINT_U32, PRINT_SIZE, PRINT_DOUBLE } type;
	size_t offset;
};

/** Each of count members of the struct at base, in order. */
void print_members(struct printer *p, const struct print_member *members, size_t count,
		   const void *base);

/** Text only: printf. */
void print_text(struct printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
