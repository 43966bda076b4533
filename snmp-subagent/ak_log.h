/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The core's log lines and a config's error lines in net-snmp's log, for the subagent and the
 * dlmod alike. */
#ifndef AK_LOG_H
#define AK_LOG_H

#include "ak_mailbox.h"

#include "rdmakit/log.h"

#include <pthread.h>

/* Where the core's log lines go: net-snmp's log from its own thread, else the mailbox. */
struct ak_log_route {
	pthread_t snmp_thread; /* the thread that runs net-snmp */
	struct ak_mailbox *mailbox;
	const char *prefix; /* put before each line logged here ("" for none) */
};

/** An rk_log handler (ctx: a struct ak_log_route): logs on net-snmp's thread, posts the line
 * to the mailbox from any other. */
void ak_log_to_snmp(enum rk_log_level level, const char *message, void *ctx);

/** Each line of text (a config's errors, "FILE:LINE: key: why") as a LOG_ERR line of
 * net-snmp's log after prefix. */
void ak_log_error_lines(const char *prefix, const char *text);

#endif
