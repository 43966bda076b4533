/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the OpenSM audit against the installed OpenSM's keys (a real `opensm -c`), the
 * strict partitions.conf parser and the log summary. */
#include "fixture_util.h"
#include "rdmakit/tune_opensm.h"

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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static const struct rk_opensm_keys *keys;

static int load_keys(void **state)
{
	(void)state;
	return rk_opensm_keys_load(NULL, &keys);
}

static const char *osm_fixture(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s", fixture_path("../tune/opensm/"));
	strncat(path, name, sizeof(path) - strlen(path) - 1);
	return path;
}

static size_t count_code(const struct rk_tune_audit *a, const char *code, const char *subject)
{
	size_t n = 0;

	for (size_t i = 0; i < a->findings.count; i++)
		n += strcmp(a->findings.items[i].code, code) == 0 &&
		     (!subject || strstr(a->findings.items[i].subject, subject));
	return n;
}

static const struct rk_tune_fact *fact_of(const struct rk_tune_audit *a, const char *code,
					  const char *subject)
{
	for (size_t i = 0; i < a->findings.count; i++)
		if (strcmp(a->findings.items[i].code, code) == 0 &&
		    (!subject || strstr(a->findings.items[i].subject, subject)))
			return &a->facts[i];
	fail_msg("no %s for %s", code, subject ? subject : "(any)");
	return NULL;
}

/* The template of the installed OpenSM, written by `opensm -c` into dir/opensm.conf. */
static void write_template(char *dir, char *path, size_t size)
{
	int status;
	pid_t pid;

	assert_non_null(mkdtemp(dir));
	snprintf(path, size, "%s/opensm.conf", dir);
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(devnull, STDOUT_FILENO);
		execlp("opensm", "opensm", "-c", path, (char *)NULL);
		execl("/usr/sbin/opensm", "opensm", "-c", path, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
}

/* The key lines of the installed OpenSM's template (a lowercase letter first), counted apart. */
static size_t template_key_lines(void)
{
	char dir[] = "/tmp/rdmakit-osmtpl-XXXXXX", path[128], line[1024];
	size_t count = 0;
	FILE *f;

	write_template(dir, path, sizeof(path));
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		count += line[0] >= 'a' && line[0] <= 'z';
	fclose(f);
	unlink(path);
	rmdir(dir);
	return count;
}

static void test_keys_come_from_the_installed_opensm(void **state)
{
	(void)state;
	assert_int_equal(keys->count, template_key_lines());
	assert_int_equal(rk_opensm_key_find(keys, "sm_priority")->type, RK_OPENSM_NUMBER);
	assert_int_equal(rk_opensm_key_find(keys, "sweep_on_trap")->type, RK_OPENSM_BOOL);
	assert_int_equal(rk_opensm_key_find(keys, "routing_engine")->type, RK_OPENSM_STRING);
	assert_null(rk_opensm_key_find(keys, "sm_prioirty"));
	assert_true(keys->nengines >= 8);
	assert_int_equal(keys->nconsoles, 3); /* off, local, loopback */
}

static void test_template_has_only_security_findings(void **state)
{
	char dir[] = "/tmp/rdmakit-osmtpl-XXXXXX", path[128];
	const char *confs[] = {path};
	struct rk_tune_audit a = {0};

	(void)state;
	write_template(dir, path, sizeof(path));
	assert_int_equal(rk_tune_audit_opensm("/", confs, 1, keys, &a), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_UNKNOWN_KEY", NULL), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_SYNTAX", NULL), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_RANGE", NULL), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_VALUE", NULL), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_DUPLICATE", NULL), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_MKEY", NULL), 1);
	assert_int_equal(count_code(&a, "TUNE_OSM_SMKEY", NULL), 1);
	assert_int_equal(count_code(&a, "TUNE_OSM_CONSOLE", NULL), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_PRIORITY", NULL), 1); /* sm_priority 0 */
	assert_int_equal(a.findings.count, 3);
	rk_tune_audit_free(&a);
	unlink(path);
	rmdir(dir);
}

