/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric plans: built from a live fabric, read from rdmakit's line format or ibnetdiscover's
 * topology text (or, through plan_ndt.c and plan_ibfc.c, from an NDT or an ibfabricconf.xml,
 * told apart here), written in rdmakit's format (docs/cli.md, "Fabric plans"). */
#include "plan_internal.h"

#include "rdmakit/array.h"
#include "rdmakit/file.h"
#include "rdmakit/log.h"
#include "rdmakit/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void plan_bad(struct plan_parser *p, const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	rk_log(p->level, "%s:%u: %s, %s skipped", p->origin, p->line, reason, p->unit);
	p->errors++;
}

/* Copy a name for writing between quotes: no quotes, no control characters. */
static void clean_name(char *dst, size_t size, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < size && src[i]; i++)
		dst[i] = src[i] == '"' ? '\'' : (unsigned char)src[i] < 0x20 ? '?' : src[i];
	dst[i] = '\0';
}

int plan_add_node(struct plan_parser *p, uint64_t guid, enum rk_node_type type, int nports,
		  const char *name)
{
	struct rk_plan *plan = p->plan;
	struct rk_plan_node *nodes, *node;

	if (plan->nnodes >= RK_PLAN_MAX_NODES) {
		p->too_big = true;
		return 0;
	}
	nodes = rk_array_room(plan->nodes, &plan->node_cap, plan->nnodes, sizeof(*node), 64);
	if (!nodes)
		return -ENOMEM;
	plan->nodes = nodes;
	node = &plan->nodes[plan->nnodes++];
	*node = (struct rk_plan_node){.guid = guid, .type = type, .nports = nports};
	clean_name(node->name, sizeof(node->name), name);
	return 0;
}

int plan_add_link(struct plan_parser *p, uint64_t ga, int pa, uint64_t gb, int pb, int width,
		  enum rk_speed speed)
{
	struct rk_plan *plan = p->plan;
	bool swap = ga > gb || (ga == gb && pa > pb);
	struct rk_plan_link *links;

	if (plan->nlinks >= RK_PLAN_MAX_LINKS) {
		p->too_big = true;
		return 0;
	}
	links = rk_array_room(plan->links, &plan->link_cap, plan->nlinks, sizeof(*links), 64);
	if (!links)
		return -ENOMEM;
	plan->links = links;
	plan->links[plan->nlinks++] = (struct rk_plan_link){
	    .guid_a = swap ? gb : ga,
	    .port_a = swap ? pb : pa,
	    .guid_b = swap ? ga : gb,
	    .port_b = swap ? pa : pb,
	    .width = width,
	    .speed = speed,
	    .line = p->line,
	};
	return 0;
}

static const char *skip_space(const char *s)
{
	return s + strspn(s, " \t");
}

/* Hex GUID, with or without 0x; false when there is none or it overflows. */
static bool parse_guid(const char **s, uint64_t *guid)
{
	const char *t = *s;
	uint64_t v = 0;
	int digits = 0;

	if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
		t += 2;
	for (; isxdigit((unsigned char)*t); t++, digits++) {
		if (digits == 16)
			return false;
		v = v << 4 |
		    (uint64_t)(isdigit((unsigned char)*t) ? *t - '0'
							  : tolower((unsigned char)*t) - 'a' + 10);
	}
	if (digits == 0 || v == 0)
		return false;
	*guid = v;
	*s = t;
	return true;
}

bool plan_parse_int(const char **s, int max, int *value)
{
	const char *t = *s;
	long v = 0;

	if (!isdigit((unsigned char)*t))
		return false;
	for (; isdigit((unsigned char)*t); t++)
		if ((v = v * 10 + (*t - '0')) > max)
			return false;
	*value = (int)v;
	*s = t;
	return true;
}

