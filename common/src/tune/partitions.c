/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A strict partitions.conf parser (grammar of opensm(8), PARTITION CONFIGURATION): every error
 * OpenSM would log and swallow, and the Default partition's membership. */
#include "rdmakit/tune_opensm.h"

#include "rdmakit/array.h"
#include "rdmakit/file.h"
#include "rdmakit/log.h"
#include "rdmakit/sysfs.h"
#include "tune_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define AREA	     "partitions"
#define DEFAULT_PKEY 0x7fff
#define MAX_PKEYS    256

struct mgroup_flag {
	const char *name;
	unsigned long max;
	unsigned long min;
};

static const struct mgroup_flag mgroup_flags[] = {
    {"rate", 22, 2},
    {"mtu", 5, 1},
    {"sl", 15, 0},
    {"scope", 15, 0},
    {"Q_Key", 0xffffffffUL, 0},
    {"TClass", 255, 0},
    {"FlowLabel", 0xfffff, 0},
};

static const char *const port_keywords[] = {"ALL", "ALL_CAS", "ALL_SWITCHES", "ALL_ROUTERS",
					    "SELF"};

struct part_scan {
	const char *path;
	struct rk_tune_audit *audit;
	unsigned line; /* of the statement being parsed */
	unsigned errors;
	int err;
	unsigned long pkeys[MAX_PKEYS];
	char names[MAX_PKEYS][64];
	size_t npkeys;
	unsigned ipoib_mtu[MAX_PKEYS]; /* IB MTU of the IPoIB broadcast group, 0: not IPoIB */
	bool default_seen;
	char default_members[128];
	struct rk_partitions *model; /* filled by rk_partitions_load, else NULL */
	int partition;		     /* the model's partition of the statement, -1: none */
	unsigned defmember;	     /* its members' membership when they do not say */
};

static void problem(struct part_scan *scan, enum rk_severity severity, const char *code,
		    const char *current, const char *recommended, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void problem(struct part_scan *scan, enum rk_severity severity, const char *code,
		    const char *current, const char *recommended, const char *fmt, ...)
{
	char subject[300], message[320];
	va_list args;

	snprintf(subject, sizeof(subject), "%s:%u", scan->path, scan->line);
	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	if (severity == RK_SEVERITY_CRITICAL)
		scan->errors++;
	if (!scan->err)
		scan->err = rk_tune_report(
		    scan->audit, severity, code, AREA, subject, current, recommended,
		    severity == RK_SEVERITY_CRITICAL
			? "fix the line: OpenSM logs it and carries on with a fallback"
			: "make it explicit",
		    "%s%s", message,
		    severity == RK_SEVERITY_CRITICAL
			? "; OpenSM accepts the file anyway, and a partition it drops "
			  "isolates nothing"
			: "");
}

static char *trim(char *s)
{
	char *end;

	s += strspn(s, " \t\r\n");
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

static bool parse_number(const char *text, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long long value;

	if (!*text || *text == '-' || *text == '+')
		return false;
	errno = 0;
	value = strtoull(text, &end, 0);
	if (*end || errno || value > max)
		return false;
	*out = (unsigned long)value;
	return true;
}

static const struct mgroup_flag *find_mgroup_flag(const char *name)
{
	for (size_t i = 0; i < sizeof(mgroup_flags) / sizeof(mgroup_flags[0]); i++)
		if (strcmp(mgroup_flags[i].name, name) == 0)
			return &mgroup_flags[i];
	return NULL;
}

/* name=value where name is a multicast group flag; false when it is not one. */
static bool check_mgroup_flag(struct part_scan *scan, char *token)
{
	char *eq = strchr(token, '=');
	const struct mgroup_flag *flag;
	unsigned long value;

	if (!eq)
		return false;
	*eq = '\0';
	flag = find_mgroup_flag(trim(token));
	if (!flag) {
		*eq = '=';
		return false;
	}
	if (!parse_number(trim(eq + 1), flag->max, &value) || value < flag->min)
		problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_SYNTAX", eq + 1, "a number in range",
			"flag '%s' has the invalid value \"%s\" (OpenSM skips it or uses 0)",
			flag->name, trim(eq + 1));
	*eq = '=';
	return true;
}

/* Check a P_Key into *out (15 bits, 0 when invalid); true when it is the Default partition's. */
static bool check_pkey(struct part_scan *scan, const char *name, const char *text,
		       unsigned long *out)
{
	unsigned long pkey;

	*out = 0;
	if (!parse_number(text, 0xffff, &pkey) || (pkey & 0x7fff) == 0) {
		problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_SYNTAX", text, "0x0001..0x7ffe",
			"partition %s has the invalid P_Key \"%s\"", name, text);
		return false;
	}
	if (pkey & 0x8000)
		problem(
		    scan, RK_SEVERITY_WARNING, "TUNE_PART_PKEY", text, "15 bits",
		    "partition %s: P_Key %s has the membership bit set; OpenSM uses only the low "
		    "15 bits",
		    name, text);
	pkey &= 0x7fff;
	*out = pkey;
	for (size_t i = 0; i < scan->npkeys; i++)
		if (scan->pkeys[i] == pkey && strcmp(scan->names[i], name) != 0)
			problem(
			    scan, RK_SEVERITY_WARNING, "TUNE_PART_MERGED", name, scan->names[i],
			    "partition %s repeats the P_Key of %s: OpenSM merges them under the "
			    "first name",
			    name, scan->names[i]);
	if (scan->npkeys < MAX_PKEYS) {
		scan->pkeys[scan->npkeys] = pkey;
		snprintf(scan->names[scan->npkeys++], sizeof(scan->names[0]), "%s", name);
	}
	return pkey == DEFAULT_PKEY;
}