static void test_bad_conf_reports_each_problem(void **state)
{
	const char *confs[] = {osm_fixture("bad-opensm.conf")};
	struct rk_tune_audit a = {0};

	(void)state;
	assert_int_equal(rk_tune_audit_opensm("/", confs, 1, keys, &a), 0);
	assert_string_equal(fact_of(&a, "TUNE_OSM_GUID", ":2")->current, "0xZZ00000000000001");
	assert_string_equal(fact_of(&a, "TUNE_OSM_RANGE", ":3")->current, "16");
	assert_string_equal(fact_of(&a, "TUNE_OSM_UNKNOWN_KEY", ":4")->current, "sm_prioirty");
	assert_string_equal(fact_of(&a, "TUNE_OSM_UNKNOWN_KEY", ":4")->recommended, "sm_priority");
	assert_string_equal(fact_of(&a, "TUNE_OSM_VALUE", ":5")->current, "yes");
	assert_string_equal(fact_of(&a, "TUNE_OSM_VALUE", ":6")->current, "ten");
	assert_string_equal(fact_of(&a, "TUNE_OSM_RANGE", ":7")->recommended, "0..7");
	assert_string_equal(fact_of(&a, "TUNE_OSM_RANGE", ":8")->current, "40");
	assert_string_equal(fact_of(&a, "TUNE_OSM_ROUTING", ":9")->current, "fattree");
	assert_int_equal(count_code(&a, "TUNE_OSM_ROUTING", NULL), 1); /* ftree is real */
	assert_string_equal(fact_of(&a, "TUNE_OSM_CONSOLE", ":10")->current, "socket");
	assert_string_equal(fact_of(&a, "TUNE_OSM_PART_ENFORCE", ":11")->current, "off");
	assert_string_equal(fact_of(&a, "TUNE_OSM_DUPLICATE", ":12")->current, "sweep_interval");
	assert_string_equal(fact_of(&a, "TUNE_OSM_SYNTAX", ":13")->current, "just_a_token");
	assert_string_equal(fact_of(&a, "TUNE_OSM_UNKNOWN_KEY", ":14")->current,
			    "enable_adaptive_routing");
	assert_string_equal(fact_of(&a, "TUNE_OSM_UNKNOWN_KEY", ":14")->recommended,
			    "a key from `opensm -c`");		    /* nothing close */
	assert_int_equal(count_code(&a, "TUNE_OSM_MKEY", NULL), 0); /* not set: not judged */
	rk_tune_audit_free(&a);
}

