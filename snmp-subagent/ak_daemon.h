/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Becoming a daemon: the PID file and running as an unprivileged user. */
#ifndef AK_DAEMON_H
#define AK_DAEMON_H

/** Write the process's PID to path (replacing it); -errno. */
int ak_write_pidfile(const char *path);

/** Run as user from now on (its groups too); -errno, -ENOENT for an unknown user. */
int ak_drop_privileges(const char *user);

#endif
