/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* One writer for text and JSON: an object is written once, a field a call. */
#include "print.h"

#include "rdmakit/fabric.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#define JSON_FLAGS JSON_C_TO_STRING_NOSLASHESCAPE

void print_start(struct printer *p, FILE *out, enum print_format format)
{
	*p = (struct printer){.out = out, .format = format};
	if (format == PRINT_FORMAT_JSON_STREAM)
		json_stream_init(&p->stream, out);
}

enum print_format print_json_format(bool json, bool one_line)
{
	if (!json)
		return PRINT_FORMAT_TEXT;
	return one_line ? PRINT_FORMAT_JSON_LINE : PRINT_FORMAT_JSON;
}

/* The errno of the first write that failed, for the message at exit. */
static int first_write_error;

int print_write_error(void)
{
	return first_write_error;
}

bool print_end(struct printer *p)
{
	int flags = p->format == PRINT_FORMAT_JSON
			? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED
			: JSON_C_TO_STRING_PLAIN;

	if (p->document) {
		fputs(json_object_to_json_string_ext(p->document, flags | JSON_FLAGS), p->out);
		fputc('\n', p->out);
		json_object_put(p->document);
		p->document = NULL;
	}
	if (fflush(p->out) == 0 && !ferror(p->out))
		return true;
	if (!first_write_error)
		first_write_error = errno ? errno : EIO;
	return false;
}

json_object *print_take_document(struct printer *p)
{
	json_object *doc = p->document;

	p->document = NULL;
	return doc;
}

bool print_is_json(const struct printer *p)
{
	return p->format != PRINT_FORMAT_TEXT;
}

static bool writes_json(const struct printer *p, enum print_where where)
{
	return print_is_json(p) && where != PRINT_TEXT;
}

static bool writes_text(const struct printer *p, enum print_where where, const char *fmt)
{
	return !print_is_json(p) && !p->text_off && where != PRINT_JSON && fmt;
}

void print_text_off(struct printer *p, bool off)
{
	p->text_off = off;
}

/* A member of the open object, an item of the open array, or the document itself. */
static void add(struct printer *p, const char *key, json_object *value)
{
	key = p->in_array[p->depth] ? NULL : key;
	if (p->format == PRINT_FORMAT_JSON_STREAM)
		json_stream_value(&p->stream, key, value);
	else if (p->depth == 0)
		p->document = value;
	else if (key)
		json_object_object_add(p->open[p->depth], key, value);
	else
		json_object_array_add(p->open[p->depth], value);
}

static void open_container(struct printer *p, const char *key, bool array)
{
	json_object *container;

	if (!print_is_json(p))
		return;
	key = p->in_array[p->depth] ? NULL : key;
	if (p->format == PRINT_FORMAT_JSON_STREAM) {
		if (array)
			json_stream_open_array(&p->stream, key);
		else
			json_stream_open_object(&p->stream, key);
	} else {
		container = array ? json_object_new_array() : json_object_new_object();
		add(p, key, container);
		p->open[p->depth + 1] = container;
	}
	p->in_array[++p->depth] = array;
}

void print_open_object(struct printer *p, const char *key)
{
	open_container(p, key, false);
}

void print_open_array(struct printer *p, const char *key)
{
	open_container(p, key, true);
}

void print_close(struct printer *p)
{
	if (!print_is_json(p))
		return;
	if (p->format == PRINT_FORMAT_JSON_STREAM)
		json_stream_close(&p->stream);
	p->depth--;
}

/* The formats are the callers' own literals; this is the one place that passes them on. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void text_vprint(FILE *out, const char *fmt, va_list args)
{
	vfprintf(out, fmt, args);
}
#pragma GCC diagnostic pop

static void text_print(FILE *out, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	text_vprint(out, fmt, args);
	va_end(args);
}

void print_text(struct printer *p, const char *fmt, ...)
{
	va_list args;

	if (!writes_text(p, PRINT_TEXT, fmt))
		return;
	va_start(args, fmt);
	text_vprint(p->out, fmt, args);
	va_end(args);
}

/* Literal text of a format: "%%" is one '%'. */
static void text_literal(FILE *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (text[i] != '%' || text[++i] == '%')
			fputc(text[i], out);
}

/* fmt with its one conversion shown as text in the same width ("%-6u" prints "-     " for
 * "-"). */