/* The IB MTU of an IPoIB partition's broadcast group: mtu=N is 256 << (N - 1), 2048 unless
 * given. */
static void note_ipoib(struct part_scan *scan, size_t index, bool ipoib, unsigned long mtu_code)
{
	if (ipoib && index < scan->npkeys && mtu_code >= 1 && mtu_code <= 5)
		scan->ipoib_mtu[index] = 128u << mtu_code;
}

/* Membership bits of "full", "limited" or "both"; fallback when there is no word, limited for
 * any other word (as OpenSM takes it). */
static unsigned membership_bits(const char *word, unsigned fallback)
{
	if (!word)
		return fallback;
	if (strcmp(word, "full") == 0)
		return RK_PARTITION_FULL;
	if (strcmp(word, "both") == 0)
		return RK_PARTITION_FULL | RK_PARTITION_LIMITED;
	return RK_PARTITION_LIMITED;
}

/* Make the model's partition of P_Key pkey the statement's (OpenSM merges those that share a
 * P_Key, under the first name); none without a model or a P_Key. */
static void model_partition(struct part_scan *scan, const char *name, unsigned long pkey)
{
	struct rk_partitions *model = scan->model;
	struct rk_partition *items;

	scan->partition = -1;
	if (!model || !pkey)
		return;
	for (size_t i = 0; i < model->count; i++)
		if (model->items[i].pkey == pkey) {
			scan->partition = (int)i;
			return;
		}
	items = rk_array_room(model->items, &model->capacity, model->count, sizeof(*items), 8);
	if (!items) {
		scan->err = -ENOMEM;
		return;
	}
	model->items = items;
	items[model->count] =
	    (struct rk_partition){.pkey = (uint16_t)pkey, .sl = -1, .line = scan->line};
	snprintf(items[model->count].name, sizeof(items[0].name), "%s",
		 name[0] ? name : "(unnamed)");
	scan->partition = (int)model->count++;
}

/* Add a member to the statement's partition in the model. */
static void model_member(struct part_scan *scan, enum rk_partition_who who, uint64_t guid,
			 unsigned membership)
{
	struct rk_partition *partition;
	struct rk_partition_member *members;

	if (!scan->model || scan->partition < 0)
		return;
	partition = &scan->model->items[scan->partition];
	members = rk_array_room(partition->members, &partition->capacity, partition->nmembers,
				sizeof(*members), 8);
	if (!members) {
		scan->err = -ENOMEM;
		return;
	}
	partition->members = members;
	members[partition->nmembers++] =
	    (struct rk_partition_member){.who = who, .guid = guid, .membership = membership};
}

