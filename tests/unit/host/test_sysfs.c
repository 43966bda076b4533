/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the sysfs module: value parsers, attribute reads, the descriptor budget, a tree
 * confined to a root. */
#include "fixture_util.h"
#include "rdmakit/file.h"
#include "rdmakit/sysfs.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static void parse_u64_accepts_decimal_and_hex(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(rk_parse_u64("0", &v), 0);
	assert_true(v == 0);
	assert_int_equal(rk_parse_u64("4294967295", &v), 0);
	assert_true(v == 4294967295u);
	assert_int_equal(rk_parse_u64("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(rk_parse_u64("0x5", &v), 0);
	assert_true(v == 5);
	assert_int_equal(rk_parse_u64("0xA651E848", &v), 0);
	assert_true(v == 0xa651e848u);
	assert_int_equal(rk_parse_u64("0xffffffffffffffff", &v), 0);
	assert_true(v == UINT64_MAX);
}

static void parse_u64_rejects_garbage_and_overflow(void **state)
{
	uint64_t v = 77;

	(void)state;
	assert_int_equal(rk_parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(rk_parse_u64("0x1ffffffffffffffff", &v), -ERANGE);
	assert_int_equal(rk_parse_u64("", &v), -EINVAL);
	assert_int_equal(rk_parse_u64("abc", &v), -EINVAL);
	assert_int_equal(rk_parse_u64("12a", &v), -EINVAL);
	assert_int_equal(rk_parse_u64("-1", &v), -EINVAL);
	assert_int_equal(rk_parse_u64("0x", &v), -EINVAL);
	assert_int_equal(rk_parse_u64("N/A (no PMA)", &v), -EINVAL);
	assert_int_equal(rk_parse_u64(" 5", &v), -EINVAL);
	assert_true(v == 77);
}

static void parse_numbered_splits_state_strings(void **state)
{
	char name[32];
	int n = 0;

	(void)state;
	assert_int_equal(rk_parse_numbered("4: ACTIVE", &n, name, sizeof(name)), 0);
	assert_int_equal(n, 4);
	assert_string_equal(name, "ACTIVE");
	assert_int_equal(rk_parse_numbered("7: Phy Test", &n, name, sizeof(name)), 0);
	assert_int_equal(n, 7);
	assert_string_equal(name, "Phy Test");
	assert_int_equal(rk_parse_numbered("1: CA", &n, name, sizeof(name)), 0);
	assert_string_equal(name, "CA");
	assert_int_equal(rk_parse_numbered("ACTIVE", &n, name, sizeof(name)), -EINVAL);
	assert_int_equal(rk_parse_numbered(": ACTIVE", &n, name, sizeof(name)), -EINVAL);
	assert_int_equal(rk_parse_numbered("4:", &n, name, sizeof(name)), -EINVAL);
	assert_int_equal(rk_parse_numbered("x: ACTIVE", &n, name, sizeof(name)), -EINVAL);
	assert_int_equal(rk_parse_numbered("4: ACTIVE", &n, name, 4), -EINVAL);
}

static void attr_read_trims_and_rereads(void **state)
{
	char *root = fixture_copy("messy");
	struct rk_sysfs *fs;
	struct rk_attr attr;
	char buf[64];

	(void)state;
	assert_non_null(root);
	assert_int_equal(rk_sysfs_open(root, &fs), 0);
	/* no trailing newline */
	assert_int_equal(rk_attr_open(fs, "class/infiniband/mlx5_0/ports/1/rate", &attr), 0);
	assert_true(attr.fd >= 0);
	assert_int_equal(rk_attr_read(fs, &attr, buf, sizeof(buf)), 19);
	assert_string_equal(buf, "200 Gb/sec (4X HDR)");
	/* the same descriptor sees new content */
	write_file(root, "class/infiniband/mlx5_0/ports/1/rate", "100 Gb/sec (4X EDR)\n");
	assert_int_equal(rk_attr_read(fs, &attr, buf, sizeof(buf)), 19);
	assert_string_equal(buf, "100 Gb/sec (4X EDR)");
	rk_attr_close(fs, &attr);
	/* extra blank lines */
	assert_true(rk_sysfs_read(fs, "class/infiniband/mlx5_1/ports/1/state", buf, sizeof(buf)) ==
		    9);
	assert_string_equal(buf, "4: ACTIVE");
	/* empty file */
	assert_true(rk_sysfs_read(fs, "class/infiniband/mlx5_0/ports/1/counters/VL15_dropped", buf,
				  sizeof(buf)) == 0);
	assert_true(rk_sysfs_read(fs, "class/infiniband/mlx5_0/hw_rev", buf, sizeof(buf)) ==
		    -ENOENT);
	assert_int_equal(rk_attr_open(fs, "class/infiniband/mlx5_0/hw_rev", &attr), -ENOENT);
	rk_sysfs_close(fs);
	fixture_discard(root);
}

/* With a floor, kept-open attributes sit at or above it; a floor the hard limit cannot hold is
 * refused with a message and leaves descriptors where open() puts them. */
static void fd_floor_lifts_kept_descriptors(void **state)
{
	const char *path = "class/infiniband/mlx5_0/ports/1/counters/port_xmit_data";
	struct rlimit limit;
	struct rk_attr attr;
	struct rk_sysfs *fs;
	char buf[64];

	(void)state;
	log_capture_start();
	assert_int_equal(rk_sysfs_set_fd_floor(200), 0);
	assert_int_equal(rk_sysfs_open(fixture_path("ib-hdr"), &fs), 0);
	assert_int_equal(rk_attr_open(fs, path, &attr), 0);
	assert_true(attr.fd >= 200);
	assert_true(rk_attr_read(fs, &attr, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "1234567890123");
	rk_attr_close(fs, &attr);
	rk_sysfs_close(fs);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &limit), 0);
	assert_true(limit.rlim_max < INT_MAX - 1000);
	assert_int_equal(rk_sysfs_set_fd_floor((int)limit.rlim_max), -EMFILE);
	assert_int_equal(log_capture_count("leaves no room above descriptor"), 1);
	assert_int_equal(rk_sysfs_open(fixture_path("ib-hdr"), &fs), 0);
	assert_int_equal(rk_attr_open(fs, path, &attr), 0);
	assert_true(attr.fd >= 0 && attr.fd < 200);
	rk_attr_close(fs, &attr);
	rk_sysfs_close(fs);
	assert_int_equal(rk_sysfs_set_fd_floor(-1), -EINVAL);
	setenv("RDMAKIT_FD_FLOOR", "0", 1); /* no floor */
	assert_int_equal(rk_sysfs_set_fd_floor(200), 0);
	assert_int_equal(rk_sysfs_open(fixture_path("ib-hdr"), &fs), 0);
	assert_int_equal(rk_attr_open(fs, path, &attr), 0);
	assert_true(attr.fd >= 0 && attr.fd < 200);
	rk_attr_close(fs, &attr);
	rk_sysfs_close(fs);
	unsetenv("RDMAKIT_FD_FLOOR");
	setenv("LD_PRELOAD", "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so", 1);
	assert_int_equal(rk_sysfs_set_fd_floor(200), 0); /* under ibsim's shim: no floor */
	unsetenv("LD_PRELOAD");
	assert_int_equal(rk_sysfs_open(fixture_path("ib-hdr"), &fs), 0);
	assert_int_equal(rk_attr_open(fs, path, &attr), 0);
	assert_true(attr.fd >= 0 && attr.fd < 200);
	rk_attr_close(fs, &attr);
	rk_sysfs_close(fs);
	setenv("RDMAKIT_FD_FLOOR", "high", 1);
	assert_int_equal(rk_sysfs_set_fd_floor(0), 0);
	assert_int_equal(log_capture_count("RDMAKIT_FD_FLOOR=high is not a descriptor number"), 1);
	unsetenv("RDMAKIT_FD_FLOOR");
}

static void budget_falls_back_to_open_read_close(void **state)
{
	static const char *const files[] = {"symbol_error", "port_xmit_wait", "port_xmit_data",
					    "port_rcv_data"};
	static const char *const values[] = {"0", "2837461", "1234567890123", "987654321098"};
	struct rk_attr attrs[4];
	struct rk_sysfs *fs;
	char path[128], buf[64];

	(void)state;
	log_capture_start();
	assert_int_equal(rk_sysfs_open(fixture_path("ib-hdr"), &fs), 0);
	rk_sysfs_set_fd_budget(fs, 2);
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "class/infiniband/mlx5_0/ports/1/counters/%s",
			 files[i]);
		assert_int_equal(rk_attr_open(fs, path, &attrs[i]), 0);
	}
	assert_true(attrs[0].fd >= 0 && attrs[1].fd >= 0);
	assert_int_equal(attrs[2].fd, -1);
	assert_int_equal(attrs[3].fd, -1);
	assert_int_equal(rk_sysfs_fallback_count(fs), 2);
	assert_int_equal(log_capture_count("descriptor budget of 2 used up"), 1);
	for (int i = 0; i < 4; i++) {
		assert_true(rk_attr_read(fs, &attrs[i], buf, sizeof(buf)) > 0);
		assert_string_equal(buf, values[i]);
	}
	rk_attr_close(fs, &attrs[0]);
	assert_int_equal(rk_attr_open(fs, "class/infiniband/mlx5_0/nope", &attrs[0]), -ENOENT);
	for (int i = 1; i < 4; i++)
		rk_attr_close(fs, &attrs[i]);
	rk_sysfs_close(fs);
}