/* "[N]" with 1 <= N <= RK_PLAN_MAX_PORT. */
static bool parse_port(const char **s, int *port)
{
	const char *t = *s;

	if (*t++ != '[' || !plan_parse_int(&t, RK_PLAN_MAX_PORT, port) || *port < 1 || *t++ != ']')
		return false;
	*s = t;
	return true;
}

/* "text" into buf (truncated to size); false without both quotes. */
static bool parse_quoted(const char **s, char *buf, size_t size)
{
	const char *t = *s, *end;
	size_t len;

	if (*t != '"' || !(end = strchr(t + 1, '"')))
		return false;
	len = (size_t)(end - t - 1) < size - 1 ? (size_t)(end - t - 1) : size - 1;
	memcpy(buf, t + 1, len);
	buf[len] = '\0';
	*s = end + 1;
	return true;
}

/* "4X EDR", "4xEDR", "1x SDR": a width then a speed; the outputs are set only when both
 * parse. */
static bool parse_rate(const char *s, int *width, enum rk_speed *speed)
{
	enum rk_speed parsed;
	char name[16];
	size_t len;
	int lanes;

	if (!plan_parse_int(&s, RK_WIDTH_MAX, &lanes) || lanes < 1 || (*s != 'x' && *s != 'X'))
		return false;
	s = skip_space(s + 1);
	len = strcspn(s, " \t\r\n#");
	if (len == 0 || len >= sizeof(name))
		return false;
	memcpy(name, s, len);
	name[len] = '\0';
	if ((parsed = rk_speed_from_name(name)) == RK_SPEED_NONE)
		return false;
	*width = lanes;
	*speed = parsed;
	return true;
}

static bool at_end(const char *s)
{
	s = skip_space(s);
	return *s == '\0' || *s == '\r' || *s == '\n' || *s == '#';
}

static enum rk_node_type type_from_name(const char *s, size_t len)
{
	static const char *const names[] = {"ca", "switch", "router"};

	for (int i = 0; i < 3; i++)
		if (strlen(names[i]) == len && strncmp(s, names[i], len) == 0)
			return (enum rk_node_type)(i + 1);
	return 0;
}

/* rdmakit: node 0xGUID TYPE PORTS "NAME" */
static int own_node(struct plan_parser *p, const char *s)
{
	char name[96] = "";
	enum rk_node_type type;
	uint64_t guid;
	size_t len;
	int nports;

	s = skip_space(s + 4);
	if (!parse_guid(&s, &guid))
		return plan_bad(p, "expected node 0xGUID TYPE PORTS \"NAME\""), 0;
	s = skip_space(s);
	len = strcspn(s, " \t\r\n");
	if (!(type = type_from_name(s, len)))
		return plan_bad(p, "node type must be switch, ca or router"), 0;
	s = skip_space(s + len);
	if (!plan_parse_int(&s, RK_PLAN_MAX_PORT, &nports))
		return plan_bad(p, "expected a port count up to 254"), 0;
	s = skip_space(s);
	if (*s == '"' && !parse_quoted(&s, name, sizeof(name)))
		return plan_bad(p, "unterminated quoted name"), 0;
	if (!at_end(s))
		return plan_bad(p, "unexpected text after the node's name"), 0;
	return plan_add_node(p, guid, type, nports, name);
}

/* rdmakit: 0xGUID[P] -> 0xGUID[P] [WIDTH SPEED] [# comment] */
static int own_link(struct plan_parser *p, const char *s)
{
	enum rk_speed speed = RK_SPEED_NONE;
	uint64_t ga, gb;
	int pa, pb, width = 0;

	if (!parse_guid(&s, &ga) || !parse_port(&s, &pa))
		return plan_bad(p, "expected 0xGUID[PORT] -> 0xGUID[PORT] WIDTH SPEED"), 0;
	s = skip_space(s);
	if (strncmp(s, "->", 2) != 0)
		return plan_bad(p, "expected -> between the link's two ends"), 0;
	s = skip_space(s + 2);
	if (!parse_guid(&s, &gb) || !parse_port(&s, &pb))
		return plan_bad(p, "expected 0xGUID[PORT] after ->"), 0;
	s = skip_space(s);
	if (!at_end(s) && !parse_rate(s, &width, &speed))
		return plan_bad(p, "expected a rate like 4X EDR after the link's ends"), 0;
	return plan_add_link(p, ga, pa, gb, pb, width, speed);
}

