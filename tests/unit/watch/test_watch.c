/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the watch engine (common/src/watch/): the back-off after failures, the one
 * first-pass rule of its events (the host pass's and the probe job's too), a failed pass that
 * sends nothing, the ports the probe job probes, and a stop that returns in time while a discovery
 * hangs, with shell scripts standing in for rdmakit-discover. The daemons stopped during a
 * discovery on a simulated fabric are tests/collectd/test_stop.py and tests/snmp/test_stop.py. */
#include "fixture_util.h"
#include "watch_internal.h"

#include "rdmakit/catalog.h"
#include "rdmakit/clock.h"
#include "rdmakit/limits.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static char dir[] = "/tmp/rdmakit-watch-XXXXXX";

/* Install body as the helper script (named by RDMAKIT_DISCOVER_HELPER). */
static void helper_script(const char *body)
{
	char path[sizeof(dir) + 16];

	snprintf(path, sizeof(path), "%s/helper", dir);
	write_file(dir, "helper", body);
	assert_int_equal(chmod(path, 0755), 0);
	assert_int_equal(setenv("RDMAKIT_DISCOVER_HELPER", path, 1), 0);
}

/* An engine with the sweep job on (or none), every interval seconds. */
static struct rk_watch *new_watch(bool sweep, double interval)
{
	struct rk_watch_settings settings;
	struct rk_watch *watch = NULL;

	rk_watch_settings_defaults(&settings);
	settings.sweep = sweep;
	settings.interval_s = interval;
	assert_int_equal(rk_watch_new(&settings, &watch), 0);
	return watch;
}

/* The finding of code in findings, or NULL. */
static const struct rk_finding *finding_of(const struct rk_findings *findings, const char *code)
{
	for (size_t i = 0; i < findings->count; i++)
		if (strcmp(findings->items[i].code, code) == 0)
			return &findings->items[i];
	return NULL;
}

/* Traps with no state to read back are findings for RK_TRAP_HOLD_S after the last one; a
 * trap that changes the topology asks for a rediscovery soon; a port's change raises
 * PORT_WENT_DOWN until it is back. */
static void events_become_findings(void **state)
{
	struct rk_watch *watch = new_watch(true, 300);
	struct rk_notice integrity = {
	    .trap = RK_TRAP_LINK_INTEGRITY, .lid = 7, .port = 3, .issuer_lid = 7};
	struct rk_notice pkey = {.trap = RK_TRAP_BAD_PKEY, .lid = 9, .issuer_lid = 9};
	struct rk_notice gid_in = {.trap = RK_TRAP_GID_IN_SERVICE, .guid = 0x1234};
	struct rk_fabric_event event = {.notice = &integrity};
	struct rk_findings findings = {0};
	const struct rk_finding *f;

	(void)state;
	watch->lanes[WATCH_LANE_FABRIC].next_at = rk_monotonic_seconds() + 300;
	watch_on_event(&event, watch);
	watch_on_event(&event, watch); /* the same port again: one finding */
	event.notice = &pkey;
	watch_on_event(&event, watch);
	assert_true(watch->events_changed);
	assert_int_equal(watch_fabric_findings(watch, &findings), 0);
	assert_int_equal(findings.count, 2);
	f = finding_of(&findings, "LINK_ERRORS_REPORTED");
	assert_non_null(f);
	assert_int_equal(f->severity, RK_SEVERITY_WARNING);
	assert_string_equal(f->subject, "LID 7 port 3");
	assert_non_null(strstr(f->message, "trap 129"));
	f = finding_of(&findings, "KEY_VIOLATION");
	assert_non_null(f);
	assert_int_equal(f->severity, RK_SEVERITY_CRITICAL);
	assert_string_equal(f->remedy, rk_trap_meaning(RK_TRAP_BAD_PKEY));
	/* held RK_TRAP_HOLD_S after the last trap, then cleared */
	for (size_t i = 0; i < watch->traps.count; i++)
		watch->traps.items[i].at -= RK_TRAP_HOLD_S + 1;
	assert_int_equal(watch_fabric_findings(watch, &findings), 0);
	assert_int_equal(findings.count, 0);
	/* a node in service: rediscovered within seconds, not at the next sweep */
	assert_false(watch->monitor.sweep.topology_stale);
	event.notice = &gid_in;
	watch_on_event(&event, watch);
	assert_true(watch->monitor.sweep.topology_stale);
	assert_true(watch->lanes[WATCH_LANE_FABRIC].next_at < rk_monotonic_seconds() + 3);
	rk_findings_free(&findings);
	rk_watch_stop(watch);
}