static void text_in_place(FILE *out, const char *fmt, const char *text)
{
	const char *conv = fmt;
	char spec[16] = "%";
	size_t len = 1;

	while ((conv = strchr(conv, '%')) && conv[1] == '%')
		conv += 2;
	if (!conv) {
		text_literal(out, fmt, strlen(fmt));
		return;
	}
	text_literal(out, fmt, (size_t)(conv - fmt));
	for (conv++; *conv && strchr("-+ #0", *conv); conv++)
		if (*conv == '-')
			spec[len++] = '-';
	while (isdigit((unsigned char)*conv) && len < sizeof(spec) - 2)
		spec[len++] = *conv++;
	conv += strspn(conv, ".0123456789hlLqjzt");
	spec[len] = 's';
	text_print(out, spec, text);
	if (*conv)
		text_literal(out, conv + 1, strlen(conv + 1));
}

void print_string(struct printer *p, enum print_where where, const char *key, const char *fmt,
		  const char *value)
{
	if (writes_json(p, where))
		add(p, key, value ? json_object_new_string(value) : NULL);
	else if (writes_text(p, where, fmt))
		text_print(p->out, fmt, value ? value : "-");
}

void print_guid(struct printer *p, enum print_where where, const char *key, const char *fmt,
		uint64_t guid)
{
	char text[24];

	rk_format_guid(guid, text, sizeof(text));
	print_string(p, where, key, fmt, text);
}

void print_string_or_null(struct printer *p, enum print_where where, const char *key,
			  const char *fmt, const char *value)
{
	print_string(p, where, key, fmt, value && value[0] ? value : NULL);
}

void print_string_len(struct printer *p, enum print_where where, const char *key, const char *fmt,
		      const char *value, size_t len)
{
	if (writes_json(p, where))
		add(p, key, value ? json_object_new_string_len(value, (int)len) : NULL);
	else if (writes_text(p, where, fmt))
		text_print(p->out, fmt, value ? (int)len : 1, value ? value : "-");
}

void print_int(struct printer *p, enum print_where where, const char *key, const char *fmt,
	       long long value)
{
	if (writes_json(p, where))
		add(p, key, json_object_new_int64(value));
	else if (writes_text(p, where, fmt))
		text_print(p->out, fmt, value);
}

void print_uint(struct printer *p, enum print_where where, const char *key, const char *fmt,
		unsigned long long value)
{
	if (writes_json(p, where))
		add(p, key, json_object_new_uint64(value));
	else if (writes_text(p, where, fmt))
		text_print(p->out, fmt, value);
}

void print_null(struct printer *p, enum print_where where, const char *key, const char *fmt)
{
	if (writes_json(p, where))
		add(p, key, NULL);
	else if (writes_text(p, where, fmt))
		text_in_place(p->out, fmt, "-");
}

void print_column_heading(struct printer *p, const char *fmt, const char *text)
{
	if (writes_text(p, PRINT_TEXT, fmt))
		text_in_place(p->out, fmt, text);
}

void print_double(struct printer *p, enum print_where where, const char *key, const char *fmt,
		  double value)
{
	if (writes_json(p, where))
		add(p, key, json_object_new_double(value));
	else if (writes_text(p, where, fmt))
		text_print(p->out, fmt, value);
}

void print_double_or_null(struct printer *p, enum print_where where, const char *key,
			  const char *fmt, double value)
{
	if (value < 0)
		print_null(p, where, key, fmt);
	else
		print_double(p, where, key, fmt, value);
}

void print_number_or_null(struct printer *p, enum print_where where, const char *key,
			  const char *fmt, double value)
{
	if (value < 0)
		print_null(p, where, key, fmt);
	else if (writes_json(p, where) && value == floor(value) && value < 9.0e15)
		add(p, key, json_object_new_int64((int64_t)value));
	else
		print_double(p, where, key, fmt, value);
}

void print_members(struct printer *p, const struct print_member *members, size_t count,
		   const void *base)
{
	for (size_t i = 0; i < count; i++) {
		const struct print_member *m = &members[i];
		const char *at = (const char *)base + m->offset;

		if (m->type == PRINT_DOUBLE)
			print_double(p, PRINT_ANY, m->key, m->fmt, *(const double *)at);
		else if (m->type == PRINT_SIZE)
			print_uint(p, PRINT_ANY, m->key, m->fmt, *(const size_t *)at);
		else
			print_uint(p, PRINT_ANY, m->key, m->fmt, *(const uint32_t *)at);
	}
}

void print_bool(struct printer *p, enum print_where where, const char *key, const char *fmt,
		bool value)
{
	if (writes_json(p, where))
		add(p, key, json_object_new_boolean(value));
	else if (writes_text(p, where, fmt))
		text_print(p->out, fmt, value ? "yes" : "no");
}
