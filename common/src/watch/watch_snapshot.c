/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The watch's snapshots: deep copies of what the monitor saw, shared by reference count. */
#include "watch_internal.h"

#include "rdmakit/array.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The sweep job's part: from the monitor when it passed now, else from the snapshot before. */
static int fill_sweep_part(struct rk_watch_snapshot *snap, const struct rk_watch *watch,
			   bool passed, const struct rk_watch_snapshot *before)
{
	const struct rk_fabric *fabric = passed ? watch->monitor.fabric : before->fabric;
	int err;

	snap->discoveries = passed ? watch->monitor.discoveries : before->discoveries;
	snap->sweep_seconds = passed ? watch->sweep_seconds : before->sweep_seconds;
	err = fabric ? rk_fabric_copy(fabric, &snap->fabric) : 0;
	if (!err)
		err = rk_sweep_copy(passed ? &watch->monitor.sweep : &before->sweep, &snap->sweep);
	return err ? err
		   : rk_findings_copy(passed ? &watch->jobs[RK_WATCH_SWEEP].findings
					     : &before->fabric_findings,
				      &snap->fabric_findings);
}

static int fill_sm_part(struct rk_watch_snapshot *snap, const struct rk_watch *watch, bool passed,
			const struct rk_watch_snapshot *before)
{
	int err = rk_sm_status_copy(passed ? &watch->monitor.sm : &before->sm, &snap->sm);

	return err ? err
		   : rk_findings_copy(passed ? &watch->jobs[RK_WATCH_SM].findings
					     : &before->sm_findings,
				      &snap->sm_findings);
}

static int fill_tune_part(struct rk_watch_snapshot *snap, const struct rk_watch *watch, bool passed,
			  const struct rk_watch_snapshot *before)
{
	return rk_findings_copy(passed ? &watch->jobs[RK_WATCH_TUNE].findings
				       : &before->tune_findings,
				&snap->tune_findings);
}

static int fill_probe_part(struct rk_watch_snapshot *snap, const struct rk_watch *watch,
			   bool passed, const struct rk_watch_snapshot *before)
{
	const struct rk_watch_probes *probes = passed ? &watch->probes : &before->probes;

	int err = rk_array_dup(probes->items, probes->count, sizeof(*probes->items),
			       (void **)&snap->probes.items);

	if (err)
		return err;
	snap->probes.count = snap->probes.capacity = probes->count;
	return rk_findings_copy(passed ? &watch->jobs[RK_WATCH_PROBE].findings
				       : &before->probe_findings,
				&snap->probe_findings);
}

static void snapshot_free(struct rk_watch_snapshot *snap)
{
	rk_fabric_free(snap->fabric);
	rk_sweep_free(&snap->sweep);
	rk_findings_free(&snap->fabric_findings);
	rk_sm_status_free(&snap->sm);
	rk_findings_free(&snap->sm_findings);
	rk_findings_free(&snap->tune_findings);
	free(snap->probes.items);
	rk_findings_free(&snap->probe_findings);
	free(snap);
}

struct rk_watch_snapshot *watch_snapshot(const struct rk_watch *watch, const bool passed[],
					 const struct rk_watch_snapshot *before)
{
	static const struct rk_watch_snapshot empty;
	struct rk_watch_snapshot *snap = calloc(1, sizeof(*snap));
	int err;

	if (!snap)
		return NULL;
	before = before ? before : &empty;
	atomic_init(&snap->refs, 1);
	memcpy(snap->passes, before->passes, sizeof(snap->passes));
	snap->names = watch->names;
	snap->passed_at = before->passed_at;
	snap->probed_at = before->probed_at;
	snap->pass_seconds = before->pass_seconds;
	err = fill_sweep_part(snap, watch, passed[RK_WATCH_SWEEP], before);
	if (!err)
		err = fill_sm_part(snap, watch, passed[RK_WATCH_SM], before);
	if (!err)
		err = fill_tune_part(snap, watch, passed[RK_WATCH_TUNE], before);
	if (!err)
		err = fill_probe_part(snap, watch, passed[RK_WATCH_PROBE], before);
	if (err) {
		snapshot_free(snap);
		return NULL;
	}
	for (int j = 0; j < RK_WATCH_JOBS; j++)
		snap->passes[j] += passed[j];
	return snap;
}

void rk_watch_release(struct rk_watch_snapshot *snap)
{
	if (snap && atomic_fetch_sub(&snap->refs, 1) == 1)
		snapshot_free(snap);
}
