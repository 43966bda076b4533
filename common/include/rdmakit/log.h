/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The core's one logging hook: front ends route messages to their own logger. */
#ifndef RDMAKIT_LOG_H
#define RDMAKIT_LOG_H

enum rk_log_level {
	RK_LOG_ERR,
	RK_LOG_WARNING,
	RK_LOG_INFO,
	RK_LOG_DEBUG,
};

typedef void (*rk_log_fn)(enum rk_log_level level, const char *message, void *ctx);

/** Route every core message to fn (NULL restores the default: stderr). */
void rk_log_set_handler(rk_log_fn fn, void *ctx);

/** Drop messages less important than level (default RK_LOG_INFO). */
void rk_log_set_level(enum rk_log_level level);

/** Format a message and hand it to the installed handler. */
void rk_log(enum rk_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
