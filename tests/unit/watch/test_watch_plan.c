/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the watch engine's cabling plan (common/src/watch/watch_plan.c): the file read
 * again only when another inode, size, mtime or ctime shows it changed; a file gone or not a
 * regular file keeps the last plan, logged once, PLAN_UNREADABLE until it is back; bad lines
 * logged once per version and PLAN_LINES_SKIPPED; the links a plan by name cannot place logged
 * once per version, then once when their number changes; a reload's new path or none. The
 * comparison
 * itself is tests/unit/fabric/test_plan.c; the daemons on a simulated fabric are
 * tests/collectd/test_fabric.py and tests/snmp/test_fabric.py. */
#include "fixture_util.h"
#include "watch_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#define PLAN_A "node 0x11 switch 8 \"Leaf1\"\nnode 0x31 ca 1 \"host1\"\n0x11[1] -> 0x31[1] 4X EDR\n"
#define PLAN_B "node 0x11 switch 8 \"Leaf1\"\nnode 0x31 ca 1 \"host1\"\n0x11[1] -> 0x31[1] 1X EDR\n"

static char dir[] = "/tmp/rdmakit-watch-plan-XXXXXX";
static char path[sizeof(dir) + 16];

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/plan", dir);
	return 0;
}

static int teardown(void **state)
{
	char command[sizeof(dir) + 16];

	(void)state;
	snprintf(command, sizeof(command), "rm -rf %s", dir);
	return system(command) == 0 ? 0 : -1;
}

/* Write text to the plan's path (through a new inode when renamed), mtime set to seconds. */
static void write_plan(const char *text, bool renamed, time_t seconds)
{
	const struct timespec times[2] = {{.tv_sec = seconds}, {.tv_sec = seconds}};

	write_file(dir, renamed ? "plan.new" : "plan", text);
	if (renamed)
		assert_int_equal(move_path(dir, "plan.new", "plan"), 0);
	assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
}

/* The planned width of the kept plan's only link. */
static int planned_width(const struct watch_plan *kept)
{
	assert_non_null(kept->plan);
	assert_int_equal(kept->plan->nlinks, 1);
	return kept->plan->links[0].width;
}

static void read_again_only_when_the_file_changed(void **state)
{
	struct watch_plan kept = {0};

	(void)state;
	write_plan(PLAN_A, false, 1000);
	watch_plan_refresh(&kept, path);
	assert_int_equal(kept.reads, 1);
	assert_int_equal(planned_width(&kept), 4);
	watch_plan_refresh(&kept, path);
	assert_int_equal(kept.reads, 1); /* the same file: not read again */
	write_plan(PLAN_B, false, 1001); /* the same inode and size, another mtime */
	watch_plan_refresh(&kept, path);
	assert_int_equal(kept.reads, 2);
	assert_int_equal(planned_width(&kept), 1);
	write_plan(PLAN_A, true, 1000); /* another inode */
	watch_plan_refresh(&kept, path);
	assert_int_equal(kept.reads, 3);
	assert_int_equal(planned_width(&kept), 4);
	assert_int_equal(kept.failing, 0);
	watch_plan_forget(&kept);
}

static void the_stamp_tells_versions_apart(void **state)
{
	struct watch_plan_stamp a = {
	    .valid = true, .dev = 1, .ino = 2, .size = 3, .mtime_ns = 4, .ctime_ns = 5};
	struct watch_plan_stamp b = a;

	(void)state;
	assert_true(watch_plan_stamp_same(&a, &b));
	b.mtime_ns++;
	assert_false(watch_plan_stamp_same(&a, &b));
	b = a;
	b.ino++;
	assert_false(watch_plan_stamp_same(&a, &b));
	b = a;
	b.size++;
	assert_false(watch_plan_stamp_same(&a, &b));
	b = a;
	b.valid = false; /* a file that was not there is never the same */
	assert_false(watch_plan_stamp_same(&b, &b));
}

/* An engine with the sweep job on and the plan at plan_path (no fabric discovered). */
static struct rk_watch *new_watch(const char *plan_path)
{
	struct rk_watch_settings settings;
	struct rk_watch *watch = NULL;

	rk_watch_settings_defaults(&settings);
	settings.sweep = true;
	settings.plan_path = plan_path;
	assert_int_equal(rk_watch_new(&settings, &watch), 0);
	return watch;
}

/* The codes of one check, and the first finding's message in message. */
static size_t check(struct rk_watch *watch, const char *code, char *message, size_t size)
{
	struct rk_findings findings = {0};
	size_t count = 0;

	assert_int_equal(watch_plan_check(watch, &findings), 0);
	for (size_t i = 0; i < findings.count; i++)
		if (strcmp(findings.items[i].code, code) == 0 && count++ == 0 && message)
			snprintf(message, size, "%s", findings.items[i].message);
	assert_int_equal(findings.count, count);
	rk_findings_free(&findings);
	return count;
}

