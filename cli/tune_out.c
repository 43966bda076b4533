/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "tune_out.h"

#include <string.h>
#include <time.h>

static json_object *string_or_null(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

json_object *json_tune_audit(const char *root, const char *profile,
			     const struct rk_tune_audit *audit)
{
	json_object *doc = json_object_new_object(), *array = json_object_new_array();

	for (size_t i = 0; i < audit->findings.count; i++) {
		const struct rk_finding *f = &audit->findings.items[i];
		const struct rk_tune_fact *fact = &audit->facts[i];
		json_object *obj = json_object_new_object();

		json_object_object_add(obj, "severity",
				       json_object_new_string(rk_severity_name(f->severity)));
		json_object_object_add(obj, "code", json_object_new_string(f->code));
		json_object_object_add(obj, "area", json_object_new_string(fact->area));
		json_object_object_add(obj, "subject", json_object_new_string(f->subject));
		json_object_object_add(obj, "current", string_or_null(fact->current));
		json_object_object_add(obj, "recommended", string_or_null(fact->recommended));
		json_object_object_add(obj, "message", json_object_new_string(f->message));
		json_object_object_add(obj, "remedy", json_object_new_string(f->remedy));
		json_object_array_add(array, obj);
	}
	json_object_object_add(doc, "root", json_object_new_string(root));
	json_object_object_add(doc, "profile", string_or_null(profile));
	json_object_object_add(doc, "findings", array);
	json_object_object_add(
	    doc, "worst",
	    json_object_new_string(rk_severity_name(rk_findings_worst(&audit->findings))));
	return doc;
}

void text_tune_audit(FILE *out, const struct rk_tune_audit *audit)
{
	size_t by_severity[3] = {0};
	const char *area = "";

	for (size_t i = 0; i < audit->findings.count; i++) {
		const struct rk_finding *f = &audit->findings.items[i];
		const struct rk_tune_fact *fact = &audit->facts[i];

		by_severity[f->severity]++;
		if (strcmp(area, fact->area) != 0)
			fprintf(out, "%s[%s]\n", i ? "\n" : "", area = fact->area);
		fprintf(out, "%-8s %s  %s\n", rk_severity_name(f->severity), f->code, f->subject);
		if (fact->current[0] || fact->recommended[0])
			fprintf(out, "%-8s %s -> %s\n", "", fact->current[0] ? fact->current : "?",
				fact->recommended[0] ? fact->recommended : "?");
		fprintf(out, "%-8s %s\n%-8s how: %s\n", "", f->message, "", f->remedy);
	}
	fprintf(out, "%s%s: %zu critical, %zu warning, %zu ok\n", audit->findings.count ? "\n" : "",
		rk_severity_name(rk_findings_worst(&audit->findings)),
		by_severity[RK_SEVERITY_CRITICAL], by_severity[RK_SEVERITY_WARNING],
		by_severity[RK_SEVERITY_OK]);
}

json_object *json_tune_plan(const char *root, const struct rk_tune_plan *plan)
{
	json_object *doc = json_object_new_object(), *array = json_object_new_array();

	for (size_t i = 0; i < plan->count; i++) {
		const struct rk_tune_change *c = &plan->items[i];
		json_object *obj = json_object_new_object();
		char path[300];

		snprintf(path, sizeof(path), "/%s", c->path);
		json_object_object_add(
		    obj, "kind", json_object_new_string(c->kind == RK_TUNE_FILE ? "file" : "live"));
		json_object_object_add(obj, "key", json_object_new_string(c->key));
		json_object_object_add(obj, "path", json_object_new_string(path));
		json_object_object_add(
		    obj, "current",
		    c->current ? json_object_new_string_len(c->current, (int)c->current_len)
			       : NULL);
		json_object_object_add(obj, "new",
				       json_object_new_string_len(c->wanted, (int)c->wanted_len));
		if (c->kind == RK_TUNE_FILE) {
			char mode[8];

			snprintf(mode, sizeof(mode), "%04o", c->wanted_mode);
			json_object_object_add(obj, "mode", json_object_new_string(mode));
		}
		json_object_array_add(array, obj);
	}
	json_object_object_add(doc, "root", json_object_new_string(root));
	json_object_object_add(doc, "changes", array);
	return doc;
}

static void print_lines(FILE *out, const char *prefix, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		fprintf(out, "    %s%.*s\n", prefix, (int)n, p);
		p += n + 1;
	}
}

void text_tune_plan(FILE *out, const struct rk_tune_plan *plan)
{
	for (size_t i = 0; i < plan->count; i++) {
		const struct rk_tune_change *c = &plan->items[i];

		if (c->kind == RK_TUNE_LIVE) {
			fprintf(out, "/%s  (%s)\n    %.*s -> %.*s\n", c->path, c->key,
				(int)strcspn(c->current, "\n"), c->current,
				(int)strcspn(c->wanted, "\n"), c->wanted);
			continue;
		}
		fprintf(out, "/%s  (%s, %s, mode %04o)\n", c->path, c->key,
			c->existed ? "replaced" : "new file", c->wanted_mode);
		if (c->existed)
			print_lines(out, "- ", c->current, c->current_len);
		print_lines(out, "+ ", c->wanted, c->wanted_len);
	}
	fprintf(out, "%zu change%s\n", plan->count, plan->count == 1 ? "" : "s");
}

json_object *json_tune_result(const struct rk_tune_result *result)
{
	json_object *doc = json_object_new_object();

	json_object_object_add(doc, "id", string_or_null(result->id));
	json_object_object_add(doc, "done", json_object_new_int64((int64_t)result->done));
	json_object_object_add(doc, "failed", json_object_new_int64((int64_t)result->failed));
	return doc;
}

json_object *json_tune_history(const struct rk_tune_history_entry *entries, size_t count)
{
	json_object *doc = json_object_new_object(), *array = json_object_new_array();

	for (size_t i = 0; i < count; i++) {
		const struct rk_tune_history_entry *e = &entries[i];
		json_object *obj = json_object_new_object();

		json_object_object_add(obj, "id", json_object_new_string(e->id));
		json_object_object_add(
		    obj, "state", json_object_new_string(rk_tune_journal_state_name(e->state)));
		json_object_object_add(obj, "label", string_or_null(e->label));
		json_object_object_add(obj, "started", json_object_new_int64(e->started));
		json_object_object_add(obj, "changes", json_object_new_int64((int64_t)e->changes));
		json_object_object_add(obj, "failed", json_object_new_int64((int64_t)e->failed));
		json_object_object_add(obj, "problem", string_or_null(e->problem));
		json_object_array_add(array, obj);
	}
	json_object_object_add(doc, "journals", array);
	return doc;
}

void text_tune_history(FILE *out, const struct rk_tune_history_entry *entries, size_t count)
{
	fprintf(out, "%-6s %-12s %-20s %7s %6s  %s\n", "ID", "STATE", "STARTED (UTC)", "CHANGES",
		"FAILED", "LABEL");
	for (size_t i = 0; i < count; i++) {
		const struct rk_tune_history_entry *e = &entries[i];
		char when[32] = "-";
		time_t t = (time_t)e->started;
		struct tm tm;

		if (e->started && gmtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
		fprintf(out, "%-6s %-12s %-20s %7zu %6zu  %s%s%s\n", e->id,
			rk_tune_journal_state_name(e->state), when, e->changes, e->failed, e->label,
			e->problem[0] ? "  " : "", e->problem);
	}
}
