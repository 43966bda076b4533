/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit_mibgen: writes the parts of RDMAKIT-MIB that are one per fact or PMA counter (the
 * OBJECT-TYPEs, their SEQUENCE entries, their conformance groups' members, the named bits of
 * RdmakitPmaCounters) from the table of facts and the catalog, between a line
 * "-- generated NAME: ..." and "-- end of generated NAME". Usage: rdmakit_mibgen --write FILE
 * (rewrites them) or --check FILE (exit 1 when they differ). */
#include "rdmakit/catalog.h"
#include "rdmakit/facts.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 64
#define TEXT_MAX     1024
#define LINE_WIDTH   72

/* The sets of objects a region lists, a bit each. */
enum object_set {
	SET_DEVICE = 1 << 0,
	SET_PORT = 1 << 1,
	SET_PORT_COUNTER = 1 << 2, /* the catalog's PMA counters, rdmakitPc */
	SET_SM = 1 << 3,
	SET_SM_ENTRY = 1 << 4,
	SET_FABRIC = 1 << 5,
	SET_FABRIC_NODE = 1 << 6,
	SET_FABRIC_PORT = 1 << 7,
	SET_FABRIC_COUNTER = 1 << 8, /* the catalog's PMA counters, rdmakitFc */
	SET_FABRIC_COUNTER_FACT = 1 << 9,
};

/* What a region holds of its objects; PART_BITS: a BITS of the PMA counters, one each. */
enum part { PART_OBJECTS, PART_SEQUENCE, PART_GROUP, PART_BITS };

struct region {
	const char *name; /* as the markers name it */
	enum part part;
	unsigned sets;
};

static const struct region regions[] = {
    {"pma counter bits", PART_BITS, 0},
    {"device sequence", PART_SEQUENCE, SET_DEVICE},
    {"device objects", PART_OBJECTS, SET_DEVICE},
    {"port sequence", PART_SEQUENCE, SET_PORT},
    {"port objects", PART_OBJECTS, SET_PORT},
    {"port counter sequence", PART_SEQUENCE, SET_PORT_COUNTER},
    {"port counter objects", PART_OBJECTS, SET_PORT_COUNTER},
    {"sm objects", PART_OBJECTS, SET_SM},
    {"sm entry sequence", PART_SEQUENCE, SET_SM_ENTRY},
    {"sm entry objects", PART_OBJECTS, SET_SM_ENTRY},
    {"fabric objects", PART_OBJECTS, SET_FABRIC},
    {"fabric node sequence", PART_SEQUENCE, SET_FABRIC_NODE},
    {"fabric node objects", PART_OBJECTS, SET_FABRIC_NODE},
    {"fabric port sequence", PART_SEQUENCE, SET_FABRIC_PORT},
    {"fabric port objects", PART_OBJECTS, SET_FABRIC_PORT},
    {"fabric counter sequence", PART_SEQUENCE, SET_FABRIC_COUNTER},
    {"fabric counter objects", PART_OBJECTS, SET_FABRIC_COUNTER},
    {"fabric counter fact sequence", PART_SEQUENCE, SET_FABRIC_COUNTER_FACT},
    {"fabric counter fact objects", PART_OBJECTS, SET_FABRIC_COUNTER_FACT},
    {"host group", PART_GROUP, SET_DEVICE | SET_PORT | SET_PORT_COUNTER},
    {"sm group", PART_GROUP, SET_SM | SET_SM_ENTRY},
    {"fabric group", PART_GROUP,
     SET_FABRIC | SET_FABRIC_NODE | SET_FABRIC_PORT | SET_FABRIC_COUNTER | SET_FABRIC_COUNTER_FACT},
};
#define NREGIONS (sizeof(regions) / sizeof(regions[0]))

/* One OBJECT-TYPE. */
struct object {
	enum object_set set;
	char name[NAME_MAX_LEN];
	const char *syntax, *units, *parent;
	unsigned column;
	bool deprecated;
	char description[TEXT_MAX];
};

static struct object objects[256];
static size_t nobjects;

/* The next object, zeroed; exits when there is no room. */
static struct object *new_object(void)
{
	if (nobjects == sizeof(objects) / sizeof(objects[0])) {
		fprintf(stderr, "rdmakit_mibgen: more than %zu objects\n", nobjects);
		exit(1);
	}
	return &objects[nobjects++];
}

/* A text that grows. */
struct text {
	char *data;
	size_t len, cap;
};

