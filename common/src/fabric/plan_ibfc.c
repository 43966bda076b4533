/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibfabricconf.xml plans: the fabric description of LLNL's ibfabric tools (libibfabricconf,
 * read by checkfabric and ibparsefabricconf). <ibfabric> (older files: <fabric>) holds
 * <subfabric>s and <linklist name="NODE">s; a linklist's <port num="N"> has the other end in
 * <r_port>M</r_port> and <r_node>NAME</r_node>; speed and width attributes (SDR to XDR or MAX,
 * 1x to 12x or MAX) on any of them are inherited by the ports inside (a port's <speed> and
 * <width> elements are read too). Nodes are named, placed on the fabric when compared. */
#include "plan_internal.h"
#include "plan_xml.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define IBFC_DEPTH_MAX 32

/* What an element is to the plan. */
enum ibfc_kind {
	K_FABRIC, /* <ibfabric>, <fabric>, <subfabric> */
	K_LINKLIST,
	K_PORT,
	K_R_PORT,
	K_R_NODE,
	K_SPEED,
	K_WIDTH,
	K_IGNORED, /* passed over with all inside it */
};

/* An open element, and the rate the ports inside it inherit. */
struct ibfc_level {
	enum ibfc_kind kind;
	char name[XML_NAME_MAX + 1];
	unsigned line;
	int width;
	enum rk_speed speed;
};

/* The text of a port's leaf element (<r_port>, <r_node>, <speed>, <width>). */
struct ibfc_text {
	char s[XML_VALUE_MAX + 1];
	bool truncated;
};

/* The port being read. */
struct ibfc_port {
	char num[XML_VALUE_MAX + 1];
	bool has_num;
	struct ibfc_text leaf[4]; /* by kind - K_R_PORT */
};

struct ibfc {
	struct plan_parser *p;
	struct xml_reader xml;
	struct xml_token tok;
	struct ibfc_level stack[IBFC_DEPTH_MAX];
	int depth;
	bool root_done;
	char linklist[PLAN_NAME_MAX + 1];
	struct ibfc_port port;
};

/* Log why the file is refused (at the current token's line); -EBADMSG. */
static int refuse(struct ibfc *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(struct ibfc *f, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	rk_log(RK_LOG_ERR, "%s:%u: %s; plan refused", f->p->origin, f->tok.line, why);
	return -EBADMSG;
}

/* SDR to XDR in any case, or MAX (any). */
static bool read_speed(const char *text, enum rk_speed *speed)
{
	if (strcasecmp(text, "MAX") == 0) {
		*speed = RK_SPEED_NONE;
		return true;
	}
	return (*speed = rk_speed_from_name(text)) != RK_SPEED_NONE;
}

/* 1x, 4x, 8x, 12x (lanes then x or X), or MAX (any). */
static bool read_width(const char *text, int *width)
{
	const char *s = text;

	if (strcasecmp(text, "MAX") == 0) {
		*width = 0;
		return true;
	}
	return plan_parse_int(&s, RK_WIDTH_MAX, width) && *width > 0 && (*s == 'x' || *s == 'X') &&
	       !s[1];
}

/* What an element of this name is inside one of kind parent. */
static enum ibfc_kind kind_in(enum ibfc_kind parent, const char *name)
{
	static const struct {
		enum ibfc_kind parent;
		const char *name;
		enum ibfc_kind kind;
	} kinds[] = {
	    {K_FABRIC, "subfabric", K_FABRIC}, {K_FABRIC, "linklist", K_LINKLIST},
	    {K_LINKLIST, "port", K_PORT},      {K_PORT, "r_port", K_R_PORT},
	    {K_PORT, "r_node", K_R_NODE},      {K_PORT, "speed", K_SPEED},
	    {K_PORT, "width", K_WIDTH},
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].parent == parent && strcmp(kinds[i].name, name) == 0)
			return kinds[i].kind;
	return K_IGNORED;
}

/* The element's speed and width attributes over what it inherits; false (reported, the element
 * skipped) when one cannot be read. */
static bool read_rate(struct ibfc *f, struct ibfc_level *level)
{
	const char *speed = xml_attr(&f->tok, "speed"), *width = xml_attr(&f->tok, "width");

	if (speed && !read_speed(speed, &level->speed))
		plan_bad(f->p, "<%s>: unknown speed \"%.40s\" (SDR to XDR, or MAX)", level->name,
			 speed);
	else if (width && !read_width(width, &level->width))
		plan_bad(f->p, "<%s>: unknown width \"%.40s\" (1x to 12x, or MAX)", level->name,
			 width);
	else
		return true;
	return false;
}

