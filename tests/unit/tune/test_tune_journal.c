/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of apply and rollback on a host tree: byte-identical rollback (modes included),
 * apply twice, kill -9 after every write, damaged journals refused, rejected values, verify;
 * empty journals removed, partial rollbacks retried, missing IDs and symlinks named. */
#include "fixture_util.h"
#include "rdmakit/sysfs.h"
#include "rdmakit/tune_journal.h"
#include "rdmakit/tune_opensm.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define HOST_TREE "../tune/host"

/* A listing of a tree (path, type, mode, content hash), journals left out. */
static char snapshot[1 << 20];
static size_t snapshot_len;
static size_t snapshot_root_len;

static uint64_t fnv(const char *path)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ULL;
	if (fd >= 0)
		close(fd);
	return h;
}

static int list_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = path + snapshot_root_len;
	char link[512] = "";

	(void)ftw;
	if (strncmp(rel, "/var/lib/rdmakit", 16) == 0 || strcmp(rel, "/var") == 0 ||
	    strcmp(rel, "/var/lib") == 0)
		return 0; /* the journals and their parents, which a real root has */
	if (type == FTW_SL && readlink(path, link, sizeof(link) - 1) < 0)
		link[0] = '\0';
	snapshot_len += (size_t)snprintf(
	    snapshot + snapshot_len, sizeof(snapshot) - snapshot_len, "%s %d %o %016llx %s\n", rel,
	    type, (unsigned)st->st_mode,
	    type == FTW_F && !S_ISFIFO(st->st_mode) ? (unsigned long long)fnv(path) : 0ULL, link);
	return 0;
}

static char *take_snapshot(const char *root)
{
	snapshot_len = 0;
	snapshot_root_len = strlen(root);
	assert_int_equal(nftw(root, list_entry, 32, FTW_PHYS), 0);
	return strdup(snapshot);
}

static const char *path_in(const char *root, const char *rel)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return path;
}

/* Fail with the first line where two snapshots differ. */
static void expect_same(const char *before, const char *after)
{
	size_t i = 0, line = 0;

	while (before[i] && before[i] == after[i])
		i++;
	if (!before[i] && !after[i])
		return;
	for (line = i; line > 0 && before[line - 1] != '\n'; line--)
		;
	fail_msg("trees differ at:\n  before: %.120s\n  after:  %.120s", before + line,
		 after + line);
}

static void plan_profile(const char *root, const char *profile, struct rk_tune_plan *plan)
{
	struct rk_tune_options options = {.root = root, .profile = rk_tune_profile_find(profile)};
	struct rk_tune_audit audit = {0};

	*plan = (struct rk_tune_plan){0};
	assert_int_equal(rk_tune_audit_host(&options, &audit, plan), 0);
	rk_tune_audit_free(&audit);
}

/* Plan the profile under root and apply it (journal 0001 on a fresh copy). */
static void apply_profile(const char *root, const char *profile, struct rk_tune_result *result)
{
	struct rk_tune_plan plan;

	plan_profile(root, profile, &plan);
	assert_int_equal(rk_tune_apply(root, profile, &plan, result), 0);
	rk_tune_plan_free(&plan);
}

static char *read_text(const char *root, const char *rel)
{
	char path[4096], *text = calloc(1, 65536);
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(text);
		return NULL;
	}
	assert_true(read(fd, text, 65535) >= 0);
	close(fd);
	return text;
}

static mode_t mode_of(const char *root, const char *rel)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return stat(path, &st) == 0 ? st.st_mode & 07777 : 0;
}

static void expect_text(const char *root, const char *rel, const char *text)
{
	char *got = read_text(root, rel);

	assert_non_null(got);
	assert_string_equal(got, text);
	free(got);
}

/* The relative path of the journal's one backup. */
static const char *first_backup(const char *root)
{
	static char rel[256];
	char **names = NULL;
	size_t count = 0;
	struct rk_sysfs *fs;

	assert_int_equal(rk_sysfs_open(root, &fs), 0);
	assert_int_equal(rk_sysfs_list(fs, "var/lib/rdmakit/tune/0001", &names, &count), 0);
	rel[0] = '\0';
	for (size_t i = 0; i < count && !rel[0]; i++)
		if (strncmp(names[i], "backup-", 7) == 0)
			snprintf(rel, sizeof(rel), "var/lib/rdmakit/tune/0001/%s", names[i]);
	rk_names_free(names, count);
	rk_sysfs_close(fs);
	assert_true(rel[0] != '\0');
	return rel;
}

