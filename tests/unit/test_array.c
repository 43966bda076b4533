/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the growing array helper. */
#include "rdmakit/array.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void grows_by_doubling_and_keeps_contents(void **unused)
{
	int *items = NULL;
	size_t capacity = 0;

	(void)unused;
	for (size_t count = 0; count < 100; count++) {
		int *room = rk_array_room(items, &capacity, count, sizeof(*items), 4);

		assert_non_null(room);
		items = room;
		items[count] = (int)count;
		assert_true(capacity > count);
	}
	assert_int_equal(capacity, 128); /* 4, 8, ..., 128 */
	for (int i = 0; i < 100; i++)
		assert_int_equal(items[i], i);
	assert_ptr_equal(rk_array_room(items, &capacity, 100, sizeof(*items), 4), items);
	free(items);
}

static void refuses_sizes_that_overflow(void **unused)
{
	size_t capacity = SIZE_MAX / 16 + 1;
	char byte;

	(void)unused;
	assert_null(rk_array_room(&byte, &capacity, capacity, 16, 4));
	assert_int_equal(capacity, SIZE_MAX / 16 + 1); /* unchanged */
}

static void dup_copies_and_says_none_for_nothing(void **unused)
{
	const int src[3] = {7, -1, 42};
	int *copy = NULL;
	void *none = (void *)src;

	(void)unused;
	assert_int_equal(rk_array_dup(src, 3, sizeof(*src), (void **)&copy), 0);
	assert_ptr_not_equal(copy, src);
	assert_memory_equal(copy, src, sizeof(src));
	free(copy);
	assert_int_equal(rk_array_dup(src, 0, sizeof(*src), &none), 0);
	assert_null(none);
	none = (void *)src;
	assert_int_equal(rk_array_dup(NULL, 3, sizeof(*src), &none), 0);
	assert_null(none);
}

static void a_name_table_says_otherwise_past_it_and_for_gaps(void **unused)
{
	static const char *const names[] = {[0] = "zero", [2] = "two"};

	(void)unused;
	assert_string_equal(RK_NAME_IN(names, 0, "?"), "zero");
	assert_string_equal(RK_NAME_IN(names, 2, "?"), "two");
	assert_string_equal(RK_NAME_IN(names, 1, "?"), "?"); /* a gap */
	assert_string_equal(RK_NAME_IN(names, 3, "?"), "?");
	assert_string_equal(RK_NAME_IN(names, -1, "?"), "?"); /* a negative enum value */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(grows_by_doubling_and_keeps_contents),
	    cmocka_unit_test(dup_copies_and_says_none_for_nothing),
	    cmocka_unit_test(refuses_sizes_that_overflow),
	    cmocka_unit_test(a_name_table_says_otherwise_past_it_and_for_gaps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
