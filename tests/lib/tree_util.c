/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "tree_util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int copy_file(const char *src, const char *dst)
{
	char buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	int out =
	    in >= 0 ? open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644) : -1;
	ssize_t n = out >= 0 ? 1 : -1;

	while (n > 0 && (n = read(in, buf, sizeof(buf))) > 0)
		n = write(out, buf, (size_t)n) == n ? 1 : -1;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return n == 0 ? 0 : -1;
}

/* nftw passes no context: the copy in progress. */
static const char *copy_src, *copy_dst;
static int copy_failed;

static int copy_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char target[4096], link[4096];
	ssize_t n;

	(void)ftw;
	snprintf(target, sizeof(target), "%s%s", copy_dst, path + strlen(copy_src));
	if (type == FTW_D)
		copy_failed |= mkdir(target, 0755) != 0 && errno != EEXIST;
	else if (type == FTW_SL && (n = readlink(path, link, sizeof(link) - 1)) > 0) {
		link[n] = '\0';
		copy_failed |= symlink(link, target) != 0;
	} else if (type == FTW_F && S_ISREG(st->st_mode))
		copy_failed |= copy_file(path, target) != 0;
	else
		copy_failed = 1;
	return copy_failed;
}

int copy_tree(const char *src, const char *dst)
{
	copy_src = src;
	copy_dst = dst;
	copy_failed = 0;
	return nftw(src, copy_entry, 16, FTW_PHYS) == 0 && !copy_failed ? 0 : -1;
}

static int remove_below(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

void empty_tree(const char *dir)
{
	nftw(dir, remove_below, 16, FTW_DEPTH | FTW_PHYS);
}

void remove_tree(const char *path)
{
	empty_tree(path);
	remove(path);
}