/* A <linklist>'s node name; false (reported) when it has none that fits. */
static bool start_linklist(struct ibfc *f)
{
	const char *name = xml_attr(&f->tok, "name");

	if (!name || !*name) {
		plan_bad(f->p, "a <linklist> without a name: its ports are skipped");
		return false;
	}
	if (strlen(name) > PLAN_NAME_MAX) {
		plan_bad(f->p, "<linklist name=\"%.40s...\">: a name longer than 95 characters",
			 name);
		return false;
	}
	memcpy(f->linklist, name, strlen(name) + 1);
	return true;
}

/* An element of a fabric that is not read: <chassis> and unknown ones, reported (<property>
 * is not). */
static void report_skipped(struct ibfc *f, const char *name)
{
	if (strcmp(name, "chassis") == 0)
		plan_bad(f->p, "<chassis> needs the chassis model files of LLNL's libibfabricconf: "
			       "give its nodes' links as <linklist>s");
	else if (strcmp(name, "property") != 0)
		plan_bad(f->p, "unknown element <%s>", name);
}

/* A new <port>: its num kept for its end. */
static void start_port(struct ibfc *f)
{
	const char *num = xml_attr(&f->tok, "num");

	memset(&f->port, 0, sizeof(f->port));
	if ((f->port.has_num = num != NULL))
		memcpy(f->port.num, num, strlen(num) + 1);
}

/* What the new element at the top is; K_IGNORED for one skipped (reported). */
static enum ibfc_kind kind_of_new(struct ibfc *f, const struct ibfc_level *parent,
				  struct ibfc_level *level)
{
	enum ibfc_kind kind = parent ? kind_in(parent->kind, level->name) : K_FABRIC;

	f->p->line = level->line;
	if (kind == K_IGNORED && parent && parent->kind == K_FABRIC)
		report_skipped(f, level->name);
	if ((kind == K_FABRIC || kind == K_LINKLIST || kind == K_PORT) && !read_rate(f, level))
		return K_IGNORED;
	if (kind == K_LINKLIST && !start_linklist(f))
		return K_IGNORED;
	if (kind == K_PORT)
		start_port(f);
	else if (kind >= K_R_PORT && kind <= K_WIDTH)
		f->port.leaf[kind - K_R_PORT] = (struct ibfc_text){0};
	return kind;
}

static int start(struct ibfc *f)
{
	const struct ibfc_level *parent = f->depth ? &f->stack[f->depth - 1] : NULL;
	struct ibfc_level *level;

	if (f->depth == IBFC_DEPTH_MAX)
		return refuse(f, "not well-formed for a plan: elements nested deeper than %d",
			      IBFC_DEPTH_MAX);
	if (!parent && f->root_done)
		return refuse(f, "not well-formed XML: a second root element <%s>", f->tok.name);
	if (!parent && strcmp(f->tok.name, "ibfabric") != 0 && strcmp(f->tok.name, "fabric") != 0)
		return refuse(f,
			      "not an ibfabricconf file: the root element is <%s>, not <ibfabric>",
			      f->tok.name);
	level = &f->stack[f->depth++];
	*level = (struct ibfc_level){.line = f->tok.line,
				     .width = parent ? parent->width : 0,
				     .speed = parent ? parent->speed : RK_SPEED_NONE};
	memcpy(level->name, f->tok.name, sizeof(level->name));
	level->kind =
	    parent && parent->kind == K_IGNORED ? K_IGNORED : kind_of_new(f, parent, level);
	return 0;
}