static void backoff_doubles_up_to_its_limit_and_logs_twice(void **state)
{
	static const unsigned waits[] = {1, 2, 4, 8, 16, 16};
	struct watch_job job = {.what = "fabric sweep"};

	(void)state;
	log_capture_start();
	for (size_t i = 0; i < sizeof(waits) / sizeof(waits[0]); i++) {
		watch_job_outcome(&job, -EIO);
		for (unsigned k = 0; k < waits[i]; k++)
			assert_true(watch_job_skip(&job));
		assert_false(watch_job_skip(&job));
	}
	assert_int_equal(log_capture_count("fabric sweep failed: Input/output error; trying again "
					   "after 1, 2, 4, ... intervals (at most 16)"),
			 1);
	watch_job_outcome(&job, 0);
	assert_false(watch_job_skip(&job));
	assert_int_equal(log_capture_count("fabric sweep works again"), 1);
	watch_job_outcome(&job, -EIO); /* a new outage starts again at one interval */
	assert_true(watch_job_skip(&job));
	assert_false(watch_job_skip(&job));
}

/* A pass of the sweep job that saw findings, published. */
static void track(struct rk_watch *watch, const struct rk_findings *findings)
{
	const struct rk_event_views views = {.fabric_findings = findings};
	const bool passed[RK_WATCH_JOBS] = {true, false};

	watch_job_track(&watch->jobs[RK_WATCH_SWEEP], &views);
	watch_publish(watch, passed, 0);
}

static void add_finding(struct rk_findings *findings, const char *code)
{
	assert_int_equal(rk_findings_add(findings, RK_SEVERITY_WARNING, code, "Leaf1[3]", "fix it",
					 "%s is wrong", code),
			 0);
}

static void the_first_pass_only_primes(void **state)
{
	struct rk_watch *watch = new_watch(false, 1);
	struct rk_findings findings = {0};
	struct rk_watch_events events = {0};
	struct rk_watch_snapshot *snap;

	(void)state;
	add_finding(&findings, "LINK_DEGRADED");
	track(watch, &findings); /* the first pass: what was already so */
	add_finding(&findings, "PORT_NO_ANSWER");
	track(watch, &findings); /* the second: a change */
	snap = rk_watch_take(watch, RK_WATCH_SWEEP, &events);
	assert_int_equal(snap->passes[RK_WATCH_SWEEP], 2);
	assert_int_equal(snap->fabric_findings.count, 0); /* the job's own, not these */
	rk_watch_release(snap);
	assert_int_equal(events.list.count, 2);
	assert_int_equal(events.at_start, 1);
	assert_int_equal(events.list.items[0].kind, RK_EVENT_LINK_DEGRADED);
	assert_int_equal(events.list.items[1].kind, RK_EVENT_FABRIC_PORT_SILENT);

	findings.count = 1; /* PORT_NO_ANSWER cleared */
	track(watch, &findings);
	rk_watch_release(rk_watch_take(watch, RK_WATCH_SWEEP, &events));
	assert_int_equal(events.list.count, 1);
	assert_int_equal(events.at_start, 0);
	assert_true(events.list.items[0].cleared);
	rk_watch_release(rk_watch_take(watch, RK_WATCH_SWEEP, &events)); /* taken once only */
	assert_int_equal(events.list.count, 0);
	rk_watch_release(rk_watch_take(watch, RK_WATCH_SM, &events)); /* each job has its own */
	assert_int_equal(events.list.count, 0);
	rk_watch_events_free(&events);
	rk_findings_free(&findings);
	rk_watch_stop(watch);
}

