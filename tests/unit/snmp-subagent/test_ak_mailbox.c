/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the subagent's trap queue, the ring the refresh thread fills and the AgentX
 * thread empties: order across the ring's end, the oldest dropped when full, and an emptied
 * ring going back to its first slot. */
#include "ak_mailbox.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static void post_numbered(struct ak_mailbox *box, unsigned number)
{
	struct ak_trap trap = {.device_index = number};

	snprintf(trap.event.subject, sizeof(trap.event.subject), "trap %u", number);
	ak_mailbox_post_trap(box, &trap);
}

/* Peek and pop the next trap; its number. */
static unsigned pop_number(struct ak_mailbox *box)
{
	struct ak_trap trap;
	char subject[32];

	assert_true(ak_mailbox_peek_trap(box, &trap));
	snprintf(subject, sizeof(subject), "trap %u", trap.device_index);
	assert_string_equal(trap.event.subject, subject);
	ak_mailbox_pop_trap(box);
	return trap.device_index;
}

static int open_box(void **state)
{
	static struct ak_mailbox box;

	*state = &box;
	return ak_mailbox_init(&box);
}

static int close_box(void **state)
{
	ak_mailbox_destroy(*state);
	return 0;
}

static void traps_keep_their_order_across_the_end_of_the_ring(void **state)
{
	struct ak_mailbox *box = *state;
	unsigned next = 0;

	for (unsigned i = 0; i < 1000; i++)
		post_numbered(box, i);
	while (next < 600)
		assert_int_equal(pop_number(box), next++);
	for (unsigned i = 1000; i < 1600; i++)
		post_numbered(box, i);
	while (next < 1600)
		assert_int_equal(pop_number(box), next++);
	assert_false(ak_mailbox_peek_trap(box, &(struct ak_trap){0}));
	assert_int_equal(ak_mailbox_take_traps_dropped(box), 0);
}

static void a_full_ring_drops_its_oldest_traps_and_counts_them(void **state)
{
	struct ak_mailbox *box = *state;

	for (unsigned i = 0; i < AK_TRAP_QUEUE + 10; i++)
		post_numbered(box, i);
	assert_int_equal(ak_mailbox_take_traps_dropped(box), 10);
	assert_int_equal(ak_mailbox_take_traps_dropped(box), 0);
	for (unsigned i = 10; i < AK_TRAP_QUEUE + 10; i++)
		assert_int_equal(pop_number(box), i);
	assert_false(ak_mailbox_peek_trap(box, &(struct ak_trap){0}));
}

static bool slot_is_blank(const struct ak_trap *slot)
{
	static const struct ak_trap blank;

	return memcmp(slot, &blank, sizeof(blank)) == 0;
}

static void traps_sent_as_they_come_use_only_the_first_slot(void **state)
{
	struct ak_mailbox *box = *state;

	/* A fresh mailbox, so that no earlier case has written its slots. */
	close_box(state);
	assert_int_equal(open_box(state), 0);
	for (unsigned i = 0; i < 3 * AK_TRAP_QUEUE; i++) {
		post_numbered(box, i);
		assert_int_equal(pop_number(box), i);
	}
	post_numbered(box, 7);
	post_numbered(box, 8);
	assert_int_equal(pop_number(box), 7);
	assert_int_equal(pop_number(box), 8);
	for (size_t slot = 2; slot < AK_TRAP_QUEUE; slot++)
		assert_true(slot_is_blank(&box->traps[slot]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(traps_keep_their_order_across_the_end_of_the_ring),
	    cmocka_unit_test(a_full_ring_drops_its_oldest_traps_and_counts_them),
	    cmocka_unit_test(traps_sent_as_they_come_use_only_the_first_slot),
	};

	return cmocka_run_group_tests(tests, open_box, close_box);
}