/* [Name][=PKey][,ipoib][,indx0][,defmember=...][,mgroup flags]; true when Default. */
static bool parse_definition(struct part_scan *scan, char *def)
{
	char *save = NULL, *first = strtok_r(def, ",", &save), *flag, *eq, name[64];
	size_t index = scan->npkeys;
	unsigned long mtu_code = 4, pkey = 0, sl = 16;
	bool is_default, ipoib = false;

	first = first ? first : def;
	scan->defmember = RK_PARTITION_LIMITED;
	eq = strchr(first, '=');
	if (eq)
		*eq = '\0'; /* the name ends at '=', blanks before it trimmed */
	snprintf(name, sizeof(name), "%s", trim(first));
	if (name[0] &&
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
			 ".-") != strlen(name))
		problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_SYNTAX", name, "letters, digits, _",
			"partition name \"%s\" has characters OpenSM's parser stops at", name);
	is_default = strcmp(name, "Default") == 0;
	if (eq)
		is_default |= check_pkey(scan, name, trim(eq + 1), &pkey);
	else
		problem(
		    scan, RK_SEVERITY_WARNING, "TUNE_PART_NO_PKEY", name, "=0x<pkey>",
		    "partition %s has no P_Key: OpenSM generates one, and split definitions get "
		    "different P_Keys",
		    name[0] ? name : "(unnamed)");
	while ((flag = strtok_r(NULL, ",", &save)) != NULL) {
		flag = trim(flag);
		ipoib |= strcmp(flag, "ipoib") == 0;
		if (strncmp(flag, "mtu=", 4) == 0)
			mtu_code = strtoul(flag + 4, NULL, 0);
		if (strncmp(flag, "sl=", 3) == 0 && !parse_number(flag + 3, 15, &sl))
			sl = 16;
		if (strcmp(flag, "ipoib") == 0 || strcmp(flag, "indx0") == 0 ||
		    check_mgroup_flag(scan, flag))
			continue;
		if (strncmp(flag, "defmember=", 10) == 0 &&
		    (strcmp(flag + 10, "full") == 0 || strcmp(flag + 10, "limited") == 0 ||
		     strcmp(flag + 10, "both") == 0)) {
			scan->defmember = membership_bits(flag + 10, RK_PARTITION_LIMITED);
			continue;
		}
		problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_SYNTAX", flag,
			"ipoib, indx0, defmember=, rate=, mtu=, sl=, scope=, Q_Key=, TClass=",
			"partition %s has the unknown flag \"%s\"", name[0] ? name : "(unnamed)",
			flag);
	}
	note_ipoib(scan, index, ipoib, mtu_code);
	model_partition(scan, name, is_default && !pkey ? DEFAULT_PKEY : pkey);
	if (scan->partition >= 0 && sl < 16)
		scan->model->items[scan->partition].sl = (int)sl;
	return is_default;
}

static bool is_guid(const char *text)
{
	unsigned long long value;
	char *end;

	if (strncmp(text, "0x", 2) == 0 || strncmp(text, "0X", 2) == 0)
		return strlen(text) > 2 && strlen(text) <= 18 &&
		       strspn(text + 2, "0123456789abcdefABCDEF") == strlen(text + 2);
	errno = 0;
	value = strtoull(text, &end, 10);
	(void)value;
	return *text && *text != '-' && !*end && !errno;
}

static void check_port(struct part_scan *scan, char *token, bool in_default)
{
	static const enum rk_partition_who keyword_who[] = {
	    RK_PARTITION_ALL, RK_PARTITION_ALL_CAS, RK_PARTITION_ALL_SWITCHES,
	    RK_PARTITION_ALL_ROUTERS, RK_PARTITION_SELF};
	char *eq = strchr(token, '='), *who, *membership = NULL;
	bool keyword = false;
	size_t which = 0;

	if (eq) {
		*eq = '\0';
		membership = trim(eq + 1);
	}
	who = trim(token);
	for (size_t i = 0; i < sizeof(port_keywords) / sizeof(port_keywords[0]); i++)
		if (strcmp(who, port_keywords[i]) == 0) {
			keyword = true;
			which = i;
		}
	if (keyword)
		model_member(scan, keyword_who[which], 0,
			     membership_bits(membership, scan->defmember));
	else if (is_guid(who))
		model_member(scan, RK_PARTITION_GUID,
			     strtoull(who, NULL, strncasecmp(who, "0x", 2) == 0 ? 16 : 10),
			     membership_bits(membership, scan->defmember));
	if (!keyword && !is_guid(who))
		problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_SYNTAX", who, "0x<port GUID> or ALL",
			"\"%s\" is neither a port GUID nor ALL, ALL_CAS, ALL_SWITCHES, "
			"ALL_ROUTERS or SELF",
			who);
	if (membership && strcmp(membership, "full") != 0 && strcmp(membership, "limited") != 0 &&
	    strcmp(membership, "both") != 0)
		problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_MEMBERSHIP", membership,
			"full, limited or both",
			"membership \"%s\" of %s is not full, limited or both: OpenSM makes it "
			"limited without a word",
			membership, who);
	if (in_default && keyword && strcmp(who, "SELF") != 0) {
		size_t used = strlen(scan->default_members);

		snprintf(scan->default_members + used, sizeof(scan->default_members) - used,
			 "%s%s=%s", used ? ", " : "", who, membership ? membership : "limited");
	}
}