/* ibnetdiscover: Switch 36 "S-0002c903..." # "desc" ... (and Ca, Rt) */
static int ibnd_node(struct plan_parser *p, const char *s, enum rk_node_type type)
{
	char name[96] = "";
	uint64_t guid;
	int nports;

	s = skip_space(s + strcspn(s, " \t"));
	if (!plan_parse_int(&s, RK_PLAN_MAX_PORT, &nports))
		return plan_bad(p, "expected the node's port count (up to 254)"), 0;
	s = skip_space(s);
	if (strncmp(s, "\"S-", 3) && strncmp(s, "\"H-", 3) && strncmp(s, "\"R-", 3))
		return plan_bad(p, "expected \"S-GUID\", \"H-GUID\" or \"R-GUID\""), 0;
	s += 3;
	if (!parse_guid(&s, &guid) || *s++ != '"')
		return plan_bad(p, "bad GUID in the node's id"), 0;
	s = skip_space(s);
	if (*s == '#')
		s = skip_space(s + 1);
	if (*s == '"')
		parse_quoted(&s, name, sizeof(name));
	p->current = (int)p->plan->nnodes;
	p->current_guid = guid;
	return plan_add_node(p, guid, type, nports, name);
}

/* The last WIDTHxSPEED word of an ibnetdiscover comment, outside quotes. */
static void ibnd_rate(const char *s, int *width, enum rk_speed *speed)
{
	bool quoted = false;

	for (; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (!quoted && isdigit((unsigned char)*s) && (s[-1] == ' ' || s[-1] == '\t'))
			parse_rate(s, width, speed);
	}
}

/* ibnetdiscover: [1](portguid) "S-GUID"[2](portguid) # ... 4xEDR; also [1][ext 3]. */
static int ibnd_port(struct plan_parser *p, const char *s)
{
	enum rk_speed speed = RK_SPEED_NONE;
	int port, peer_port, width = 0;
	uint64_t peer, ignored;

	if (p->current < 0)
		return plan_bad(p, "port line before any Switch, Ca or Rt line"), 0;
	if (!parse_port(&s, &port))
		return plan_bad(p, "expected [PORT] from 1 to 254"), 0;
	if (strncmp(s, "[ext ", 5) == 0)
		s += strcspn(s, "]") + (s[strcspn(s, "]")] ? 1 : 0);
	if (*s == '(' && (++s, !parse_guid(&s, &ignored) || *s++ != ')'))
		return plan_bad(p, "bad port GUID"), 0;
	s = skip_space(s);
	if (strncmp(s, "\"S-", 3) && strncmp(s, "\"H-", 3) && strncmp(s, "\"R-", 3))
		return plan_bad(p, "expected the peer's \"S-GUID\", \"H-GUID\" or \"R-GUID\""), 0;
	s += 3;
	if (!parse_guid(&s, &peer) || *s++ != '"' || !parse_port(&s, &peer_port))
		return plan_bad(p, "expected the peer's \"S-GUID\"[PORT]"), 0;
	ibnd_rate(s, &width, &speed);
	return plan_add_link(p, p->current_guid, port, peer, peer_port, width, speed);
}

/* Lines ibnetdiscover writes that a plan does not need. */
static bool ibnd_ignored(const char *s)
{
	static const char *const keys[] = {
	    "vendid=", "devid=", "sysimgguid=", "switchguid=", "caguid=", "routerguid="};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strncmp(s, keys[i], strlen(keys[i])) == 0)
			return true;
	return false;
}

