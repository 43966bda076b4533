/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Index numbers that never move: a device's, and a driver counter's. */
#include "ak_index_map.h"

#include "rdmakit/file.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER	     "rdmakit-agentx index map 1"
#define FILE_MAX     (8u << 20) /* bytes: a larger file is not ours */
#define DEVICE_GROUP (-1)

/* A name the file can hold: printable ASCII without spaces, shorter than the field. */
static bool storable(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len >= AK_INDEX_NAME_MAX)
		return false;
	for (const char *p = name; *p; p++)
		if (*p <= ' ' || *p > '~')
			return false;
	return true;
}

static struct ak_index_group *find_group(struct ak_index_map *map, const char *device, int port_key)
{
	for (size_t i = 0; i < map->ngroups; i++)
		if (map->groups[i].port_key == port_key &&
		    (port_key == DEVICE_GROUP || strcmp(map->groups[i].device, device) == 0))
			return &map->groups[i];
	return NULL;
}

static struct ak_index_group *add_group(struct ak_index_map *map, const char *device, int port_key)
{
	struct ak_index_group *groups =
	    realloc(map->groups, (map->ngroups + 1) * sizeof(*map->groups));

	if (!groups)
		return NULL;
	map->groups = groups;
	groups = &groups[map->ngroups++];
	memset(groups, 0, sizeof(*groups));
	snprintf(groups->device, sizeof(groups->device), "%s", device);
	groups->port_key = port_key;
	return groups;
}

static struct ak_index_name *find_name(const struct ak_index_group *group, const char *name)
{
	for (size_t i = 0; i < group->count; i++)
		if (strcmp(group->names[i].name, name) == 0)
			return &group->names[i];
	return NULL;
}

static bool number_taken(const struct ak_index_group *group, uint32_t number)
{
	for (size_t i = 0; i < group->count; i++)
		if (group->names[i].number == number)
			return true;
	return false;
}

static int add_name(struct ak_index_group *group, const char *name, uint32_t number)
{
	struct ak_index_name *names = realloc(group->names, (group->count + 1) * sizeof(*names));

	if (!names)
		return -ENOMEM;
	group->names = names;
	snprintf(names[group->count].name, sizeof(names[0].name), "%s", name);
	names[group->count++].number = number;
	if (number > group->highest)
		group->highest = number;
	return 0;
}

/* The number of name in its group, or a new one; 0 when none can be given. */
static uint32_t number_of(struct ak_index_map *map, const char *device, int port_key,
			  const char *name)
{
	struct ak_index_group *group = find_group(map, device, port_key);
	const struct ak_index_name *known;

	if (!group)
		group = add_group(map, device, port_key);
	if (!group || strlen(name) >= AK_INDEX_NAME_MAX)
		return 0;
	known = find_name(group, name);
	if (known)
		return known->number;
	if (group->highest >= AK_INDEX_NUMBER_MAX || add_name(group, name, group->highest + 1) != 0)
		return 0;
	map->dirty = true;
	return group->highest;
}

uint32_t ak_index_map_device(struct ak_index_map *map, const char *device)
{
	return number_of(map, "", DEVICE_GROUP, device);
}

uint32_t ak_index_map_counter(struct ak_index_map *map, const char *device, unsigned port_key,
			      const char *counter)
{
	if (port_key > AK_INDEX_NUMBER_MAX + 1 || strlen(device) >= AK_INDEX_NAME_MAX)
		return 0;
	return number_of(map, device, (int)port_key, counter);
}

static void clear_groups(struct ak_index_map *map)
{
	for (size_t i = 0; i < map->ngroups; i++)
		free(map->groups[i].names);
	free(map->groups);
	map->groups = NULL;
	map->ngroups = 0;
}

static bool parse_number(const char *text, unsigned long max, unsigned long *out)
{
	char *end;

	if (!text || *text < '0' || *text > '9')
		return false;
	errno = 0;
	*out = strtoul(text, &end, 10);
	return errno == 0 && *end == '\0' && *out <= max;
}

/* One line: "device NAME N" or "counter DEVICE PORT NAME N"; NULL or why it is wrong. */
static const char *parse_line(struct ak_index_map *map, char *line)
{
	char *fields[6], *save = NULL;
	size_t n = 0;
	unsigned long port = 0, number;
	struct ak_index_group *group;

	for (char *f = strtok_r(line, " ", &save); f && n < 6; f = strtok_r(NULL, " ", &save))
		fields[n++] = f;
	bool device = n == 3 && strcmp(fields[0], "device") == 0;
	bool counter = n == 5 && strcmp(fields[0], "counter") == 0;

	if (!device && !counter)
		return "not \"device NAME N\" or \"counter DEVICE PORT NAME N\"";
	if (!parse_number(fields[n - 1], AK_INDEX_NUMBER_MAX, &number) || number == 0)
		return "the number is not from 1 to 65535";
	if (counter && !parse_number(fields[2], AK_INDEX_NUMBER_MAX + 1, &port))
		return "the port is not from 0 to 65536";
	if (!storable(fields[n - 2]) || (counter && !storable(fields[1])))
		return "a name is empty, too long or not printable";
	group = find_group(map, counter ? fields[1] : "", counter ? (int)port : DEVICE_GROUP);
	if (!group)
		group =
		    add_group(map, counter ? fields[1] : "", counter ? (int)port : DEVICE_GROUP);
	if (!group)
		return "out of memory";
	if (find_name(group, fields[n - 2]) || number_taken(group, (uint32_t)number))
		return "a name or a number appears twice";
	return add_name(group, fields[n - 2], (uint32_t)number) ? "out of memory" : NULL;
}

