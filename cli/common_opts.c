/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool cli_common_option(struct cli_common *common, int opt, const char *arg)
{
	switch (opt) {
	case OPT_SYSFS_ROOT:
		common->sysfs_root = arg;
		return true;
	case OPT_JSON:
		common->json = true;
		return true;
	default:
		return false;
	}
}

static bool parse_double(const char *option, const char *text, double *out)
{
	char *end;
	double value;

	errno = 0;
	value = strtod(text, &end);
	if (end == text || *end != '\0' || errno != 0 || !isfinite(value)) {
		fprintf(stderr, "rdmakit: %s: not a number: \"%s\"\n", option, text);
		return false;
	}
	*out = value;
	return true;
}

bool cli_parse_seconds(const char *option, const char *text, double *out)
{
	if (!parse_double(option, text, out))
		return false;
	if (*out < 0 || *out > 86400) {
		fprintf(stderr, "rdmakit: %s: %s is out of range (0 to 86400 seconds)\n", option,
			text);
		return false;
	}
	return true;
}

bool cli_parse_positive(const char *option, const char *text, double *out)
{
	if (!parse_double(option, text, out))
		return false;
	if (*out <= 0) {
		fprintf(stderr, "rdmakit: %s: must be above 0, got %s\n", option, text);
		return false;
	}
	return true;
}

bool cli_parse_count(const char *option, const char *text, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long value;

	errno = 0;
	value = strtoul(text, &end, 10);
	if (end == text || *end != '\0' || errno != 0 || text[0] == '-' || value == 0 ||
	    value > max) {
		fprintf(stderr, "rdmakit: %s: expected a whole number from 1 to %lu, got \"%s\"\n",
			option, max, text);
		return false;
	}
	*out = value;
	return true;
}

struct rk_host *cli_open_host(const struct cli_common *common)
{
	struct rk_host *host;
	int err = rk_host_open(common->sysfs_root ? common->sysfs_root : "/sys", &host);

	if (err) {
		fprintf(stderr, "rdmakit: cannot read RDMA devices under %s: %s\n",
			common->sysfs_root ? common->sysfs_root : "/sys", strerror(-err));
		return NULL;
	}
	rk_host_refresh(host);
	return host;
}

void cli_sleep(double seconds)
{
	struct timespec left = {.tv_sec = (time_t)seconds,
				.tv_nsec = (long)((seconds - floor(seconds)) * 1e9)};

	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "rdmakit %s: ", command);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fprintf(stderr, "\nTry 'rdmakit %s --help'.\n", command);
	return EXIT_TROUBLE;
}

bool cli_parse_port_filter(const char *text, struct port_filter *filter)
{
	static char device[64];
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text);
	unsigned port = 0;

	if (len == 0 || len >= sizeof(device) ||
	    (colon && rk_parse_port_number(colon + 1, &port) != 0)) {
		fprintf(stderr, "rdmakit: \"%s\": expected DEVICE or DEVICE:PORT (e.g. mlx5_0:1)\n",
			text);
		return false;
	}
	memcpy(device, text, len);
	device[len] = '\0';
	filter->device = device;
	filter->one_port = colon != NULL;
	filter->port = port;
	return true;
}

bool cli_filter_exists(struct rk_host *host, const struct port_filter *filter)
{
	struct rk_device *dev;

	if (!filter->device)
		return true;
	dev = rk_host_find_device(host, filter->device);
	if (!dev) {
		fprintf(stderr, "rdmakit: no RDMA device named %s\n", filter->device);
		return false;
	}
	for (unsigned p = 0; p < dev->nports && filter->one_port; p++)
		if (dev->ports[p].num == filter->port)
			return true;
	if (filter->one_port)
		fprintf(stderr, "rdmakit: %s has no port %u\n", filter->device, filter->port);
	return !filter->one_port;
}

int cli_mad_option(struct cli_mad *mad, int opt, const char *arg)
{
	unsigned long value;

	switch (opt) {
	case 'C':
		mad->ca = arg;
		return 1;
	case 'P':
		if (!cli_parse_count("-P", arg, 254, &value))
			return -1;
		mad->port = (int)value;
		return 1;
	case OPT_TIMEOUT:
		if (!cli_parse_count("--timeout", arg, 60000, &value))
			return -1;
		mad->timeout_ms = (unsigned)value;
		return 1;
	case OPT_WINDOW:
		if (!cli_parse_count("--window", arg, 1024, &value))
			return -1;
		mad->window = (unsigned)value;
		return 1;
	case OPT_NODE_NAME_MAP:
		mad->node_name_map = arg;
		return 1;
	default:
		return 0;
	}
}

bool cli_load_name_map(const struct cli_mad *mad, struct rk_name_map **map)
{
	*map = NULL;
	return !mad->node_name_map || rk_name_map_load(mad->node_name_map, map) == 0;
}

void cli_monitor_options(const struct cli_mad *mad, const struct rk_name_map *names, bool watching,
			 struct rk_monitor_options *options)
{
	rk_monitor_options_set(options, mad->ca, mad->port, mad->window, mad->timeout_ms, names);
	options->discover_in_helper = watching;
}
