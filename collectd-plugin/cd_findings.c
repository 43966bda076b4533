/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_findings.h"

#include "cd_submit.h"

static int compare_keys(const char *code_a, const char *subject_a, const char *code_b,
			const char *subject_b)
{
	int order = strcmp(code_a, code_b);

	return order ? order : strcmp(subject_a, subject_b);
}

static int compare_findings(const void *a, const void *b)
{
	const struct rk_finding *x = *(const struct rk_finding *const *)a;
	const struct rk_finding *y = *(const struct rk_finding *const *)b;

	return compare_keys(x->code, x->subject, y->code, y->subject);
}

static const int log_levels[] = {
    [RK_SEVERITY_OK] = LOG_INFO,
    [RK_SEVERITY_WARNING] = LOG_WARNING,
    [RK_SEVERITY_CRITICAL] = LOG_ERR,
};

static const int notif_severities[] = {
    [RK_SEVERITY_OK] = NOTIF_OKAY,
    [RK_SEVERITY_WARNING] = NOTIF_WARNING,
    [RK_SEVERITY_CRITICAL] = NOTIF_FAILURE,
};

/* A finding that was not there last time; ok-level ones are only logged. */
static void report_new(const struct cd_seen *seen, const struct rk_finding *f, const char *instance,
		       bool notify)
{
	const char *const meta[] = {"code",   f->code,	 "subject", f->subject,
				    "remedy", f->remedy, NULL};
	const struct cd_about about = {seen->plugin, instance, "", f->code};

	cd_log(log_levels[f->severity], "%s %s: %s; %s", f->code, f->subject, f->message,
	       f->remedy);
	if (notify && f->severity != RK_SEVERITY_OK)
		cd_notify_about(notif_severities[f->severity], &about, meta, "%s: %s", f->subject,
				f->message);
}

static void report_cleared(const struct cd_seen *seen, const struct cd_seen_item *item, bool notify)
{
	const char *const meta[] = {"code", item->code, "subject", item->subject, NULL};
	const struct cd_about about = {seen->plugin, item->instance, "", item->code};

	cd_log(LOG_INFO, "%s %s: cleared", item->code, item->subject);
	if (notify && item->severity != RK_SEVERITY_OK)
		cd_notify_about(NOTIF_OKAY, &about, meta, "%s: %s cleared", item->subject,
				item->code);
}

static void remember(struct cd_seen_item *item, const struct rk_finding *f, const char *instance)
{
	snprintf(item->code, sizeof(item->code), "%s", f->code);
	snprintf(item->subject, sizeof(item->subject), "%s", f->subject);
	snprintf(item->instance, sizeof(item->instance), "%s", instance);
	item->severity = f->severity;
}

/* Which comes first: a finding of now (NULL: none left) or one of last time (NULL: none left). */
static int order_of(const struct rk_finding *f, const struct cd_seen_item *old)
{
	if (!f)
		return 1;
	if (!old)
		return -1;
	return compare_keys(f->code, f->subject, old->code, old->subject);
}

/* Walk the sorted findings and the last ones side by side; keep the new set in next. */
static size_t merge(const struct cd_seen *seen, const struct rk_finding **now, size_t count,
		    struct cd_seen_item *next, bool notify, cd_instance_fn instance, void *ctx)
{
	size_t i = 0, j = 0, kept = 0;

	while (i < count || j < seen->count) {
		int order =
		    order_of(i < count ? now[i] : NULL, j < seen->count ? &seen->items[j] : NULL);
		char where[128];

		if (order > 0) {
			report_cleared(seen, &seen->items[j++], notify);
			continue;
		}
		instance(now[i], where, sizeof(where), ctx);
		if (order < 0)
			report_new(seen, now[i], where, notify);
		else
			j++;
		remember(&next[kept++], now[i], where);
		while (++i < count && compare_findings(&now[i], &now[i - 1]) == 0)
			; /* the same (code, subject) twice: one event */
	}
	return kept;
}

void cd_findings_report(struct cd_seen *seen, const struct rk_findings *now, bool notify,
			cd_instance_fn instance, void *ctx)
{
	const struct rk_finding **sorted = calloc(now->count ? now->count : 1, sizeof(*sorted));
	struct cd_seen_item *next = calloc(now->count ? now->count : 1, sizeof(*next));

	if (!sorted || !next) {
		cd_log(LOG_ERR, "out of memory: findings not reported");
		free(sorted);
		free(next);
		return;
	}
	for (size_t i = 0; i < now->count; i++)
		sorted[i] = &now->items[i];
	qsort(sorted, now->count, sizeof(*sorted), compare_findings);
	seen->count = merge(seen, sorted, now->count, next, notify, instance, ctx);
	free(seen->items);
	seen->items = next;
	free(sorted);
}

void cd_seen_free(struct cd_seen *seen)
{
	free(seen->items);
	seen->items = NULL;
	seen->count = 0;
}
