/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A cancel token: raised once by one thread, it ends the waits (MAD runs, the discovery
 * helper) of another, which poll its descriptor alongside their own. */
#ifndef RDMAKIT_CANCEL_H
#define RDMAKIT_CANCEL_H

#include <stdatomic.h>
#include <stdbool.h>

struct rk_cancel {
	int fds[2];	    /* a pipe: the read end turns readable, for good, when raised */
	atomic_bool raised; /* what a wait that woke up checks (a preloaded shim's poll may
			       report descriptors that are not ready) */
};

/** A token not yet raised; -errno. */
int rk_cancel_init(struct rk_cancel *cancel);

/** Raise it: every wait polling its descriptor ends (safe from any thread, more than once). */
void rk_cancel_raise(struct rk_cancel *cancel);

/** True once raised; false for NULL. A wait that polled the descriptor confirms with this. */
bool rk_cancel_raised(const struct rk_cancel *cancel);

/** The descriptor to poll for POLLIN (-1 for NULL: poll ignores it). */
int rk_cancel_fd(const struct rk_cancel *cancel);

/** Close the token's descriptors. */
void rk_cancel_destroy(struct rk_cancel *cancel);

#endif
