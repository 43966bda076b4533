/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the refresh thread hands to the AgentX thread (snapshots, log lines, traps), and the
 * descriptor that wakes the AgentX thread from net-snmp's select loop. */
#ifndef AK_MAILBOX_H
#define AK_MAILBOX_H

#include "ak_snapshot.h"

#include "rdmakit/events.h"
#include "rdmakit/log.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AK_LOG_QUEUE  256
#define AK_TRAP_QUEUE 1024

struct ak_log_line {
	enum rk_log_level level;
	char text[512];
};

/* An event to send as a notification, with the row indexes its objects need. */
struct ak_trap {
	struct rk_event event;
	uint32_t finding_index; /* findings: the row in rdmakitFindingTable */
	uint32_t device_index;	/* port states: the row in rdmakitDeviceTable */
	unsigned char node_guid[8];
	char node_guid_text[24]; /* ... as the kernel writes it (rdmakitDeviceNodeGuidText) */
	bool cleared;		 /* a finding cleared (rdmakitFindingCleared), else raised */
	char device[64];	 /* the host device the event is about, "" when none */
	unsigned port;		 /* ... and its port, 0 when none */
};

struct ak_mailbox {
	pthread_mutex_t lock;
	int fd; /* eventfd: readable when something is waiting */
	struct ak_snapshot *snapshot;
	struct ak_snapshot *retired; /* swapped out by the AgentX thread, freed by the refresher */
	struct ak_log_line logs[AK_LOG_QUEUE];
	size_t nlogs, logs_dropped;
	struct ak_trap *traps; /* a ring of AK_TRAP_QUEUE */
	size_t trap_head, ntraps, traps_dropped;
};

/** Create the mailbox and its eventfd; -errno. */
int ak_mailbox_init(struct ak_mailbox *box);

/** Close the descriptor and free what is still queued. */
void ak_mailbox_destroy(struct ak_mailbox *box);

/** Hand over a new snapshot (one not taken yet is freed) and wake the AgentX thread. */
void ak_mailbox_post_snapshot(struct ak_mailbox *box, struct ak_snapshot *snapshot);

/** The newest snapshot posted since the last call, or NULL. */
struct ak_snapshot *ak_mailbox_take_snapshot(struct ak_mailbox *box);

/** Hand back a snapshot no longer served (the AgentX thread: freeing a large one takes time
 * a request should not wait for). */
void ak_mailbox_retire(struct ak_mailbox *box, struct ak_snapshot *snapshot);

/** Free the snapshots handed back (the refresh thread, and at exit). */
void ak_mailbox_free_retired(struct ak_mailbox *box);

/** Queue a log line for the AgentX thread (dropped, and counted, when the queue is full). */
void ak_mailbox_post_log(struct ak_mailbox *box, enum rk_log_level level, const char *text);

/** Move the queued log lines to out (at most AK_LOG_QUEUE); returns how many, *dropped gets
 * how many were lost since the last call. */
size_t ak_mailbox_take_logs(struct ak_mailbox *box, struct ak_log_line *out, size_t *dropped);

/** Queue an event to send as a trap; the oldest is dropped (and counted) when full. */
void ak_mailbox_post_trap(struct ak_mailbox *box, const struct ak_trap *trap);

/** Copy the oldest queued trap to out without removing it; false when there is none. */
bool ak_mailbox_peek_trap(struct ak_mailbox *box, struct ak_trap *out);

/** Remove the oldest queued trap (after it was sent). */
void ak_mailbox_pop_trap(struct ak_mailbox *box);

/** Traps dropped because the queue was full since the last call. */
size_t ak_mailbox_take_traps_dropped(struct ak_mailbox *box);

/** Wake the AgentX thread (async-signal-safe). */
void ak_mailbox_wake(struct ak_mailbox *box);

/** Reset the descriptor after a wake-up. */
void ak_mailbox_clear_wake(struct ak_mailbox *box);

#endif
