/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The watch's tune job: the host audit of rdmakit tune (nothing is ever applied), reduced to
 * what asks for something, and what changed since the last audit. */
#include "rdmakit/file.h"
#include "watch_internal.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The findings that ask for something (an ok finding only says a check passed), each code
 * and subject once as the tracker and the tables key them: the first of the most severe
 * (TUNE_ARP tells arp_ignore and arp_announce of one interface apart in its message only). */
static int keep_problems(const struct rk_findings *all, struct rk_findings *out)
{
	int err = 0;

	for (size_t i = 0; i < all->count && !err; i++) {
		const struct rk_finding *f = &all->items[i];
		struct rk_finding *kept = rk_findings_find(out, f->code, f->subject);

		if (f->severity == RK_SEVERITY_OK)
			continue;
		if (!kept)
			err = rk_findings_append(out, f);
		else if (f->severity > kept->severity)
			*kept = *f;
	}
	return err;
}

/* The root and profile to audit now (a reload may change them meanwhile). */
static void current_options(struct rk_watch *watch, char *root, size_t size,
			    struct rk_tune_options *options)
{
	pthread_mutex_lock(&watch->lock);
	snprintf(root, size, "%s", watch->settings.tune_root);
	options->profile = watch->settings.tune_profile;
	pthread_mutex_unlock(&watch->lock);
	options->root = root;
}

int watch_audit(struct rk_watch *watch)
{
	struct watch_job *job = &watch->jobs[RK_WATCH_TUNE];
	char root[RK_PATH_SIZE];
	struct rk_tune_options options = {0};
	struct rk_tune_audit result = {0};
	struct rk_findings problems = {0};
	struct rk_event_views views = {.host_findings = &job->findings};
	int err;

	if (!job->enabled)
		return watch_job_forget(job);
	current_options(watch, root, sizeof(root), &options);
	err = rk_tune_audit_host(&options, &result, NULL);
	if (!err)
		err = keep_problems(&result.findings, &problems);
	rk_tune_audit_free(&result);
	if (err) {
		rk_log(RK_LOG_ERR, "tune audit of %s failed: %s", options.root, strerror(-err));
		rk_findings_free(&problems);
		return err; /* the last findings stay */
	}
	rk_findings_free(&job->findings);
	job->findings = problems;
	rk_log(RK_LOG_INFO, "tune audit of %s: %zu findings", options.root, problems.count);
	watch_job_track(job, &views);
	return 0;
}

int rk_watch_set_tune(struct rk_watch *watch, bool on, const char *root,
		      const struct rk_tune_profile *profile)
{
	struct watch_lane *lane = &watch->lanes[WATCH_LANE_TUNE];
	char *copy = strdup(root ? root : "/"), *before;

	if (!copy)
		return -ENOMEM;
	pthread_mutex_lock(&watch->lock);
	before = (char *)watch->settings.tune_root;
	watch->settings.tune_root = copy;
	watch->settings.tune_profile = profile;
	watch->settings.tune = on;
	watch->jobs[RK_WATCH_TUNE].enabled = on;
	lane->next_at = rk_monotonic_seconds(); /* the next audit (or the clearing) at once */
	pthread_cond_broadcast(&watch->wake);
	pthread_mutex_unlock(&watch->lock);
	free(before);
	return watch->started ? watch_lane_start(lane) : 0;
}
