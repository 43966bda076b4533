/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Port and IgnoreSelected: which ports to collect, as collectd's ignorelist means. */
#include "cd_ports.h"

#include "rdmakit/host.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "DEV:PORT": a device name without '/' or ':', then a port number as sysfs names it. */
static bool valid_port_name(const char *entry)
{
	const char *colon = strchr(entry, ':');
	unsigned num;

	if (!colon || colon == entry || memchr(entry, '/', (size_t)(colon - entry)))
		return false;
	return rk_parse_port_number(colon + 1, &num) == 0;
}

/* What a Port /regex/ may cost: glibc's regcomp builds automata whose size grows with the
 * product of nested or stacked repetitions ("]:" and 24 "+" needs more than 2 GB). */
#define REGEX_MAX_LENGTH  256 /* characters between the slashes */
#define REGEX_MAX_REPEATS 16  /* repetition operators: * + ? {m,n} */
#define REGEX_MAX_BOUND	  32  /* largest m or n of {m,n} */
#define REGEX_MAX_DEPTH	  8   /* groups inside groups */

/* The state of the scan of a /regex/ before it is compiled. */
struct regex_scan {
	const char *at;
	unsigned repeats;
	unsigned depth;
	bool group_repeats[REGEX_MAX_DEPTH + 1]; /* whether each open group holds a repetition */
	bool last_repeats; /* the last item is a repetition, or a group holding one */
	char *err;
	size_t err_size;
};

/* Skip a bracket expression ("[...]", at its '['); an unterminated one is left to regcomp. */
static const char *skip_bracket(const char *at)
{
	at++;
	if (*at == '^')
		at++;
	if (*at == ']')
		at++;
	while (*at && *at != ']') {
		if (at[0] == '[' && (at[1] == ':' || at[1] == '.' || at[1] == '=')) {
			const char *end = strchr(at + 2, at[1]);

			at = end && end[1] == ']' ? end + 2 : at + 1;
		} else {
			at++;
		}
	}
	return *at ? at + 1 : at;
}

/* The largest bound of "{m}", "{m,}", "{,n}" or "{m,n}" at *at (moved past it); -1 when not one. */
static long parse_interval(const char **at)
{
	char *end;
	long low = strtol(*at + 1, &end, 10), high = low;

	if (end == *at + 1 && *end != ',') /* glibc reads "{,n}" as "{0,n}" */
		return -1;
	if (low < 0)
		return -1;
	if (*end == ',' && end[1] != '}')
		high = strtol(end + 1, &end, 10);
	else if (*end == ',')
		end++;
	if (*end != '}')
		return -1;
	*at = end + 1;
	return high > low ? high : low;
}

/* Refuse the expression: what it has (a printf format and its values), into the error. */
__attribute__((format(printf, 2, 3))) static int scan_refuse(struct regex_scan *scan,
							     const char *what, ...)
{
	char text[128];
	va_list args;

	va_start(args, what);
	vsnprintf(text, sizeof(text), what, args);
	va_end(args);
	snprintf(scan->err, scan->err_size,
		 "%s in a /regex/: not allowed (it may need gigabytes to compile)", text);
	return -EINVAL;
}

/* A repetition operator, after the item it repeats. */
static int take_repeat(struct regex_scan *scan)
{
	if (scan->last_repeats)
		return scan_refuse(scan, "a repetition of a repetition (\"++\", \"(a+)*\")");
	if (++scan->repeats > REGEX_MAX_REPEATS)
		return scan_refuse(scan, "more than %d repetitions (*, +, ?, {m,n})",
				   REGEX_MAX_REPEATS);
	scan->last_repeats = true;
	scan->group_repeats[scan->depth] = true;
	return 0;
}

/* A '{': a bounded repetition, or a literal brace. */
static int take_interval(struct regex_scan *scan)
{
	long bound = parse_interval(&scan->at);

	if (bound < 0) {
		scan->at++;
		scan->last_repeats = false;
		return 0;
	}
	if (bound > REGEX_MAX_BOUND)
		return scan_refuse(scan, "a bound above %d in {m,n}", REGEX_MAX_BOUND);
	return take_repeat(scan);
}

/* A '(' or a ')': a group inherits whether it holds a repetition. */
static int take_paren(struct regex_scan *scan)
{
	bool inner;

	if (*scan->at++ == '(') {
		if (++scan->depth > REGEX_MAX_DEPTH)
			return scan_refuse(scan, "groups nested more than %d deep",
					   REGEX_MAX_DEPTH);
		scan->group_repeats[scan->depth] = false;
		scan->last_repeats = false;
		return 0;
	}
	inner = scan->depth > 0 && scan->group_repeats[scan->depth];
	if (scan->depth > 0)
		scan->depth--;
	scan->group_repeats[scan->depth] |= inner;
	scan->last_repeats = inner;
	return 0;
}

