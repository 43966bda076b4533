/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/cancel.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int rk_cancel_init(struct rk_cancel *cancel)
{
	atomic_init(&cancel->raised, false);
	if (pipe2(cancel->fds, O_CLOEXEC | O_NONBLOCK) != 0) {
		cancel->fds[0] = cancel->fds[1] = -1;
		return -errno;
	}
	return 0;
}

void rk_cancel_raise(struct rk_cancel *cancel)
{
	char byte = 1;
	/* One byte is enough: nobody reads it, so the read end stays readable. A full pipe
	 * (EAGAIN) means it is raised already. */
	ssize_t written;

	atomic_store(&cancel->raised, true);
	written = write(cancel->fds[1], &byte, 1);
	(void)written;
}

bool rk_cancel_raised(const struct rk_cancel *cancel)
{
	return cancel && atomic_load(&cancel->raised);
}

int rk_cancel_fd(const struct rk_cancel *cancel)
{
	return cancel ? cancel->fds[0] : -1;
}

void rk_cancel_destroy(struct rk_cancel *cancel)
{
	for (int i = 0; i < 2; i++)
		if (cancel->fds[i] >= 0)
			close(cancel->fds[i]);
	cancel->fds[0] = cancel->fds[1] = -1;
}