static void a_failed_pass_sends_nothing(void **state)
{
	struct rk_watch *watch = new_watch(true, 1);
	struct rk_watch_events events = {0};
	struct rk_watch_snapshot *snap;

	(void)state;
	helper_script("#!/bin/sh\nexit 1\n");
	log_capture_start();
	rk_watch_run_once(watch);
	snap = rk_watch_take(watch, RK_WATCH_SWEEP, &events);
	assert_non_null(snap);
	assert_int_equal(snap->passes[RK_WATCH_SWEEP], 0);
	assert_int_equal(snap->failures, 1);
	assert_null(snap->fabric);
	assert_int_equal(events.list.count, 0);
	assert_int_equal(log_capture_count("fabric sweep failed: No data available; trying again"),
			 1);
	rk_watch_release(snap);
	rk_watch_events_free(&events);
	rk_watch_stop(watch);
}

/* A topology of one switch of guid with port 1, as a discovery leaves it in the monitor. */
static struct rk_fabric *one_switch(uint64_t guid)
{
	struct rk_fabric *fabric = calloc(1, sizeof(*fabric));

	assert_non_null(fabric);
	fabric->nodes = calloc(1, sizeof(*fabric->nodes));
	assert_non_null(fabric->nodes);
	fabric->nnodes = 1;
	fabric->nodes[0] =
	    (struct rk_fabric_node){.guid = guid, .type = RK_NODE_SWITCH, .nports = 1};
	fabric->nodes[0].ports = calloc(2, sizeof(*fabric->nodes[0].ports));
	assert_non_null(fabric->nodes[0].ports);
	fabric->nodes[0].ports[1] =
	    (struct rk_fabric_port){.num = 1, .present = true, .guid = guid};
	return fabric;
}

/* The monitor after its discovery number `discoveries` of that switch, swept once: port 1 sent
 * xmit_words 4-byte words, and the sample before it is set (the snapshot leaves it out). */
static void discovered(struct rk_watch *watch, uint64_t guid, uint64_t xmit_words)
{
	struct rk_fabric_cache *m = &watch->monitor;
	int data = rk_catalog_pma_index("port_xmit_data");

	rk_fabric_free(m->fabric);
	m->fabric = one_switch(guid);
	m->discoveries++;
	rk_sweep_free(&m->sweep);
	assert_int_equal(rk_sweep_prepare(&m->sweep, m->fabric), 0);
	assert_int_equal(m->sweep.count, 1);
	m->sweep.ports[0].sampled = true;
	m->sweep.ports[0].raw[data] = xmit_words;
	m->sweep.ports[0].prev[data] = 1;
	m->sweep.ports[0].state[data] = RK_VALUE_SATURATED;
	m->sweep.answered = 1;
	m->sweep.seconds = 0.25;
}

/* Publish a pass in which only job worked, and take what it published. */
static struct rk_watch_snapshot *pass_of(struct rk_watch *watch, enum rk_watch_job job)
{
	bool passed[RK_WATCH_JOBS] = {false};
	struct rk_watch_events events = {0};
	struct rk_watch_snapshot *snap;

	passed[job] = true;
	watch_publish(watch, passed, 0);
	snap = rk_watch_take(watch, job, &events);
	rk_watch_events_free(&events);
	assert_non_null(snap);
	return snap;
}

static void a_job_that_did_not_pass_shares_its_part(void **state)
{
	struct rk_watch *watch = new_watch(false, 1);
	struct rk_watch_snapshot *swept, *queried;
	int data = rk_catalog_pma_index("port_xmit_data");

	(void)state;
	discovered(watch, 0x10, 1000);
	add_finding(&watch->jobs[RK_WATCH_SWEEP].findings, "LINK_DEGRADED");
	swept = pass_of(watch, RK_WATCH_SWEEP);
	assert_int_equal(swept->sweep.count, 1);
	assert_true(swept->sweep.ports[0].value[data] == 4000); /* in bytes, as consumers send it */
	assert_int_equal(swept->sweep.ports[0].state[data], RK_VALUE_SATURATED);
	assert_true(swept->sweep.ports[0].node_guid == 0x10);
	assert_int_equal(swept->sweep.answered, 1);
	assert_true(swept->sweep.seconds == 0.25);
	assert_true(swept->fabric != watch->monitor.fabric); /* a copy: the monitor's changes */
	assert_true(swept->fabric->nodes[0].guid == 0x10);
	queried = pass_of(watch, RK_WATCH_SM); /* the sweep job did not pass: the same storage */
	assert_ptr_equal(queried->fabric, swept->fabric);
	assert_ptr_equal(queried->sweep.ports, swept->sweep.ports);
	assert_ptr_equal(queried->fabric_findings.items, swept->fabric_findings.items);
	assert_int_equal(queried->fabric_findings.count, 1);
	assert_int_equal(queried->discoveries, 1);
	assert_int_equal(queried->passes[RK_WATCH_SWEEP], 1);
	assert_int_equal(queried->passes[RK_WATCH_SM], 1);
	rk_watch_release(swept); /* the part outlives the snapshot that made it */
	assert_true(queried->sweep.ports[0].value[data] == 4000);
	assert_string_equal(queried->fabric_findings.items[0].code, "LINK_DEGRADED");
	rk_watch_release(queried);
	rk_watch_stop(watch);
}

