/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/array.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *rk_array_room(void *items, size_t *capacity, size_t count, size_t size, size_t first)
{
	size_t grown;
	void *bigger;

	if (count < *capacity)
		return items;
	grown = *capacity ? *capacity * 2 : first;
	if (grown <= count || grown > SIZE_MAX / size)
		return NULL;
	bigger = realloc(items, grown * size);
	if (bigger)
		*capacity = grown;
	return bigger;
}

int rk_array_dup(const void *src, size_t count, size_t size, void **out)
{
	*out = NULL;
	if (!src || count == 0)
		return 0;
	*out = malloc(count * size);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, src, count * size);
	return 0;
}

const char *rk_name_in(const char *const *names, size_t count, unsigned value,
		       const char *otherwise)
{
	return value < count && names[value] ? names[value] : otherwise;
}