static void append(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void append(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (t->len + (size_t)n + 1 > t->cap) {
		t->cap = (t->len + (size_t)n + 1) * 2;
		t->data = realloc(t->data, t->cap);
		if (!t->data)
			abort();
	}
	va_start(ap, fmt);
	vsnprintf(t->data + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

/* A sentence appended to a description. */
static void say(char *description, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(char *description, const char *fmt, ...)
{
	size_t len = strlen(description);
	va_list ap;

	if (len > 0 && len + 1 < TEXT_MAX)
		description[len++] = ' ';
	va_start(ap, fmt);
	vsnprintf(description + len, TEXT_MAX - len, fmt, ap);
	va_end(ap);
}

static enum object_set set_of_scope(enum rk_fact_scope scope)
{
	static const enum object_set sets[] = {
	    [RK_SCOPE_PORT] = SET_PORT,
	    [RK_SCOPE_DEVICE] = SET_DEVICE,
	    [RK_SCOPE_FABRIC] = SET_FABRIC,
	    [RK_SCOPE_SM] = SET_SM,
	    [RK_SCOPE_SM_ENTRY] = SET_SM_ENTRY,
	    [RK_SCOPE_FABRIC_NODE] = SET_FABRIC_NODE,
	    [RK_SCOPE_FABRIC_PORT] = SET_FABRIC_PORT,
	    [RK_SCOPE_FABRIC_COUNTER] = SET_FABRIC_COUNTER_FACT,
	};

	return sets[scope];
}

/* The row or group of scalars a scope's objects are under. */
static const char *parent_of_scope(enum rk_fact_scope scope)
{
	static const char *const parents[] = {
	    [RK_SCOPE_PORT] = "rdmakitPortEntry",
	    [RK_SCOPE_DEVICE] = "rdmakitDeviceEntry",
	    [RK_SCOPE_FABRIC] = "rdmakitFabricSummary",
	    [RK_SCOPE_SM] = "rdmakitSmScalars",
	    [RK_SCOPE_SM_ENTRY] = "rdmakitSmEntry",
	    [RK_SCOPE_FABRIC_NODE] = "rdmakitFabricNodeEntry",
	    [RK_SCOPE_FABRIC_PORT] = "rdmakitFabricPortEntry",
	    [RK_SCOPE_FABRIC_COUNTER] = "rdmakitFabricCounterEntry",
	};

	return parents[scope];
}

/* The SYNTAX of a fact whose row names none: its SNMP syntax's base type. */
static const char *default_syntax(enum rk_snmp_syntax syntax)
{
	static const char *const syntaxes[] = {
	    [RK_SNMP_GAUGE] = "Unsigned32",
	    [RK_SNMP_INTEGER] = "Integer32",
	    [RK_SNMP_COUNTER32] = "Counter32",
	    [RK_SNMP_TEXT] = "DisplayString",
	    [RK_SNMP_GID] = "OCTET STRING (SIZE(16))",
	    [RK_SNMP_TRUTH] = "TruthValue",
	};

	return (unsigned)syntax < sizeof(syntaxes) / sizeof(syntaxes[0]) ? syntaxes[syntax] : NULL;
}

/* The fact of a scope with this name, or NULL. */
static const struct rk_fact *find_fact(enum rk_fact_scope scope, const char *name)
{
	for (int id = 0; id < RK_FACT_TABLE_SIZE; id++) {
		const struct rk_fact *f = rk_fact((enum rk_fact_id)id);

		if (f->scope == scope && strcmp(f->name, name) == 0)
			return f;
	}
	return NULL;
}

/* Why a deprecated object is, and which to read instead: its fact's text twin (NAME_text). */
static void describe_deprecated(const struct rk_fact *fact, char *description)
{
	char twin[NAME_MAX_LEN], name[NAME_MAX_LEN];
	const struct rk_fact *text;

	snprintf(twin, sizeof(twin), "%s_text", fact->name);
	text = find_fact(fact->scope, twin);
	if (!text) {
		say(description, "Deprecated: no longer served.");
		return;
	}
	say(description, "Deprecated: no longer served; %s is the one to read.",
	    rk_fact_mib_name(text, name, sizeof(name)));
}

/* How SNMP serves the fact's value, beyond its help. */
static void describe_served(const struct rk_fact *fact, const char *units, char *description)
{
	if (fact->snmp_syntax == RK_SNMP_TRUTH)
		say(description, "As a TruthValue: true(1) for 1, false(2) for 0.");
	if (fact->snmp_syntax == RK_SNMP_GID)
		say(description, "Its 16 octets; no instance when it is unreadable.");
	if (fact->snmp_scale != 1)
		say(description, "In %s: the value in %s times %u.", units ? units : "?",
		    fact->unit, fact->snmp_scale);
}

/* When SNMP has no instance of the fact. */
static void describe_when(const struct rk_fact *fact, char *description)
{
	static const char *const when[] = {
	    [RK_SNMP_KNOWN] = "No instance when it is not known.",
	    [RK_SNMP_POSITIVE] = "No instance when it is not known (0).",
	    [RK_SNMP_ALWAYS] = NULL,
	    [RK_SNMP_OR_ZERO] = "0 when it is not known.",
	};

	if (when[fact->snmp_when])
		say(description, "%s", when[fact->snmp_when]);
}

static int add_fact(const struct rk_fact *fact)
{
	struct object *o = new_object();
	size_t len;

	o->set = set_of_scope(fact->scope);
	rk_fact_mib_name(fact, o->name, sizeof(o->name));
	o->syntax = fact->mib_syntax ? fact->mib_syntax : default_syntax(fact->snmp_syntax);
	o->units = fact->mib_units;
	o->parent = parent_of_scope(fact->scope);
	o->column = fact->column;
	o->deprecated = !rk_fact_served(fact, RK_FRONT_SNMP);
	len = strlen(fact->help);
	snprintf(o->description, sizeof(o->description), "%s%s", fact->help,
		 len > 0 && fact->help[len - 1] == '.' ? "" : ".");
	if (!o->deprecated)
		describe_served(fact, o->units, o->description);
	if (fact->mib_note)
		say(o->description, "%s", fact->mib_note);
	if (o->deprecated)
		describe_deprecated(fact, o->description);
	else
		describe_when(fact, o->description);
	if (!o->syntax) {
		fprintf(stderr, "rdmakit_mibgen: fact %s.%s: no MIB syntax\n",
			rk_fact_scope_name(fact->scope), fact->name);
		return -1;
	}
	return 0;
}

/* The counter's name in camel case after a prefix ("rdmakitPcSymbolError"). */
static void counter_name(const struct rk_metric *m, const char *prefix, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "rdmakit%s", prefix);

	for (const char *c = m->name; *c && n + 1 < size; c++) {
		bool word_start = c == m->name || c[-1] == '_';

		if (*c != '_')
			buf[n++] =
			    word_start && *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
	}
	buf[n] = '\0';
}

/* Where the counter's value comes from: the host's PMA through sysfs, or the fabric sweep. */
static void describe_register(const struct rk_metric *m, bool fabric, char *description)
{
	if (!fabric)
		say(description, "(%s, a %u-bit register of the port's PMA).", m->name,
		    m->pma_ext_additional ? m->narrow_width : m->width);
	else if (m->pma_ext_additional)
		say(description,
		    "(%s, read by the fabric sweep: %u bits where the node's PortCountersExtended "
		    "has its additional counters, else the %u-bit PortCounters register).",
		    m->name, m->width, m->narrow_width);
	else
		say(description, "(%s, a %u-bit register read by the fabric sweep).", m->name,
		    m->width);
}

static void add_counter(const struct rk_metric *m, bool fabric)
{
	struct object *o = new_object();

	o->set = fabric ? SET_FABRIC_COUNTER : SET_PORT_COUNTER;
	counter_name(m, fabric ? "Fc" : "Pc", o->name, sizeof(o->name));
	o->syntax = "Counter64";
	o->units = strcmp(m->unit, "bytes") == 0 ? "octets" : m->unit;
	o->parent = fabric ? "rdmakitFabricCounterEntry" : "rdmakitPortCounterEntry";
	o->column = m->column;
	snprintf(o->description, sizeof(o->description), "%s", m->help);
	describe_register(m, fabric, o->description);
	if (m->scale != 1)
		say(o->description,
		    "Counted in octets (the PMA counts %u-octet words; the value is multiplied by "
		    "%u).",
		    m->scale, m->scale);
	say(o->description, "Not served (noSuchInstance) while the counter is saturated or "
			    "unavailable: see the saturated and unavailable columns.");
}

static int compare_objects(const void *a, const void *b)
{
	const struct object *x = a, *y = b;

	if (x->set != y->set)
		return x->set < y->set ? -1 : 1;
	return x->column < y->column ? -1 : x->column > y->column;
}

/* Every object of the facts and the catalog, by set and column. */
static int collect_objects(void)
{
	size_t npma;
	const struct rk_metric *pma = rk_catalog_pma(&npma);

	for (int id = 0; id < RK_FACT_TABLE_SIZE; id++) {
		const struct rk_fact *f = rk_fact((enum rk_fact_id)id);

		if (rk_fact_in_mib(f) && add_fact(f) != 0)
			return -1;
	}
	for (size_t i = 0; i < npma; i++) {
		add_counter(&pma[i], false);
		add_counter(&pma[i], true);
	}
	qsort(objects, nobjects, sizeof(objects[0]), compare_objects);
	return 0;
}

/* A description as a quoted MIB string, its words wrapped at LINE_WIDTH. */
static void write_description(struct text *out, const char *description)
{
	static const char indent[] = "        ";
	size_t column = sizeof(indent) - 1 + 1;
	const char *word = description;

	append(out, "%s\"", indent);
	while (*word) {
		size_t len = strcspn(word, " ");

		if (word != description && column + 1 + len + 1 > LINE_WIDTH) {
			append(out, "\n%s", indent);
			column = sizeof(indent) - 1;
		} else if (word != description) {
			append(out, " ");
			column++;
		}
		append(out, "%.*s", (int)len, word);
		column += len;
		word += len;
		word += strspn(word, " ");
	}
	append(out, "\"\n");
}

static void write_object(struct text *out, const struct object *o)
{
	append(out, "\n%s OBJECT-TYPE\n    SYNTAX      %s\n", o->name, o->syntax);
	if (o->units)
		append(out, "    UNITS       \"%s\"\n", o->units);
	append(out, "    MAX-ACCESS  read-only\n    STATUS      %s\n    DESCRIPTION\n",
	       o->deprecated ? "deprecated" : "current");
	write_description(out, o->description);
	append(out, "    ::= { %s %u }\n", o->parent, o->column);
}

/* The SEQUENCE entries of the region's objects; the last without a comma when the SEQUENCE
 * ends after the region. */
static void write_sequence(struct text *out, unsigned sets, bool last)
{
	size_t width = 0, count = 0;

	for (size_t i = 0; i < nobjects; i++)
		if (objects[i].set & sets && strlen(objects[i].name) > width)
			width = strlen(objects[i].name);
	for (size_t i = 0; i < nobjects; i++) {
		const struct object *o = &objects[i];

		if (!(o->set & sets))
			continue;
		append(out, "%s    %-*s %.*s", count++ ? ",\n" : "", (int)width, o->name,
		       (int)strcspn(o->syntax, "("), o->syntax);
		while (out->len > 0 && out->data[out->len - 1] == ' ')
			out->data[--out->len] = '\0';
	}
	append(out, "%s\n", last ? "" : ",");
}

/* The names of the region's current objects, as an OBJECT-GROUP's OBJECTS clause lists them. */
static void write_group(struct text *out, unsigned sets, bool last)
{
	static const char indent[] = "                  ";
	size_t column = 0, count = 0;

	for (size_t i = 0; i < nobjects; i++) {
		const struct object *o = &objects[i];
		size_t len = strlen(o->name) + 1;

		if (!(o->set & sets) || o->deprecated)
			continue;
		if (count && column + 1 + len > LINE_WIDTH) {
			append(out, ",\n");
			column = 0;
		} else if (count) {
			append(out, ", ");
			column += 2;
		}
		if (column == 0) {
			append(out, "%s", indent);
			column = sizeof(indent) - 1;
		}
		append(out, "%s", o->name);
		column += len - 1;
		count++;
	}
	append(out, "%s\n", last ? "" : ",");
}

/* The region a marker line opens ("-- generated NAME: ..."), or NULL. */
static const struct region *region_opened(const char *line, size_t *index)
{
	static const char prefix[] = "-- generated ";

	line += strspn(line, " ");
	if (strncmp(line, prefix, sizeof(prefix) - 1) != 0)
		return NULL;
	line += sizeof(prefix) - 1;
	for (size_t i = 0; i < NREGIONS; i++) {
		size_t len = strlen(regions[i].name);

		if (strncmp(line, regions[i].name, len) == 0 && line[len] == ':') {
			*index = i;
			return &regions[i];
		}
	}
	return NULL;
}

/* Whether a line closes the region: "-- end of generated NAME". */
static bool region_closed(const char *line, const struct region *region)
{
	static const char prefix[] = "-- end of generated ";

	line += strspn(line, " ");
	return strncmp(line, prefix, sizeof(prefix) - 1) == 0 &&
	       strncmp(line + sizeof(prefix) - 1, region->name, strlen(region->name)) == 0;
}

/* Whether what follows the line at p, blank lines skipped, closes a brace ("}"). */
static bool brace_follows(const char *p)
{
	p += strcspn(p, "\n");
	p += strspn(p, " \n");
	return *p == '}';
}

/* The counter's name as a named bit: its first word in lower case, the others capitalized
 * ("vl15Dropped"). */
static void bit_name(const struct rk_metric *m, char *buf, size_t size)
{
	size_t n = 0;
	bool first_word = true;

	for (const char *c = m->name; *c && n + 1 < size; c++) {
		if (*c == '_')
			first_word = false;
		else if (first_word)
			buf[n++] = (char)tolower((unsigned char)*c);
		else
			buf[n++] = c[-1] == '_' ? (char)toupper((unsigned char)*c) : *c;
	}
	buf[n] = '\0';
}

/* The PMA counters as a BITS's named bits, in the catalog's order ("vl15Dropped(11)"). */
static void write_bits(struct text *out, bool last)
{
	size_t count;
	const struct rk_metric *pma = rk_catalog_pma(&count);
	char name[NAME_MAX_LEN];

	for (size_t i = 0; i < count; i++) {
		bit_name(&pma[i], name, sizeof(name));
		append(out, "%s        %s(%zu)", i ? ",\n" : "", name, i);
	}
	append(out, "%s\n", last ? "" : ",");
}

static void write_region(struct text *out, const struct region *region, bool last)
{
	if (region->part == PART_BITS) {
		write_bits(out, last);
		return;
	}
	if (region->part == PART_SEQUENCE) {
		write_sequence(out, region->sets, last);
		return;
	}
	if (region->part == PART_GROUP) {
		write_group(out, region->sets, last);
		return;
	}
	for (size_t i = 0; i < nobjects; i++)
		if (objects[i].set & region->sets)
			write_object(out, &objects[i]);
	append(out, "\n");
}

/* The MIB with every region written again from the objects; -1 when a region is missing or
 * not closed. */
static int regenerate(const char *mib, struct text *out)
{
	bool seen[NREGIONS] = {false};
	const char *p = mib;

	while (*p) {
		size_t len = strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
		const struct region *region;
		size_t index;

		append(out, "%.*s", (int)len, p);
		region = region_opened(p, &index);
		p += len;
		if (!region)
			continue;
		while (*p && !region_closed(p, region))
			p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
		if (!*p) {
			fprintf(stderr, "rdmakit_mibgen: generated %s: no end line\n",
				region->name);
			return -1;
		}
		write_region(out, region, brace_follows(p));
		seen[index] = true;
	}
	for (size_t i = 0; i < NREGIONS; i++) {
		if (!seen[i]) {
			fprintf(stderr, "rdmakit_mibgen: no region 'generated %s'\n",
				regions[i].name);
			return -1;
		}
	}
	return 0;
}

static char *read_file(const char *path)
{
	struct text t = {0};
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return NULL;
	}
	append(&t, "%s", "");
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		append(&t, "%.*s", (int)n, chunk);
	fclose(f);
	return t.data;
}

static int write_file(const char *path, const struct text *t)
{
	FILE *f = fopen(path, "w");
	bool written = f && fwrite(t->data, 1, t->len, f) == t->len;

	if (f && fclose(f) != 0)
		written = false;
	if (!written)
		perror(path);
	return written ? 0 : -1;
}

/* The first line where two texts differ (1 for the first). */
static unsigned first_difference(const char *a, const char *b)
{
	unsigned line = 1;

	for (; *a && *a == *b; a++, b++)
		line += *a == '\n';
	return line;
}

/* --check: 0 when the MIB is what the generator writes, else 1 with the first line that is not. */
static int check(const char *path, const char *mib, const struct text *out)
{
	if (strcmp(mib, out->data) == 0)
		return 0;
	fprintf(stderr,
		"%s:%u: differs from what the table of facts and the catalog give; run "
		"rdmakit_mibgen --write %s\n",
		path, first_difference(mib, out->data), path);
	return 1;
}

int main(int argc, char **argv)
{
	struct text out = {0};
	char *mib;
	int status = 1;

	if (argc != 3 || (strcmp(argv[1], "--write") != 0 && strcmp(argv[1], "--check") != 0)) {
		fprintf(stderr, "usage: rdmakit_mibgen --write|--check RDMAKIT-MIB.txt\n");
		return 2;
	}
	mib = read_file(argv[2]);
	if (mib && collect_objects() == 0 && regenerate(mib, &out) == 0)
		status = strcmp(argv[1], "--write") == 0 ? (write_file(argv[2], &out) == 0 ? 0 : 1)
							 : check(argv[2], mib, &out);
	free(mib);
	free(out.data);
	return status;
}
