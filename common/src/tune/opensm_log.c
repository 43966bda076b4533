/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A summary of an OpenSM log: its ERR lines by code, its WARN lines by text. */
#include "rdmakit/tune_opensm.h"

#include "rdmakit/log.h"
#include "tune_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KINDS 64

struct log_kind {
	char key[16]; /* "ERR 3A0F" or "WARN" */
	size_t count;
	unsigned last_line;
	char last[200];
};

struct log_scan {
	struct log_kind kinds[MAX_KINDS];
	size_t nkinds, other;
};

static void tally(struct log_scan *scan, const char *key, const char *text, unsigned lineno)
{
	struct log_kind *kind = NULL;

	for (size_t i = 0; i < scan->nkinds && !kind; i++)
		if (strcmp(scan->kinds[i].key, key) == 0)
			kind = &scan->kinds[i];
	if (!kind && scan->nkinds == MAX_KINDS) {
		scan->other++;
		return;
	}
	if (!kind) {
		kind = &scan->kinds[scan->nkinds++];
		snprintf(kind->key, sizeof(kind->key), "%s", key);
	}
	kind->count++;
	kind->last_line = lineno;
	snprintf(kind->last, sizeof(kind->last), "%s", text);
}

static void log_line(char *line, unsigned lineno, void *arg)
{
	struct log_scan *scan = arg;
	char *err = strstr(line, "ERR "), *warn = strstr(line, "WARN");
	char key[16];

	if (err && strlen(err) >= 9 && err[8] == ':' &&
	    strspn(err + 4, "0123456789ABCDEFabcdef") == 4) {
		snprintf(key, sizeof(key), "%.8s", err);
		tally(scan, key, err + 9 + strspn(err + 9, " "), lineno);
	} else if (warn) {
		tally(scan, "WARN", warn, lineno);
	}
}

static int report_kinds(const char *path, const struct log_scan *scan, struct rk_tune_audit *audit)
{
	int err = 0;

	for (size_t i = 0; i < scan->nkinds && !err; i++) {
		const struct log_kind *k = &scan->kinds[i];
		char subject[300], count[32];

		snprintf(subject, sizeof(subject), "%s %s", path, k->key);
		snprintf(count, sizeof(count), "%zu lines", k->count);
		err = rk_tune_report(audit, k->key[0] == 'E' ? RK_SEVERITY_WARNING : RK_SEVERITY_OK,
				     k->key[0] == 'E' ? "TUNE_OSM_LOG_ERR" : "TUNE_OSM_LOG_WARN",
				     "log", subject, count, "0",
				     "look the code up in OpenSM's source or the vendor's notes",
				     "%zu %s line%s, the last (line %u): %s", k->count, k->key,
				     k->count == 1 ? "" : "s", k->last_line, k->last);
	}
	if (!err && scan->other)
		err = rk_tune_report(audit, RK_SEVERITY_WARNING, "TUNE_OSM_LOG_ERR", "log", path,
				     NULL, NULL, "read the log", "%zu more lines of other codes",
				     scan->other);
	return err;
}

int rk_tune_audit_opensm_log(const char *root, const char *path, struct rk_tune_audit *audit)
{
	struct log_scan *scan;
	char *data;
	size_t len;
	int err = tune_slurp(root, path, &data, &len, NULL);

	if (err) {
		const char *why = err == -EINVAL ? "not a regular file" : strerror(-err);

		return rk_tune_report(audit, RK_SEVERITY_WARNING, "TUNE_OSM_LOG_UNREADABLE", "log",
				      path, NULL, NULL, "check the path (opensm -f FILE)",
				      "cannot read %s: %s", path, why);
	}
	scan = calloc(1, sizeof(*scan));
	if (!scan) {
		free(data);
		return -ENOMEM;
	}
	for (char *p = data; p < data + len; p++)
		*p = *p == '\0' ? ' ' : *p; /* a torn write leaves NULs: read past them */
	tune_each_line(data, len, log_line, scan);
	err = report_kinds(path, scan, audit);
	free(scan);
	free(data);
	return err;
}