/* What an rdmakit or ibnetdiscover line is, by how it starts. */
enum line_kind {
	LINE_NONE, /* blank, a comment, or ibnetdiscover's that a plan does not need */
	LINE_NODE,
	LINE_LINK,
	LINE_SWITCH,
	LINE_CA,
	LINE_ROUTER,
	LINE_PORT,
	LINE_OTHER,
};

static enum line_kind kind_of(const char *s)
{
	if (at_end(s) || ibnd_ignored(s))
		return LINE_NONE;
	if (strncmp(s, "node ", 5) == 0 || strncmp(s, "node\t", 5) == 0)
		return LINE_NODE;
	if (strncmp(s, "0x", 2) == 0)
		return LINE_LINK;
	if (strncmp(s, "Switch", 6) == 0 && isspace((unsigned char)s[6]))
		return LINE_SWITCH;
	if (strncmp(s, "Ca", 2) == 0 && isspace((unsigned char)s[2]))
		return LINE_CA;
	if (strncmp(s, "Rt", 2) == 0 && isspace((unsigned char)s[2]))
		return LINE_ROUTER;
	return *s == '[' ? LINE_PORT : LINE_OTHER;
}

static int parse_line(struct plan_parser *p, const char *line)
{
	const char *s = skip_space(line);

	switch (kind_of(s)) {
	case LINE_NONE:
		return 0;
	case LINE_NODE:
		return own_node(p, s);
	case LINE_LINK:
		return own_link(p, s);
	case LINE_SWITCH:
		return ibnd_node(p, s, RK_NODE_SWITCH);
	case LINE_CA:
		return ibnd_node(p, s, RK_NODE_CA);
	case LINE_ROUTER:
		return ibnd_node(p, s, RK_NODE_ROUTER);
	case LINE_PORT:
		return ibnd_port(p, s);
	default:
		plan_bad(p, "not a node, link or ibnetdiscover line");
		return 0;
	}
}

