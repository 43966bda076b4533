/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of paths resolved inside the tune root (common/src/tune/rootfs.c): openat2 and the
 * walk by hand of kernels before 5.6 give the same answers on a hostile tree, and nothing outside
 * the root is ever reached. */
#include "fixture_util.h"
#include "rdmakit/sysfs.h"
#include "rootfs.h"

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

/* tmp/root is the root; tmp/outside is beside it, where no open may lead. */
struct tree {
	char tmp[64], root[128], outside[128];
};

static void put(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void link_in(const char *dir, const char *rel, const char *target)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(symlink(target, path), 0);
}

static void make_tree(struct tree *t)
{
	char path[512];

	snprintf(t->tmp, sizeof(t->tmp), "/tmp/rdmakit-rootfs-XXXXXX");
	assert_non_null(mkdtemp(t->tmp));
	snprintf(t->root, sizeof(t->root), "%s/root", t->tmp);
	snprintf(t->outside, sizeof(t->outside), "%s/outside", t->tmp);
	assert_int_equal(mkdir(t->root, 0755), 0);
	assert_int_equal(mkdir(t->outside, 0755), 0);
	snprintf(path, sizeof(path), "%s/inside", t->root);
	assert_int_equal(mkdir(path, 0755), 0);
	put(t->outside, "secret", "outside\n");
	put(t->root, "inside/file", "inside\n");
	put(t->root, "inside/secret", "inside too\n");
	link_in(t->root, "abs_out", t->outside);		  /* absolute, out of the root */
	link_in(t->root, "abs_in", "/inside");			  /* absolute, inside */
	link_in(t->root, "climb", "../../../../../../../inside"); /* ".." past the root */
	link_in(t->root, "climb_out", "../outside");		  /* beside the root */
	link_in(t->root, "loop", "loop");
	link_in(t->root, "inside/to_file", "../inside/file");
	link_in(t->root, "inside/chain", "/abs_in/to_file"); /* a link through links */
}

static void discard_tree(struct tree *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->tmp);
	assert_int_equal(system(cmd), 0);
}

/* The outside directory still holds only its secret, unchanged. */
static void expect_outside_untouched(const struct tree *t)
{
	char path[512], text[32] = "";
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/secret", t->outside);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(text, sizeof(text), f));
	fclose(f);
	assert_string_equal(text, "outside\n");
	assert_int_equal(stat(t->outside, &st), 0);
	assert_int_equal(st.st_nlink, 2); /* no directory made in it */
	snprintf(path, sizeof(path), "%s/new", t->outside);
	assert_int_equal(access(path, F_OK), -1);
}

/* What an open of relpath must give: the file at expect (relative to the root), or -err. */
struct want {
	const char *relpath;
	int flags;
	const char *expect;
	int err;
};

static const struct want wants[] = {
    {"inside/file", O_RDONLY, "inside/file", 0},
    {"/inside/file", O_RDONLY, "inside/file", 0},
    {"abs_in/file", O_RDONLY, "inside/file", 0},
    {"climb/file", O_RDONLY, "inside/file", 0},
    {"../../../inside/file", O_RDONLY, "inside/file", 0},
    {"inside/../../inside/./file", O_RDONLY, "inside/file", 0},
    {"inside/to_file", O_RDONLY, "inside/file", 0},
    {"inside/chain", O_RDONLY, "inside/file", 0},
    {"abs_out/secret", O_RDONLY, NULL, ENOENT},
    {"climb_out/secret", O_RDONLY, NULL, ENOENT},
    {"loop", O_RDONLY, NULL, ELOOP},
    {"inside/to_file", O_RDONLY | O_NOFOLLOW, NULL, ELOOP},
    {"inside/file/x", O_RDONLY, NULL, ENOTDIR},
    {"abs_in", O_RDONLY | O_DIRECTORY, "inside", 0},
    {"", O_RDONLY | O_DIRECTORY, ".", 0},
    {"..", O_RDONLY | O_DIRECTORY, ".", 0},
};

static void expect_opened(const struct tree *t, const struct want *w, int fd, const char *how)
{
	char path[512];
	struct stat got, want;

	if (w->err) {
		if (fd != -w->err)
			fail_msg("%s %s: %d, wanted -%d", how, w->relpath, fd, w->err);
		return;
	}
	if (fd < 0)
		fail_msg("%s %s: %s", how, w->relpath, strerror(-fd));
	snprintf(path, sizeof(path), "%s/%s", t->root, w->expect);
	assert_int_equal(fstat(fd, &got), 0);
	assert_int_equal(stat(path, &want), 0);
	if (got.st_ino != want.st_ino || got.st_dev != want.st_dev)
		fail_msg("%s %s: not %s", how, w->relpath, w->expect);
	close(fd);
}

