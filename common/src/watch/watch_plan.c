/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The sweep job's cabling plan: the file is looked at before each check and read again when it
 * changed (another device, inode, size, mtime or ctime); while it is gone or cannot be read the
 * last plan read stays in use, the failure is logged once and PLAN_UNREADABLE says so until the
 * file can be read again. */
#include "rdmakit/file.h"
#include "watch_internal.h"

#include "rdmakit/log.h"
#include "rdmakit/sysfs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool watch_plan_stamp_same(const struct watch_plan_stamp *a, const struct watch_plan_stamp *b)
{
	return a->valid && b->valid && a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns;
}

static void stamp_of(const struct stat *st, struct watch_plan_stamp *out)
{
	out->valid = true;
	out->dev = st->st_dev;
	out->ino = st->st_ino;
	out->size = st->st_size;
	out->mtime_ns = (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
	out->ctime_ns = (long long)st->st_ctim.tv_sec * 1000000000LL + st->st_ctim.tv_nsec;
}

void watch_plan_forget(struct watch_plan *kept)
{
	rk_plan_free(kept->plan);
	free(kept->path);
	*kept = (struct watch_plan){.reads = kept->reads};
}

static const char *failure(int err)
{
	switch (err) {
	case -E2BIG:
		return "more nodes or links than a plan may have";
	case -EBADMSG:
		return "not well-formed XML";
	default:
		return rk_sysfs_error(err);
	}
}

/* What the engine goes on with, after a failed look. */
static const char *fallback(const struct watch_plan *kept)
{
	return kept->plan ? "the fabric is compared with the plan read before"
			  : "the fabric is compared with no plan";
}

/* Read the file again; a failure keeps the plan read before (rk_plan_load logs why, once per
 * version of the file). */
static void reread(struct watch_plan *kept)
{
	struct rk_plan *plan;
	unsigned skipped = 0;
	int err = rk_plan_load(kept->path, &plan, &skipped);

	if (err) {
		kept->failing = err; /* PLAN_UNREADABLE says what the check goes on with */
		return;
	}
	rk_plan_free(kept->plan);
	kept->plan = plan;
	kept->skipped = skipped;
	kept->unplaced = 0;
	kept->failing = 0;
	kept->reads++;
	if (plan->named)
		rk_log(RK_LOG_INFO,
		       "fabric plan %s read: %zu links between named nodes, %u line(s) "
		       "skipped",
		       kept->path, rk_plan_named_links(plan), skipped);
	else
		rk_log(RK_LOG_INFO, "fabric plan %s read: %zu nodes, %zu links, %u line(s) skipped",
		       kept->path, plan->nnodes, plan->nlinks, skipped);
}

void watch_plan_refresh(struct watch_plan *kept, const char *path)
{
	struct watch_plan_stamp now = {0};
	struct stat st;

	if (kept->path && strcmp(kept->path, path) != 0)
		watch_plan_forget(kept);
	if (!kept->path && !(kept->path = strdup(path))) {
		kept->failing = -ENOMEM;
		return;
	}
	if (stat(path, &st) != 0) {
		int err = -errno;

		if (err != kept->failing)
			rk_log(RK_LOG_WARNING, "fabric plan %s: cannot read it: %s; %s", path,
			       rk_sysfs_error(err), fallback(kept));
		kept->failing = err;
		kept->stamp.valid = false; /* read it whenever it is back */
		return;
	}
	stamp_of(&st, &now);
	if (watch_plan_stamp_same(&now, &kept->stamp))
		return;
	kept->stamp = now; /* taken before the read: a change meanwhile is read at the next look */
	reread(kept);
}

static int add_unreadable(const struct watch_plan *kept, struct rk_findings *findings)
{
	return rk_findings_add(findings, RK_SEVERITY_WARNING, "PLAN_UNREADABLE", kept->path,
			       "restore the file or make it readable: it is read again as soon as "
			       "it changes",
			       "the fabric plan cannot be read (%s): %s", failure(kept->failing),
			       fallback(kept));
}

/* The settings' plan path now (a reload may change it meanwhile); "" for none. */
static void current_path(struct rk_watch *watch, char *path, size_t size)
{
	pthread_mutex_lock(&watch->lock);
	snprintf(path, size, "%s", watch->settings.plan_path ? watch->settings.plan_path : "");
	pthread_mutex_unlock(&watch->lock);
}

/* The kept plan against the fabric. The links a plan that names its nodes cannot place are
 * logged one by one at the first comparison of each version of the file, and in one line when
 * their number changes later (the fabric changed): not at every sweep. */
static int compare(struct watch_plan *kept, const struct rk_fabric *fabric,
		   const struct rk_name_map *names, struct rk_findings *findings)
{
	bool first = kept->placed_reads != kept->reads;
	unsigned unplaced = 0;
	int err = rk_plan_compare(fabric, kept->plan, names, first ? RK_LOG_WARNING : RK_LOG_DEBUG,
				  &unplaced, findings);

	if (!err && !first && unplaced != kept->unplaced)
		rk_log(RK_LOG_WARNING,
		       "fabric plan %s: %u link(s) cannot be placed on the fabric now (%u before); "
		       "rdmakit fabric --expect %s names them",
		       kept->path, unplaced, kept->unplaced, kept->path);
	if (!err) {
		kept->unplaced = unplaced;
		kept->placed_reads = kept->reads;
	}
	return err;
}

int watch_plan_check(struct rk_watch *watch, struct rk_findings *findings)
{
	struct watch_plan *kept = &watch->plan;
	const struct rk_fabric *fabric = watch->monitor.fabric;
	char path[RK_PATH_SIZE];
	int err = 0;

	current_path(watch, path, sizeof(path));
	if (!path[0]) {
		if (kept->path)
			watch_plan_forget(kept);
		return 0;
	}
	watch_plan_refresh(kept, path);
	if (kept->failing == -ENOMEM)
		return -ENOMEM;
	if (kept->plan && fabric)
		err = compare(kept, fabric, watch->names, findings);
	if (!err && kept->plan)
		err = rk_plan_skipped_finding(kept->path, kept->skipped + kept->unplaced, findings);
	if (!err && kept->failing)
		err = add_unreadable(kept, findings);
	return err;
}

int rk_watch_set_plan(struct rk_watch *watch, const char *path)
{
	char *copy = path ? strdup(path) : NULL, *before;

	if (path && !copy)
		return -ENOMEM;
	pthread_mutex_lock(&watch->lock);
	before = (char *)watch->settings.plan_path;
	watch->settings.plan_path = copy;
	pthread_mutex_unlock(&watch->lock);
	free(before);
	return 0;
}