static int compare_nodes(const void *a, const void *b)
{
	const struct rk_plan_node *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static int compare_links(const void *a, const void *b)
{
	const struct rk_plan_link *x = a, *y = b;

	if (x->guid_a != y->guid_a)
		return x->guid_a < y->guid_a ? -1 : 1;
	if (x->port_a != y->port_a)
		return x->port_a - y->port_a;
	if (x->guid_b != y->guid_b)
		return x->guid_b < y->guid_b ? -1 : 1;
	if (x->port_b != y->port_b)
		return x->port_b - y->port_b;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* One end of a link, for finding ports that two links claim. */
struct end {
	uint64_t guid;
	int port;
	size_t link;
};

static int compare_ends(const void *a, const void *b)
{
	const struct end *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->port != y->port)
		return x->port - y->port;
	return x->link < y->link ? -1 : x->link > y->link;
}

void plan_finish_nodes(struct plan_parser *p, bool report)
{
	struct rk_plan *plan = p->plan;
	size_t kept = 0;

	if (plan->nnodes)
		qsort(plan->nodes, plan->nnodes, sizeof(*plan->nodes), compare_nodes);
	for (size_t i = 0; i < plan->nnodes; i++) {
		if (kept && plan->nodes[kept - 1].guid == plan->nodes[i].guid) {
			if (report)
				rk_log(p->level, "%s: node 0x%016llx declared twice, first kept",
				       p->origin, (unsigned long long)plan->nodes[i].guid);
			p->errors += report;
			continue;
		}
		plan->nodes[kept++] = plan->nodes[i];
	}
	plan->nnodes = kept;
}

/* A link is kept when both its ends are declared nodes with that port. */
static bool link_ends_known(struct plan_parser *p, const struct rk_plan_link *link)
{
	int a = rk_plan_find_node(p->plan, link->guid_a),
	    b = rk_plan_find_node(p->plan, link->guid_b);
	const char *reason = NULL;

	if (a < 0 || b < 0)
		reason = "a node no node line declares";
	else if ((p->plan->nodes[a].nports && link->port_a > p->plan->nodes[a].nports) ||
		 (p->plan->nodes[b].nports && link->port_b > p->plan->nodes[b].nports))
		reason = "a port above its node's port count";
	else if (link->guid_a == link->guid_b && link->port_a == link->port_b)
		reason = "a port cabled to itself";
	if (!reason)
		return true;
	p->line = link->line;
	plan_bad(p, "the link goes to %s", reason);
	return false;
}

/* Of the links that claim one port, keep the earliest line's (a dropped one's line is
 * UINT32_MAX). */
static void drop_claimed_twice(struct plan_parser *p, const struct end *run, size_t n)
{
	struct rk_plan_link *links = p->plan->links, *keep = NULL;

	for (size_t i = 0; i < n; i++)
		if (!keep || links[run[i].link].line < keep->line)
			keep = &links[run[i].link];
	for (size_t i = 0; i < n; i++) {
		struct rk_plan_link *l = &links[run[i].link];

		if (l == keep || l->line == UINT32_MAX)
			continue;
		p->line = l->line;
		plan_bad(p, "this port is already in a link on an earlier line");
		l->line = UINT32_MAX;
	}
}

int plan_finish_links(struct plan_parser *p)
{
	struct rk_plan *plan = p->plan;
	struct end *ends;
	size_t kept = 0;

	if (plan->nlinks)
		qsort(plan->links, plan->nlinks, sizeof(*plan->links), compare_links);
	for (size_t i = 0; i < plan->nlinks; i++) {
		const struct rk_plan_link *prev = kept ? &plan->links[kept - 1] : NULL;
		const struct rk_plan_link *l = &plan->links[i];

		if (prev && prev->guid_a == l->guid_a && prev->port_a == l->port_a &&
		    prev->guid_b == l->guid_b && prev->port_b == l->port_b)
			continue;
		if (link_ends_known(p, l))
			plan->links[kept++] = *l;
	}
	plan->nlinks = kept;
	ends = calloc(2 * kept + 1, sizeof(*ends));
	if (!ends)
		return -ENOMEM;
	for (size_t i = 0; i < kept; i++) {
		ends[2 * i] = (struct end){plan->links[i].guid_a, plan->links[i].port_a, i};
		ends[2 * i + 1] = (struct end){plan->links[i].guid_b, plan->links[i].port_b, i};
	}
	if (kept)
		qsort(ends, 2 * kept, sizeof(*ends), compare_ends);
	for (size_t i = 0, end; i < 2 * kept; i = end) {
		for (end = i + 1; end < 2 * kept && ends[end].guid == ends[i].guid &&
				  ends[end].port == ends[i].port;
		     end++)
			;
		drop_claimed_twice(p, ends + i, end - i);
	}
	free(ends);
	kept = 0;
	for (size_t i = 0; i < plan->nlinks; i++)
		if (plan->links[i].line != UINT32_MAX)
			plan->links[kept++] = plan->links[i];
	plan->nlinks = kept;
	return 0;
}

bool plan_read_line(struct plan_parser *p, FILE *in, char *buf, size_t size, bool *too_long)
{
	size_t len;
	int c;

	if (!fgets(buf, (int)size, in))
		return false;
	p->line++;
	len = strlen(buf);
	*too_long = len == size - 1 && buf[len - 1] != '\n';
	if (*too_long)
		while ((c = getc(in)) != EOF && c != '\n')
			;
	return true;
}

const char *plan_line_start(const struct plan_parser *p, const char *line)
{
	return p->line == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0 ? line + 3 : line;
}

/* rdmakit's and ibnetdiscover's lines. */
static int read_lines(struct plan_parser *p, FILE *in)
{
	char buf[RK_PLAN_MAX_LINE + 2];
	bool too_long;
	int err = 0;

	while (!err && !p->too_big && plan_read_line(p, in, buf, sizeof(buf), &too_long)) {
		if (too_long)
			plan_bad(p, "line longer than 1024 characters");
		else
			err = parse_line(p, plan_line_start(p, buf));
	}
	return err;
}

/* The formats a plan file may be in. */
enum plan_format {
	FORMAT_LINES, /* rdmakit's and ibnetdiscover's */
	FORMAT_NDT,
	FORMAT_IBFC,
};

/* What the extension of origin says: .csv or .ndt an NDT, .xml an ibfabricconf. */
static enum plan_format format_of_name(const char *origin)
{
	const char *dot = strrchr(origin, '.');

	if (!dot || strchr(dot, '/'))
		return FORMAT_LINES;
	if (strcasecmp(dot, ".csv") == 0 || strcasecmp(dot, ".ndt") == 0)
		return FORMAT_NDT;
	return strcasecmp(dot, ".xml") == 0 ? FORMAT_IBFC : FORMAT_LINES;
}

/* The first byte past blanks and a byte order mark. */
static int first_byte(FILE *in)
{
	int c;

	while ((c = getc(in)) != EOF && (isspace(c) || c == 0xef || c == 0xbb || c == 0xbf))
		;
	return c;
}

/* The format of the plan from in's start (read, not put back): '<' first is an ibfabricconf,
 * an NDT header before any other line an NDT, a line of rdmakit's or ibnetdiscover's that;
 * else, or when the first line is too long, what origin's extension says. */
static enum plan_format detect(FILE *in, long start, const char *origin)
{
	struct plan_parser quiet = {.unit = "line"};
	char buf[RK_PLAN_MAX_LINE + 2];
	bool too_long;

	if (first_byte(in) == '<')
		return FORMAT_IBFC;
	if (fseek(in, start, SEEK_SET) != 0)
		return format_of_name(origin);
	while (plan_read_line(&quiet, in, buf, sizeof(buf), &too_long)) {
		const char *s = skip_space(plan_line_start(&quiet, buf));

		if (!too_long && plan_ndt_header(s))
			return FORMAT_NDT;
		if (too_long || kind_of(s) != LINE_NONE)
			return too_long || kind_of(s) == LINE_OTHER ? format_of_name(origin)
								    : FORMAT_LINES;
	}
	return format_of_name(origin);
}

/* Read the plan in its format from the start of in. */
static int read_format(struct plan_parser *p, FILE *in, long start)
{
	enum plan_format format = detect(in, start, p->origin);

	clearerr(in);
	if (fseek(in, start, SEEK_SET) != 0)
		return -errno;
	switch (format) {
	case FORMAT_NDT:
		return plan_read_ndt(p, in);
	case FORMAT_IBFC:
		p->unit = "element";
		return plan_read_ibfc(p, in);
	default:
		return read_lines(p, in);
	}
}

int rk_plan_parse(FILE *in, const char *origin, struct rk_plan **out, unsigned *errors)
{
	struct plan_parser p = {
	    .origin = origin, .unit = "line", .level = RK_LOG_WARNING, .current = -1};
	long start = ftell(in);
	int err;

	*out = NULL;
	if (start < 0)
		return -errno;
	if (!(p.plan = calloc(1, sizeof(*p.plan))))
		return -ENOMEM;
	err = read_format(&p, in, start);
	if (!err && p.too_big) {
		rk_log(RK_LOG_ERR, "%s:%u: more than %d nodes or %d links, plan refused", origin,
		       p.line, RK_PLAN_MAX_NODES, RK_PLAN_MAX_LINKS);
		err = -E2BIG;
	}
	if (!err) {
		plan_finish_nodes(&p, true);
		err = plan_finish_links(&p);
	}
	if (errors)
		*errors = p.errors;
	if (err)
		rk_plan_free(p.plan);
	else
		*out = p.plan;
	return err;
}

/* The plan file opened for reading (a regular file only); NULL, logged, and *err when not. */
static FILE *open_plan(const char *path, int *err)
{
	FILE *in = rk_file_open_regular(path, err);

	if (!in)
		rk_log(RK_LOG_ERR, "%s: cannot read the fabric plan: %s", path,
		       rk_sysfs_error(*err));
	return in;
}

int rk_plan_load(const char *path, struct rk_plan **out, unsigned *errors)
{
	int err = 0;
	FILE *in = open_plan(path, &err);

	*out = NULL;
	if (!in)
		return err;
	err = rk_plan_parse(in, path, out, errors);
	fclose(in);
	return err;
}

/* Write the plan into the temporary file fd and flush it to disk. */
static int write_temp(int fd, const struct rk_plan *plan)
{
	FILE *out = fdopen(fd, "w");
	int err;

	if (!out) {
		close(fd);
		return -errno;
	}
	err = fchmod(fd, 0644) != 0 ? -errno : rk_plan_write(out, plan);
	if (!err && (fflush(out) != 0 || fsync(fd) != 0))
		err = -errno;
	if (fclose(out) != 0 && !err)
		err = -EIO;
	return err;
}

int rk_plan_save(const char *path, const struct rk_plan *plan)
{
	char temp[RK_PATH_SIZE];
	struct stat st;
	int fd, err;

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		rk_log(RK_LOG_ERR, "%s: not a regular file, the plan is not written there", path);
		return -EEXIST;
	}
	if (snprintf(temp, sizeof(temp), "%s.XXXXXX", path) >= (int)sizeof(temp))
		return -ENAMETOOLONG;
	if ((fd = mkstemp(temp)) < 0) {
		err = -errno;
		rk_log(RK_LOG_ERR, "%s: cannot write the plan: %s", temp, rk_sysfs_error(err));
		return err;
	}
	err = write_temp(fd, plan);
	if (!err && rename(temp, path) != 0)
		err = -errno;
	if (err) {
		unlink(temp);
		rk_log(RK_LOG_ERR, "%s: cannot write the plan: %s", path, rk_sysfs_error(err));
	}
	return err;
}

