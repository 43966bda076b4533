/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit tune's audits, plans, results and history, through the one writer (print.h). */
#include "tune_out.h"

#include "host_out.h"

#include <string.h>
#include <time.h>

static void print_audit_finding(struct printer *p, const struct rk_finding *f,
				const struct rk_tune_fact *fact)
{
	print_finding_start(p, f);
	print_string(p, PRINT_ANY, "area", " [%s]", fact->area);
	print_string(p, PRINT_ANY, "subject", "  %s\n", f->subject);
	print_string_or_null(p, PRINT_ANY, "current", "         %s", fact->current);
	print_string_or_null(p, PRINT_ANY, "recommended", " -> %s\n", fact->recommended);
	print_finding_end(p, f, "         how: %s\n");
}

void print_tune_audit(struct printer *p, const char *root, const char *profile,
		      const struct rk_tune_audit *audit)
{
	print_open_object(p, NULL);
	print_string(p, PRINT_ANY, "root", "root %s", root);
	print_string_or_null(p, PRINT_ANY, "profile", ", profile %s\n", profile);
	print_open_array(p, "findings");
	for (size_t i = 0; i < audit->findings.count; i++)
		print_audit_finding(p, &audit->findings.items[i], &audit->facts[i]);
	print_close(p);
	print_findings_summary(p, &audit->findings);
	print_close(p);
}

/* A file's content in text, line by line behind prefix ("- " what goes, "+ " what comes). */
static void print_lines(struct printer *p, const char *prefix, const char *text, size_t len)
{
	const char *line = text, *end = text + len;

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);

		print_text(p, "    %s%.*s\n", prefix, (int)n, line);
		line += n + 1;
	}
}

/* What a change replaces and what it writes: a live value's first line, a file's lines. */
static void print_contents(struct printer *p, const struct rk_tune_change *c)
{
	print_string_len(p, PRINT_JSON, "current", NULL, c->current, c->current_len);
	print_string_len(p, PRINT_JSON, "new", NULL, c->wanted, c->wanted_len);
	if (c->kind == RK_TUNE_LIVE) {
		print_text(p, "    %.*s -> %.*s\n", (int)strcspn(c->current, "\n"), c->current,
			   (int)strcspn(c->wanted, "\n"), c->wanted);
		return;
	}
	if (c->existed)
		print_lines(p, "- ", c->current, c->current_len);
	print_lines(p, "+ ", c->wanted, c->wanted_len);
}

static void print_change(struct printer *p, const struct rk_tune_change *c)
{
	char path[300], mode[8];

	snprintf(path, sizeof(path), "/%s", c->path);
	snprintf(mode, sizeof(mode), "%04o", c->wanted_mode);
	print_open_object(p, NULL);
	print_string(p, PRINT_JSON, "kind", NULL, c->kind == RK_TUNE_FILE ? "file" : "live");
	print_string(p, PRINT_JSON, "key", NULL, c->key);
	print_string(p, PRINT_ANY, "path", "%s", path);
	print_text(p, "  (%s", c->key);
	if (c->kind == RK_TUNE_FILE)
		print_text(p, ", %s, mode %s", c->existed ? "replaced" : "new file", mode);
	print_text(p, ")\n");
	print_contents(p, c);
	if (c->kind == RK_TUNE_FILE)
		print_string(p, PRINT_JSON, "mode", NULL, mode);
	print_close(p);
}

void print_tune_plan(struct printer *p, const char *root, const struct rk_tune_plan *plan)
{
	print_open_object(p, NULL);
	print_string(p, PRINT_JSON, "root", NULL, root);
	print_open_array(p, "changes");
	for (size_t i = 0; i < plan->count; i++)
		print_change(p, &plan->items[i]);
	print_close(p);
	print_text(p, "%zu change%s\n", plan->count, plan->count == 1 ? "" : "s");
	print_close(p);
}

void print_tune_result(struct printer *p, const struct rk_tune_result *result, bool rollback)
{
	bool did = result->id[0] != '\0';

	print_open_object(p, NULL);
	if (!did)
		print_text(p, "nothing to change: the system already has these settings\n");
	print_string_or_null(p, PRINT_ANY, "id",
			     !did	? NULL
			     : rollback ? "rolled back %s: "
					: "applied %s: ",
			     result->id);
	print_uint(p, PRINT_ANY, "done",
		   !did	      ? NULL
		   : rollback ? "%llu restored, "
			      : "%llu changes, ",
		   result->done);
	print_uint(p, PRINT_ANY, "failed",
		   !did	      ? NULL
		   : rollback ? "%llu failed\n"
			      : "%llu rejected (rdmakit tune rollback undoes them)\n",
		   result->failed);
	print_close(p);
}

static void print_journal(struct printer *p, const struct rk_tune_history_entry *e)
{
	char when[32] = "-";
	time_t t = (time_t)e->started;
	struct tm tm;

	if (e->started && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	print_open_object(p, NULL);
	print_string(p, PRINT_ANY, "id", "%-6s", e->id);
	print_string(p, PRINT_ANY, "state", " %-18s", rk_tune_journal_state_name(e->state));
	print_string_or_null(p, PRINT_ANY, "label", " %-24s", e->label);
	print_int(p, PRINT_JSON, "started", NULL, e->started);
	print_string(p, PRINT_TEXT, NULL, " %-20s", when);
	print_uint(p, PRINT_ANY, "changes", " %7llu", e->changes);
	print_uint(p, PRINT_ANY, "failed", " %6llu", e->failed);
	print_string_or_null(p, PRINT_ANY, "problem", "  %s\n", e->problem);
	print_close(p);
}

void print_tune_history(struct printer *p, const struct rk_tune_history_entry *entries,
			size_t count)
{
	print_open_object(p, NULL);
	print_open_array(p, "journals");
	print_text(p, "%-6s %-18s %-24s %-20s %7s %6s  %s\n", "ID", "STATE", "LABEL",
		   "STARTED (UTC)", "CHANGES", "FAILED", "PROBLEM");
	for (size_t i = 0; i < count; i++)
		print_journal(p, &entries[i]);
	print_close(p);
	print_close(p);
}