/* The whole file, NUL-terminated; NULL with errno set (EFBIG when too large). */
static char *read_all(const char *path)
{
	FILE *f = fopen(path, "re");
	char *text = f ? malloc(FILE_MAX + 1) : NULL;
	size_t len = text ? fread(text, 1, FILE_MAX + 1, f) : 0;
	int err = errno;

	if (f && text && (ferror(f) || len > FILE_MAX)) {
		err = ferror(f) ? err : EFBIG;
		free(text);
		text = NULL;
	}
	if (f)
		fclose(f);
	if (text)
		text[len] = '\0';
	errno = err;
	return text;
}

/* Parse the file's text; NULL, or why it is wrong with its line number in *line_no. */
static const char *parse_text(struct ak_index_map *map, char *text, size_t *line_no)
{
	char *save = NULL;
	const char *why = NULL;
	char *line = strtok_r(text, "\n", &save);

	*line_no = 1;
	if (strlen(text) != strcspn(text, "\r\t") || !line || strcmp(line, HEADER) != 0)
		return "not an index map (no \"" HEADER "\" first line)";
	while (!why && (line = strtok_r(NULL, "\n", &save)) != NULL) {
		++*line_no;
		why = parse_line(map, line);
	}
	return why;
}

int ak_index_map_load(struct ak_index_map *map, const char *state_dir)
{
	char *text;
	const char *why;
	size_t line_no;

	memset(map, 0, sizeof(*map));
	if (!state_dir)
		return 0;
	if (asprintf(&map->path, "%s/%s", state_dir, AK_INDEX_MAP_FILE) < 0) {
		map->path = NULL;
		return -ENOMEM;
	}
	text = read_all(map->path);
	if (!text) {
		if (errno != ENOENT)
			rk_log(RK_LOG_WARNING,
			       "%s: cannot be read (%s): devices and driver counters "
			       "are numbered again",
			       map->path, errno == EFBIG ? "larger than 8 MiB" : strerror(errno));
		return errno == ENOMEM ? -ENOMEM : 0;
	}
	why = parse_text(map, text, &line_no);
	free(text);
	if (why) {
		rk_log(RK_LOG_WARNING,
		       "%s: line %zu: %s: ignored, devices and driver counters are numbered again",
		       map->path, line_no, why);
		clear_groups(map);
		map->dirty = true;
	}
	return 0;
}

static int write_groups(FILE *f, const struct ak_index_map *map)
{
	fprintf(f, "%s\n", HEADER);
	for (size_t g = 0; g < map->ngroups; g++) {
		const struct ak_index_group *group = &map->groups[g];

		if (group->port_key != DEVICE_GROUP && !storable(group->device))
			continue;
		for (size_t i = 0; i < group->count; i++) {
			const struct ak_index_name *n = &group->names[i];

			if (!storable(n->name))
				continue;
			if (group->port_key == DEVICE_GROUP)
				fprintf(f, "device %s %u\n", n->name, (unsigned)n->number);
			else
				fprintf(f, "counter %s %d %s %u\n", group->device, group->port_key,
					n->name, (unsigned)n->number);
		}
	}
	return fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0 ? 0 : -errno;
}

/* Write to a new file beside the map and rename it over the map; -errno. */
static int write_file(const struct ak_index_map *map)
{
	char tmp[RK_PATH_SIZE];
	int fd, err;
	FILE *f;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", map->path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		unlink(tmp);
		return err;
	}
	err = write_groups(f, map);
	if (fclose(f) != 0 && !err)
		err = -errno;
	if (!err && rename(tmp, map->path) != 0)
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

void ak_index_map_save(struct ak_index_map *map)
{
	int err;

	if (!map->dirty || !map->path)
		return;
	err = write_file(map);
	if (err && -err != map->write_error)
		rk_log(RK_LOG_WARNING, "%s: cannot be written (%s): indexes hold until a restart",
		       map->path, strerror(-err));
	map->write_error = -err;
	map->dirty = err != 0;
}

void ak_index_map_free(struct ak_index_map *map)
{
	clear_groups(map);
	free(map->path);
	map->path = NULL;
}