static void a_new_discovery_gives_a_new_topology_copy(void **state)
{
	struct rk_watch *watch = new_watch(false, 1);
	struct rk_watch_snapshot *first, *again, *after;

	(void)state;
	discovered(watch, 0x10, 1000);
	first = pass_of(watch, RK_WATCH_SWEEP);
	again = pass_of(watch, RK_WATCH_SWEEP); /* a sweep on the same topology */
	assert_ptr_equal(again->fabric, first->fabric);
	assert_ptr_not_equal(again->sweep.ports, first->sweep.ports); /* a new sweep: its copy */
	discovered(watch, 0x20, 2000);
	after = pass_of(watch, RK_WATCH_SWEEP);
	assert_ptr_not_equal(after->fabric, first->fabric);
	assert_true(after->fabric->nodes[0].guid == 0x20);
	assert_true(first->fabric->nodes[0].guid == 0x10); /* what the older ones show stays */
	assert_int_equal(after->discoveries, 2);
	assert_int_equal(again->discoveries, 1);
	rk_watch_release(first);
	rk_watch_release(again);
	rk_watch_release(after);
	rk_watch_stop(watch);
}

#define PORT1 "class/infiniband/mlx5_0/ports/1"

/* A host pass over a private copy of a fixture, with the host's health rules. */
struct host_bench {
	char *root;
	struct rk_host *host;
	struct rk_watch_host *watch;
	struct rk_health_options health;
	struct rk_findings findings;
	struct rk_watch_events events;
};

static void host_bench_open(struct host_bench *b, const char *fixture)
{
	memset(b, 0, sizeof(*b));
	b->root = fixture_copy(fixture);
	assert_non_null(b->root);
	assert_int_equal(rk_host_open(b->root, &b->host), 0);
	assert_int_equal(rk_watch_host_new(0, &b->watch), 0);
}

static void host_bench_close(struct host_bench *b)
{
	rk_watch_events_free(&b->events);
	rk_findings_free(&b->findings);
	rk_watch_host_free(b->watch);
	rk_host_close(b->host);
	fixture_discard(b->root);
}

static int host_pass(struct host_bench *b)
{
	return rk_watch_host_pass(b->watch, b->host, &b->health, &b->findings, &b->events);
}

static void set_port_down(struct host_bench *b)
{
	write_file(b->root, PORT1 "/state", "1: DOWN\n");
	write_file(b->root, PORT1 "/phys_state", "3: Disabled\n");
}

static size_t count_kind(const struct rk_watch_events *events, enum rk_event_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < events->list.count; i++)
		n += events->list.items[i].kind == kind;
	return n;
}

static void the_host_pass_flags_its_first_events_at_start(void **state)
{
	struct host_bench b;
	const struct rk_event *first;

	(void)state;
	host_bench_open(&b, "degraded-rate");
	assert_int_equal(host_pass(&b), 0); /* the first pass: what was already so */
	assert_int_equal(b.findings.count, 1);
	assert_int_equal(b.events.list.count, 1);
	assert_int_equal(b.events.at_start, 1);
	first = &b.events.list.items[0];
	assert_int_equal(first->kind, RK_EVENT_FINDING_RAISED);
	assert_string_equal(first->subject, "mlx5_1:1");
	assert_int_equal(host_pass(&b), 0); /* nothing changed */
	assert_int_equal(b.events.list.count, 0);
	assert_int_equal(b.events.at_start, 0);
	set_port_down(&b);
	assert_int_equal(host_pass(&b), 0); /* a change */
	assert_int_equal(b.events.at_start, 0);
	assert_int_equal(count_kind(&b.events, RK_EVENT_PORT_STATE), 1);
	assert_string_equal(b.events.list.items[0].subject, "mlx5_0:1");
	host_bench_close(&b);
}

