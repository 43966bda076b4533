/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* opensm.conf: syntax, keys the installed OpenSM knows, values, ranges, security, instances. */
#include "rdmakit/tune_opensm.h"

#include "rdmakit/limits.h"
#include "rdmakit/log.h"
#include "tune_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AREA "opensm"

/* What one opensm.conf says, for the checks across instances. */
struct conf_summary {
	char path[256];
	long priority;
	char guid[32];
};

/* The longest key a line's first word can be, in the buffers that hold it. */
#define KEY_NAME_MAX 95

struct conf_scan {
	const struct rk_opensm_keys *keys;
	struct rk_tune_audit *audit;
	const char *path;
	struct conf_summary *summary;
	char (*seen)[KEY_NAME_MAX + 1];
	unsigned *seen_line;
	size_t nseen, capacity;
	int err;
};

struct range {
	const char *key;
	long min, max;
	const char *why;
};

static const struct range ranges[] = {
    {"sm_priority", 0, 15, "SMInfo carries the priority in 4 bits"},
    {"subnet_timeout", 0, 31, "PortInfo carries it in 5 bits (4.096 us * 2^N)"},
    {"lmc", 0, 7, "PortInfo carries the LMC in 3 bits"},
    {"m_key_protection_level", 0, 3, "PortInfo carries it in 2 bits"},
    {"sm_sl", 0, 15, "an SL is 4 bits"},
};

static void report(struct conf_scan *scan, enum rk_severity severity, const char *code,
		   unsigned lineno, const char *current, const char *recommended,
		   const char *remedy, const char *message)
{
	char subject[300];

	snprintf(subject, sizeof(subject), "%s:%u", scan->path, lineno);
	if (!scan->err)
		scan->err = rk_tune_report(scan->audit, severity, code, AREA, subject, current,
					   recommended, remedy, "%s", message);
}

/* A repeated key: the last one wins in OpenSM, silently. */
static void check_repeat(struct conf_scan *scan, const char *key, unsigned lineno)
{
	char message[200];

	for (size_t i = 0; i < scan->nseen; i++)
		if (strcmp(scan->seen[i], key) == 0) {
			snprintf(message, sizeof(message),
				 "%s is given again (first on line %u): OpenSM uses the last one",
				 key, scan->seen_line[i]);
			report(scan, RK_SEVERITY_WARNING, "TUNE_OSM_DUPLICATE", lineno, key, "once",
			       "keep one line per key", message);
			return;
		}
	if (scan->nseen == scan->capacity) {
		size_t grown = scan->capacity ? scan->capacity * 2 : 64;
		char(*seen)[KEY_NAME_MAX + 1] = realloc(scan->seen, grown * sizeof(*seen));
		unsigned *lines = realloc(scan->seen_line, grown * sizeof(*lines));

		if (seen)
			scan->seen = seen;
		if (lines)
			scan->seen_line = lines;
		if (!seen || !lines) {
			scan->err = -ENOMEM;
			return;
		}
		scan->capacity = grown;
	}
	snprintf(scan->seen[scan->nseen], sizeof(scan->seen[0]), "%s", key);
	scan->seen_line[scan->nseen++] = lineno;
}

static bool is_number(const char *value, bool allow_negative)
{
	if (strncmp(value, "0x", 2) == 0 || strncmp(value, "0X", 2) == 0)
		return value[2] && strspn(value + 2, "0123456789abcdefABCDEF") == strlen(value + 2);
	if (allow_negative && value[0] == '-')
		value++;
	return value[0] && strspn(value, "0123456789") == strlen(value);
}