/* The text of the port's leaf element t, blanks around it trimmed; "" when there was none. */
static char *leaf_text(struct ibfc_text *t)
{
	char *s = t->s + strspn(t->s, " \t\r\n");
	size_t n = strlen(s);

	while (n && strchr(" \t\r\n", s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* A port number from 1 to 254 that is the whole text. */
static bool read_port(const char *text, int *port)
{
	return plan_parse_int(&text, RK_PLAN_MAX_PORT, port) && *port > 0 && !*text;
}

/* Why the port just read cannot be a link (NULL: it can), its ends and rate filled in. */
static const char *port_problem(struct ibfc_port *port, struct plan_named_link *l)
{
	struct ibfc_text *leaf = port->leaf;
	const char *speed = leaf_text(&leaf[K_SPEED - K_R_PORT]);
	const char *width = leaf_text(&leaf[K_WIDTH - K_R_PORT]);

	for (int i = 0; i < 4; i++)
		if (leaf[i].truncated)
			return "a value longer than 1024 characters";
	if (!port->has_num || !read_port(port->num, &l->port_a))
		return "num is not a port number from 1 to 254";
	if (!*(l->name_b = leaf_text(&leaf[K_R_NODE - K_R_PORT])))
		return "no <r_node> naming the node at the other end";
	if (strlen(l->name_b) > PLAN_NAME_MAX)
		return "an <r_node> longer than 95 characters";
	if (!read_port(leaf_text(&leaf[K_R_PORT - K_R_PORT]), &l->port_b))
		return "no <r_port> with a port number from 1 to 254";
	if (*speed && !read_speed(speed, &l->speed))
		return "a <speed> that is not SDR to XDR or MAX";
	if (*width && !read_width(width, &l->width))
		return "a <width> that is not 1x to 12x or MAX";
	return NULL;
}

/* The end of a <port>: its link, or the port reported and skipped. */
static int end_port(struct ibfc *f, const struct ibfc_level *level)
{
	struct plan_named_link l = {.width = level->width, .speed = level->speed};
	const char *why = port_problem(&f->port, &l);

	f->p->line = level->line;
	if (why)
		return plan_bad(f->p, "<port num=\"%.16s\"> of \"%s\": %s", f->port.num,
				f->linklist, why),
		       0;
	return plan_add_named_link(f->p, f->linklist, l.port_a, l.name_b, l.port_b, l.width,
				   l.speed);
}

static int end(struct ibfc *f)
{
	const struct ibfc_level *level;

	if (!f->depth)
		return refuse(f, "not well-formed XML: </%s> with no element open", f->tok.name);
	level = &f->stack[f->depth - 1];
	if (strcmp(level->name, f->tok.name) != 0)
		return refuse(f, "not well-formed XML: </%s> where <%s> of line %u is open",
			      f->tok.name, level->name, level->line);
	f->depth--;
	f->root_done = f->root_done || !f->depth;
	return level->kind == K_PORT ? end_port(f, level) : 0;
}

/* Text inside a port's leaf element is kept; elsewhere it is passed over. */
static void text(struct ibfc *f)
{
	enum ibfc_kind kind = f->depth ? f->stack[f->depth - 1].kind : K_IGNORED;
	struct ibfc_text *t;
	size_t used;

	if (kind < K_R_PORT || kind > K_WIDTH)
		return;
	t = &f->port.leaf[kind - K_R_PORT];
	used = strlen(t->s);
	t->truncated =
	    t->truncated || f->tok.truncated || used + strlen(f->tok.text) > XML_VALUE_MAX;
	if (!t->truncated)
		memcpy(t->s + used, f->tok.text, strlen(f->tok.text) + 1);
}

/* The end of the file: every element closed, the root seen. */
static int at_end(struct ibfc *f)
{
	if (f->depth)
		return refuse(f, "not well-formed XML: the file ends inside <%s> of line %u",
			      f->stack[f->depth - 1].name, f->stack[f->depth - 1].line);
	return f->root_done ? 0 : refuse(f, "not an ibfabricconf file: no <ibfabric> element");
}

/* One token. */
static int step(struct ibfc *f)
{
	int err;

	switch (xml_next(&f->xml, &f->tok)) {
	case XML_BAD:
		return refuse(f, "not well-formed XML: %s", f->xml.error);
	case XML_START:
		err = start(f);
		return !err && f->tok.empty ? end(f) : err;
	case XML_END:
		return end(f);
	case XML_TEXT:
		text(f);
		return 0;
	default:
		return 0;
	}
}

int plan_read_ibfc(struct plan_parser *p, FILE *in)
{
	struct ibfc *f = calloc(1, sizeof(*f));
	int err = 0;

	if (!f)
		return -ENOMEM;
	f->p = p;
	xml_start(&f->xml, in);
	do
		err = step(f);
	while (!err && !p->too_big && f->tok.kind != XML_EOF);
	if (!err && !p->too_big)
		err = at_end(f);
	free(f);
	return err;
}
