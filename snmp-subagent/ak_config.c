/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "ak_config.h"

#include "rdmakit/host.h"
#include "rdmakit/limits.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ak_config_defaults(struct ak_config *config)
{
	memset(config, 0, sizeof(*config));
	config->sysfs_root = strdup("/sys");
	config->refresh = AK_DEFAULT_REFRESH;
	config->fabric_interval = AK_DEFAULT_FABRIC_INTERVAL;
	config->rediscover = AK_DEFAULT_REDISCOVER;
	config->probe.interval = RK_PROBE_INTERVAL_DEFAULT_S;
	config->tune_interval = RK_TUNE_INTERVAL_DEFAULT_S;
}

void ak_config_free(struct ak_config *config)
{
	free(config->agentx_socket);
	free(config->sysfs_root);
	free(config->pidfile);
	free(config->user);
	free(config->ca);
	free(config->node_name_map);
	free(config->tune_root);
	memset(config, 0, sizeof(*config));
}

static int set_text(char **field, const char *value, char *why, size_t why_size)
{
	char *copy;

	if (!*value) {
		snprintf(why, why_size, "expected a value");
		return -EINVAL;
	}
	copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	free(*field);
	*field = copy;
	return 0;
}

static int set_number(double *field, const char *value, double min, double max, bool whole,
		      char *why, size_t why_size)
{
	char *end;
	double number;

	errno = 0;
	number = strtod(value, &end);
	if (errno || end == value || *end || !(number >= min && number <= max) ||
	    (whole && number != floor(number))) {
		snprintf(why, why_size, "\"%s\" is not a %s from %g to %g", value,
			 whole ? "whole number" : "number", min, max);
		return -EINVAL;
	}
	*field = number;
	return 0;
}

static int set_bool(bool *field, const char *value, char *why, size_t why_size)
{
	if (strcmp(value, "yes") == 0 || strcmp(value, "true") == 0) {
		*field = true;
		return 0;
	}
	if (strcmp(value, "no") == 0 || strcmp(value, "false") == 0) {
		*field = false;
		return 0;
	}
	snprintf(why, why_size, "\"%s\" is not yes or no", value);
	return -EINVAL;
}

static int set_whole(unsigned *field, const char *value, double min, double max, char *why,
		     size_t why_size)
{
	double number;
	int err = set_number(&number, value, min, max, true, why, why_size);

	if (!err)
		*field = (unsigned)number;
	return err;
}

/* A setting whose range is the core's (rdmakit/limits.h). */
static int set_setting(double *field, enum rk_setting setting, const char *value, char *why,
		       size_t why_size)
{
	char expected[128];

	if (rk_limit_parse(setting, value, field, expected, sizeof(expected)) == 0)
		return 0;
	snprintf(why, why_size, "\"%s\": %s", value, expected);
	return -EINVAL;
}

static int set_ca_port(int *field, const char *value, char *why, size_t why_size)
{
	unsigned port;

	if (rk_parse_port_number(value, &port) != 0 || port == 0) {
		snprintf(why, why_size, "\"%s\" is not a port number from 1 to %d", value,
			 RK_PORT_NUM_MAX);
		return -EINVAL;
	}
	*field = (int)port;
	return 0;
}

static int set_directory(char **field, const char *value, char *why, size_t why_size)
{
	struct stat st;

	if (value[0] != '/' || stat(value, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, why_size, "\"%s\" is not the absolute path of an existing directory",
			 value);
		return -EINVAL;
	}
	return set_text(field, value, why, why_size);
}

static int set_profile(const struct rk_tune_profile **field, const char *value, char *why,
		       size_t why_size)
{
	const struct rk_tune_profile *profile = rk_tune_profile_find(value);

	if (!profile) {
		snprintf(why, why_size, "\"%s\" is not latency or throughput", value);
		return -EINVAL;
	}
	*field = profile;
	return 0;
}

/* Tune mode's settings, as the collectd plugin's Tune options take them. */
static int set_tune_setting(struct ak_config *config, const char *key, const char *value, char *why,
			    size_t why_size)
{
	if (strcmp(key, "tune") == 0)
		return set_bool(&config->tune, value, why, why_size);
	if (strcmp(key, "tune-interval") == 0)
		return set_setting(&config->tune_interval, RK_SETTING_TUNE_INTERVAL, value, why,
				   why_size);
	if (strcmp(key, "tune-root") == 0)
		return set_directory(&config->tune_root, value, why, why_size);
	if (strcmp(key, "tune-profile") == 0)
		return set_profile(&config->tune_profile, value, why, why_size);
	snprintf(why, why_size, "unknown setting \"%s\"", key);
	return -EINVAL;
}