static void check_type(struct conf_scan *scan, const struct rk_opensm_key *key, const char *value,
		       unsigned lineno)
{
	char message[300];

	if (key->type == RK_OPENSM_BOOL && strcmp(value, "TRUE") != 0 &&
	    strcmp(value, "FALSE") != 0) {
		snprintf(message, sizeof(message),
			 "%s \"%s\" is not TRUE or FALSE: OpenSM reads anything but TRUE as FALSE",
			 key->name, value);
		report(scan, RK_SEVERITY_WARNING, "TUNE_OSM_VALUE", lineno, value, "TRUE or FALSE",
		       "write TRUE or FALSE in capitals", message);
	} else if (key->type == RK_OPENSM_NUMBER &&
		   !is_number(value, key->default_value[0] == '-')) {
		snprintf(message, sizeof(message),
			 "%s \"%s\" is not a number: OpenSM reads it as 0 or as its leading digits",
			 key->name, value);
		report(scan, RK_SEVERITY_WARNING, "TUNE_OSM_VALUE", lineno, value,
		       key->default_value, "a decimal or 0x hex number", message);
	}
}

static void check_range(struct conf_scan *scan, const char *key, const char *value, unsigned lineno)
{
	char message[300], allowed[32];

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		long n;

		if (strcmp(ranges[i].key, key) != 0 || !is_number(value, true))
			continue;
		n = strtol(value, NULL, 0);
		if (n >= ranges[i].min && n <= ranges[i].max)
			return;
		snprintf(allowed, sizeof(allowed), "%ld..%ld", ranges[i].min, ranges[i].max);
		snprintf(message, sizeof(message), "%s %s is outside %s: %s", key, value, allowed,
			 ranges[i].why);
		report(scan, RK_SEVERITY_CRITICAL, "TUNE_OSM_RANGE", lineno, value, allowed,
		       "choose a value in the range", message);
	}
}

static void check_routing(struct conf_scan *scan, const char *value, unsigned lineno)
{
	char copy[256], *save = NULL, message[300];

	if (strcmp(value, "(null)") == 0 || scan->keys->nengines == 0)
		return;
	snprintf(copy, sizeof(copy), "%s", value);
	for (char *engine = strtok_r(copy, ",", &save); engine;
	     engine = strtok_r(NULL, ",", &save)) {
		bool known = false;

		for (size_t i = 0; i < scan->keys->nengines; i++)
			known |= strcmp(scan->keys->engines[i], engine) == 0;
		if (known)
			continue;
		snprintf(message, sizeof(message),
			 "routing_engine \"%s\" is not one this OpenSM has: it falls back to its "
			 "default (minhop)",
			 engine);
		report(scan, RK_SEVERITY_CRITICAL, "TUNE_OSM_ROUTING", lineno, engine,
		       "minhop, updn, ftree, ...", "use a name from opensm.conf's list", message);
	}
}

static void check_console(struct conf_scan *scan, const char *value, unsigned lineno)
{
	bool known = scan->keys->nconsoles == 0;

	for (size_t i = 0; i < scan->keys->nconsoles; i++)
		known |= strcmp(scan->keys->consoles[i], value) == 0;
	if (strcmp(value, "socket") == 0)
		report(scan, RK_SEVERITY_CRITICAL, "TUNE_OSM_CONSOLE", lineno, value, "off",
		       "console off (or local)",
		       "console socket listens on every interface: anyone on the network can "
		       "reconfigure the subnet manager");
	else if (strcmp(value, "loopback") == 0)
		report(scan, RK_SEVERITY_WARNING, "TUNE_OSM_CONSOLE", lineno, value, "off",
		       "console off (or local)",
		       "console loopback takes telnet connections on 127.0.0.1 without a password: "
		       "every local user can reconfigure the subnet manager");
	else if (!known)
		report(scan, RK_SEVERITY_WARNING, "TUNE_OSM_VALUE", lineno, value, "off",
		       "console off|local|loopback",
		       "console has a value this OpenSM does not know");
}

static void check_guid(struct conf_scan *scan, const char *value, unsigned lineno)
{
	if (strncmp(value, "0x", 2) == 0 && strlen(value) > 2 && strlen(value) <= 18 &&
	    is_number(value, false)) {
		snprintf(scan->summary->guid, sizeof(scan->summary->guid), "0x%016llx",
			 strtoull(value, NULL, 16));
		return;
	}
	report(scan, RK_SEVERITY_CRITICAL, "TUNE_OSM_GUID", lineno, value, "0x<16 hex digits>",
	       "guid 0x<port GUID> (ibstat -p)",
	       "guid is not a 64-bit port GUID: OpenSM binds to a port it picks itself");
}

