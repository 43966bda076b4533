/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cd_ports.h"

#include "rdmakit/host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "DEV:PORT": a device name without '/' or ':', then a port number as sysfs names it. */
static bool valid_port_name(const char *entry)
{
	const char *colon = strchr(entry, ':');
	unsigned num;

	if (!colon || colon == entry || memchr(entry, '/', (size_t)(colon - entry)))
		return false;
	return rk_parse_port_number(colon + 1, &num) == 0;
}

static int compile_regex(struct cd_port_pattern *pattern, const char *entry, char *err,
			 size_t err_size)
{
	size_t len = strlen(entry);
	char *expr = strndup(entry + 1, len - 2);
	int status;

	pattern->regex = calloc(1, sizeof(*pattern->regex));
	if (!expr || !pattern->regex) {
		free(expr);
		free(pattern->regex);
		return -ENOMEM;
	}
	status = regcomp(pattern->regex, expr, REG_EXTENDED | REG_NOSUB);
	free(expr);
	if (status != 0) {
		char reason[128];

		regerror(status, pattern->regex, reason, sizeof(reason));
		snprintf(err, err_size, "not a valid regular expression: %s", reason);
		free(pattern->regex);
		return -EINVAL;
	}
	return 0;
}

int cd_ports_add(struct cd_ports *ports, const char *entry, char *err, size_t err_size)
{
	size_t len = strlen(entry);
	bool is_regex = len > 2 && entry[0] == '/' && entry[len - 1] == '/';
	struct cd_port_pattern pattern = {0};
	struct cd_port_pattern *grown;
	int status;

	if (!is_regex && !valid_port_name(entry)) {
		snprintf(err, err_size,
			 "expected \"DEVICE:PORT\" (e.g. \"mlx5_0:1\") or a /regex/");
		return -EINVAL;
	}
	if (is_regex && (status = compile_regex(&pattern, entry, err, err_size)) != 0)
		return status;
	pattern.text = strdup(entry);
	grown = realloc(ports->items, (ports->count + 1) * sizeof(*grown));
	if (!pattern.text || !grown) {
		free(pattern.text);
		if (pattern.regex)
			regfree(pattern.regex);
		free(pattern.regex);
		if (grown)
			ports->items = grown;
		return -ENOMEM;
	}
	ports->items = grown;
	ports->items[ports->count++] = pattern;
	return 0;
}

bool cd_ports_pattern_matches(const struct cd_port_pattern *pattern, const char *name)
{
	if (pattern->regex)
		return regexec(pattern->regex, name, 0, NULL, 0) == 0;
	return strcmp(pattern->text, name) == 0;
}

bool cd_ports_selected(const struct cd_ports *ports, const char *device, unsigned num)
{
	char name[96];

	if (ports->count == 0)
		return true;
	snprintf(name, sizeof(name), "%s:%u", device, num);
	for (size_t i = 0; i < ports->count; i++)
		if (cd_ports_pattern_matches(&ports->items[i], name))
			return !ports->ignore_selected;
	return ports->ignore_selected;
}

void cd_ports_free(struct cd_ports *ports)
{
	for (size_t i = 0; i < ports->count; i++) {
		if (ports->items[i].regex) {
			regfree(ports->items[i].regex);
			free(ports->items[i].regex);
		}
		free(ports->items[i].text);
	}
	free(ports->items);
	ports->items = NULL;
	ports->count = 0;
}