static void a_failed_host_read_sends_nothing(void **state)
{
	struct host_bench b;
	char file[4096];

	(void)state;
	host_bench_open(&b, "ib-hdr");
	assert_int_equal(host_pass(&b), 0);
	assert_int_equal(b.events.list.count, 0); /* a healthy host */
	set_port_down(&b);
	/* the devices cannot be listed (and seem gone): a read that failed */
	assert_int_equal(move_path(b.root, "class/infiniband", "class/infiniband.aside"), 0);
	write_file(b.root, "class/infiniband", "not a directory\n");
	log_capture_start();
	assert_int_equal(host_pass(&b), -ENOTDIR);
	assert_int_equal(b.events.list.count, 0);
	assert_int_equal(log_capture_count("reading the host failed: Not a directory"), 1);
	snprintf(file, sizeof(file), "%s/class/infiniband", b.root);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(move_path(b.root, "class/infiniband.aside", "class/infiniband"), 0);
	/* read again: the change since the last pass that worked, and no device gone or back */
	assert_int_equal(host_pass(&b), 0);
	assert_int_equal(b.events.at_start, 0);
	assert_int_equal(count_kind(&b.events, RK_EVENT_PORT_STATE), 1);
	assert_int_equal(count_kind(&b.events, RK_EVENT_DEVICE_VANISHED), 0);
	assert_int_equal(count_kind(&b.events, RK_EVENT_DEVICE_BACK), 0);
	assert_int_equal(b.events.list.count, 2); /* with the down port's finding */
	host_bench_close(&b);
}

/* Issue 18: a device that cannot be read is one event and one finding when it starts, however
 * many passes (each with a rescan here) follow, and one of each when it ends. */
static void an_unreadable_device_is_one_event_per_transition(void **state)
{
	struct host_bench b;

	(void)state;
	host_bench_open(&b, "ib-hdr");
	assert_int_equal(host_pass(&b), 0);
	assert_int_equal(move_path(b.root, "class/infiniband/mlx5_1/ports",
				   "class/infiniband/mlx5_1/ports.aside"),
			 0);
	rk_host_close(b.host); /* reopened: the device is read anew */
	log_capture_start();
	assert_int_equal(rk_host_open(b.root, &b.host), 0);
	assert_int_equal(host_pass(&b), 0);
	assert_int_equal(count_kind(&b.events, RK_EVENT_DEVICE_UNREADABLE), 1);
	assert_int_equal(count_kind(&b.events, RK_EVENT_FINDING_RAISED), 1);
	assert_non_null(strstr(b.events.list.items[0].message, "mlx5_1/ports: No such file"));
	for (int i = 0; i < 4; i++) {
		assert_int_equal(host_pass(&b), 0);
		assert_int_equal(b.events.list.count, 0);
	}
	assert_int_equal(log_capture_count("mlx5_1: cannot read device"), 1);
	assert_int_equal(move_path(b.root, "class/infiniband/mlx5_1/ports.aside",
				   "class/infiniband/mlx5_1/ports"),
			 0);
	assert_int_equal(host_pass(&b), 0);
	assert_int_equal(count_kind(&b.events, RK_EVENT_DEVICE_READABLE), 1);
	assert_int_equal(count_kind(&b.events, RK_EVENT_FINDING_CLEARED), 1);
	host_bench_close(&b);
}

/* The engine's probe_choose: port 1 of the device named by arg, whatever its state. */
static int choose_port_1(const void *arg, const struct rk_host *host, struct rk_watch_probes *round)
{
	(void)host;
	return rk_watch_probe_add(round, arg, 1);
}

/* An engine with the probe job alone, on a copy of the ib-hdr fixture (two ACTIVE ports). */
static struct rk_watch *new_probe_watch(const char *root, const char *only_device)
{
	struct rk_watch_settings settings;
	struct rk_watch *watch = NULL;