static void list_sorts_like_versions(void **state)
{
	char *root = fixture_copy("ib-hdr");
	char dir[4096];
	struct rk_sysfs *fs;
	char **names;
	size_t count;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/class/infiniband/mlx5_10", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/class/infiniband/mlx5_2", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(rk_sysfs_open(root, &fs), 0);
	assert_int_equal(rk_sysfs_list(fs, "class/infiniband", &names, &count), 0);
	assert_int_equal(count, 4);
	assert_string_equal(names[0], "mlx5_0");
	assert_string_equal(names[1], "mlx5_1");
	assert_string_equal(names[2], "mlx5_2");
	assert_string_equal(names[3], "mlx5_10");
	rk_names_free(names, count);
	assert_int_equal(rk_sysfs_list(fs, "class/nothing", &names, &count), -ENOENT);
	rk_sysfs_close(fs);
	fixture_discard(root);
}

static void link_name_gives_pci_address(void **state)
{
	struct rk_sysfs *fs;
	char buf[32];

	(void)state;
	assert_int_equal(rk_sysfs_open(fixture_path("ib-hdr"), &fs), 0);
	assert_int_equal(rk_sysfs_link_name(fs, "class/infiniband/mlx5_1/device", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "0000:3b:00.1");
	assert_int_equal(rk_sysfs_link_name(fs, "class/infiniband/mlx5_1/fw_ver", buf, sizeof(buf)),
			 -EINVAL);
	rk_sysfs_close(fs);
}

/* A FIFO, a directory or a symlink loop where an attribute should be: refused at once (a
 * FIFO's open used to wait for a writer forever), whether kept open or read by path, and so is
 * such a file opened by its own path (rk_file_open_regular), which opens a regular one. */
static void non_files_are_refused_without_blocking(void **state)
{
	static const char *const rate = "class/infiniband/mlx5_0/ports/1/rate";
	static const struct {
		enum hostile_kind kind;
		int err;
		const char *why;
	} cases[] = {
	    {HOSTILE_FIFO, -ESPIPE, "not a regular file"},
	    {HOSTILE_DIR, -EISDIR, "a directory"},
	    {HOSTILE_LOOP, -ELOOP, "Too many levels of symbolic links"},
	};
	char *root = fixture_copy("ib-hdr");
	char path[4096];
	struct rk_sysfs *fs;
	struct rk_attr attr;
	char buf[64];
	FILE *file;
	int err;

	(void)state;
	snprintf(path, sizeof(path), "%s/%s", root, rate);
	assert_int_equal(rk_sysfs_open(root, &fs), 0);
	alarm(10); /* a blocking open ends the test, not the suite */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(replace_with(root, rate, cases[i].kind), 0);
		rk_sysfs_set_fd_budget(fs, 100);
		assert_int_equal(rk_attr_open(fs, rate, &attr), cases[i].err);
		rk_sysfs_set_fd_budget(fs, 0);
		assert_int_equal(rk_attr_open(fs, rate, &attr), cases[i].err);
		assert_int_equal(rk_sysfs_read(fs, rate, buf, sizeof(buf)), cases[i].err);
		assert_non_null(strstr(rk_sysfs_error(cases[i].err), cases[i].why));
		err = 0;
		assert_null(rk_file_open_regular(path, &err)); /* a file an operator names */
		assert_int_equal(err, cases[i].err);
	}
	alarm(0);
	assert_int_equal(unlink(path), 0);
	assert_non_null(file = fopen(path, "w"));
	assert_int_equal(fputs("100 Gb/sec (2X HDR)\n", file) >= 0, 1);
	assert_int_equal(fclose(file), 0);
	assert_non_null(file = rk_file_open_regular(path, &err));
	assert_non_null(fgets(buf, sizeof(buf), file));
	assert_string_equal(buf, "100 Gb/sec (2X HDR)\n");
	fclose(file);
	snprintf(path, sizeof(path), "%s/no-such-file", root);
	assert_null(rk_file_open_regular(path, &err));
	assert_int_equal(err, -ENOENT);
	rk_sysfs_close(fs);
	fixture_discard(root);
}

