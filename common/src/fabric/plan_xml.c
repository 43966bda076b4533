/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The XML reader of plan files (plan_xml.h): one byte at a time from a stream, each token
 * bounded, anything it cannot read an error rather than a guess. */
#include "plan_xml.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* Text being collected into a fixed room. */
struct xml_buf {
	char *s;
	size_t n, size;
	bool truncated;
};

static void put(struct xml_buf *b, int c)
{
	if (b->n + 1 < b->size)
		b->s[b->n++] = (char)c;
	else
		b->truncated = true;
}

static int get(struct xml_reader *r)
{
	int c = getc(r->in);

	r->line += c == '\n';
	return c;
}

static void unget(struct xml_reader *r, int c)
{
	if (c == EOF)
		return;
	r->line -= c == '\n';
	ungetc(c, r->in);
}

static enum xml_kind bad(struct xml_reader *r, struct xml_token *t, const char *why)
{
	snprintf(r->error, sizeof(r->error), "%s", why);
	return t->kind = XML_BAD;
}

void xml_start(struct xml_reader *r, FILE *in)
{
	*r = (struct xml_reader){.in = in, .line = 1};
}

/* Code point cp as UTF-8; false for one that is not a character. */
static bool put_utf8(struct xml_buf *b, unsigned long cp)
{
	if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return false;
	if (cp < 0x80) {
		put(b, (int)cp);
	} else if (cp < 0x800) {
		put(b, (int)(0xc0 | cp >> 6));
		put(b, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		put(b, (int)(0xe0 | cp >> 12));
		put(b, (int)(0x80 | (cp >> 6 & 0x3f)));
		put(b, (int)(0x80 | (cp & 0x3f)));
	} else {
		put(b, (int)(0xf0 | cp >> 18));
		put(b, (int)(0x80 | (cp >> 12 & 0x3f)));
		put(b, (int)(0x80 | (cp >> 6 & 0x3f)));
		put(b, (int)(0x80 | (cp & 0x3f)));
	}
	return true;
}

/* The entity ref (between & and ;) into b; false when it is none XML defines. */
static bool put_entity(struct xml_buf *b, const char *ref)
{
	static const char *const names[] = {"lt", "gt", "amp", "quot", "apos"};
	static const char chars[] = "<>&\"'";
	unsigned long cp = 0;
	const char *s = ref + 1;
	int base = 10;

	for (int i = 0; i < 5; i++)
		if (strcmp(ref, names[i]) == 0)
			return put(b, chars[i]), true;
	if (ref[0] != '#')
		return false;
	if (*s == 'x')
		base = 16, s++;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!(base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s)))
			return false;
		cp = cp * (unsigned long)base +
		     (unsigned long)(isdigit((unsigned char)*s)
					 ? *s - '0'
					 : tolower((unsigned char)*s) - 'a' + 10);
	}
	return put_utf8(b, cp);
}

/* After '&': the entity or character reference into b, or the text as it is when it is
 * neither. */
static void entity(struct xml_reader *r, struct xml_buf *b)
{
	char ref[12];
	size_t n = 0;
	int c;

	while ((c = get(r)) != EOF && n + 1 < sizeof(ref) && (isalnum(c) || c == '#'))
		ref[n++] = (char)c;
	ref[n] = '\0';
	if (c == ';' && put_entity(b, ref))
		return;
	put(b, '&');
	for (size_t i = 0; i < n; i++)
		put(b, ref[i]);
	if (c == ';')
		put(b, c);
	else
		unget(r, c);
}

static int skip_blanks(struct xml_reader *r)
{
	int c;

	while ((c = get(r)) != EOF && isspace(c))
		;
	return c;
}

static bool name_char(int c, bool first)
{
	return isalpha(c) || c == '_' || c == ':' ||
	       (!first && (isdigit(c) || c == '-' || c == '.'));
}

/* A name into name (XML_NAME_MAX + 1 bytes); false when there is none or it is too long. */
static bool read_name(struct xml_reader *r, char *name)
{
	size_t n = 0;
	int c;

	while ((c = get(r)) != EOF && name_char(c, n == 0)) {
		if (n == XML_NAME_MAX)
			return false;
		name[n++] = (char)c;
	}
	unget(r, c);
	name[n] = '\0';
	return n > 0;
}

/* The quoted value of an attribute into value; NULL, or why it cannot be read. */
static const char *read_value(struct xml_reader *r, char *value)
{
	struct xml_buf b = {value, 0, XML_VALUE_MAX + 1, false};
	int quote = skip_blanks(r), c;

	if (quote != '"' && quote != '\'')
		return "an attribute value without quotes";
	while ((c = get(r)) != quote) {
		if (c == EOF)
			return "the file ends inside an attribute value";
		if (c == '<')
			return "a < inside an attribute value";
		if (c == '&')
			entity(r, &b);
		else
			put(&b, c);
	}
	value[b.n] = '\0';
	return b.truncated ? "an attribute value longer than 1024 characters" : NULL;
}