static void a_vanished_plan_is_kept_logged_once_and_found(void **state)
{
	struct rk_watch *watch;
	char message[320];

	(void)state;
	write_plan(PLAN_A, false, 2000);
	watch = new_watch(path);
	assert_int_equal(check(watch, "PLAN_UNREADABLE", NULL, 0), 0);
	assert_int_equal(unlink(path), 0);
	log_capture_start();
	assert_int_equal(check(watch, "PLAN_UNREADABLE", message, sizeof(message)), 1);
	assert_int_equal(check(watch, "PLAN_UNREADABLE", NULL, 0), 1);
	assert_int_equal(log_capture_count("cannot read it: No such file or directory; the fabric "
					   "is compared with the plan read before"),
			 1);
	assert_string_equal(message, "the fabric plan cannot be read (No such file or directory): "
				     "the fabric is compared with the plan read before");
	assert_int_equal(planned_width(&watch->plan), 4);
	assert_int_equal(mkdir(path, 0755), 0); /* back, but not as a file */
	assert_int_equal(check(watch, "PLAN_UNREADABLE", message, sizeof(message)), 1);
	assert_non_null(strstr(message, "(a directory, not a regular file)"));
	assert_int_equal(rmdir(path), 0);
	write_plan(PLAN_B, false, 2001);
	assert_int_equal(check(watch, "PLAN_UNREADABLE", NULL, 0), 0);
	assert_int_equal(planned_width(&watch->plan), 1);
	assert_int_equal(watch->plan.reads, 2);
	rk_watch_stop(watch);
}

static void a_plan_never_read_says_so(void **state)
{
	struct rk_watch *watch;
	char message[320];

	(void)state;
	unlink(path);
	watch = new_watch(path);
	assert_int_equal(check(watch, "PLAN_UNREADABLE", message, sizeof(message)), 1);
	assert_non_null(strstr(message, "the fabric is compared with no plan"));
	rk_watch_stop(watch);
}

static void bad_lines_are_logged_once_per_version(void **state)
{
	struct rk_watch *watch;

	(void)state;
	write_plan(PLAN_A "0x11[2] -> nowhere\n", false, 3000);
	log_capture_start();
	watch = new_watch(path);
	assert_int_equal(check(watch, "PLAN_LINES_SKIPPED", NULL, 0), 1);
	assert_int_equal(check(watch, "PLAN_LINES_SKIPPED", NULL, 0), 1);
	assert_int_equal(log_capture_count(":4: expected 0xGUID[PORT] after ->"), 1);
	assert_int_equal(planned_width(&watch->plan), 4);
	rk_watch_stop(watch);
}

/* How many findings of one check have this code. */
static size_t count_code(struct rk_watch *watch, const char *code)
{
	struct rk_findings findings = {0};
	size_t count = 0;

	assert_int_equal(watch_plan_check(watch, &findings), 0);
	for (size_t i = 0; i < findings.count; i++)
		count += strcmp(findings.items[i].code, code) == 0;
	rk_findings_free(&findings);
	return count;
}

static void unplaced_links_are_logged_once_then_when_they_change(void **state)
{
	static const struct test_node nodes[] = {{0x11, RK_NODE_SWITCH, 8, "Leaf1"},
						 {0x31, RK_NODE_CA, 1, "host1"}};
	static const struct test_link links[] = {{0, 1, 1, 1}};
	struct rk_watch *watch;
	char message[320];

	(void)state;
	write_plan("StartDevice,StartPort,EndDevice,EndPort\nLeaf1,1,host1,1\nLeaf1,2,nosuch,1\n",
		   false, 5000);
	watch = new_watch(path);
	watch->monitor.fabric = test_fabric(nodes, 2, links, 1);
	log_capture_start();
	rk_log_set_level(RK_LOG_WARNING); /* what a daemon logs */
	assert_int_equal(check(watch, "PLAN_LINES_SKIPPED", message, sizeof(message)), 1);
	assert_int_equal(check(watch, "PLAN_LINES_SKIPPED", NULL, 0), 1);
	assert_non_null(strstr(message, "1 line(s) of the plan could not be read or placed"));
	assert_int_equal(log_capture_count(":3: \"nosuch\" is not in the node name map"), 1);
	snprintf(watch->monitor.fabric->nodes[1].description, 65, "host9");
	assert_int_equal(count_code(watch, "PLAN_LINES_SKIPPED"), 1);
	assert_int_equal(count_code(watch, "PLAN_LINES_SKIPPED"), 1);
	assert_int_equal(log_capture_count("2 link(s) cannot be placed on the fabric now (1 "
					   "before)"),
			 1);
	assert_int_equal(log_capture_count(":2: \"host1\" is not"), 0); /* not one by one */
	rk_watch_stop(watch);
}

static void a_reload_changes_the_plan_or_drops_it(void **state)
{
	char other[sizeof(path) + 8];
	struct rk_watch *watch;

	(void)state;
	write_plan(PLAN_A, false, 4000);
	snprintf(other, sizeof(other), "%s/other", dir);
	write_file(dir, "other", PLAN_B);
	watch = new_watch(path);
	assert_int_equal(check(watch, "PLAN_UNREADABLE", NULL, 0), 0);
	assert_int_equal(planned_width(&watch->plan), 4);
	assert_int_equal(rk_watch_set_plan(watch, other), 0);
	assert_int_equal(check(watch, "PLAN_UNREADABLE", NULL, 0), 0);
	assert_int_equal(planned_width(&watch->plan), 1);
	assert_int_equal(rk_watch_set_plan(watch, NULL), 0);
	assert_int_equal(check(watch, "PLAN_UNREADABLE", NULL, 0), 0);
	assert_null(watch->plan.plan);
	assert_null(watch->plan.path);
	rk_watch_stop(watch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(read_again_only_when_the_file_changed),
	    cmocka_unit_test(the_stamp_tells_versions_apart),
	    cmocka_unit_test(a_vanished_plan_is_kept_logged_once_and_found),
	    cmocka_unit_test(a_plan_never_read_says_so),
	    cmocka_unit_test(bad_lines_are_logged_once_per_version),
	    cmocka_unit_test(unplaced_links_are_logged_once_then_when_they_change),
	    cmocka_unit_test(a_reload_changes_the_plan_or_drops_it),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
