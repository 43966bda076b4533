/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The watch's snapshots, shared by reference count, and the parts they share: a job's pass is
 * copied once, when it is new, and shown by every snapshot until the job passes again; the
 * topology is copied once per discovery. */
#include "watch_internal.h"

#include "rdmakit/array.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The topology's part, after the jobs' ones. */
#define WATCH_PART_TOPOLOGY RK_WATCH_JOBS

/* Each part uses the members of its kind; immutable once made, freed with its last hold. */
struct rk_watch_part {
	atomic_uint refs;
	struct rk_fabric *fabric;	/* the topology's */
	struct rk_sweep_readings sweep; /* the sweep job's */
	struct rk_sm_status sm;		/* the SM job's */
	struct rk_watch_probes probes;	/* the probe job's */
	struct rk_findings findings;	/* every job's */
};

static struct rk_watch_part *part_hold(struct rk_watch_part *part)
{
	if (part)
		atomic_fetch_add(&part->refs, 1);
	return part;
}

static void part_release(struct rk_watch_part *part)
{
	if (!part || atomic_fetch_sub(&part->refs, 1) != 1)
		return;
	rk_fabric_free(part->fabric);
	rk_sweep_readings_free(&part->sweep);
	rk_sm_status_free(&part->sm);
	free(part->probes.items);
	rk_findings_free(&part->findings);
	free(part);
}

static int make_sweep(const struct rk_watch *watch, struct rk_watch_part *part)
{
	int err = rk_sweep_readings_make(&watch->monitor.sweep, &part->sweep);

	return err ? err : rk_findings_copy(&watch->jobs[RK_WATCH_SWEEP].findings, &part->findings);
}

static int make_sm(const struct rk_watch *watch, struct rk_watch_part *part)
{
	int err = rk_sm_status_copy(&watch->monitor.sm, &part->sm);

	return err ? err : rk_findings_copy(&watch->jobs[RK_WATCH_SM].findings, &part->findings);
}

static int make_tune(const struct rk_watch *watch, struct rk_watch_part *part)
{
	return rk_findings_copy(&watch->jobs[RK_WATCH_TUNE].findings, &part->findings);
}

static int make_probe(const struct rk_watch *watch, struct rk_watch_part *part)
{
	const struct rk_watch_probes *probes = &watch->probes;
	int err = rk_array_dup(probes->items, probes->count, sizeof(*probes->items),
			       (void **)&part->probes.items);

	if (err)
		return err;
	part->probes.count = part->probes.capacity = probes->count;
	return rk_findings_copy(&watch->jobs[RK_WATCH_PROBE].findings, &part->findings);
}

static int make_topology(const struct rk_watch *watch, struct rk_watch_part *part)
{
	return rk_fabric_copy(watch->monitor.fabric, &part->fabric);
}

/* Part k of snap: a copy of what the engine holds now when fresh, else before's, shared. */
static int take_part(struct rk_watch_snapshot *snap, const struct rk_watch *watch, int k,
		     bool fresh, const struct rk_watch_snapshot *before)
{
	static int (*const makes[RK_WATCH_JOBS + 1])(
	    const struct rk_watch *, struct rk_watch_part *) = {make_sweep, make_sm, make_tune,
								make_probe, make_topology};
	struct rk_watch_part *part;

	if (!fresh) {
		snap->parts[k] = part_hold(before->parts[k]);
		return 0;
	}
	part = calloc(1, sizeof(*part));
	if (!part)
		return -ENOMEM;
	atomic_init(&part->refs, 1);
	snap->parts[k] = part; /* released with snap, also when the copy fails */
	return makes[k](watch, part);
}

/* A sweep that passed on a topology the one before does not show (the first, or one that
 * followed a rediscovery by either job). */
static bool new_topology(const struct rk_watch *watch, const bool passed[],
			 const struct rk_watch_snapshot *before)
{
	return passed[RK_WATCH_SWEEP] && watch->monitor.fabric &&
	       (!before->parts[WATCH_PART_TOPOLOGY] ||
		before->discoveries != watch->monitor.discoveries);
}