static void test_apply_then_rollback_restores_every_byte(void **state)
{
	char *root = fixture_copy(HOST_TREE), *before, *after;
	struct rk_tune_plan plan;
	struct rk_tune_result result;

	(void)state;
	chmod(path_in(root, "etc/security/limits.conf"), 0640); /* modes are restored too */
	assert_int_equal(mkdir(path_in(root, "etc/sysctl.d"), 0750), 0);
	write_file(root, "etc/sysctl.d/90-rdmakit-tune.conf", "# an older one\n");
	chmod(path_in(root, "etc/sysctl.d/90-rdmakit-tune.conf"), 0600);
	before = take_snapshot(root);
	plan_profile(root, "throughput", &plan);
	assert_true(plan.count >= 10);
	assert_int_equal(rk_tune_apply(root, "throughput", &plan, &result), 0);
	assert_string_equal(result.id, "0001");
	assert_int_equal(result.done, plan.count);
	assert_int_equal(result.failed, 0);
	expect_text(root, "sys/kernel/mm/transparent_hugepage/enabled", "madvise\n");
	expect_text(root, "proc/sys/vm/zone_reclaim_mode", "0\n");
	expect_text(root, "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
	expect_text(root, "sys/kernel/config/rdma_cm/mlx5_2/ports/1/default_roce_tos", "106\n");
	expect_text(root, "proc/irq/40/smp_affinity_list", "0-1\n");
	expect_text(root, "etc/security/limits.d/90-rdmakit-memlock.conf",
		    "# Written by rdmakit tune: RDMA pins registered memory.\n"
		    "* soft memlock unlimited\n* hard memlock unlimited\n");
	assert_int_equal(mode_of(root, "etc/sysctl.d/90-rdmakit-tune.conf"), 0644);
	after = read_text(root, "etc/sysctl.d/90-rdmakit-tune.conf");
	assert_non_null(strstr(after, "net/ipv4/conf/ib0/arp_ignore = 1\n"));
	assert_non_null(strstr(after, "vm.zone_reclaim_mode = 0\n"));
	free(after);
	assert_int_equal(mode_of(root, first_backup(root)), 0600);
	expect_text(root, first_backup(root), "# an older one\n"); /* byte for byte */
	expect_text(root, "etc/sysctl.conf",
		    "# /etc/sysctl.conf - as a guide told us\nkernel.printk = 3 4 1 3\n"
		    "vm.nr_hugepages = 1024\n"); /* never edited in place */
	after = take_snapshot(root);
	assert_string_not_equal(before, after);
	free(after);
	rk_tune_plan_free(&plan);
	assert_int_equal(rk_tune_rollback(root, NULL, &result), 0);
	assert_string_equal(result.id, "0001");
	assert_int_equal(result.failed, 0);
	after = take_snapshot(root);
	expect_same(before, after);
	free(before);
	free(after);
	fixture_discard(root);
}

static void test_apply_twice_changes_nothing(void **state)
{
	char *root = fixture_copy(HOST_TREE);
	struct rk_tune_plan plan;
	struct rk_tune_result result;
	struct rk_tune_history_entry *history;
	size_t count;

	(void)state;
	apply_profile(root, "latency", &result);
	plan_profile(root, "latency", &plan);
	assert_int_equal(plan.count, 0);
	assert_int_equal(rk_tune_apply(root, "latency", &plan, &result), 0);
	assert_string_equal(result.id, "");
	assert_int_equal(rk_tune_history(root, &history, &count), 0);
	assert_int_equal(count, 1);
	assert_string_equal(history[0].label, "latency");
	assert_int_equal(history[0].state, RK_TUNE_APPLIED);
	free(history);
	/* a stale plan (made before the first apply) records nothing tuned as an original */
	fixture_discard(root);
}

static void test_stale_plan_records_nothing_twice(void **state)
{
	char *root = fixture_copy(HOST_TREE), *before = take_snapshot(root);
	struct rk_tune_plan plan;
	struct rk_tune_result first, second;

	(void)state;
	plan_profile(root, "latency", &plan);
	assert_int_equal(rk_tune_apply(root, "latency", &plan, &first), 0);
	assert_int_equal(rk_tune_apply(root, "latency", &plan, &second), 0); /* the same plan */
	assert_string_equal(second.id, "0002");
	assert_int_equal(second.done, 0);
	assert_int_equal(rk_tune_rollback(root, NULL, &second), 0);
	assert_int_equal(rk_tune_rollback(root, NULL, &first), 0);
	assert_string_equal(first.id, "0001");
	{
		char *after = take_snapshot(root);

		expect_same(before, after);
		free(after);
	}
	free(before);
	rk_tune_plan_free(&plan);
	fixture_discard(root);
}

/* The state of the newest journal (RK_TUNE_ROLLED_BACK when there is none). */
static enum rk_tune_journal_state last_state(const char *root)
{
	struct rk_tune_history_entry *history;
	enum rk_tune_journal_state state = RK_TUNE_ROLLED_BACK;
	size_t count;

	assert_int_equal(rk_tune_history(root, &history, &count), 0);
	if (count)
		state = history[count - 1].state;
	free(history);
	return state;
}

/* Kill the apply after its Nth write, for every N, and roll back: the tree is as it was. */
static void test_kill_at_every_write_then_rollback(void **state)
{
	bool finished = false;

	(void)state;
	for (int n = 1; n < 400 && !finished; n++) {
		char *root = fixture_copy(HOST_TREE), *before = take_snapshot(root), *after,
		     env[16];
		struct rk_tune_result result;
		struct rk_tune_plan plan;
		int status, err;
		pid_t pid;

		plan_profile(root, "throughput", &plan);
		pid = fork();
		if (pid == 0) {
			snprintf(env, sizeof(env), "%d", n);
			setenv("RDMAKIT_TUNE_STOP_AFTER", env, 1);
			_exit(rk_tune_apply(root, "throughput", &plan, &result) == 0 ? 0 : 1);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		finished = WIFEXITED(status);
		if (finished) {
			assert_int_equal(WEXITSTATUS(status), 0);
			print_message("apply killed after each of its first %d writes\n", n - 1);
		} else
			assert_int_equal(WTERMSIG(status), SIGKILL);
		if (!finished && last_state(root) == RK_TUNE_INCOMPLETE) /* blocks the next apply */
			assert_int_equal(rk_tune_apply(root, "throughput", &plan, &result), -EBUSY);
		err = rk_tune_rollback(root, NULL, &result);
		if (err != 0)
			fail_msg("kill after write %d: rollback gave %d", n, err);
		assert_int_equal(result.failed, 0);
		after = take_snapshot(root);
		if (strcmp(before, after) != 0)
			print_message("kill after write %d:\n", n);
		expect_same(before, after);
		free(before);
		free(after);
		rk_tune_plan_free(&plan);
		fixture_discard(root);
	}
	assert_true(finished);
}

static void damage(const char *root, const char *rel, long cut_from_end, long flip_at)
{
	char path[4096];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(stat(path, &st), 0);
	if (cut_from_end)
		assert_int_equal(truncate(path, st.st_size - cut_from_end), 0);
	if (flip_at >= 0) {
		char c;

		fd = open(path, O_RDWR);
		assert_int_equal(pread(fd, &c, 1, flip_at), 1);
		c = c == '1' ? '2' : '1';
		assert_int_equal(pwrite(fd, &c, 1, flip_at), 1);
		close(fd);
	}
}

/* Bytes from the start of the journal to the start of its last line. */
static long last_line_length(const char *root)
{
	char *text = read_text(root, "var/lib/rdmakit/tune/0001/journal");
	size_t len = strlen(text);
	long n = 1;

	while ((size_t)n < len && text[len - 1 - (size_t)n] != '\n')
		n++;
	free(text);
	return n;
}

static void expect_refused(const char *what, long cut, long flip, const char *rel,
			   const char *message)
{
	char *root = fixture_copy(HOST_TREE), *tuned;
	struct rk_tune_result result;

	assert_int_equal(mkdir(path_in(root, "etc/sysctl.d"), 0755), 0);
	write_file(root, "etc/sysctl.d/90-rdmakit-tune.conf", "# an older one\n"); /* backed up */
	apply_profile(root, "latency", &result);
	if (cut < 0)
		cut = last_line_length(root);
	damage(root, rel ? rel : first_backup(root), cut, flip);
	tuned = take_snapshot(root);
	log_capture_start();
	if (rk_tune_rollback(root, NULL, &result) != -EBADMSG)
		fail_msg("%s: rollback was not refused", what);
	if (log_capture_count(message) != 1)
		fail_msg("%s: no message \"%s\"", what, message);
	{
		char *after = take_snapshot(root);

		expect_same(tuned, after); /* nothing changed */
		free(after);
	}
	free(tuned);
	fixture_discard(root);
}

static void test_damaged_journals_are_refused(void **state)
{
	(void)state;
	expect_refused("a record cut off", -1, -1, "var/lib/rdmakit/tune/0001/journal",
		       "truncated");
	expect_refused("half a record", 5, -1, "var/lib/rdmakit/tune/0001/journal",
		       "truncated in the middle of a record");
	expect_refused("an edited record", 0, 40, "var/lib/rdmakit/tune/0001/journal",
		       "does not match its checksum");
	expect_refused("an edited backup", 0, 2, NULL, "does not match its record");
	expect_refused("a head that disagrees", 0, 0, "var/lib/rdmakit/tune/0001/head",
		       "head committed");
}

/* The journal with from replaced by to in its records, and checksums and head made to match:
 * what someone who can write the journal can do (the checksums catch accidents, not intent). */
static void edit_and_reseal(const char *root, const char *from, const char *to)
{
	char *text = read_text(root, "var/lib/rdmakit/tune/0001/journal"), *out = calloc(1, 65536);
	char prev[17] = "0000000000000000", line[4096], head[64], *save = NULL;
	size_t used = 0, count = 0;

	assert_non_null(text);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *hit = strstr(l + 17, from);
		uint64_t hash = 0xcbf29ce484222325ULL;

		if (hit)
			snprintf(line, sizeof(line), "%.*s%s%s", (int)(hit - l - 17), l + 17, to,
				 hit + strlen(from));
		else
			snprintf(line, sizeof(line), "%s", l + 17);
		for (size_t i = 0; i < 16; i++)
			hash = (hash ^ (unsigned char)prev[i]) * 0x100000001b3ULL;
		for (size_t i = 0; line[i]; i++)
			hash = (hash ^ (unsigned char)line[i]) * 0x100000001b3ULL;
		snprintf(prev, sizeof(prev), "%016" PRIx64, hash);
		used += (size_t)snprintf(out + used, 65536 - used, "%s %s\n", prev, line);
		count++;
	}
	write_file(root, "var/lib/rdmakit/tune/0001/journal", out);
	snprintf(head, sizeof(head), "%zu %s\n", count, prev);
	write_file(root, "var/lib/rdmakit/tune/0001/head", head);
	free(text);
	free(out);
}

/* A sealed journal whose record names a path out of the root, or a backup that is not a
 * number, is refused: rollback would otherwise write (or read) anywhere. */
static void expect_escape_refused(const char *from, const char *to, const char *message)
{
	char *root = fixture_copy(HOST_TREE), outside[4200];
	struct rk_tune_result result;
	struct rk_tune_history_entry *history;
	size_t count;

	apply_profile(root, "latency", &result);
	edit_and_reseal(root, from, to);
	assert_int_equal(rk_tune_history(root, &history, &count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(history[0].state, RK_TUNE_DAMAGED);
	assert_non_null(strstr(history[0].problem, message));
	free(history);
	log_capture_start();
	assert_int_equal(rk_tune_rollback(root, NULL, &result), -EBADMSG);
	assert_int_equal(log_capture_count(message), 1);
	snprintf(outside, sizeof(outside), "%s/../rdmakit-escaped", root);
	assert_int_equal(access(outside, F_OK), -1);
	fixture_discard(root);
}

static void test_records_naming_paths_outside_the_root_are_refused(void **state)
{
	(void)state;
	expect_escape_refused(" etc/security/limits.d/90-rdmakit-memlock.conf ",
			      " ../rdmakit-escaped ", "names a path outside the root");
	expect_escape_refused(" sys/kernel/mm/transparent_hugepage/enabled ",
			      " sys/../../rdmakit-escaped ", "names a path outside the root");
	expect_escape_refused("mkdir etc/systemd/system.conf.d", "mkdir ..",
			      "names a path outside the root");
	expect_escape_refused("file 2 ", "file ../../../etc/shadow ", "not a number");
}

/* A '%' not followed by two hex digits is kept as it is: decoding "%4" at a field's end read
 * past the field (fuzz_tune_journal, corpus tune_journal/percent-at-end-of-field). */
static void test_percent_without_two_hex_digits_is_kept(void **state)
{
	char *root = fixture_copy(HOST_TREE);
	struct rk_tune_result result;
	struct rk_tune_history_entry *history;
	size_t count;

	(void)state;
	apply_profile(root, "latency", &result);
	edit_and_reseal(root, "begin 0001 latency ", "begin 0001 a%zz%4 ");
	assert_int_equal(rk_tune_history(root, &history, &count), 0);
	assert_int_equal(count, 1);
	assert_string_equal(history[0].label, "a%zz%4");
	assert_int_equal(history[0].state, RK_TUNE_APPLIED);
	free(history);
	fixture_discard(root);
}

/* history and rollback with a relative --root read the journal apply wrote there. */
static void test_relative_root_reads_its_journal(void **state)
{
	char *root = fixture_copy(HOST_TREE), cwd[4096], *slash = strrchr(root, '/');
	struct rk_tune_result result;

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	apply_profile(root, "latency", &result);
	*slash = '\0';
	assert_int_equal(chdir(root), 0);
	*slash = '/';
	assert_int_equal(last_state(slash + 1), RK_TUNE_APPLIED);
	assert_int_equal(rk_tune_rollback(slash + 1, NULL, &result), 0);
	assert_int_equal(result.failed, 0);
	assert_int_equal(last_state(slash + 1), RK_TUNE_ROLLED_BACK);
	assert_int_equal(chdir(cwd), 0);
	fixture_discard(root);
}

/* A crash (or power loss) in the middle of appending a record leaves a line without its
 * newline after the committed records: that change was never made, rollback goes on. */
static void test_torn_append_is_rolled_back(void **state)
{
	char *root = fixture_copy(HOST_TREE), *before = take_snapshot(root), *after, *journal;
	struct rk_tune_plan plan;
	struct rk_tune_result result;
	struct rk_tune_history_entry *history;
	size_t count;
	FILE *f;

	(void)state;
	plan_profile(root, "latency", &plan);
	assert_int_equal(rk_tune_apply(root, "latency", &plan, &result), 0);
	f = fopen(path_in(root, "var/lib/rdmakit/tune/0001/journal"), "a");
	fputs("0123456789abcdef live 99 proc/sys/vm/swapp", f); /* no newline */
	fclose(f);
	assert_int_equal(rk_tune_rollback(root, NULL, &result), 0);
	after = take_snapshot(root);
	expect_same(before, after);
	journal = read_text(root, "var/lib/rdmakit/tune/0001/journal");
	assert_null(strstr(journal, "swapp")); /* dropped before the rollback record */
	assert_int_equal(rk_tune_history(root, &history, &count), 0);
	assert_int_equal(history[0].state, RK_TUNE_ROLLED_BACK);
	free(history);
	free(journal);
	free(after);
	free(before);
	rk_tune_plan_free(&plan);
	fixture_discard(root);
}

/* root/realproc/osrelease: the running kernel's read-only sysctl, bind-mounted in a mount
 * namespace of the test's own (a symlink to it would be resolved inside the root). */
static void mount_kernel_osrelease(char *root)
{
	char file[4096];
	int fd;

	snprintf(file, sizeof(file), "%s/realproc/osrelease", root);
	assert_int_equal(mkdir(path_in(root, "realproc"), 0755), 0);
	fd = open(file, O_WRONLY | O_CREAT, 0444);
	assert_true(fd >= 0);
	close(fd);
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("/proc/sys/kernel/osrelease", file, NULL, MS_BIND, NULL) != 0) {
		fixture_discard(root);
		skip(); /* needs CAP_SYS_ADMIN */
	}
}

/* A value the kernel refuses (a read-only sysctl of the running kernel): reported on apply and
 * on rollback, and everything else goes on. */
static void test_rejected_value_is_reported_and_the_rest_goes_on(void **state)
{
	char *root = fixture_copy(HOST_TREE), *before, *osrelease, *after;
	struct rk_tune_plan plan;
	struct rk_tune_result result;
	size_t k = 0;

	(void)state;
	mount_kernel_osrelease(root);
	osrelease = read_text("/", "proc/sys/kernel/osrelease");
	before = take_snapshot(root);
	plan_profile(root, "throughput", &plan);
	while (k < plan.count && strcmp(plan.items[k].path, "proc/sys/vm/zone_reclaim_mode") != 0)
		k++;
	assert_true(k < plan.count);
	snprintf(plan.items[k].path, sizeof(plan.items[k].path), "realproc/osrelease");
	log_capture_start();
	assert_int_equal(rk_tune_apply(root, "throughput", &plan, &result), 0);
	assert_int_equal(result.failed, 1);
	assert_int_equal(result.done, plan.count - 1);
	assert_int_equal(log_capture_count("/realproc/osrelease: Permission denied"), 1);
	expect_text(root, "proc/sys/kernel/numa_balancing", "0\n"); /* the rest went on */
	assert_int_equal(rk_tune_rollback(root, NULL, &result), 0);
	assert_int_equal(result.failed, 1); /* refused again on the way back, reported */
	assert_int_equal(log_capture_count("rollback: /realproc/osrelease: Permission denied"), 1);
	after = take_snapshot(root);
	expect_same(before, after);
	expect_text("/", "proc/sys/kernel/osrelease", osrelease);
	umount2(path_in(root, "realproc/osrelease"), MNT_DETACH);
	free(after);
	free(before);
	free(osrelease);
	rk_tune_plan_free(&plan);
	fixture_discard(root);
}

static void test_verify_reports_drift(void **state)
{
	char *root = fixture_copy(HOST_TREE), path[4096];
	struct rk_tune_plan plan;
	struct rk_tune_result result;
	struct rk_tune_audit audit = {0};

	(void)state;
	assert_int_equal(rk_tune_verify(root, NULL, &audit), -ENOENT);
	plan_profile(root, "latency", &plan);
	assert_int_equal(rk_tune_apply(root, "latency", &plan, &result), 0);
	assert_int_equal(rk_tune_verify(root, NULL, &audit), 0);
	assert_int_equal(audit.findings.count, 0);
	write_file(root, "sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	snprintf(path, sizeof(path), "%s/etc/security/limits.d/90-rdmakit-memlock.conf", root);
	unlink(path);
	assert_int_equal(rk_tune_verify(root, NULL, &audit), 0);
	assert_int_equal(audit.findings.count, 2);
	assert_string_equal(audit.findings.items[0].code, "TUNE_DRIFT");
	assert_string_equal(audit.facts[0].current, "[always] madvise never");
	assert_string_equal(audit.facts[0].recommended, "never");
	assert_string_equal(audit.findings.items[1].subject,
			    "/etc/security/limits.d/90-rdmakit-memlock.conf");
	rk_tune_audit_free(&audit);
	rk_tune_plan_free(&plan);
	fixture_discard(root);
}

static void test_apply_needs_root(void **state)
{
	char *root = fixture_copy(HOST_TREE);
	struct rk_tune_plan plan;
	struct rk_tune_result result;

	(void)state;
	plan_profile(root, "latency", &plan);
	assert_int_equal(seteuid(65534), 0);
	log_capture_start();
	assert_int_equal(rk_tune_apply(root, "latency", &plan, &result), -EPERM);
	assert_int_equal(rk_tune_rollback(root, NULL, &result), -EPERM);
	assert_int_equal(seteuid(0), 0);
	assert_int_equal(log_capture_count("apply needs root"), 1);
	assert_int_equal(rk_tune_apply("/nonexistent/rdmakit", "latency", &plan, &result), -ENOENT);
	rk_tune_plan_free(&plan);
	fixture_discard(root);
}

static void test_opensm_set_through_the_journal(void **state)
{
	char *root = fixture_copy(HOST_TREE), *before;
	const struct rk_opensm_keys *keys;
	const char *settings[] = {"sm_priority=14", "console=off"};
	struct rk_tune_plan plan = {0};
	struct rk_tune_result result;

	(void)state;
	assert_int_equal(rk_opensm_keys_load(NULL, &keys), 0);
	assert_int_equal(mkdir(path_in(root, "etc/opensm"), 0755), 0);
	write_file(root, "etc/opensm/opensm.conf", "guid 0x0002c90300000001\nsm_priority 0\n");
	before = take_snapshot(root);
	assert_int_equal(
	    rk_tune_plan_opensm_set(root, "/etc/opensm/opensm.conf", settings, 2, keys, &plan), 0);
	assert_int_equal(rk_tune_apply(root, "opensm.conf", &plan, &result), 0);
	expect_text(root, "etc/opensm/opensm.conf",
		    "guid 0x0002c90300000001\nsm_priority 14\nconsole off\n");
	assert_int_equal(rk_tune_rollback(root, result.id, &result), 0);
	{
		char *after = take_snapshot(root);

		expect_same(before, after);
		free(after);
	}
	free(before);
	rk_tune_plan_free(&plan);
	fixture_discard(root);
}

/* What an apply that stopped before its first record reached the disk left (older rdmakits,
 * or a power loss): how 0 an empty directory, 1 a head of no record, 2 and an empty journal,
 * 3 and a begin record cut short. */
static void leave_empty_journal(const char *root, int how)
{
	const char *dirs[] = {"var", "var/lib", "var/lib/rdmakit", "var/lib/rdmakit/tune",
			      "var/lib/rdmakit/tune/0001"};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (mkdir(path_in(root, dirs[i]), 0700) != 0)
			assert_int_equal(errno, EEXIST);
	if (how >= 1)
		write_file(root, "var/lib/rdmakit/tune/0001/head", "0 0000000000000000\n");
	if (how >= 2)
		write_file(root, "var/lib/rdmakit/tune/0001/journal", "");
	if (how >= 3)
		write_file(root, "var/lib/rdmakit/tune/0001/journal", "0123456789abcdef begin 00");
}

static void expect_one_journal(const char *root, enum rk_tune_journal_state state,
			       const char *problem)
{
	struct rk_tune_history_entry *history;
	size_t count;

	assert_int_equal(rk_tune_history(root, &history, &count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(history[0].state, state);
	if (problem)
		assert_string_equal(history[0].problem, problem);
	free(history);
}

/* Such a journal is named empty by history, and rollback and apply remove it with a message
 * instead of calling it damaged and refusing to go on. */
static void test_empty_journal_is_recognised_and_removed(void **state)
{
	(void)state;
	for (int how = 0; how < 4; how++) {
		char *root = fixture_copy(HOST_TREE), *before = take_snapshot(root), *after;
		struct rk_tune_result result;

		leave_empty_journal(root, how);
		expect_one_journal(root, RK_TUNE_EMPTY,
				   "an apply stopped before its first record reached the disk: "
				   "nothing was changed by it (the next apply or rollback removes "
				   "it)");
		log_capture_start();
		assert_int_equal(rk_tune_rollback(root, NULL, &result), 0);
		assert_string_equal(result.id, "0001");
		assert_int_equal(result.done + result.failed, 0);
		assert_int_equal(log_capture_count("journal 0001 is empty"), 1);
		assert_int_equal(access(path_in(root, "var/lib/rdmakit/tune/0001"), F_OK), -1);
		leave_empty_journal(root, how);
		apply_profile(root, "latency", &result); /* not refused */
		assert_string_equal(result.id, "0001");
		assert_int_equal(log_capture_count("journal 0001 is empty"), 2);
		expect_one_journal(root, RK_TUNE_APPLIED, NULL);
		assert_int_equal(rk_tune_rollback(root, NULL, &result), 0);
		after = take_snapshot(root);
		expect_same(before, after);
		free(after);
		free(before);
		fixture_discard(root);
	}
}

/* A rollback that cannot restore an item (here its file became a directory) records what it
 * did restore; history and verify name what is still tuned, apply waits, and rollback again
 * restores the rest. */
static void test_partial_rollback_is_retried(void **state)
{
	char *root = fixture_copy(HOST_TREE), *before = take_snapshot(root), *after;
	char *original = read_text(root, "proc/sys/kernel/numa_balancing");
	struct rk_tune_audit audit = {0};
	struct rk_tune_result result;
	struct rk_tune_plan plan;
	size_t applied;

	(void)state;
	apply_profile(root, "latency", &result);
	applied = result.done;
	assert_int_equal(move_path(root, "proc/sys/kernel/numa_balancing", "numa_balancing.away"),
			 0);
	assert_int_equal(mkdir(path_in(root, "proc/sys/kernel/numa_balancing"), 0755), 0);
	log_capture_start();
	assert_int_equal(rk_tune_rollback(root, NULL, &result), 0);
	assert_int_equal(result.failed, 1);
	assert_int_equal(result.done, applied - 1);
	assert_int_equal(log_capture_count("rollback: /proc/sys/kernel/numa_balancing: Is a "
					   "directory (writing its original value)"),
			 1);
	assert_int_equal(log_capture_count("1 item still tuned"), 1);
	expect_one_journal(root, RK_TUNE_PARTLY_ROLLED_BACK,
			   "still tuned: /proc/sys/kernel/numa_balancing (rdmakit tune rollback "
			   "again)");
	assert_int_equal(rk_tune_verify(root, NULL, &audit), 0);
	assert_int_equal(audit.findings.count, 1);
	assert_string_equal(audit.findings.items[0].code, "TUNE_STILL_TUNED");
	assert_string_equal(audit.findings.items[0].subject, "/proc/sys/kernel/numa_balancing");
	original[strcspn(original, "\n")] = '\0';
	assert_string_equal(audit.facts[0].recommended, original);
	rk_tune_audit_free(&audit);
	plan_profile(root, "latency", &plan);
	assert_int_equal(rk_tune_apply(root, "latency", &plan, &result), -EBUSY);
	assert_int_equal(log_capture_count("the rollback of 0001 did not restore everything"), 1);
	rk_tune_plan_free(&plan);
	assert_int_equal(rmdir(path_in(root, "proc/sys/kernel/numa_balancing")), 0);
	assert_int_equal(move_path(root, "numa_balancing.away", "proc/sys/kernel/numa_balancing"),
			 0);
	assert_int_equal(rk_tune_rollback(root, NULL, &result), 0); /* again: the rest */
	assert_int_equal(result.done, 1);
	assert_int_equal(result.failed, 0);
	expect_one_journal(root, RK_TUNE_ROLLED_BACK, NULL);
	after = take_snapshot(root);
	expect_same(before, after);
	free(after);
	free(before);
	free(original);
	fixture_discard(root);
}

/* An ID that is not there is said to be missing, not "applied before" another; one rolled back
 * is said to be so. */
static void test_missing_and_rolled_back_ids_are_named(void **state)
{
	char *root = fixture_copy(HOST_TREE);
	struct rk_tune_audit audit = {0};
	struct rk_tune_result result;

	(void)state;
	apply_profile(root, "latency", &result);
	log_capture_start();
	assert_int_equal(rk_tune_rollback(root, "0099", &result), -ENOENT);
	assert_int_equal(log_capture_count("journal 0099 does not exist"), 1);
	assert_int_equal(log_capture_count("it was applied after"), 0);
	assert_int_equal(rk_tune_verify(root, "0099", &audit), -ENOENT);
	assert_int_equal(log_capture_count("journal 0099 does not exist"), 2);
	assert_int_equal(rk_tune_rollback(root, "0001", &result), 0);
	assert_int_equal(rk_tune_rollback(root, "0001", &result), -EALREADY);
	assert_int_equal(log_capture_count("journal 0001 is already rolled back"), 1);
	rk_tune_audit_free(&audit);
	fixture_discard(root);
}

/* A live file that is a symbolic link is refused, and the message says so and why. */
static void test_symlinked_live_file_is_refused_with_its_reason(void **state)
{
	char *root = fixture_copy(HOST_TREE), *before, *after;
	struct rk_tune_result result;

	(void)state;
	assert_int_equal(move_path(root, "proc/sys/vm/zone_reclaim_mode", "proc/sys/vm/real"), 0);
	assert_int_equal(symlink("real", path_in(root, "proc/sys/vm/zone_reclaim_mode")), 0);
	before = take_snapshot(root);
	log_capture_start();
	apply_profile(root, "throughput", &result);
	assert_int_equal(result.failed, 1);
	assert_int_equal(log_capture_count("/proc/sys/vm/zone_reclaim_mode: a symbolic link, "
					   "refused"),
			 1);
	assert_int_equal(rk_tune_rollback(root, NULL, &result), 0);
	assert_int_equal(last_state(root), RK_TUNE_ROLLED_BACK);
	after = take_snapshot(root);
	expect_same(before, after);
	free(after);
	free(before);
	fixture_discard(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_apply_then_rollback_restores_every_byte),
	    cmocka_unit_test(test_apply_twice_changes_nothing),
	    cmocka_unit_test(test_stale_plan_records_nothing_twice),
	    cmocka_unit_test(test_kill_at_every_write_then_rollback),
	    cmocka_unit_test(test_damaged_journals_are_refused),
	    cmocka_unit_test(test_records_naming_paths_outside_the_root_are_refused),
	    cmocka_unit_test(test_relative_root_reads_its_journal),
	    cmocka_unit_test(test_percent_without_two_hex_digits_is_kept),
	    cmocka_unit_test(test_torn_append_is_rolled_back),
	    cmocka_unit_test(test_rejected_value_is_reported_and_the_rest_goes_on),
	    cmocka_unit_test(test_verify_reports_drift),
	    cmocka_unit_test(test_apply_needs_root),
	    cmocka_unit_test(test_opensm_set_through_the_journal),
	    cmocka_unit_test(test_empty_journal_is_recognised_and_removed),
	    cmocka_unit_test(test_partial_rollback_is_retried),
	    cmocka_unit_test(test_missing_and_rolled_back_ids_are_named),
	    cmocka_unit_test(test_symlinked_live_file_is_refused_with_its_reason),
	};

	return cmocka_run_group_tests_name("tune_journal", tests, NULL, NULL);
}