static void check_security(struct conf_scan *scan, const char *key, const char *value,
			   unsigned lineno)
{
	if (strcmp(key, "m_key") == 0 && is_number(value, false) && strtoull(value, NULL, 0) == 0)
		report(scan, RK_SEVERITY_WARNING, "TUNE_OSM_MKEY", lineno, value, "a secret M_Key",
		       "m_key 0x<random 64 bits> with m_key_protection_level 2",
		       "m_key is 0: any node can rewrite any port's PortInfo");
	else if (strcmp(key, "sm_key") == 0 && is_number(value, false) &&
		 strtoull(value, NULL, 0) == 1)
		report(scan, RK_SEVERITY_WARNING, "TUNE_OSM_SMKEY", lineno, value,
		       "a secret SM_Key",
		       "sm_key 0x<random 64 bits>, the same on every SM of the subnet",
		       "sm_key is the default 0x1: any node can pose as an SM to the others");
	else if ((strcmp(key, "part_enforce") == 0 && strcmp(value, "off") == 0) ||
		 (strcmp(key, "no_partition_enforcement") == 0 && strcmp(value, "TRUE") == 0))
		report(scan, RK_SEVERITY_CRITICAL, "TUNE_OSM_PART_ENFORCE", lineno, value, "both",
		       "part_enforce both",
		       "partition enforcement is off: switches pass packets of every partition");
}

/* Levenshtein distance of two short names (cut off at 63 characters). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strnlen(a, 63), lb = strnlen(b, 63), row[64];

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			best = up + 1 < best ? up + 1 : best;
			best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* The known key closest to name (2 edits at most), or NULL. */
static const char *closest_key(const struct rk_opensm_keys *keys, const char *name)
{
	const char *best = NULL;
	size_t best_distance = 3;

	for (size_t i = 0; i < keys->count; i++) {
		size_t d = distance(name, keys->items[i].name);

		if (d < best_distance) {
			best = keys->items[i].name;
			best_distance = d;
		}
	}
	return best;
}

static void report_unknown(struct conf_scan *scan, const char *name, unsigned lineno)
{
	const char *guess = closest_key(scan->keys, name);
	char message[300], hint[96];

	snprintf(hint, sizeof(hint), "did you mean %s?", guess ? guess : "");
	snprintf(message, sizeof(message),
		 "%s is not a key of the installed OpenSM: it logs \"Unrecognized token\" and "
		 "ignores the line%s%s",
		 name, guess ? "; " : "", guess ? hint : "");
	report(scan, RK_SEVERITY_WARNING, "TUNE_OSM_UNKNOWN_KEY", lineno, name,
	       guess ? guess : "a key from `opensm -c`",
	       "remove the line or use the key's real name", message);
}

static void conf_line(char *line, unsigned lineno, void *arg)
{
	struct conf_scan *scan = arg;
	const struct rk_opensm_key *key;
	char name[KEY_NAME_MAX + 1], *value, message[300];
	size_t len;

	line += strspn(line, " \t");
	len = strlen(line);
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
		line[--len] = '\0';
	if (!len || line[0] == '#')
		return;
	if (sscanf(line, "%" RK_STRINGIFY(KEY_NAME_MAX) "s", name) != 1)
		return;
	value = line + strlen(name);
	value += strspn(value, " \t");
	if (strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(name) || !*value) {
		snprintf(message, sizeof(message),
			 "\"%.120s\" is not \"key value\": OpenSM skips the line", line);
		report(scan, RK_SEVERITY_WARNING, "TUNE_OSM_SYNTAX", lineno, line, "key value",
		       "fix or remove the line", message);
		return;
	}
	key = rk_opensm_key_find(scan->keys, name);
	if (!key) {
		report_unknown(scan, name, lineno);
		return;
	}
	check_repeat(scan, name, lineno);
	check_type(scan, key, value, lineno);
	check_range(scan, name, value, lineno);
	check_security(scan, name, value, lineno);
	if (strcmp(name, "routing_engine") == 0)
		check_routing(scan, value, lineno);
	else if (strcmp(name, "console") == 0)
		check_console(scan, value, lineno);
	else if (strcmp(name, "guid") == 0)
		check_guid(scan, value, lineno);
	else if (strcmp(name, "sm_priority") == 0 && is_number(value, false))
		scan->summary->priority = strtol(value, NULL, 0);
}