	rk_watch_settings_defaults(&settings);
	settings.probe = true;
	settings.sysfs_root = root;
	if (only_device) {
		settings.probe_choose = choose_port_1;
		settings.probe_arg = only_device;
	}
	assert_int_equal(rk_watch_new(&settings, &watch), 0);
	return watch;
}

static void the_probe_job_probes_each_active_port_once_a_round(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_watch *watch = new_probe_watch(root, NULL);
	struct rk_watch_events events = {0};
	struct rk_watch_snapshot *snap;

	(void)state;
	rk_watch_run_once(watch);
	snap = rk_watch_take(watch, RK_WATCH_PROBE, &events);
	assert_int_equal(snap->passes[RK_WATCH_PROBE], 1);
	assert_int_equal(snap->probes.count, 2);
	assert_string_equal(snap->probes.items[0].device, "mlx5_0");
	assert_string_equal(snap->probes.items[1].device, "mlx5_1");
	assert_int_equal(snap->probes.items[1].port, 1);
	assert_true(snap->probes.items[0].status < 0); /* no verbs device on a test machine */
	assert_int_equal(snap->probe_findings.count, 2);
	assert_string_equal(snap->probe_findings.items[0].code, "PROBE_NOT_RUN");
	rk_watch_release(snap);
	assert_int_equal(events.list.count, 2); /* the first round's: at start */
	assert_int_equal(events.at_start, 2);
	rk_watch_run_once(watch);
	rk_watch_release(rk_watch_take(watch, RK_WATCH_PROBE, &events));
	assert_int_equal(events.list.count, 0); /* nothing changed */
	rk_watch_events_free(&events);
	rk_watch_stop(watch);
	fixture_discard(root);
}

static void the_probe_job_probes_the_ports_chosen(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_watch *watch = new_probe_watch(root, "mlx5_7");
	struct rk_watch_events events = {0};
	struct rk_watch_snapshot *snap;

	(void)state;
	rk_watch_run_once(watch);
	snap = rk_watch_take(watch, RK_WATCH_PROBE, &events);
	assert_int_equal(snap->probes.count, 1);
	assert_string_equal(snap->probes.items[0].device, "mlx5_7");
	assert_int_equal(snap->probes.items[0].port, 1);
	assert_string_equal(snap->probe_findings.items[0].subject, "mlx5_7:1");
	rk_watch_release(snap);
	rk_watch_events_free(&events);
	rk_watch_stop(watch);
	fixture_discard(root);
}

static unsigned long probe_passes(struct rk_watch *watch)
{
	struct rk_watch_events events = {0};
	struct rk_watch_snapshot *snap = rk_watch_take(watch, RK_WATCH_PROBE, &events);
	unsigned long passes = snap ? snap->passes[RK_WATCH_PROBE] : 0;

	rk_watch_release(snap);
	rk_watch_events_free(&events);
	return passes;
}

/* A new interval moves the next pass of a running lane at once (a reload): shorter, it runs
 * within it; longer, it waits again. */
static void a_new_interval_moves_the_next_pass(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_watch *watch = new_probe_watch(root, NULL);
	double until;
	unsigned long passes;

	(void)state;
	rk_watch_run_once(watch); /* the next round is due in the default interval */
	assert_int_equal(rk_watch_start(watch), 0);
	usleep(300000);
	assert_int_equal(probe_passes(watch), 1);
	rk_watch_set_interval(watch, RK_WATCH_PROBE, 0.2);
	until = rk_monotonic_seconds() + 5;
	while (probe_passes(watch) < 3 && rk_monotonic_seconds() < until)
		usleep(20000);
	assert_true(probe_passes(watch) >= 3);
	rk_watch_set_interval(watch, RK_WATCH_PROBE, 3600);
	usleep(300000); /* a round under way ends */
	passes = probe_passes(watch);
	usleep(600000);
	assert_int_equal(probe_passes(watch), passes);
	rk_watch_stop(watch);
	fixture_discard(root);
}

/* What the tune or probe job showed until its pass after `after` (5 s at most). */
struct tune_seen {
	unsigned long passes;
	size_t findings, raised, cleared, at_start;
	size_t probes;					     /* the last round's outcomes */
	char thp[sizeof(((struct rk_finding *)0)->message)]; /* the message of the last snapshot's
								TUNE_THP finding, or "" */
};