static void test_instances_need_their_own_guid_and_priority(void **state)
{
	const char *confs[] = {osm_fixture("master.conf"), osm_fixture("standby-same.conf")};
	struct rk_tune_audit a = {0};

	(void)state;
	assert_int_equal(rk_tune_audit_opensm("/", confs, 2, keys, &a), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_GUID", "standby-same.conf"), 1);
	assert_int_equal(count_code(&a, "TUNE_OSM_PRIORITY", NULL), 1);
	assert_string_equal(fact_of(&a, "TUNE_OSM_PRIORITY", NULL)->current, "equal");
	assert_int_equal(count_code(&a, "TUNE_OSM_MKEY", NULL), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_SMKEY", NULL), 0);
	rk_tune_audit_free(&a);
	confs[1] = osm_fixture("master.conf");
	a = (struct rk_tune_audit){0};
	assert_int_equal(rk_tune_audit_opensm("/", confs, 1, keys, &a), 0);
	assert_int_equal(a.findings.count, 0); /* priority 14, keys set, console off */
	rk_tune_audit_free(&a);
}

static void test_unreadable_and_binary_confs(void **state)
{
	char dir[] = "/tmp/rdmakit-osmbad-XXXXXX", path[128];
	const char *confs[] = {"/nonexistent/opensm.conf", path};
	struct rk_tune_audit a = {0};
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/garbage.conf", dir);
	f = fopen(path, "wb");
	fwrite("\x00\x01\x02guid\x00\xff", 1, 9, f);
	fclose(f);
	assert_int_equal(rk_tune_audit_opensm("/", confs, 2, keys, &a), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_UNREADABLE", "/nonexistent"), 1);
	assert_int_equal(count_code(&a, "TUNE_OSM_SYNTAX", "garbage.conf"), 1);
	rk_tune_audit_free(&a);
	a = (struct rk_tune_audit){0};
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(rk_tune_audit_partitions("/", path, &a), 0);
	assert_int_equal(count_code(&a, "TUNE_PART_UNREADABLE", NULL), 1);
	assert_non_null(strstr(a.findings.items[0].message, "not a regular file"));
	rk_tune_audit_free(&a);
	unlink(path);
	rmdir(dir);
}

static void test_partitions_good(void **state)
{
	struct rk_tune_audit a = {0};

	(void)state;
	assert_int_equal(rk_tune_audit_partitions("/", osm_fixture("partitions-good.conf"), &a), 0);
	assert_int_equal(a.findings.count, 1);
	assert_string_equal(a.findings.items[0].code, "TUNE_PART_DEFAULT");
	assert_int_equal(a.findings.items[0].severity, RK_SEVERITY_OK);
	assert_string_equal(a.facts[0].current, "ALL=full");
	rk_tune_audit_free(&a);
}

static void test_partitions_fallbacks_are_errors(void **state)
{
	struct rk_tune_audit a = {0};

	(void)state;
	assert_int_equal(rk_tune_audit_partitions("/", osm_fixture("partitions-bad.conf"), &a), 0);
	assert_string_equal(fact_of(&a, "TUNE_PART_MEMBERSHIP", ":2")->current, "limi");
	assert_string_equal(fact_of(&a, "TUNE_PART_SYNTAX", ":3")->current, "0x0000");
	assert_string_equal(fact_of(&a, "TUNE_PART_SYNTAX", ":4")->current, "fast");
	assert_int_equal(count_code(&a, "TUNE_PART_SYNTAX", ":4"), 2); /* the flag and 0xnothex */
	assert_int_equal(count_code(&a, "TUNE_PART_SYNTAX", ":5"), 1); /* no ':' */
	assert_string_equal(fact_of(&a, "TUNE_PART_SYNTAX", ":6")->current, "fe80::1");
	assert_string_equal(fact_of(&a, "TUNE_PART_SYNTAX", ":7")->current, "9");
	assert_string_equal(fact_of(&a, "TUNE_PART_SYNTAX", ":8")->current, "last=0x0016 : ALL");
	for (size_t i = 0; i < a.findings.count; i++)
		if (strcmp(a.findings.items[i].code, "TUNE_PART_DEFAULT") != 0)
			assert_int_equal(a.findings.items[i].severity, RK_SEVERITY_CRITICAL);
	assert_string_equal(fact_of(&a, "TUNE_PART_DEFAULT", NULL)->current, "ALL=full");
	rk_tune_audit_free(&a);
	a = (struct rk_tune_audit){0};
	assert_int_equal(
	    rk_tune_audit_partitions("/", osm_fixture("partitions-nodefault.conf"), &a), 0);
	assert_int_equal(a.findings.count, 1);
	assert_int_equal(a.findings.items[0].severity, RK_SEVERITY_WARNING);
	assert_string_equal(a.facts[0].current, "no rule");
	rk_tune_audit_free(&a);
}

/* A comment on the last line, with no newline after it: the comment is blanked up to the end of
 * the file and no further (it once scanned and blanked past the buffer, found by
 * fuzz_tune_partitions). */
static void test_partitions_comment_at_end_of_file(void **state)
{
	static const char text[] = "Default=0x7fff, ipoib : ALL=full ;\n# storage=0x8001 : ALL ;";
	char dir[] = "/tmp/rdmakit-osmcmt-XXXXXX", path[128];
	struct rk_tune_audit a = {0};
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/partitions.conf", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(text, 1, sizeof(text) - 1, f);
	fclose(f);
	assert_int_equal(rk_tune_audit_partitions("/", path, &a), 0);
	assert_int_equal(a.findings.count, 1);
	assert_string_equal(a.findings.items[0].code, "TUNE_PART_DEFAULT");
	assert_string_equal(a.facts[0].current, "ALL=full");
	rk_tune_audit_free(&a);
	unlink(path);
	rmdir(dir);
}

/* Blanks around a partition's name are not part of it: "  Default  =" is the Default
 * partition, and a repeated P_Key names both partitions without their blanks. */
static void test_partitions_names_are_trimmed(void **state)
{
	char dir[] = "/tmp/rdmakit-osmtrim-XXXXXX", path[128];
	struct rk_tune_audit a = {0};

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_file(dir, "partitions.conf",
		   "  Default  = 0x7fff, ipoib : ALL=full ;\n"
		   " storage\t= 0x0010 : ALL=full ;\n"
		   "\tbackup =0x0010 : ALL=full ;\n");
	snprintf(path, sizeof(path), "%s/partitions.conf", dir);
	assert_int_equal(rk_tune_audit_partitions("/", path, &a), 0);
	assert_int_equal(a.findings.count, 2);
	assert_int_equal(count_code(&a, "TUNE_PART_SYNTAX", NULL), 0);
	assert_string_equal(fact_of(&a, "TUNE_PART_DEFAULT", NULL)->current, "ALL=full");
	assert_string_equal(fact_of(&a, "TUNE_PART_MERGED", ":3")->current, "backup");
	assert_string_equal(fact_of(&a, "TUNE_PART_MERGED", ":3")->recommended, "storage");
	rk_tune_audit_free(&a);
	unlink(path);
	rmdir(dir);
}

static void test_log_summary(void **state)
{
	struct rk_tune_audit a = {0};

	(void)state;
	assert_int_equal(rk_tune_audit_opensm_log("/", osm_fixture("opensm.log"), &a), 0);
	assert_int_equal(count_code(&a, "TUNE_OSM_LOG_ERR", NULL), 2);
	assert_string_equal(fact_of(&a, "TUNE_OSM_LOG_ERR", "ERR 5426")->current, "2 lines");
	assert_string_equal(fact_of(&a, "TUNE_OSM_LOG_ERR", "ERR 3120")->current, "1 lines");
	assert_string_equal(fact_of(&a, "TUNE_OSM_LOG_WARN", NULL)->current, "1 lines");
	rk_tune_audit_free(&a);
}

static void test_set_replaces_the_last_line_only(void **state)
{
	char dir[] = "/tmp/rdmakit-osmset-XXXXXX", path[128];
	const char *settings[] = {"sm_priority=12", "sweep_interval=30"};
	const char *bad[] = {"sm_prioirty=1"};
	struct rk_tune_plan plan = {0};

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/opensm.conf", dir);
	write_file(dir, "opensm.conf", "# conf\nsm_priority 1\n# sm_priority 3\nlmc 0");
	chmod(path, 0640);
	assert_int_equal(rk_tune_plan_opensm_set("/", path, settings, 2, keys, &plan), 0);
	assert_int_equal(plan.count, 1);
	assert_string_equal(plan.items[0].wanted,
			    "# conf\nsm_priority 12\n# sm_priority 3\nlmc 0\nsweep_interval 30\n");
	assert_int_equal(plan.items[0].wanted_mode, 0640);
	assert_string_equal(plan.items[0].path, path + 1);
	rk_tune_plan_free(&plan);
	log_capture_start();
	assert_int_equal(rk_tune_plan_opensm_set("/", path, bad, 1, keys, &plan), -EINVAL);
	assert_int_equal(log_capture_count("sm_prioirty is not a key"), 1);
	assert_int_equal(plan.count, 0);
	settings[0] = "sm_priority=1";
	assert_int_equal(rk_tune_plan_opensm_set("/", path, settings, 1, keys, &plan), 0);
	assert_int_equal(plan.count, 0); /* already so: nothing to change */
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_keys_come_from_the_installed_opensm),
	    cmocka_unit_test(test_template_has_only_security_findings),
	    cmocka_unit_test(test_bad_conf_reports_each_problem),
	    cmocka_unit_test(test_instances_need_their_own_guid_and_priority),
	    cmocka_unit_test(test_unreadable_and_binary_confs),
	    cmocka_unit_test(test_partitions_good),
	    cmocka_unit_test(test_partitions_fallbacks_are_errors),
	    cmocka_unit_test(test_partitions_comment_at_end_of_file),
	    cmocka_unit_test(test_partitions_names_are_trimmed),
	    cmocka_unit_test(test_log_summary),
	    cmocka_unit_test(test_set_replaces_the_last_line_only),
	};

	return cmocka_run_group_tests_name("tune_opensm", tests, load_keys, NULL);
}