static int audit_one(const char *root, const char *path, const struct rk_opensm_keys *keys,
		     struct rk_tune_audit *audit, struct conf_summary *summary)
{
	struct conf_scan scan = {.keys = keys, .audit = audit, .path = path, .summary = summary};
	char *data;
	size_t len;
	int err = tune_slurp(root, path, &data, &len, NULL);

	snprintf(summary->path, sizeof(summary->path), "%s", path);
	summary->priority = 0;
	snprintf(summary->guid, sizeof(summary->guid), "0x%016x", 0);
	if (err) {
		return rk_tune_report(audit, RK_SEVERITY_CRITICAL, "TUNE_OSM_UNREADABLE", AREA,
				      path, NULL, NULL, "check the path and its permissions",
				      "cannot read %s: %s", path,
				      err == -EINVAL ? "not a regular file" : strerror(-err));
	}
	if (memchr(data, '\0', len))
		err = rk_tune_report(audit, RK_SEVERITY_CRITICAL, "TUNE_OSM_SYNTAX", AREA, path,
				     NULL, NULL, "restore the file from its backup",
				     "%s holds binary data (NUL bytes): not an opensm.conf", path);
	else
		tune_each_line(data, len, conf_line, &scan);
	free(data);
	free(scan.seen);
	free(scan.seen_line);
	return err ? err : scan.err;
}

/* One guid per instance, different guids, and a standby priority below the master's. */
static int check_instances(const struct conf_summary *s, size_t n, struct rk_tune_audit *audit)
{
	int err = 0;
	bool same_priority = n > 1;

	for (size_t i = 0; i < n && !err; i++) {
		if (n > 1 && strtoull(s[i].guid, NULL, 16) == 0)
			err = rk_tune_report(audit, RK_SEVERITY_CRITICAL, "TUNE_OSM_GUID", AREA,
					     s[i].path, s[i].guid, "the port's GUID",
					     "guid 0x<port GUID> in each instance's opensm.conf",
					     "%s sets no guid: with several OpenSM instances each "
					     "needs its own port, or they all bind the first",
					     s[i].path);
		for (size_t j = i + 1; j < n && !err; j++)
			if (strcmp(s[i].guid, s[j].guid) == 0 && strtoull(s[i].guid, NULL, 16))
				err = rk_tune_report(
				    audit, RK_SEVERITY_CRITICAL, "TUNE_OSM_GUID", AREA, s[j].path,
				    s[j].guid, "a different port", "one instance per port",
				    "%s and %s both bind port %s", s[i].path, s[j].path, s[i].guid);
		if (i > 0 && s[i].priority != s[0].priority)
			same_priority = false;
	}
	if (!err && same_priority)
		err =
		    rk_tune_report(audit, RK_SEVERITY_WARNING, "TUNE_OSM_PRIORITY", AREA, s[0].path,
				   "equal", "master above standby",
				   "sm_priority 14 on the master, a lower one on each standby",
				   "all %zu instances have sm_priority %ld: the election falls to "
				   "the lowest GUID, not to the SM you meant as master",
				   n, s[0].priority);
	if (!err && n == 1 && s[0].priority == 0)
		err = rk_tune_report(audit, RK_SEVERITY_OK, "TUNE_OSM_PRIORITY", AREA, s[0].path,
				     "0", "above the standbys'",
				     "sm_priority 14 here if this is the master",
				     "sm_priority is 0, the lowest: a standby needs a priority "
				     "below its master's, so this SM can only be a standby");
	return err;
}