static struct tune_seen job_wait(struct rk_watch *watch, enum rk_watch_job job, unsigned long after)
{
	struct tune_seen seen = {0};
	struct rk_watch_events events = {0};
	double until = rk_monotonic_seconds() + 5;

	while (seen.passes <= after && rk_monotonic_seconds() < until) {
		struct rk_watch_snapshot *snap = rk_watch_take(watch, job, &events);

		for (size_t i = 0; i < events.list.count; i++) {
			seen.cleared +=
			    events.list.items[i].is_finding && events.list.items[i].cleared;
			seen.raised +=
			    events.list.items[i].is_finding && !events.list.items[i].cleared;
		}
		seen.at_start += events.at_start;
		if (snap) {
			const struct rk_findings *found =
			    job == RK_WATCH_TUNE ? &snap->tune_findings : &snap->probe_findings;

			seen.passes = snap->passes[job];
			seen.findings = found->count;
			seen.probes = snap->probes.count;
			seen.thp[0] = '\0';
			for (size_t i = 0; i < snap->tune_findings.count; i++)
				if (strcmp(snap->tune_findings.items[i].code, "TUNE_THP") == 0)
					snprintf(seen.thp, sizeof(seen.thp), "%s",
						 snap->tune_findings.items[i].message);
		}
		rk_watch_release(snap);
		usleep(20000);
	}
	rk_watch_events_free(&events);
	return seen;
}

/* A reload turns the tune job on (its thread starts), off (what it found clears, as events)
 * and on with another profile (the new findings raise), each time auditing at once. */
static void the_tune_job_changes_while_the_engine_runs(void **state)
{
	const char *tree = fixture_path("../tune/host");
	struct rk_watch_settings settings;
	struct rk_watch *watch;
	struct tune_seen latency, off, throughput;

	(void)state;
	rk_watch_settings_defaults(&settings); /* no job, audits a day apart */
	assert_int_equal(rk_watch_new(&settings, &watch), 0);
	assert_int_equal(rk_watch_start(watch), 0);
	assert_false(watch->lanes[WATCH_LANE_TUNE].running);
	assert_int_equal(rk_watch_set_tune(watch, true, tree, rk_tune_profile_find("latency")), 0);
	latency = job_wait(watch, RK_WATCH_TUNE, 0);
	assert_int_equal(latency.passes, 1);
	assert_true(latency.findings > 0);
	assert_int_equal(latency.at_start, latency.findings); /* the first audit primes */
	assert_non_null(strstr(latency.thp, "are \"always\", the latency profile wants \"never\""));
	assert_int_equal(rk_watch_set_tune(watch, false, NULL, NULL), 0);
	off = job_wait(watch, RK_WATCH_TUNE, 1);
	assert_int_equal(off.passes, 2);
	assert_int_equal(off.findings, 0);
	assert_int_equal(off.cleared, latency.findings);
	assert_int_equal(off.raised + off.at_start, 0);
	assert_int_equal(rk_watch_set_tune(watch, true, tree, rk_tune_profile_find("throughput")),
			 0);
	throughput = job_wait(watch, RK_WATCH_TUNE, 2);
	assert_int_equal(throughput.passes, 3);
	assert_non_null(strstr(throughput.thp, "the throughput profile wants \"madvise\""));
	assert_int_equal(throughput.raised, throughput.findings);
	assert_int_equal(throughput.at_start, 0);
	rk_watch_stop(watch);
}

/* A reload turns the probe job on (its view of the host opened, its thread started) and off
 * (no outcomes, its findings cleared as events), each time at once. */
