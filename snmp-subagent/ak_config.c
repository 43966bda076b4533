/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit-agentx's settings: the config file's keys and the options. */
#include "ak_config.h"

#include "rdmakit/file.h"
#include "rdmakit/limits.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void ak_config_defaults(struct ak_config *config)
{
	memset(config, 0, sizeof(*config));
	config->sysfs_root = strdup("/sys");
	config->refresh = AK_DEFAULT_REFRESH;
	config->fabric_interval = AK_DEFAULT_FABRIC_INTERVAL;
	config->rediscover = AK_DEFAULT_REDISCOVER;
	config->unreachable_hold = RK_UNREACHABLE_HOLD_DEFAULT_S;
	config->probe.interval = RK_PROBE_INTERVAL_DEFAULT_S;
	config->tune_interval = RK_TUNE_INTERVAL_DEFAULT_S;
	config->routes_interval = RK_ROUTES_INTERVAL_DEFAULT_S;
	config->audit_interval = RK_AUDIT_INTERVAL_DEFAULT_S;
	config->events = true;
	config->lease = RK_WATCHER_LEASE_DEFAULT_S;
	rk_flap_settings_defaults(&config->flap);
}

void ak_config_free(struct ak_config *config)
{
	free(config->agentx_socket);
	free(config->sysfs_root);
	free(config->pidfile);
	free(config->state_dir);
	free(config->user);
	free(config->ca);
	free(config->node_name_map);
	free(config->plan);
	free(config->audit_partitions);
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

/* How a key's value is read into its field of struct ak_config. */
enum key_kind {
	KEY_TEXT,	    /* char *: any text but "" */
	KEY_DIRECTORY,	    /* char *: the absolute path of an existing directory */
	KEY_FILE,	    /* char *: a regular file that can be opened for reading */
	KEY_BOOL,	    /* bool: yes, true, no or false */
	KEY_NUMBER,	    /* double from .min to .max: the subagent's own settings */
	KEY_LIMIT,	    /* double in the core's range of .setting */
	KEY_LIMIT_UNSIGNED, /* unsigned in the core's range of .setting */
	KEY_LIMIT_INT,	    /* int in the core's range of .setting */
	KEY_PROFILE,	    /* const struct rk_tune_profile *: latency or throughput */
	KEY_ROLE,	    /* enum rk_role_setting: auto, active or standby */
};

/* One setting of the file (and of the option that stands for it). */
struct ak_key {
	const char *name;
	enum key_kind kind;
	size_t offset;		 /* of its field in struct ak_config */
	enum rk_setting setting; /* the range of a KEY_LIMIT* */
	double min, max;	 /* the range of a KEY_NUMBER */
};

/* The name, kind and field of a key (designated, so that the other members are 0). */
#define KEY(key_name, key_kind, member)                                                            \
	.name = key_name, .kind = key_kind, .offset = offsetof(struct ak_config, member)

/* The fabric, SM, probe and tune settings are the collectd plugin's (and the CLI's): the same
 * ranges and messages, from rdmakit/limits.h. */
static const struct ak_key keys[] = {
    {KEY("agentx-socket", KEY_TEXT, agentx_socket)},
    {KEY("sysfs-root", KEY_TEXT, sysfs_root)},
    {KEY("pidfile", KEY_TEXT, pidfile)},
    {KEY("user", KEY_TEXT, user)},
    {KEY("state-dir", KEY_TEXT, state_dir)},
    {KEY("refresh", KEY_NUMBER, refresh), .min = 0.1, .max = 3600},
    {KEY("expect-rate", KEY_NUMBER, expect_rate_gbps), .min = 0, .max = 10000},
    {KEY("probe", KEY_BOOL, probe.enabled)},
    {KEY("probe-interval", KEY_LIMIT, probe.interval), .setting = RK_SETTING_PROBE_INTERVAL},
    {KEY("fabric", KEY_BOOL, fabric)},
    {KEY("sm", KEY_BOOL, sm)},
    {KEY("ca", KEY_TEXT, ca)},
    {KEY("ca-port", KEY_LIMIT_INT, ca_port), .setting = RK_SETTING_CA_PORT},
    {KEY("node-name-map", KEY_TEXT, node_name_map)},
    {KEY("expect", KEY_FILE, plan)},
    {KEY("window", KEY_LIMIT_UNSIGNED, window), .setting = RK_SETTING_WINDOW},
    {KEY("timeout", KEY_LIMIT_UNSIGNED, timeout_ms), .setting = RK_SETTING_TIMEOUT_MS},
    {KEY("fabric-interval", KEY_LIMIT, fabric_interval), .setting = RK_SETTING_FABRIC_INTERVAL},
    {KEY("rediscover", KEY_LIMIT, rediscover), .setting = RK_SETTING_REDISCOVER_S},
    {KEY("unreachable-hold", KEY_LIMIT, unreachable_hold), .setting = RK_SETTING_UNREACHABLE_HOLD},
    {KEY("discovery-deadline", KEY_LIMIT_UNSIGNED, discovery_deadline),
     .setting = RK_SETTING_HELPER_DEADLINE},
    {KEY("routes", KEY_BOOL, routes)},
    {KEY("routes-interval", KEY_LIMIT, routes_interval), .setting = RK_SETTING_ROUTES_INTERVAL},
    {KEY("audit", KEY_BOOL, audit)},
    {KEY("audit-interval", KEY_LIMIT, audit_interval), .setting = RK_SETTING_AUDIT_INTERVAL},
    {KEY("audit-partitions", KEY_FILE, audit_partitions)},
    {KEY("congestion-threshold", KEY_LIMIT, congestion.threshold),
     .setting = RK_SETTING_CONGESTION_PCT},
    {KEY("xmit-wait-tick", KEY_LIMIT, congestion.tick_ns), .setting = RK_SETTING_XMIT_WAIT_TICK},
    {KEY("events", KEY_BOOL, events)},
    {KEY("flap-downs", KEY_LIMIT_UNSIGNED, flap.downs), .setting = RK_SETTING_FLAP_DOWNS},
    {KEY("flap-window", KEY_LIMIT, flap.window_s), .setting = RK_SETTING_FLAP_WINDOW},
    {KEY("flap-stable", KEY_LIMIT, flap.stable_s), .setting = RK_SETTING_FLAP_STABLE},
    {KEY("fabric-role", KEY_ROLE, role)},
    {KEY("fabric-priority", KEY_LIMIT_UNSIGNED, priority), .setting = RK_SETTING_FABRIC_PRIORITY},
    {KEY("fabric-lease", KEY_LIMIT, lease), .setting = RK_SETTING_WATCHER_LEASE},
    {KEY("tune", KEY_BOOL, tune)},
    {KEY("tune-interval", KEY_LIMIT, tune_interval), .setting = RK_SETTING_TUNE_INTERVAL},
    {KEY("tune-root", KEY_DIRECTORY, tune_root)},
    {KEY("tune-profile", KEY_PROFILE, tune_profile)},
};

static int set_number(double *field, const char *value, double min, double max, char *why,
		      size_t why_size)
{
	char *end;
	double number;

	errno = 0;
	number = strtod(value, &end);
	if (errno || end == value || *end || !(number >= min && number <= max)) {
		snprintf(why, why_size, "\"%s\" is not a number from %g to %g", value, min, max);
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

/* A file the engine reads later (a regular file, never a FIFO): here it has to be readable. */
static int set_file(char **field, const char *value, char *why, size_t why_size)
{
	int err = 0;
	FILE *file = *value ? rk_file_open_regular(value, &err) : NULL;

	if (err) {
		snprintf(why, why_size, "\"%s\": cannot read it: %s", value, rk_sysfs_error(err));
		return -EINVAL;
	}
	if (file)
		fclose(file);
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

/* A KEY_LIMIT* value: rk_limit_parse, the core's message after the value, and the number in
 * the field's type (the ranges of the whole-number kinds are whole). */
static int set_limit(const struct ak_key *key, void *field, const char *value, char *why,
		     size_t why_size)
{
	char expected[128];
	double number;

	if (rk_limit_parse(key->setting, value, &number, expected, sizeof(expected)) != 0) {
		snprintf(why, why_size, "\"%s\": %s", value, expected);
		return -EINVAL;
	}
	if (key->kind == KEY_LIMIT_UNSIGNED)
		*(unsigned *)field = (unsigned)number;
	else if (key->kind == KEY_LIMIT_INT)
		*(int *)field = (int)number;
	else
		*(double *)field = number;
	return 0;
}

static int apply_key(const struct ak_key *key, struct ak_config *config, const char *value,
		     char *why, size_t why_size)
{
	void *field = (char *)config + key->offset;

	switch (key->kind) {
	case KEY_TEXT:
		return set_text(field, value, why, why_size);
	case KEY_DIRECTORY:
		return set_directory(field, value, why, why_size);
	case KEY_FILE:
		return set_file(field, value, why, why_size);
	case KEY_BOOL:
		return set_bool(field, value, why, why_size);
	case KEY_NUMBER:
		return set_number(field, value, key->min, key->max, why, why_size);
	case KEY_PROFILE:
		return set_profile(field, value, why, why_size);
	case KEY_ROLE:
		if (rk_role_setting_parse(value, field) == 0)
			return 0;
		snprintf(why, why_size, "\"%s\": expected auto, active or standby", value);
		return -EINVAL;
	default:
		return set_limit(key, field, value, why, why_size);
	}
}

int ak_config_set(struct ak_config *config, const char *key, const char *value, char *why,
		  size_t why_size)
{
	if (strcmp(key, "unreachableHold") == 0)
		key = "unreachable-hold"; /* its first spelling, unlike every other key's */
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(key, keys[i].name) == 0)
			return apply_key(&keys[i], config, value, why, why_size);
	snprintf(why, why_size, "unknown setting \"%s\"", key);
	return -EINVAL;
}

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same_value(const struct ak_key *key, const struct ak_config *a,
		       const struct ak_config *b)
{
	const void *x = (const char *)a + key->offset, *y = (const char *)b + key->offset;

	switch (key->kind) {
	case KEY_TEXT:
	case KEY_DIRECTORY:
	case KEY_FILE:
		return same_text(*(char *const *)x, *(char *const *)y);
	case KEY_BOOL:
		return *(const bool *)x == *(const bool *)y;
	case KEY_LIMIT_UNSIGNED:
		return *(const unsigned *)x == *(const unsigned *)y;
	case KEY_LIMIT_INT:
		return *(const int *)x == *(const int *)y;
	case KEY_PROFILE:
		return *(const struct rk_tune_profile *const *)x ==
		       *(const struct rk_tune_profile *const *)y;
	case KEY_ROLE:
		return *(const enum rk_role_setting *)x == *(const enum rk_role_setting *)y;
	default:
		return *(const double *)x == *(const double *)y;
	}
}

static bool listed(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (strcmp(*names, name) == 0)
			return true;
	return false;
}

bool ak_config_key_changed(const struct ak_config *a, const struct ak_config *b, const char *name)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(keys[i].name, name) == 0)
			return !same_value(&keys[i], a, b);
	return false;
}

size_t ak_config_changed_keys(const struct ak_config *a, const struct ak_config *b,
			      const char *const *skip, char *out, size_t out_size)
{
	size_t count = 0, used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (listed(skip, keys[i].name) || same_value(&keys[i], a, b))
			continue;
		if (used < out_size)
			used += (size_t)snprintf(out + used, out_size - used, "%s%s",
						 count ? ", " : "", keys[i].name);
		count++;
	}
	return count;
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

int ak_config_read(const char *path, bool missing_ok, struct ak_config *config, FILE *err)
{
	int status = 0;
	FILE *file = rk_file_open_regular(path, &status);

	if (!file) {
		if (status == -ENOENT && missing_ok)
			return 0;
		fprintf(err, "%s: %s\n", path, rk_sysfs_error(status));
		return status;
	}
	status = read_lines(file, path, config, err);
	fclose(file);
	return status;
}
