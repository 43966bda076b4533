/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/log.h"

#include <stdarg.h>
#include <stdio.h>

static rk_log_fn log_handler;
static void *log_ctx;
static enum rk_log_level log_max_level = RK_LOG_INFO;

static const char *level_prefix(enum rk_log_level level)
{
	switch (level) {
	case RK_LOG_ERR:
		return "error";
	case RK_LOG_WARNING:
		return "warning";
	case RK_LOG_INFO:
		return "info";
	default:
		return "debug";
	}
}

void rk_log_set_handler(rk_log_fn fn, void *ctx)
{
	log_handler = fn;
	log_ctx = ctx;
}

void rk_log_set_level(enum rk_log_level level)
{
	log_max_level = level;
}

void rk_log(enum rk_log_level level, const char *fmt, ...)
{
	char message[512];
	va_list args;

	if (level > log_max_level)
		return;
	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	if (log_handler)
		log_handler(level, message, log_ctx);
	else
		fprintf(stderr, "rdmakit: %s: %s\n", level_prefix(level), message);
}
