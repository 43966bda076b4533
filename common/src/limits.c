/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/limits.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct rk_limit limits[RK_SETTING_COUNT] = {
    [RK_SETTING_WINDOW] = {1, 4096, true, "whole number", NULL},
    [RK_SETTING_TIMEOUT_MS] = {1, 60000, true, "whole number of milliseconds", NULL},
    [RK_SETTING_RETRIES] = {0, 100, true, "whole number", NULL},
    [RK_SETTING_REDISCOVER_S] = {0, 604800, false, "number of seconds", "never"},
    [RK_SETTING_INTERVAL_S] = {0, 86400, false, "number of seconds", NULL},
    [RK_SETTING_FABRIC_INTERVAL] = {0.001, 86400, false, "number of seconds", NULL},
    [RK_SETTING_HELPER_DEADLINE] = {1, 86400, true, "whole number of seconds", NULL},
    [RK_SETTING_CA_PORT] = {1, 254, true, "port number", NULL},
    [RK_SETTING_TUNE_INTERVAL] = {1, 604800, false, "number of seconds", NULL},
    [RK_SETTING_PROBE_INTERVAL] = {1, 86400, false, "number of seconds", NULL},
    [RK_SETTING_RESCAN_S] = {0, 86400, false, "number of seconds", "at every read"},
    [RK_SETTING_ROUTES_INTERVAL] = {1, 604800, false, "number of seconds", NULL},
    [RK_SETTING_CONGESTION_PCT] = {0.01, 100, false, "percentage", NULL},
    [RK_SETTING_XMIT_WAIT_TICK] = {0.001, 1000000, false, "number of nanoseconds", NULL},
    [RK_SETTING_UNREACHABLE_HOLD] = {0, 86400, false, "number of seconds", "drop at once"},
    [RK_SETTING_FLAP_DOWNS] = {2, 100, true, "whole number of downs", NULL},
    [RK_SETTING_FLAP_WINDOW] = {1, 86400, false, "number of seconds", NULL},
    [RK_SETTING_FLAP_STABLE] = {1, 86400, false, "number of seconds", NULL},
    [RK_SETTING_FABRIC_PRIORITY] = {0, 255, true, "whole number", NULL},
    [RK_SETTING_WATCHER_LEASE] = {6, 3600, false, "number of seconds", NULL},
    [RK_SETTING_AUDIT_INTERVAL] = {1, 604800, false, "number of seconds", NULL},
};

const struct rk_limit *rk_limit_get(enum rk_setting setting)
{
	return (unsigned)setting < RK_SETTING_COUNT ? &limits[setting] : NULL;
}

static void describe(const struct rk_limit *limit, char *msg, size_t size)
{
	if (limit->zero && limit->min == 0)
		snprintf(msg, size, "expected a %s from 0 (%s) to %.15g", limit->noun, limit->zero,
			 limit->max);
	else
		snprintf(msg, size, "expected a %s from %.15g to %.15g", limit->noun, limit->min,
			 limit->max);
}

int rk_limit_check(enum rk_setting setting, double value, char *msg, size_t size)
{
	const struct rk_limit *limit = rk_limit_get(setting);

	if (!limit) {
		snprintf(msg, size, "unknown setting %d", (int)setting);
		return -EINVAL;
	}
	/* NaN fails both comparisons; inf fails the upper one */
	if (value >= limit->min && value <= limit->max && (!limit->whole || value == floor(value)))
		return 0;
	describe(limit, msg, size);
	return -ERANGE;
}

/* Decimal only: no hex, "nan", "inf" or spaces, which strtod alone would take. */
static bool parse_decimal(const char *text, double *out)
{
	char *end;

	if (!text[0] || strspn(text, "0123456789.eE+-") != strlen(text))
		return false;
	errno = 0;
	*out = strtod(text, &end);
	return *end == '\0' && errno == 0;
}

int rk_limit_parse(enum rk_setting setting, const char *text, double *out, char *msg, size_t size)
{
	double value;
	int err;

	if (!parse_decimal(text, &value)) {
		err = rk_limit_check(setting, NAN, msg, size);
		return err == -ERANGE ? -EINVAL : err;
	}
	err = rk_limit_check(setting, value, msg, size);
	if (!err)
		*out = value;
	return err;
}