int rk_tune_audit_opensm(const char *root, const char *const *confs, size_t nconfs,
			 const struct rk_opensm_keys *keys, struct rk_tune_audit *audit)
{
	struct conf_summary *summaries = calloc(nconfs ? nconfs : 1, sizeof(*summaries));
	int err = 0;

	if (!summaries)
		return -ENOMEM;
	for (size_t i = 0; i < nconfs && !err; i++)
		err = audit_one(root, confs[i], keys, audit, &summaries[i]);
	if (!err && nconfs)
		err = check_instances(summaries, nconfs, audit);
	free(summaries);
	return err;
}

/* The text of the conf with key's last setting replaced by value (appended when absent). */
static int set_key(const char *data, size_t len, const char *key, const char *value,
		   struct tune_text *out)
{
	const char *last = NULL, *p = data, *end = data + len;
	size_t keylen = strlen(key);
	int err;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *s = p;

		s += strspn(s, " \t");
		if (strncmp(s, key, keylen) == 0 && (s[keylen] == ' ' || s[keylen] == '\t'))
			last = p;
		p = nl ? nl + 1 : end;
	}
	if (!last) {
		bool needs_newline = len && data[len - 1] != '\n';

		return tune_text_add(out, "%.*s%s%s %s\n", (int)len, data,
				     needs_newline ? "\n" : "", key, value);
	}
	p = memchr(last, '\n', (size_t)(end - last));
	err =
	    tune_text_add(out, "%.*s%s %s%s", (int)(last - data), data, key, value, p ? "" : "\n");
	if (!err && p)
		err = tune_text_add(out, "%.*s", (int)(end - p), p);
	return err;
}

static int split_setting(const char *setting, char *key, size_t size, const char **value)
{
	const char *eq = strchr(setting, '=');

	if (!eq || eq == setting || (size_t)(eq - setting) >= size || !eq[1] ||
	    strchr(eq + 1, '\n')) {
		rk_log(RK_LOG_ERR, "tune: \"%s\": expected KEY=VALUE", setting);
		return -EINVAL;
	}
	snprintf(key, size, "%.*s", (int)(eq - setting), setting);
	*value = eq + 1;
	return 0;
}

int rk_tune_plan_opensm_set(const char *root, const char *path, const char *const *settings,
			    size_t nsettings, const struct rk_opensm_keys *keys,
			    struct rk_tune_plan *plan)
{
	struct tune_text text = {0};
	char *data = NULL, key[64];
	size_t len = 0;
	mode_t mode = 0;
	int err = tune_slurp(root, path, &data, &len, &mode);

	if (err)
		return err; /* logged */
	for (size_t i = 0; i < nsettings && !err; i++) {
		const char *value;

		err = split_setting(settings[i], key, sizeof(key), &value);
		if (!err && !rk_opensm_key_find(keys, key)) {
			rk_log(RK_LOG_ERR, "tune: %s is not a key of the installed OpenSM", key);
			err = -EINVAL;
		}
		if (!err) {
			text.len = 0;
			err = set_key(data, len, key, value, &text);
		}
		if (!err) {
			free(data);
			data = strndup(text.data, text.len);
			len = text.len;
			err = data ? 0 : -ENOMEM;
		}
	}
	if (!err) {
		char *current = NULL;
		size_t current_len = 0;

		err = tune_slurp(root, path, &current, &current_len, NULL);
		if (!err && (current_len != len || memcmp(current, data, len) != 0))
			err = rk_tune_plan_add(plan, RK_TUNE_FILE, "opensm.conf", path, current,
					       current_len, mode, data, len, mode);
		free(current);
	}
	free(data);
	tune_text_free(&text);
	return err;
}
