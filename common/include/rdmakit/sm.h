/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Subnet managers: SMInfo of the master and of every port that advertises IsSM. */
#ifndef RDMAKIT_SM_H
#define RDMAKIT_SM_H

#include "rdmakit/fabric.h"
#include "rdmakit/mad.h"

#include <stddef.h>
#include <stdint.h>

enum rk_sm_state {
	RK_SM_NOT_ACTIVE = 0,
	RK_SM_DISCOVERING = 1,
	RK_SM_STANDBY = 2,
	RK_SM_MASTER = 3,
};

/* One SM as its SMInfo describes it. */
struct rk_sm {
	uint16_t lid;
	uint64_t guid; /* the SM's port GUID */
	int priority;
	enum rk_sm_state state;
	uint32_t activity_count;
	char name[RK_FABRIC_NAME_MAX]; /* the node's name (rk_fabric_name_nodes), "" when unknown */
	int status;		       /* 0 answered, -ETIMEDOUT or -EIO */
};

/* Every SM found, and what the local port believes. */
struct rk_sm_status {
	struct rk_sm *sms;
	size_t count;
	uint16_t local_lid;
	uint16_t local_sm_lid; /* the master according to the local port's PortInfo */
};

/* The subnet managers of a status: which is master, and how many are in each state. */
struct rk_sm_summary {
	const struct rk_sm *master;	   /* the first SM in MASTER state, or NULL */
	const struct rk_sm *described;	   /* master, else the local port's SM if it answered */
	size_t answered;		   /* SMs that answered SMInfo */
	size_t in_state[RK_SM_MASTER + 1]; /* SMs that answered, by enum rk_sm_state */
};

/** Query SMInfo at the local port's SM LID and at every IsSM port of fabric (may be NULL); on
 * failure status holds nothing to free. */
int rk_sm_query(struct rk_mad_port *port, const struct rk_fabric *fabric,
		const struct rk_mad_options *options, struct rk_sm_status *status);

/** The first SM in MASTER state, or NULL. */
const struct rk_sm *rk_sm_master(const struct rk_sm_status *status);

/** The SM at lid in status, or NULL. */
const struct rk_sm *rk_sm_find(const struct rk_sm_status *status, uint16_t lid);

/* How an SM's answer compares with the status before. */
enum rk_sm_answer_change {
	RK_SM_ANSWERS_AS_BEFORE,
	RK_SM_STOPPED_ANSWERING, /* answered before, not now */
	RK_SM_ANSWERS_AGAIN,	 /* did not answer before, does now */
	RK_SM_NEW_AND_SILENT,	 /* not in before, and does not answer */
};

/** How sm's answer changed since before (the SM is found there by LID). */
enum rk_sm_answer_change rk_sm_answer_change(const struct rk_sm_status *before,
					     const struct rk_sm *sm);

/** "name (LID l, GUID g, priority p)" for log lines and events. */
void rk_sm_describe(const struct rk_sm *sm, char *buf, size_t size);

/** A deep copy of status into copy (free it with rk_sm_status_free); -ENOMEM. */
int rk_sm_status_copy(const struct rk_sm_status *status, struct rk_sm_status *copy);

/** Find the master (and the SM standing in for it) and count the SMs by state. */
void rk_sm_summarize(const struct rk_sm_status *status, struct rk_sm_summary *out);

/** Free what rk_sm_query filled in. */
void rk_sm_status_free(struct rk_sm_status *status);

/** "MASTER", "STANDBY", "DISCOVERING", "NOT_ACTIVE" or "UNKNOWN". */
const char *rk_sm_state_name(enum rk_sm_state state);

#endif