static void check_mgid(struct part_scan *scan, const char *gid)
{
	unsigned char addr[16];

	if (inet_pton(AF_INET6, gid, addr) != 1 || addr[0] != 0xff)
		problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_SYNTAX", gid, "ff12:401b::...",
			"mgid \"%s\" is not a multicast GID", gid);
}

static void parse_properties(struct part_scan *scan, char *props, bool in_default)
{
	char *save = NULL, *token;
	bool in_group = false;

	if (!*trim(props))
		return; /* an empty list: no ports */
	for (token = strtok_r(props, ",", &save); token; token = strtok_r(NULL, ",", &save)) {
		token = trim(token);
		if (!*token) {
			problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_SYNTAX", "", "a port",
				"an empty entry in the port list");
		} else if (strncmp(token, "mgid=", 5) == 0) {
			in_group = true;
			check_mgid(scan, trim(token + 5));
		} else if (!(in_group && check_mgroup_flag(scan, token))) {
			in_group = false;
			check_port(scan, token, in_default);
		}
	}
}

static void parse_statement(struct part_scan *scan, char *stmt)
{
	char *colon = strchr(stmt, ':');
	bool is_default;

	if (!*trim(stmt))
		return;
	if (!colon) {
		problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_SYNTAX", trim(stmt),
			"Name=PKey : ports ;",
			"\"%.80s\" has no ':' between the partition and its "
			"ports",
			trim(stmt));
		return;
	}
	*colon = '\0';
	is_default = parse_definition(scan, stmt);
	scan->default_seen |= is_default;
	parse_properties(scan, colon + 1, is_default);
}

static unsigned line_of(const char *data, const char *at)
{
	unsigned line = 1;

	for (const char *p = data; p < at; p++)
		line += *p == '\n';
	return line;
}

/* Blank every comment, the last line's too when the file does not end with a newline. */
static void strip_comments(char *data)
{
	for (char *p = strchr(data, '#'); p; p = strchr(p, '#'))
		while (*p && *p != '\n')
			*p++ = ' ';
}

static int report_default(struct part_scan *scan)
{
	if (!scan->default_seen)
		return rk_tune_report(scan->audit, RK_SEVERITY_WARNING, "TUNE_PART_DEFAULT", AREA,
				      scan->path, "no rule", "Default=0x7fff, ipoib : ALL=full ;",
				      "add a Default rule that says what you mean",
				      "no rule for the Default partition: OpenSM applies "
				      "\"Default=0x7fff : ALL=limited, SELF=full\"");
	return rk_tune_report(scan->audit, RK_SEVERITY_OK, "TUNE_PART_DEFAULT", AREA, scan->path,
			      scan->default_members[0] ? scan->default_members : "no ports", NULL,
			      "-", "the Default partition (0x7fff) has %s",
			      scan->default_members[0] ? scan->default_members : "no ports");
}

static int parse_text(struct part_scan *scan, char *data)
{
	char *start = data, *semi;

	strip_comments(data);
	while ((semi = strchr(start, ';')) != NULL) {
		*semi = '\0';
		scan->line = line_of(data, start + strspn(start, " \t\r\n"));
		parse_statement(scan, start);
		start = semi + 1;
	}
	if (*trim(start)) {
		scan->line = line_of(data, start + strspn(start, " \t\r\n"));
		problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_SYNTAX", trim(start), "... ;",
			"the last definition \"%.80s\" does not end with ';'", trim(start));
	}
	return scan->err ? scan->err : report_default(scan);
}

int rk_tune_audit_partitions(const char *root, const char *path, struct rk_tune_audit *audit)
{
	struct part_scan *scan = calloc(1, sizeof(*scan));
	char *data;
	size_t len;
	int err;

	if (!scan)
		return -ENOMEM;
	scan->path = path;
	scan->audit = audit;
	err = tune_slurp(root, path, &data, &len, NULL);
	if (err) {
		const char *why = err == -EINVAL ? "not a regular file" : strerror(-err);

		free(scan);
		return rk_tune_report(audit, RK_SEVERITY_CRITICAL, "TUNE_PART_UNREADABLE", AREA,
				      path, NULL, NULL, "check the path and its permissions",
				      "cannot read %s (%s): OpenSM would run with Default=0x7fff : "
				      "ALL=full, no isolation",
				      path, why);
	}
	if (memchr(data, '\0', len)) {
		scan->line = 1;
		problem(scan, RK_SEVERITY_CRITICAL, "TUNE_PART_SYNTAX", NULL, NULL,
			"%s holds binary data (NUL bytes)", path);
		err = scan->err;
	} else {
		err = parse_text(scan, data);
	}
	free(data);
	free(scan);
	return err;
}

