/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Growing arrays: the one place that doubles a capacity. */
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

#endif