static void test_openat2_and_the_walk_agree_and_stay_inside(void **state)
{
	struct tree t;
	int rootfd;

	(void)state;
	make_tree(&t);
	rootfd = open(t.root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(rootfd >= 0);
	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		expect_opened(&t, &wants[i],
			      rootfs_open(t.root, wants[i].relpath, wants[i].flags, 0), "openat2");
		expect_opened(&t, &wants[i],
			      rootfs_walk(rootfd, wants[i].relpath, wants[i].flags, 0), "walk");
	}
	close(rootfd);
	expect_outside_untouched(&t);
	discard_tree(&t);
}

/* A file created through an absolute link lands inside the root, by both ways. */
static void test_create_through_an_absolute_link_stays_inside(void **state)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
	struct tree t;
	char path[512];
	int rootfd, fd;

	(void)state;
	make_tree(&t);
	link_in(t.root, "etc", t.tmp); /* the root's parent, by its host path: not in the root */
	fd = rootfs_open(t.root, "abs_in/new", flags, 0600);
	assert_true(fd >= 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/inside/new", t.root);
	assert_int_equal(access(path, F_OK), 0);
	rootfd = open(t.root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_int_equal(rootfs_walk(rootfd, "abs_in/new", flags, 0600), -EEXIST);
	assert_int_equal(rootfs_walk(rootfd, "etc/outside/new", flags, 0600), -ENOENT);
	assert_int_equal(rootfs_open(t.root, "etc/outside/new", flags, 0600), -ENOENT);
	assert_int_equal(rootfs_walk(rootfd, "abs_out/new", flags, 0600), -ENOENT);
	close(rootfd);
	expect_outside_untouched(&t);
	discard_tree(&t);
}

/* The changes rdmakit makes: no link is removed or replaced, no directory made outside. */
static void test_changes_refuse_links_and_stay_inside(void **state)
{
	struct tree t;
	struct stat st;

	(void)state;
	make_tree(&t);
	assert_int_equal(rootfs_unlink(t.root, "inside/to_file"), -ELOOP);
	assert_int_equal(rootfs_rename(t.root, "inside/secret", "inside/to_file"), -ELOOP);
	assert_int_equal(rootfs_lstat(t.root, "inside/to_file", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(rootfs_stat(t.root, "inside/to_file", &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(rootfs_mkdir(t.root, "abs_out/new", 0700), -ENOENT);
	assert_int_equal(rootfs_mkdir(t.root, "abs_out", 0700), -EEXIST);
	assert_int_equal(rootfs_rmdir(t.root, "abs_out"), -ENOTDIR);
	assert_int_equal(rootfs_unlink(t.root, "abs_out/secret"), -ENOENT);
	assert_int_equal(rootfs_unlink(t.root, "climb_out/secret"), -ENOENT);
	assert_int_equal(rootfs_rename(t.root, "inside/secret", "abs_in/moved"), 0);
	assert_int_equal(rootfs_stat(t.root, "inside/moved", &st), 0);
	assert_int_equal(rootfs_unlink(t.root, "climb/moved"), 0);
	assert_int_equal(rootfs_stat(t.root, "inside/moved", &st), -ENOENT);
	expect_outside_untouched(&t);
	discard_tree(&t);
}

static void test_list_is_sorted_and_inside(void **state)
{
	struct tree t;
	char **names;
	size_t count;

	(void)state;
	make_tree(&t);
	put(t.root, "inside/file10", "");
	put(t.root, "inside/file2", "");
	assert_int_equal(rootfs_list(t.root, "abs_in", &names, &count), 0);
	assert_int_equal(count, 6);
	assert_string_equal(names[0], "chain");
	assert_string_equal(names[1], "file");
	assert_string_equal(names[2], "file2");
	assert_string_equal(names[3], "file10");
	rk_names_free(names, count);
	assert_int_equal(rootfs_list(t.root, "abs_out", &names, &count), -ENOENT);
	assert_int_equal(count, 0);
	discard_tree(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_openat2_and_the_walk_agree_and_stay_inside),
	    cmocka_unit_test(test_create_through_an_absolute_link_stays_inside),
	    cmocka_unit_test(test_changes_refuse_links_and_stay_inside),
	    cmocka_unit_test(test_list_is_sorted_and_inside),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
