/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/counters.h"

#include "rdmakit/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct rk_metric *metric_for(enum rk_source source, const char *name)
{
	const struct rk_metric *metric = rk_catalog_find(source, name);

	return metric ? metric : rk_catalog_unknown_hw();
}

static int open_counter(struct rk_sysfs *fs, const char *reldir, const char *name,
			enum rk_source source, struct rk_counter *counter)
{
	char path[512];
	int err;

	memset(counter, 0, sizeof(*counter));
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", reldir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	err = rk_attr_open(fs, path, &counter->attr);
	if (err)
		return err;
	counter->name = strdup(name);
	if (!counter->name) {
		rk_attr_close(fs, &counter->attr);
		return -ENOMEM;
	}
	counter->metric = metric_for(source, name);
	counter->state = RK_VALUE_UNAVAILABLE;
	return 0;
}

int rk_counter_set_open(struct rk_sysfs *fs, const char *reldir, enum rk_source source,
			struct rk_counter_set *set)
{
	char **names;
	size_t count;
	int err = rk_sysfs_list(fs, reldir, &names, &count);

	set->items = NULL;
	set->count = 0;
	if (err == -ENOENT || err == -ENOTDIR)
		return 0;
	if (err)
		return err;
	set->items = calloc(count ? count : 1, sizeof(*set->items));
	if (!set->items) {
		rk_names_free(names, count);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		err = open_counter(fs, reldir, names[i], source, &set->items[set->count]);
		if (err == 0)
			set->count++;
		else if (err != -ENOENT && err != -EISDIR) /* gone, or not a counter file */
			rk_log(RK_LOG_WARNING, "%s/%s: %s, skipped", reldir, names[i],
			       rk_sysfs_error(err));
	}
	rk_names_free(names, count);
	return 0;
}

void rk_counter_set_close(struct rk_sysfs *fs, struct rk_counter_set *set)
{
	for (size_t i = 0; i < set->count; i++) {
		rk_attr_close(fs, &set->items[i].attr);
		free(set->items[i].name);
	}
	free(set->items);
	set->items = NULL;
	set->count = 0;
}

enum rk_value_state rk_counter_classify(const struct rk_metric *metric, uint64_t raw)
{
	if (metric->kind != RK_KIND_COUNTER || metric->wraps)
		return RK_VALUE_OK;
	if (raw == rk_metric_max(metric->width))
		return RK_VALUE_SATURATED;
	if (metric->narrow_width && raw == rk_metric_max(metric->narrow_width))
		return RK_VALUE_SATURATED;
	return RK_VALUE_OK;
}

uint64_t rk_counter_raw_delta(const struct rk_metric *metric, uint64_t prev, uint64_t cur)
{
	if (cur >= prev)
		return cur - prev;
	if (metric->wraps)
		return (cur - prev) & rk_metric_max(metric->width);
	return cur; /* cleared since the last sample: count what came after */
}

bool rk_counter_went_back(const struct rk_counter *counter)
{
	return counter->has_delta && counter->raw < counter->prev_raw && !counter->metric->wraps;
}

static void update_delta(struct rk_counter *counter)
{
	counter->has_delta = counter->sampled && counter->prev_state != RK_VALUE_UNAVAILABLE &&
			     counter->state != RK_VALUE_UNAVAILABLE &&
			     counter->metric->kind == RK_KIND_COUNTER;
	if (counter->has_delta)
		counter->delta =
		    rk_counter_raw_delta(counter->metric, counter->prev_raw, counter->raw) *
		    counter->metric->scale;
}

void rk_counter_update(struct rk_counter *counter, const char *text)
{
	uint64_t raw;
	int err = rk_parse_u64(text, &raw);

	counter->prev_raw = counter->raw;
	counter->prev_state = counter->state;
	if (err) {
		if (strncmp(text, "N/A", 3) != 0)
			rk_attr_warn_once(&counter->attr, "not a counter value", text);
		counter->state = RK_VALUE_UNAVAILABLE;
	} else {
		counter->raw = raw;
		counter->value = raw * counter->metric->scale;
		counter->state = rk_counter_classify(counter->metric, raw);
	}
	update_delta(counter);
	counter->sampled = true;
}

int rk_counter_set_read(struct rk_sysfs *fs, struct rk_counter_set *set)
{
	char text[64];

	for (size_t i = 0; i < set->count; i++) {
		struct rk_counter *counter = &set->items[i];
		ssize_t len = rk_attr_read(fs, &counter->attr, text, sizeof(text));

		if (len == -ENODEV || len == -ENOENT)
			return -ENODEV;
		if (len < 0) {
			rk_attr_warn_once(&counter->attr, rk_sysfs_error((int)len), NULL);
			text[0] = '\0';
		}
		rk_counter_update(counter, text);
	}
	return 0;
}

void rk_counter_set_recheck(struct rk_sysfs *fs, struct rk_counter_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		rk_attr_recheck(fs, &set->items[i].attr);
}

const struct rk_counter *rk_counter_set_find(const struct rk_counter_set *set, const char *name)
{
	for (size_t i = 0; i < set->count; i++)
		if (strcmp(set->items[i].name, name) == 0)
			return &set->items[i];
	return NULL;
}