/* An attribute that turns into a FIFO after it was opened by path is refused at its read. */
static void fallback_read_of_a_fifo_does_not_block(void **state)
{
	static const char *const lid = "class/infiniband/mlx5_0/ports/1/lid";
	char *root = fixture_copy("ib-hdr");
	struct rk_sysfs *fs;
	struct rk_attr attr;
	char buf[64];

	(void)state;
	assert_int_equal(rk_sysfs_open(root, &fs), 0);
	rk_sysfs_set_fd_budget(fs, 0);
	assert_int_equal(rk_attr_open(fs, lid, &attr), 0);
	assert_int_equal(replace_with(root, lid, HOSTILE_FIFO), 0);
	alarm(10);
	assert_int_equal(rk_attr_read(fs, &attr, buf, sizeof(buf)), -ESPIPE);
	alarm(0);
	rk_attr_close(fs, &attr);
	rk_sysfs_close(fs);
	fixture_discard(root);
}

/* A megabyte of binary garbage is read as its first bytes, never past the buffer. */
static void huge_binary_attribute_is_cut_to_the_buffer(void **state)
{
	char *root = fixture_copy("ib-hdr");
	char path[4096], buf[64];
	struct rk_sysfs *fs;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/class/infiniband/mlx5_0/ports/1/rate", root);
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 1 << 20; i++)
		fputc(i % 251 + 1, f);
	fclose(f);
	assert_int_equal(rk_sysfs_open(root, &fs), 0);
	assert_int_equal(
	    rk_sysfs_read(fs, "class/infiniband/mlx5_0/ports/1/rate", buf, sizeof(buf)),
	    sizeof(buf) - 1);
	assert_int_equal(buf[sizeof(buf) - 1], '\0');
	rk_sysfs_close(fs);
	fixture_discard(root);
}

