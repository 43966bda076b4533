/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the refresh thread hands to the AgentX thread, and what wakes it. */
#include "ak_mailbox.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

int ak_mailbox_init(struct ak_mailbox *box)
{
	int err;

	memset(box, 0, sizeof(*box));
	box->traps = calloc(AK_TRAP_QUEUE, sizeof(*box->traps));
	if (!box->traps)
		return -ENOMEM;
	box->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (box->fd < 0) {
		err = -errno;
		free(box->traps);
		return err;
	}
	err = pthread_mutex_init(&box->lock, NULL);
	if (err) {
		close(box->fd);
		free(box->traps);
		return -err;
	}
	return 0;
}

void ak_mailbox_destroy(struct ak_mailbox *box)
{
	ak_mailbox_free_retired(box);
	ak_snapshot_free(box->snapshot);
	free(box->traps);
	close(box->fd);
	pthread_mutex_destroy(&box->lock);
}

void ak_mailbox_wake(struct ak_mailbox *box)
{
	uint64_t one = 1;
	ssize_t n = write(box->fd, &one, sizeof(one));

	(void)n; /* EAGAIN: the counter is already non-zero, the reader wakes anyway */
}

void ak_mailbox_clear_wake(struct ak_mailbox *box)
{
	uint64_t count;
	ssize_t n = read(box->fd, &count, sizeof(count));

	(void)n; /* EAGAIN: nothing was pending */
}

void ak_mailbox_post_snapshot(struct ak_mailbox *box, struct ak_snapshot *snapshot)
{
	struct ak_snapshot *unread;

	pthread_mutex_lock(&box->lock);
	unread = box->snapshot;
	box->snapshot = snapshot;
	pthread_mutex_unlock(&box->lock);
	ak_snapshot_free(unread);
	ak_mailbox_wake(box);
}

struct ak_snapshot *ak_mailbox_take_snapshot(struct ak_mailbox *box)
{
	struct ak_snapshot *snapshot;

	pthread_mutex_lock(&box->lock);
	snapshot = box->snapshot;
	box->snapshot = NULL;
	pthread_mutex_unlock(&box->lock);
	return snapshot;
}

void ak_mailbox_retire(struct ak_mailbox *box, struct ak_snapshot *snapshot)
{
	if (!snapshot)
		return;
	pthread_mutex_lock(&box->lock);
	snapshot->next_retired = box->retired;
	box->retired = snapshot;
	pthread_mutex_unlock(&box->lock);
}

void ak_mailbox_free_retired(struct ak_mailbox *box)
{
	struct ak_snapshot *list;

	pthread_mutex_lock(&box->lock);
	list = box->retired;
	box->retired = NULL;
	pthread_mutex_unlock(&box->lock);
	while (list) {
		struct ak_snapshot *next = list->next_retired;

		ak_snapshot_free(list);
		list = next;
	}
}

void ak_mailbox_post_log(struct ak_mailbox *box, enum rk_log_level level, const char *text)
{
	pthread_mutex_lock(&box->lock);
	if (box->nlogs < AK_LOG_QUEUE) {
		box->logs[box->nlogs].level = level;
		snprintf(box->logs[box->nlogs].text, sizeof(box->logs[0].text), "%s", text);
		box->nlogs++;
	} else {
		box->logs_dropped++;
	}
	pthread_mutex_unlock(&box->lock);
	ak_mailbox_wake(box);
}

size_t ak_mailbox_take_logs(struct ak_mailbox *box, struct ak_log_line *out, size_t *dropped)
{
	size_t n;

	pthread_mutex_lock(&box->lock);
	n = box->nlogs;
	memcpy(out, box->logs, n * sizeof(*out));
	box->nlogs = 0;
	*dropped = box->logs_dropped;
	box->logs_dropped = 0;
	pthread_mutex_unlock(&box->lock);
	return n;
}

void ak_mailbox_post_trap(struct ak_mailbox *box, const struct ak_trap *trap)
{
	pthread_mutex_lock(&box->lock);
	if (box->ntraps == AK_TRAP_QUEUE) {
		box->trap_head = (box->trap_head + 1) % AK_TRAP_QUEUE;
		box->ntraps--;
		box->traps_dropped++;
	}
	box->traps[(box->trap_head + box->ntraps) % AK_TRAP_QUEUE] = *trap;
	box->ntraps++;
	pthread_mutex_unlock(&box->lock);
	ak_mailbox_wake(box);
}

bool ak_mailbox_peek_trap(struct ak_mailbox *box, struct ak_trap *out)
{
	bool any;

	pthread_mutex_lock(&box->lock);
	any = box->ntraps > 0;
	if (any)
		*out = box->traps[box->trap_head];
	pthread_mutex_unlock(&box->lock);
	return any;
}

void ak_mailbox_pop_trap(struct ak_mailbox *box)
{
	pthread_mutex_lock(&box->lock);
	if (box->ntraps > 0) {
		box->trap_head = (box->trap_head + 1) % AK_TRAP_QUEUE;
		box->ntraps--;
	}
	/* An empty ring starts again at its first slot: traps are sent as they come, so the
	 * queue stays in its first pages instead of walking through all of its 2 MB, each
	 * page resident from its first trap on. */
	if (box->ntraps == 0)
		box->trap_head = 0;
	pthread_mutex_unlock(&box->lock);
}

size_t ak_mailbox_take_traps_dropped(struct ak_mailbox *box)
{
	size_t n;

	pthread_mutex_lock(&box->lock);
	n = box->traps_dropped;
	box->traps_dropped = 0;
	pthread_mutex_unlock(&box->lock);
	return n;
}