/* The fabric and SM settings, as the CLI and the collectd plugin take them. */
static int set_fabric_setting(struct ak_config *config, const char *key, const char *value,
			      char *why, size_t why_size)
{
	if (strcmp(key, "fabric") == 0)
		return set_bool(&config->fabric, value, why, why_size);
	if (strcmp(key, "sm") == 0)
		return set_bool(&config->sm, value, why, why_size);
	if (strcmp(key, "ca") == 0)
		return set_text(&config->ca, value, why, why_size);
	if (strcmp(key, "ca-port") == 0)
		return set_ca_port(&config->ca_port, value, why, why_size);
	if (strcmp(key, "node-name-map") == 0)
		return set_text(&config->node_name_map, value, why, why_size);
	if (strcmp(key, "window") == 0)
		return set_whole(&config->window, value, 1, 4096, why, why_size);
	if (strcmp(key, "timeout") == 0)
		return set_whole(&config->timeout_ms, value, 1, 60000, why, why_size);
	if (strcmp(key, "fabric-interval") == 0)
		return set_number(&config->fabric_interval, value, 1, 86400, false, why, why_size);
	if (strcmp(key, "rediscover") == 0)
		return set_number(&config->rediscover, value, 0, 86400, false, why, why_size);
	return set_tune_setting(config, key, value, why, why_size);
}

int ak_config_set(struct ak_config *config, const char *key, const char *value, char *why,
		  size_t why_size)
{
	if (strcmp(key, "agentx-socket") == 0)
		return set_text(&config->agentx_socket, value, why, why_size);
	if (strcmp(key, "sysfs-root") == 0)
		return set_text(&config->sysfs_root, value, why, why_size);
	if (strcmp(key, "pidfile") == 0)
		return set_text(&config->pidfile, value, why, why_size);
	if (strcmp(key, "user") == 0)
		return set_text(&config->user, value, why, why_size);
	if (strcmp(key, "refresh") == 0)
		return set_number(&config->refresh, value, 0.1, 3600, false, why, why_size);
	if (strcmp(key, "expect-rate") == 0)
		return set_number(&config->expect_rate_gbps, value, 0, 10000, false, why, why_size);
	if (strcmp(key, "probe") == 0)
		return set_bool(&config->probe.enabled, value, why, why_size);
	if (strcmp(key, "probe-interval") == 0)
		return set_setting(&config->probe.interval, RK_SETTING_PROBE_INTERVAL, value, why,
				   why_size);
	return set_fabric_setting(config, key, value, why, why_size);
}

/* Split "key value # comment" in place; *key is "" for a blank or comment line. */
static void split_line(char *line, char **key, char **value)
{
	char *hash = strchr(line, '#');
	char *end;

	if (hash)
		*hash = '\0';
	while (isspace((unsigned char)*line))
		line++;
	end = line + strlen(line);
	while (end > line && isspace((unsigned char)end[-1]))
		*--end = '\0';
	*key = line;
	while (*line && !isspace((unsigned char)*line))
		line++;
	if (*line)
		*line++ = '\0';
	while (isspace((unsigned char)*line))
		line++;
	*value = line;
}

static int read_lines(FILE *file, const char *path, struct ak_config *config, FILE *err)
{
	char line[1024], why[256];
	unsigned lineno = 0;
	int status = 0;

	while (fgets(line, sizeof(line), file)) {
		char *key, *value;

		lineno++;
		if (!strchr(line, '\n') && !feof(file)) {
			fprintf(err, "%s:%u: line longer than %zu characters\n", path, lineno,
				sizeof(line) - 2);
			return -EINVAL;
		}
		split_line(line, &key, &value);
		if (!*key)
			continue;
		if (ak_config_set(config, key, value, why, sizeof(why)) != 0) {
			fprintf(err, "%s:%u: %s: %s\n", path, lineno, key, why);
			status = -EINVAL;
		}
	}
	if (ferror(file)) {
		fprintf(err, "%s: %s\n", path, strerror(errno));
		return -EIO;
	}
	return status;
}

/* Open a regular file without blocking on a FIFO; -errno, or -EINVAL for other kinds. */
static int open_regular(const char *path, FILE **out)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	int err;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		close(fd);
		return err;
	}
	*out = fdopen(fd, "r");
	if (!*out) {
		err = -errno;
		close(fd);
		return err;
	}
	return 0;
}

int ak_config_read(const char *path, bool missing_ok, struct ak_config *config, FILE *err)
{
	FILE *file;
	int status = open_regular(path, &file);

	if (status) {
		if (status == -ENOENT && missing_ok)
			return 0;
		fprintf(err, "%s: %s\n", path,
			status == -EINVAL ? "not a regular file" : strerror(-status));
		return status;
	}
	status = read_lines(file, path, config, err);
	fclose(file);
	return status;
}