int rk_plan_from_fabric(const struct rk_fabric *fabric, struct rk_plan **out)
{
	struct plan_parser p = {
	    .origin = "live fabric", .unit = "line", .level = RK_LOG_WARNING, .current = -1};
	int err = 0;

	*out = NULL;
	if (!(p.plan = calloc(1, sizeof(*p.plan))))
		return -ENOMEM;
	for (size_t i = 0; i < fabric->nnodes && !err; i++) {
		const struct rk_fabric_node *n = &fabric->nodes[i];

		err = plan_add_node(&p, n->guid, n->type, n->nports, n->name);
	}
	for (size_t i = 0; i < fabric->nlinks && !err; i++) {
		const struct rk_fabric_link *l = &fabric->links[i];

		err = plan_add_link(&p, fabric->nodes[l->node_a].guid, l->port_a,
				    fabric->nodes[l->node_b].guid, l->port_b, l->width, l->speed);
	}
	if (!err) {
		if (p.plan->nnodes)
			qsort(p.plan->nodes, p.plan->nnodes, sizeof(*p.plan->nodes), compare_nodes);
		if (p.plan->nlinks)
			qsort(p.plan->links, p.plan->nlinks, sizeof(*p.plan->links), compare_links);
		*out = p.plan;
	} else {
		rk_plan_free(p.plan);
	}
	return err;
}

