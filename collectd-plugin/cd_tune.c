/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_tune.h"

#include "cd_findings.h"
#include "cd_submit.h"

#include <sys/stat.h>

struct cd_tune {
	const struct cd_config *config;
	struct rk_event_tracker *tracker; /* the findings of the last audit */
	struct rk_event_list events;
};

static int set_tune(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_bool(item, shown, &config->tune.enabled);
}

static int set_interval(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_setting(item, shown, RK_SETTING_TUNE_INTERVAL, &config->tune.interval);
}

static int set_root(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	const char *path = cd_key_string(item);
	struct stat st;
	char *copy;

	if (!path || path[0] != '/' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return cd_key_reject(item, shown,
				     "expected the absolute path of an existing directory");
	copy = strdup(path);
	if (!copy)
		return cd_key_reject(item, shown, "out of memory");
	free(config->tune.root);
	config->tune.root = copy;
	return 0;
}

static int set_profile(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	const char *name = cd_key_string(item);

	config->tune.profile = name ? rk_tune_profile_find(name) : NULL;
	return config->tune.profile ? 0
				    : cd_key_reject(item, shown, "expected latency or throughput");
}

static const struct cd_key keys[] = {
    {"Tune", set_tune},
    {"TuneInterval", set_interval},
    {"TuneRoot", set_root},
    {"TuneProfile", set_profile},
};

const struct cd_key *cd_tune_keys(size_t *count)
{
	*count = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

void cd_tune_config_init(struct cd_tune_config *tune)
{
	*tune = (struct cd_tune_config){.interval = RK_TUNE_INTERVAL_DEFAULT_S};
}

void cd_tune_config_free(struct cd_tune_config *tune)
{
	free(tune->root);
	tune->root = NULL;
}

int cd_tune_start(const struct cd_config *config, struct cd_tune **out)
{
	struct cd_tune *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->config = config;
	if (rk_event_tracker_new(&t->tracker) != 0) {
		free(t);
		return -ENOMEM;
	}
	*out = t;
	return 0;
}

/* Each finding that appeared or cleared since the last audit, once; about the host, so no
 * plugin instance. */
static void report(struct cd_tune *t, const struct rk_findings *findings)
{
	const struct rk_event_views views = {.host_findings = findings};

	rk_event_list_clear(&t->events);
	if (rk_events_track(t->tracker, &views, &t->events) != 0) {
		cd_log(LOG_ERR, "out of memory: tune findings not reported");
		return;
	}
	for (size_t i = 0; i < t->events.count; i++)
		if (t->events.items[i].is_finding)
			cd_findings_report(CD_TUNE_PLUGIN, "", &t->events.items[i],
					   t->config->notifications);
}

int cd_tune_read(struct cd_tune *t)
{
	const struct cd_tune_config *tune = &t->config->tune;
	struct rk_tune_options options = {.root = tune->root ? tune->root : "/",
					  .profile = tune->profile};
	struct rk_tune_audit audit = {0};
	int err = rk_tune_audit_host(&options, &audit, NULL);

	if (err)
		cd_log(LOG_ERR, "tune audit of %s failed: %s", options.root, strerror(-err));
	else
		report(t, &audit.findings);
	rk_tune_audit_free(&audit);
	return err ? -1 : 0;
}

void cd_tune_stop(struct cd_tune *t)
{
	if (!t)
		return;
	rk_event_list_free(&t->events);
	rk_event_tracker_free(t->tracker);
	free(t);
}
