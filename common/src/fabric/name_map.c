/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/fabric.h"

#include "rdmakit/file.h"
#include "rdmakit/log.h"
#include "rdmakit/sysfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct name_entry {
	uint64_t guid;
	char *name;
};

struct rk_name_map {
	struct name_entry *entries; /* sorted by GUID */
	size_t count, capacity;
	const struct name_entry **by_name; /* the entries sorted by name (in any case), then GUID */
};

static int compare_entries(const void *a, const void *b)
{
	const struct name_entry *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* By name without regard to case, then by GUID. */
static int compare_names(const void *a, const void *b)
{
	const struct name_entry *const *x = a, *const *y = b;
	int c = strcasecmp((*x)->name, (*y)->name);

	return c ? c : compare_entries(*x, *y);
}

/* The name after the GUID: "quoted" (as OpenSM writes it) or the rest of the line. */
static char *parse_name(char *text)
{
	char *end;

	text += strspn(text, " \t");
	if (*text == '"') {
		end = strchr(++text, '"');
		if (!end)
			return NULL;
	} else {
		end = text + strcspn(text, "\r\n");
		while (end > text && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
	}
	*end = '\0';
	return *text ? text : NULL;
}

static int add_entry(struct rk_name_map *map, uint64_t guid, const char *name)
{
	if (map->count == map->capacity) {
		size_t grown = map->capacity ? map->capacity * 2 : 64;
		struct name_entry *bigger = realloc(map->entries, grown * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		map->entries = bigger;
		map->capacity = grown;
	}
	map->entries[map->count].guid = guid;
	map->entries[map->count].name = strdup(name);
	if (!map->entries[map->count].name)
		return -ENOMEM;
	map->count++;
	return 0;
}

/* One line: blank, a comment, or "0xGUID name"; bad lines are logged and skipped. */
static int parse_line(struct rk_name_map *map, const char *path, unsigned lineno, char *line)
{
	char *text = line + strspn(line, " \t"), *name, *end;
	char guid_text[24];
	uint64_t guid;
	size_t len = strcspn(text, " \t\r\n");

	if (*text == '#' || *text == '\0' || *text == '\n' || *text == '\r')
		return 0;
	name = len < sizeof(guid_text) ? parse_name(text + len) : NULL;
	if (len < sizeof(guid_text)) {
		memcpy(guid_text, text, len);
		guid_text[len] = '\0';
	}
	if (!name || rk_parse_u64(guid_text, &guid) != 0 || strncmp(guid_text, "0x", 2) != 0) {
		end = line + strcspn(line, "\r\n");
		*end = '\0';
		rk_log(RK_LOG_WARNING, "%s:%u: expected 0xGUID \"name\", skipped: %s", path, lineno,
		       line);
		return 0;
	}
	return add_entry(map, guid, name);
}

/* The map as a stream (a regular file only); NULL, logged, and *err when not. */
static FILE *open_map_file(const char *path, int *err)
{
	FILE *file = rk_file_open_regular(path, err);

	if (!file)
		rk_log(RK_LOG_ERR, "%s: cannot open node name map: %s", path, rk_sysfs_error(*err));
	return file;
}

int rk_name_map_load(const char *path, struct rk_name_map **out)
{
	struct rk_name_map *map;
	char line[512];
	unsigned lineno = 0;
	int err = 0;
	FILE *file = open_map_file(path, &err);

	if (!file)
		return err;
	map = calloc(1, sizeof(*map));
	if (!map)
		err = -ENOMEM;
	while (!err && fgets(line, sizeof(line), file))
		err = parse_line(map, path, ++lineno, line);
	fclose(file);
	if (err) {
		rk_name_map_free(map);
		return err;
	}
	if (map->count) /* an empty map has no array to sort */
		qsort(map->entries, map->count, sizeof(*map->entries), compare_entries);
	if (!(map->by_name = calloc(map->count + 1, sizeof(*map->by_name)))) {
		rk_name_map_free(map);
		return -ENOMEM;
	}
	for (size_t i = 0; i < map->count; i++)
		map->by_name[i] = &map->entries[i];
	if (map->count)
		qsort(map->by_name, map->count, sizeof(*map->by_name), compare_names);
	*out = map;
	return 0;
}

const char *rk_name_map_lookup(const struct rk_name_map *map, uint64_t guid)
{
	struct name_entry key = {.guid = guid};
	const struct name_entry *hit;

	if (!map->count)
		return NULL;
	hit = bsearch(&key, map->entries, map->count, sizeof(key), compare_entries);
	return hit ? hit->name : NULL;
}

size_t rk_name_map_find(const struct rk_name_map *map, const char *name, uint64_t *guid)
{
	size_t lo = 0, hi = map->count, found = 0;

	while (lo < hi) { /* the first entry not before name */
		size_t mid = lo + (hi - lo) / 2;

		if (strcasecmp(map->by_name[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < map->count && strcasecmp(map->by_name[i]->name, name) == 0; i++) {
		if (found && map->by_name[i]->guid == *guid)
			continue;
		*guid = map->by_name[i]->guid;
		found++;
	}
	return found;
}

void rk_name_map_free(struct rk_name_map *map)
{
	if (!map)
		return;
	for (size_t i = 0; i < map->count; i++)
		free(map->entries[i].name);
	free(map->entries);
	free(map->by_name);
	free(map);
}