/* One item of the expression at scan->at, moved past it. */
static int take_item(struct regex_scan *scan)
{
	switch (*scan->at) {
	case '*':
	case '+':
	case '?':
		scan->at++;
		return take_repeat(scan);
	case '{':
		return take_interval(scan);
	case '(':
	case ')':
		return take_paren(scan);
	case '[':
		scan->at = skip_bracket(scan->at);
		break;
	case '\\':
		scan->at += scan->at[1] ? 2 : 1;
		break;
	default:
		scan->at++;
	}
	scan->last_repeats = false;
	return 0;
}

/* Whether regcomp may compile expr at a bounded cost: its length, how many repetitions it has,
 * their bounds, and no repetition of a repetition (stacked, or of a group holding one). */
static int check_regex_cost(const char *expr, char *err, size_t err_size)
{
	struct regex_scan scan = {.at = expr, .err = err, .err_size = err_size};
	int status = 0;

	if (strlen(expr) > REGEX_MAX_LENGTH) {
		snprintf(err, err_size, "a /regex/ longer than %d characters: not allowed",
			 REGEX_MAX_LENGTH);
		return -EINVAL;
	}
	while (*scan.at && status == 0)
		status = take_item(&scan);
	return status;
}

static int compile_regex(struct cd_port_pattern *pattern, const char *entry, char *err,
			 size_t err_size)
{
	size_t len = strlen(entry);
	char *expr = strndup(entry + 1, len - 2);
	int status;

	if (expr && (status = check_regex_cost(expr, err, err_size)) != 0) {
		free(expr);
		return status;
	}
	pattern->regex = calloc(1, sizeof(*pattern->regex));
	if (!expr || !pattern->regex) {
		free(expr);
		free(pattern->regex);
		return -ENOMEM;
	}
	status = regcomp(pattern->regex, expr, REG_EXTENDED | REG_NOSUB);
	free(expr);
	if (status != 0) {
		char reason[128];

		regerror(status, pattern->regex, reason, sizeof(reason));
		snprintf(err, err_size, "not a valid regular expression: %s", reason);
		free(pattern->regex);
		return -EINVAL;
	}
	return 0;
}

int cd_ports_add(struct cd_ports *ports, const char *entry, char *err, size_t err_size)
{
	size_t len = strlen(entry);
	bool is_regex = len > 2 && entry[0] == '/' && entry[len - 1] == '/';
	struct cd_port_pattern pattern = {0};
	struct cd_port_pattern *grown;
	int status;

	if (!is_regex && !valid_port_name(entry)) {
		snprintf(err, err_size,
			 "expected \"DEVICE:PORT\" (e.g. \"mlx5_0:1\") or a /regex/");
		return -EINVAL;
	}
	if (is_regex && (status = compile_regex(&pattern, entry, err, err_size)) != 0)
		return status;
	pattern.text = strdup(entry);
	grown = realloc(ports->items, (ports->count + 1) * sizeof(*grown));
	if (!pattern.text || !grown) {
		free(pattern.text);
		if (pattern.regex)
			regfree(pattern.regex);
		free(pattern.regex);
		if (grown)
			ports->items = grown;
		return -ENOMEM;
	}
	ports->items = grown;
	ports->items[ports->count++] = pattern;
	return 0;
}

bool cd_ports_pattern_matches(const struct cd_port_pattern *pattern, const char *name)
{
	if (pattern->regex)
		return regexec(pattern->regex, name, 0, NULL, 0) == 0;
	return strcmp(pattern->text, name) == 0;
}

bool cd_ports_selected(const struct cd_ports *ports, const char *device, unsigned num)
{
	char name[96];

	if (ports->count == 0)
		return true;
	snprintf(name, sizeof(name), "%s:%u", device, num);
	for (size_t i = 0; i < ports->count; i++)
		if (cd_ports_pattern_matches(&ports->items[i], name))
			return !ports->ignore_selected;
	return ports->ignore_selected;
}

void cd_ports_free(struct cd_ports *ports)
{
	for (size_t i = 0; i < ports->count; i++) {
		if (ports->items[i].regex) {
			regfree(ports->items[i].regex);
			free(ports->items[i].regex);
		}
		free(ports->items[i].text);
	}
	free(ports->items);
	ports->items = NULL;
	ports->count = 0;
}