static void open_missing_root_fails(void **state)
{
	struct rk_sysfs *fs = NULL;

	(void)state;
	log_capture_start();
	assert_int_equal(rk_sysfs_open("/nonexistent/rdmakit", &fs), -ENOENT);
	assert_null(fs);
	assert_int_equal(log_capture_count("/nonexistent/rdmakit: cannot open sysfs root"), 1);
}

/* mkdir -p of root/relpath. */
static void make_dirs(const char *root, const char *relpath)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, relpath);
	for (char *slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	mkdir(path, 0755);
}

/* A device directory at top/relpath: board_id holds board, device links to the function pci. */
static void make_device(const char *top, const char *relpath, const char *board, const char *pci)
{
	char path[4096], file[4096];

	make_dirs(top, relpath);
	snprintf(file, sizeof(file), "%s/board_id", relpath);
	write_file(top, file, board);
	snprintf(path, sizeof(path), "%s/%s/device", top, relpath);
	assert_int_equal(symlink(pci, path), 0);
}

/* top/root/sys/class/infiniband/dev is an absolute link to top/out/dev (outside the root); the
 * root has its own copy at the same path inside it. */
static void make_root_with_outside_device(const char *top, char *root, size_t size)
{
	char inside[512], outside[256], link[512];

	snprintf(root, size, "%s/root", top);
	snprintf(outside, sizeof(outside), "%s/out/dev", top);
	snprintf(inside, sizeof(inside), "root%s", outside);
	make_device(top, "out/dev", "OUTSIDE\n", "../pci/0000:99:00.0");
	write_file(top, "out/dev/only_outside", "1\n");
	make_device(top, inside, "INSIDE\n", "../pci/0000:01:00.0");
	make_dirs(top, "root/sys/class/infiniband");
	snprintf(link, sizeof(link), "%s/sys/class/infiniband/dev", root);
	assert_int_equal(symlink(outside, link), 0);
}