static void the_probe_job_turns_on_and_off_while_the_engine_runs(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_watch_settings settings;
	struct rk_watch *watch;
	struct tune_seen on, off;

	(void)state;
	rk_watch_settings_defaults(
	    &settings); /* no job, rounds RK_PROBE_INTERVAL_DEFAULT_S apart */
	settings.sysfs_root = root;
	assert_int_equal(rk_watch_new(&settings, &watch), 0);
	assert_int_equal(rk_watch_start(watch), 0);
	assert_null(watch->probe_host);
	assert_int_equal(rk_watch_set_probe(watch, true), 0);
	on = job_wait(watch, RK_WATCH_PROBE, 0);
	assert_int_equal(on.passes, 1);
	assert_int_equal(on.probes, 2); /* the fixture's two ACTIVE ports */
	assert_int_equal(on.findings, 2);
	assert_int_equal(on.at_start, 2);
	assert_int_equal(rk_watch_set_probe(watch, false), 0);
	off = job_wait(watch, RK_WATCH_PROBE, 1);
	assert_int_equal(off.passes, 2);
	assert_int_equal(off.probes + off.findings, 0);
	assert_int_equal(off.cleared, 2);
	rk_watch_stop(watch);
	fixture_discard(root);
}

/* The PID the hanging helper wrote, once it runs (0 after 5 s without it). */
static pid_t helper_pid(void)
{
	char path[sizeof(dir) + 16];
	double until = rk_monotonic_seconds() + 5;
	int pid = 0;

	snprintf(path, sizeof(path), "%s/pid", dir);
	while (pid == 0 && rk_monotonic_seconds() < until) {
		FILE *f = fopen(path, "r");

		if (!f || fscanf(f, "%d", &pid) != 1)
			usleep(10000);
		if (f)
			fclose(f);
	}
	return pid;
}

static void stop_returns_in_time_while_a_discovery_hangs(void **state)
{
	struct rk_watch *watch = new_watch(true, 0.05);
	double started;
	pid_t pid;

	(void)state;
	helper_script("#!/bin/sh\necho $$ > \"${0%/*}/pid.new\"\nmv \"${0%/*}/pid.new\" "
		      "\"${0%/*}/pid\"\nexec sleep 30\n");
	log_capture_start();
	assert_int_equal(rk_watch_start(watch), 0);
	pid = helper_pid();
	assert_true(pid > 0);
	started = rk_monotonic_seconds();
	rk_watch_stop(watch);
	assert_true(rk_monotonic_seconds() - started < 2.0);
	assert_int_equal(kill(pid, 0), -1); /* killed and reaped: not even a zombie */
	assert_int_equal(errno, ESRCH);
	assert_int_equal(log_capture_count("fabric discovery: cancelled"), 1);
	assert_int_equal(log_capture_count("fabric sweep failed"), 0); /* stopping is no failure */
}

static void a_raised_token_stays_raised(void **state)
{
	struct rk_cancel cancel;

	(void)state;
	assert_int_equal(rk_cancel_init(&cancel), 0);
	assert_false(rk_cancel_raised(&cancel));
	rk_cancel_raise(&cancel);
	rk_cancel_raise(&cancel);
	assert_true(rk_cancel_raised(&cancel));
	assert_false(rk_cancel_raised(NULL));
	assert_int_equal(rk_cancel_fd(NULL), -1);
	rk_cancel_destroy(&cancel);
}

static int make_dir(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	remove_tree(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(backoff_doubles_up_to_its_limit_and_logs_twice),
	    cmocka_unit_test(events_become_findings),
	    cmocka_unit_test(the_first_pass_only_primes),
	    cmocka_unit_test(a_failed_pass_sends_nothing),
	    cmocka_unit_test(a_job_that_did_not_pass_shares_its_part),
	    cmocka_unit_test(a_new_discovery_gives_a_new_topology_copy),
	    cmocka_unit_test(the_host_pass_flags_its_first_events_at_start),
	    cmocka_unit_test(a_failed_host_read_sends_nothing),
	    cmocka_unit_test(an_unreadable_device_is_one_event_per_transition),
	    cmocka_unit_test(the_probe_job_probes_each_active_port_once_a_round),
	    cmocka_unit_test(the_probe_job_probes_the_ports_chosen),
	    cmocka_unit_test(a_new_interval_moves_the_next_pass),
	    cmocka_unit_test(the_tune_job_changes_while_the_engine_runs),
	    cmocka_unit_test(the_probe_job_turns_on_and_off_while_the_engine_runs),
	    cmocka_unit_test(stop_returns_in_time_while_a_discovery_hangs),
	    cmocka_unit_test(a_raised_token_stays_raised),
	};

	return cmocka_run_group_tests_name("watch", tests, make_dir, remove_dir);
}