int rk_plan_find_node(const struct rk_plan *plan, uint64_t guid)
{
	struct rk_plan_node key = {.guid = guid};
	const struct rk_plan_node *hit;

	if (!plan->nnodes)
		return -1;
	hit = bsearch(&key, plan->nodes, plan->nnodes, sizeof(key), compare_nodes);
	return hit ? (int)(hit - plan->nodes) : -1;
}

static const char *node_name(const struct rk_plan *plan, uint64_t guid)
{
	int i = rk_plan_find_node(plan, guid);

	return i >= 0 ? plan->nodes[i].name : "";
}

static void write_link(FILE *out, const struct rk_plan *plan, const struct rk_plan_link *l)
{
	fprintf(out, "0x%016llx[%d] -> 0x%016llx[%d]", (unsigned long long)l->guid_a, l->port_a,
		(unsigned long long)l->guid_b, l->port_b);
	if (l->width && l->speed != RK_SPEED_NONE)
		fprintf(out, " %dX %s", l->width, rk_speed_name(l->speed));
	fprintf(out, "  # \"%s\" - \"%s\"\n", node_name(plan, l->guid_a),
		node_name(plan, l->guid_b));
}

int rk_plan_write(FILE *out, const struct rk_plan *plan)
{
	fprintf(out, "# rdmakit fabric plan 1 (rdmakit fabric --save); lines sorted by GUID\n"
		     "# node GUID TYPE PORTS \"NAME\"\n"
		     "# GUID[PORT] -> GUID[PORT] WIDTH SPEED  # \"NAME\" - \"NAME\"\n");
	for (size_t i = 0; i < plan->nnodes; i++) {
		const struct rk_plan_node *n = &plan->nodes[i];
		char name[sizeof(n->name)];

		clean_name(name, sizeof(name), n->name);
		fprintf(out, "node 0x%016llx %s %d \"%s\"\n", (unsigned long long)n->guid,
			rk_node_type_name(n->type), n->nports, name);
	}
	for (size_t i = 0; i < plan->nlinks; i++)
		write_link(out, plan, &plan->links[i]);
	return ferror(out) ? -EIO : 0;
}