/* One name="value" of a start tag into t (past its room: read and dropped). */
static const char *read_attribute(struct xml_reader *r, struct xml_token *t)
{
	struct xml_attr dropped;
	struct xml_attr *a = t->nattrs < XML_ATTRS_MAX ? &t->attrs[t->nattrs] : &dropped;
	const char *why;

	if (!read_name(r, a->name))
		return "a bad attribute name";
	if (skip_blanks(r) != '=')
		return "an attribute without =";
	if ((why = read_value(r, a->value)))
		return why;
	t->nattrs += a != &dropped;
	return NULL;
}

/* After '<': a start tag. */
static enum xml_kind start_tag(struct xml_reader *r, struct xml_token *t)
{
	const char *why;
	int c;

	t->nattrs = 0;
	t->empty = false;
	if (!read_name(r, t->name))
		return bad(r, t, "a bad element name after <");
	for (;;) {
		c = skip_blanks(r);
		if (c == '>' || (c == '/' && (t->empty = get(r) == '>')))
			return t->kind = XML_START;
		if (c == EOF || c == '/')
			return bad(r, t,
				   c == EOF ? "the file ends inside a tag" : "a / not before >");
		unget(r, c);
		if ((why = read_attribute(r, t)))
			return bad(r, t, why);
	}
}

/* After "</": an end tag. */
static enum xml_kind end_tag(struct xml_reader *r, struct xml_token *t)
{
	if (!read_name(r, t->name))
		return bad(r, t, "a bad element name after </");
	if (skip_blanks(r) != '>')
		return bad(r, t, "an end tag not closed by >");
	return t->kind = XML_END;
}

/* Text up to the next '<' (or the end). */
static enum xml_kind text(struct xml_reader *r, struct xml_token *t)
{
	struct xml_buf b = {t->text, 0, sizeof(t->text), false};
	int c;

	while ((c = get(r)) != EOF && c != '<') {
		if (c == '&')
			entity(r, &b);
		else
			put(&b, c);
	}
	unget(r, c);
	t->text[b.n] = '\0';
	t->truncated = b.truncated;
	return t->kind = XML_TEXT;
}

/* Past the next run of at least count close bytes and a '>' (the end of a comment, a
 * processing instruction or CDATA), the bytes before it into b when b is given; false at the
 * end of the file. */
static bool skip_past(struct xml_reader *r, int close, int count, struct xml_buf *b)
{
	int run = 0, c;

	while ((c = get(r)) != EOF) {
		if (c == '>' && run >= count) {
			if (b && !b->truncated)
				b->n -= (size_t)count;
			return true;
		}
		run = c == close ? run + 1 : 0;
		if (b)
			put(b, c);
	}
	return false;
}

/* Past a declaration (<!DOCTYPE ...>, with its [...] subset). */
static bool skip_declaration(struct xml_reader *r)
{
	int depth = 0, c;

	while ((c = get(r)) != EOF) {
		if (c == '[')
			depth++;
		else if (c == ']' && depth)
			depth--;
		else if (c == '>' && !depth)
			return true;
	}
	return false;
}

/* After "<!": CDATA as text, or a comment or a declaration passed over (XML_EOF: nothing to
 * return, read on). */
static enum xml_kind markup(struct xml_reader *r, struct xml_token *t)
{
	struct xml_buf b = {t->text, 0, sizeof(t->text), false};
	char word[8] = "";
	int c = get(r);

	if (c == '-') {
		if (get(r) != '-')
			return bad(r, t, "<!- not starting a comment");
		return skip_past(r, '-', 2, NULL) ? XML_EOF : bad(r, t, "an unterminated comment");
	}
	if (c != '[') {
		unget(r, c);
		return skip_declaration(r) ? XML_EOF : bad(r, t, "an unterminated declaration");
	}
	for (size_t i = 0; i < 6 && (c = get(r)) != EOF; i++)
		word[i] = (char)c;
	if (strcmp(word, "CDATA[") != 0)
		return bad(r, t, "<![ not starting CDATA");
	if (!skip_past(r, ']', 2, &b))
		return bad(r, t, "an unterminated CDATA section");
	t->text[b.n] = '\0';
	t->truncated = b.truncated;
	return t->kind = XML_TEXT;
}

/* After '<': the token it starts (XML_EOF: one passed over). */
static enum xml_kind tag(struct xml_reader *r, struct xml_token *t)
{
	int c = get(r);

	if (c == '?')
		return skip_past(r, '?', 1, NULL)
			   ? XML_EOF
			   : bad(r, t, "an unterminated processing instruction");
	if (c == '!')
		return markup(r, t);
	if (c == '/')
		return end_tag(r, t);
	unget(r, c);
	return start_tag(r, t);
}

enum xml_kind xml_next(struct xml_reader *r, struct xml_token *t)
{
	for (;;) {
		int c;

		t->line = r->line;
		if ((c = get(r)) == EOF)
			return t->kind = XML_EOF;
		if (c != '<') {
			unget(r, c);
			return text(r, t);
		}
		if (tag(r, t) != XML_EOF)
			return t->kind;
	}
}

const char *xml_attr(const struct xml_token *t, const char *name)
{
	for (size_t i = 0; i < t->nattrs; i++)
		if (strcmp(t->attrs[i].name, name) == 0)
			return t->attrs[i].value;
	return NULL;
}
