/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The core's log lines and a config's errors in net-snmp's log. */
#include "ak_log.h"

#include <net-snmp/net-snmp-config.h>

#include <net-snmp/net-snmp-includes.h>

#include <string.h>

void ak_log_to_snmp(enum rk_log_level level, const char *message, void *ctx)
{
	static const int priorities[] = {LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG};
	const struct ak_log_route *route = ctx;

	if (pthread_equal(pthread_self(), route->snmp_thread))
		snmp_log(priorities[level], "%s%s\n", route->prefix, message);
	else
		ak_mailbox_post_log(route->mailbox, level, message);
}

void ak_log_error_lines(const char *prefix, const char *text)
{
	const char *line = text, *end;

	while (line && *line) {
		end = strchr(line, '\n');
		snmp_log(LOG_ERR, "%s%.*s\n", prefix, end ? (int)(end - line) : (int)strlen(line),
			 line);
		line = end ? end + 1 : NULL;
	}
}
