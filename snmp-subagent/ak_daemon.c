/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Becoming a daemon: the PID file, and running as an unprivileged user. */
#include "ak_daemon.h"

#include "rdmakit/log.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int ak_write_pidfile(const char *path)
{
	char text[32];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	int len = snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, (size_t)len) != len)
		err = -EIO;
	if (close(fd) != 0 && !err)
		err = -errno;
	return err;
}

int ak_drop_privileges(const char *user)
{
	struct passwd *pw;

	errno = 0;
	pw = getpwnam(user);
	if (!pw)
		return errno ? -errno : -ENOENT;
	if (initgroups(pw->pw_name, pw->pw_gid) != 0 || setgid(pw->pw_gid) != 0 ||
	    setuid(pw->pw_uid) != 0)
		return -errno;
	if (setuid(0) == 0 && pw->pw_uid != 0) {
		rk_log(RK_LOG_ERR, "could still become root after switching to %s", user);
		return -EPERM;
	}
	return 0;
}