/* The named links of the plan being read, made on the first. */
static struct rk_plan_named *named_of(struct plan_parser *p)
{
	struct rk_plan_named *named = p->plan->named;

	if (named)
		return named;
	if (!(named = calloc(1, sizeof(*named))) || !(named->origin = strdup(p->origin))) {
		free(named);
		return NULL;
	}
	named->unit = p->unit;
	return p->plan->named = named;
}

int plan_add_named_link(struct plan_parser *p, const char *name_a, int port_a, const char *name_b,
			int port_b, int width, enum rk_speed speed)
{
	struct rk_plan_named *named = named_of(p);
	struct plan_named_link *links, *l;

	if (!named)
		return -ENOMEM;
	if (named->nlinks >= RK_PLAN_MAX_LINKS) {
		p->too_big = true;
		return 0;
	}
	links = rk_array_room(named->links, &named->link_cap, named->nlinks, sizeof(*links), 64);
	if (!links)
		return -ENOMEM;
	named->links = links;
	l = &links[named->nlinks];
	*l = (struct plan_named_link){.name_a = strdup(name_a),
				      .name_b = strdup(name_b),
				      .port_a = port_a,
				      .port_b = port_b,
				      .width = width,
				      .speed = speed,
				      .line = p->line};
	if (!l->name_a || !l->name_b) {
		free(l->name_a);
		free(l->name_b);
		return -ENOMEM;
	}
	named->nlinks++;
	return 0;
}

size_t rk_plan_named_links(const struct rk_plan *plan)
{
	return plan->named ? plan->named->nlinks : 0;
}

static void free_named(struct rk_plan_named *named)
{
	if (!named)
		return;
	for (size_t i = 0; i < named->nlinks; i++) {
		free(named->links[i].name_a);
		free(named->links[i].name_b);
	}
	free(named->links);
	free(named->origin);
	free(named);
}

void rk_plan_free(struct rk_plan *plan)
{
	if (!plan)
		return;
	free(plan->nodes);
	free(plan->links);
	free_named(plan->named);
	free(plan);
}
