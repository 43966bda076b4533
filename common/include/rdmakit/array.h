/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Arrays: growing ones (the one place that doubles a capacity), and tables of names. */
#ifndef RDMAKIT_ARRAY_H
#define RDMAKIT_ARRAY_H

#include <stddef.h>

/** items with room for one more than count elements of size bytes: as it is, or reallocated
 * to double *capacity (first: the capacity of a first allocation); NULL when out of memory,
 * items then being left as it was. */
void *rk_array_room(void *items, size_t *capacity, size_t count, size_t size, size_t first);

/** *out: a copy of count elements of size bytes at src (NULL when there are none); 0, or
 * -ENOMEM with *out NULL. */
int rk_array_dup(const void *src, size_t count, size_t size, void **out);

/** names[value], or otherwise when value is past the table's count entries or has none. */
const char *rk_name_in(const char *const *names, size_t count, unsigned value,
		       const char *otherwise);

/* rk_name_in with a table's own count of entries. */
#define RK_NAME_IN(names_, value_, otherwise_)                                                     \
	rk_name_in(names_, sizeof(names_) / sizeof((names_)[0]), (unsigned)(value_), otherwise_)

#endif
