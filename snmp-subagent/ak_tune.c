/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "ak_tune.h"

#include "ak_events.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ak_tune_open(struct ak_tune_watch *watch, const struct ak_config *config)
{
	memset(watch, 0, sizeof(*watch));
	watch->enabled = config->tune;
	if (!watch->enabled)
		return 0;
	watch->interval = config->tune_interval;
	watch->root = strdup(config->tune_root ? config->tune_root : "/");
	if (!watch->root || rk_event_tracker_new(&watch->tracker) != 0) {
		free(watch->root);
		watch->root = NULL;
		return -ENOMEM;
	}
	watch->options.root = watch->root;
	watch->options.profile = config->tune_profile;
	return 0;
}

static struct rk_finding *same_key(struct rk_findings *findings, const struct rk_finding *finding)
{
	for (size_t i = 0; i < findings->count; i++)
		if (strcmp(findings->items[i].code, finding->code) == 0 &&
		    strcmp(findings->items[i].subject, finding->subject) == 0)
			return &findings->items[i];
	return NULL;
}

/* The findings that ask for something (an ok finding only says a check passed), each code
 * and subject once as the tracker and the table key them: the first of the most severe
 * (TUNE_ARP tells arp_ignore and arp_announce of one interface apart in its message only). */
static int keep_problems(const struct rk_findings *all, struct rk_findings *out)
{
	int err = 0;

	for (size_t i = 0; i < all->count && !err; i++) {
		const struct rk_finding *f = &all->items[i];
		struct rk_finding *kept = same_key(out, f);

		if (f->severity == RK_SEVERITY_OK)
			continue;
		if (!kept)
			err = rk_findings_add(out, f->severity, f->code, f->subject, f->remedy,
					      "%s", f->message);
		else if (f->severity > kept->severity)
			*kept = *f;
	}
	return err;
}

/* Each finding raised or cleared since the last audit; the first audit only primes. */
static void track(struct ak_tune_watch *watch)
{
	const struct rk_event_views views = {.host_findings = &watch->findings};

	ak_events_track(watch->tracker, &views, &watch->audited_once, &watch->events,
			"tune findings");
}

/* Audit under the root; the last findings stay when it fails. */
static bool audit(struct ak_tune_watch *watch)
{
	struct rk_tune_audit result = {0};
	struct rk_findings problems = {0};
	int err = rk_tune_audit_host(&watch->options, &result, NULL);

	if (!err)
		err = keep_problems(&result.findings, &problems);
	rk_tune_audit_free(&result);
	if (err) {
		rk_log(RK_LOG_ERR, "tune audit of %s failed: %s", watch->root, strerror(-err));
		rk_findings_free(&problems);
		return false;
	}
	rk_findings_free(&watch->findings);
	watch->findings = problems;
	rk_log(RK_LOG_INFO, "tune audit of %s: %zu findings", watch->root, problems.count);
	return true;
}

void ak_tune_poll(struct ak_tune_watch *watch)
{
	double now = rk_monotonic_seconds();

	rk_event_list_clear(&watch->events);
	if (!watch->enabled || now < watch->next_at)
		return;
	watch->next_at = now + watch->interval;
	if (audit(watch))
		track(watch);
}

/* Roots compare as given, with / for the default. */
static bool same_root(const char *a, const char *b)
{
	return strcmp(a ? a : "/", b ? b : "/") == 0;
}

bool ak_tune_same_config(const struct ak_config *a, const struct ak_config *b)
{
	return a->tune == b->tune && a->tune_interval == b->tune_interval &&
	       same_root(a->tune_root, b->tune_root) && a->tune_profile == b->tune_profile;
}

void ak_tune_close(struct ak_tune_watch *watch)
{
	rk_findings_free(&watch->findings);
	rk_event_list_free(&watch->events);
	rk_event_tracker_free(watch->tracker);
	free(watch->root);
	memset(watch, 0, sizeof(*watch));
}