/* Point the members consumers read at the parts (empty where a part is missing). */
static void show_parts(struct rk_watch_snapshot *snap)
{
	static const struct rk_watch_part none;
	const struct rk_watch_part *part[RK_WATCH_JOBS + 1];

	for (int k = 0; k <= RK_WATCH_JOBS; k++)
		part[k] = snap->parts[k] ? snap->parts[k] : &none;
	snap->fabric = part[WATCH_PART_TOPOLOGY]->fabric;
	snap->sweep = part[RK_WATCH_SWEEP]->sweep;
	snap->fabric_findings = part[RK_WATCH_SWEEP]->findings;
	snap->sm = part[RK_WATCH_SM]->sm;
	snap->sm_findings = part[RK_WATCH_SM]->findings;
	snap->tune_findings = part[RK_WATCH_TUNE]->findings;
	snap->probes = part[RK_WATCH_PROBE]->probes;
	snap->probe_findings = part[RK_WATCH_PROBE]->findings;
}

static void snapshot_free(struct rk_watch_snapshot *snap)
{
	for (int k = 0; k <= RK_WATCH_JOBS; k++)
		part_release(snap->parts[k]);
	free(snap);
}

/* The counts and times: the sweep job's from the monitor when it passed, else before's. */
static void fill_scalars(struct rk_watch_snapshot *snap, const struct rk_watch *watch,
			 const bool passed[], const struct rk_watch_snapshot *before)
{
	bool swept = passed[RK_WATCH_SWEEP];

	for (int j = 0; j < RK_WATCH_JOBS; j++)
		snap->passes[j] = before->passes[j] + passed[j];
	snap->discoveries = swept ? watch->monitor.discoveries : before->discoveries;
	snap->sweep_seconds = swept ? watch->sweep_seconds : before->sweep_seconds;
	snap->routes = swept ? watch->route_summary : before->routes;
	snap->routes_checked = swept ? watch->routes_checked : before->routes_checked;
	snap->audited = swept ? watch->audited : before->audited;
	snap->audit_critical = swept ? watch->audit_critical : before->audit_critical;
	snap->audit_warning = swept ? watch->audit_warning : before->audit_warning;
	snap->names = watch->names;
	snap->passed_at = before->passed_at;
	snap->probed_at = before->probed_at;
	snap->pass_seconds = before->pass_seconds;
	snap->elects = watch->elects;
	snap->role_decided = watch->election.announced;
	snap->standby = !watch_fabric_active(watch) && snap->role_decided;
	snap->election_changes = watch->election_changes;
	if (watch->elects)
		snprintf(snap->active_watcher, sizeof(snap->active_watcher), "%s",
			 watch->election.active ? watch->election.name : watch->election.holder);
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
	/* a standby shows no topology, not even the one it had when it was active */
	err = watch_fabric_active(watch) ? take_part(snap, watch, WATCH_PART_TOPOLOGY,
						     new_topology(watch, passed, before), before)
					 : 0;
	for (int j = 0; j < RK_WATCH_JOBS && !err; j++)
		err = take_part(snap, watch, j, passed[j], before);
	if (err) {
		snapshot_free(snap);
		return NULL;
	}
	fill_scalars(snap, watch, passed, before);
	show_parts(snap);
	return snap;
}

void rk_watch_release(struct rk_watch_snapshot *snap)
{
	if (snap && atomic_fetch_sub(&snap->refs, 1) == 1)
		snapshot_free(snap);
}

void rk_watch_fact_values(const struct rk_watch_snapshot *snap, double values[RK_FACT_COUNT])
{
	values[RK_FACT_FABRIC_WATCHER_ACTIVE] =
	    snap->elects && snap->role_decided ? !snap->standby : NAN;
	values[RK_FACT_FABRIC_AUDIT_CRITICAL] = snap->audited ? snap->audit_critical : NAN;
	values[RK_FACT_FABRIC_AUDIT_WARNING] = snap->audited ? snap->audit_warning : NAN;
}