/* Every read of a tree opened in a root stays inside the root, the absolute link included. */
static void expect_reads_inside(const char *root)
{
	struct rk_sysfs *fs = NULL;
	struct rk_attr attr;
	char buf[64], shown[4096], **names;
	size_t count;

	assert_int_equal(rk_sysfs_open_in_root(root, "sys", &fs), 0);
	snprintf(shown, sizeof(shown), "%s/sys", root);
	assert_string_equal(rk_sysfs_root(fs), shown);
	assert_int_equal(rk_sysfs_read(fs, "class/infiniband/dev/board_id", buf, sizeof(buf)), 6);
	assert_string_equal(buf, "INSIDE");
	assert_int_equal(rk_attr_open(fs, "class/infiniband/dev/board_id", &attr), 0);
	assert_int_equal(rk_attr_recheck(fs, &attr), 0);
	assert_int_equal(rk_attr_read(fs, &attr, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "INSIDE");
	rk_attr_close(fs, &attr);
	assert_int_equal(rk_sysfs_link_name(fs, "class/infiniband/dev/device", buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "0000:01:00.0");
	assert_true(rk_sysfs_exists(fs, "class/infiniband/dev/board_id"));
	assert_false(rk_sysfs_exists(fs, "class/infiniband/dev/only_outside"));
	assert_int_equal(rk_sysfs_list(fs, "class/infiniband/dev", &names, &count), 0);
	assert_int_equal(count, 2);
	assert_string_equal(names[0], "board_id");
	assert_string_equal(names[1], "device");
	rk_names_free(names, count);
	rk_sysfs_close(fs);
}

static void open_in_root_keeps_absolute_links_inside(void **state)
{
	char top[] = "/tmp/rdmakit-sysfs-root-XXXXXX", root[256], sys[512], buf[64];
	struct rk_sysfs *fs = NULL;

	(void)state;
	assert_non_null(mkdtemp(top));
	make_root_with_outside_device(top, root, sizeof(root));
	snprintf(sys, sizeof(sys), "%s/sys", root);
	assert_int_equal(rk_sysfs_open(sys, &fs), 0); /* not confined: the link leads out */
	assert_int_equal(rk_sysfs_read(fs, "class/infiniband/dev/board_id", buf, sizeof(buf)), 7);
	assert_string_equal(buf, "OUTSIDE");
	rk_sysfs_close(fs);
	expect_reads_inside(root);
	setenv("RDMAKIT_TUNE_NO_OPENAT2", "1",
	       1); /* the walk by hand, in RDMAKIT_TEST_HOOKS builds */
	expect_reads_inside(root);
	unsetenv("RDMAKIT_TUNE_NO_OPENAT2");
	remove_tree(top);
}

static void open_in_root_without_the_tree_fails(void **state)
{
	char top[] = "/tmp/rdmakit-sysfs-root-XXXXXX", message[4096];
	struct rk_sysfs *fs = NULL;

	(void)state;
	assert_non_null(mkdtemp(top));
	log_capture_start();
	assert_int_equal(rk_sysfs_open_in_root(top, "sys", &fs), -ENOENT);
	assert_null(fs);
	snprintf(message, sizeof(message), "%s/sys: cannot open sysfs root", top);
	assert_int_equal(log_capture_count(message), 1);
	remove_tree(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(parse_u64_accepts_decimal_and_hex),
	    cmocka_unit_test(parse_u64_rejects_garbage_and_overflow),
	    cmocka_unit_test(parse_numbered_splits_state_strings),
	    cmocka_unit_test(attr_read_trims_and_rereads),
	    cmocka_unit_test(budget_falls_back_to_open_read_close),
	    cmocka_unit_test(list_sorts_like_versions),
	    cmocka_unit_test(link_name_gives_pci_address),
	    cmocka_unit_test(open_missing_root_fails),
	    cmocka_unit_test(fd_floor_lifts_kept_descriptors),
	    cmocka_unit_test(open_in_root_keeps_absolute_links_inside),
	    cmocka_unit_test(open_in_root_without_the_tree_fails),
	    cmocka_unit_test(non_files_are_refused_without_blocking),
	    cmocka_unit_test(fallback_read_of_a_fifo_does_not_block),
	    cmocka_unit_test(huge_binary_attribute_is_cut_to_the_buffer),
	};

	return cmocka_run_group_tests_name("sysfs", tests, NULL, NULL);
}