int rk_tune_partitions_ipoib_mtu(const char *root, const char *path, unsigned pkey,
				 unsigned *ib_mtu)
{
	struct rk_tune_audit quiet = {0};
	struct part_scan *scan = calloc(1, sizeof(*scan));
	char *data = NULL;
	size_t len = 0;
	int err;

	if (!scan)
		return -ENOMEM;
	*scan = (struct part_scan){.path = path, .audit = &quiet};
	err = tune_slurp(root, path, &data, &len, NULL);
	if (!err && memchr(data, '\0', len))
		err = -EINVAL;
	if (!err)
		err = parse_text(scan, data);
	if (!err)
		err = -ENOENT;
	for (size_t i = 0; err == -ENOENT && i < scan->npkeys; i++)
		if (scan->pkeys[i] == (pkey & 0x7fff) && scan->ipoib_mtu[i]) {
			*ib_mtu = scan->ipoib_mtu[i];
			err = 0;
		}
	free(data);
	rk_tune_audit_free(&quiet);
	free(scan);
	return err;
}

/* OpenSM's Default partition when the file has none: "Default=0x7fff : ALL=limited, SELF=full". */
static void model_default(struct part_scan *scan)
{
	for (size_t i = 0; i < scan->model->count; i++)
		if (scan->model->items[i].pkey == DEFAULT_PKEY)
			return;
	model_partition(scan, "Default", DEFAULT_PKEY);
	model_member(scan, RK_PARTITION_ALL, 0, RK_PARTITION_LIMITED);
	model_member(scan, RK_PARTITION_SELF, 0, RK_PARTITION_FULL);
}

/* Double *buf's room (*cap bytes, one more for the NUL); 0 or -ENOMEM (*buf as it was). */
static int grow(char **buf, size_t *cap)
{
	char *bigger = realloc(*buf, 2 * *cap + 1);

	if (!bigger)
		return -ENOMEM;
	*buf = bigger;
	*cap *= 2;
	return 0;
}

/* The whole regular file at path (an operator's, opened as hostile input) into *data, at most
 * TUNE_MAX_FILE bytes; 0 or -errno, -EILSEQ for binary data (a NUL byte). */
static int read_whole(const char *path, char **data)
{
	int err = 0;
	FILE *in = rk_file_open_regular(path, &err);
	size_t used = 0, cap = 4096;
	char *buf = in ? malloc(cap + 1) : NULL;

	if (in && !buf)
		err = -ENOMEM;
	while (buf && !err && !feof(in)) {
		used += fread(buf + used, 1, cap - used, in);
		if (ferror(in))
			err = -EIO;
		else if (used == cap && cap >= TUNE_MAX_FILE)
			err = -EFBIG;
		else if (used == cap)
			err = grow(&buf, &cap);
	}
	if (in)
		fclose(in);
	if (!err && memchr(buf, '\0', used))
		err = -EILSEQ;
	if (err) {
		free(buf);
		return err;
	}
	buf[used] = '\0';
	*data = buf;
	return 0;
}

int rk_partitions_load(const char *path, struct rk_partitions *out, unsigned *errors)
{
	struct rk_tune_audit quiet = {0};
	struct part_scan *scan = calloc(1, sizeof(*scan));
	char *data = NULL;
	int err = scan ? read_whole(path, &data) : -ENOMEM;

	*out = (struct rk_partitions){0};
	if (scan) {
		*scan = (struct part_scan){
		    .path = path, .audit = &quiet, .model = out, .partition = -1};
		if (!err)
			err = parse_text(scan, data);
		if (!err)
			model_default(scan);
		err = err ? err : scan->err;
		if (errors)
			*errors = scan->errors;
	}
	if (err)
		rk_log(RK_LOG_ERR, "partitions: %s: %s", path,
		       err == -EILSEQ ? "binary data (a NUL byte), not a partitions.conf"
				      : rk_sysfs_error(err));
	for (size_t i = 0; i < quiet.findings.count; i++)
		if (quiet.findings.items[i].severity == RK_SEVERITY_CRITICAL)
			rk_log(RK_LOG_WARNING, "partitions: %s: %s",
			       quiet.findings.items[i].subject, quiet.findings.items[i].message);
	if (err)
		rk_partitions_free(out);
	free(data);
	rk_tune_audit_free(&quiet);
	free(scan);
	return err;
}

void rk_partitions_free(struct rk_partitions *partitions)
{
	for (size_t i = 0; i < partitions->count; i++)
		free(partitions->items[i].members);
	free(partitions->items);
	*partitions = (struct rk_partitions){0};
}
