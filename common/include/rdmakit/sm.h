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
	char name[96]; /* the node's name (name map or description), "" when unknown */
	int status;    /* 0 answered, -ETIMEDOUT or -EIO */
};

/* Every SM found, and what the local port believes. */
struct rk_sm_status {
	struct rk_sm *sms;
	size_t count;
	uint16_t local_lid;
	uint16_t local_sm_lid; /* the master according to the local port's PortInfo */
};

/** Query SMInfo at the local port's SM LID and at every IsSM port of fabric (may be NULL); on
 * failure status holds nothing to free. */
int rk_sm_query(struct rk_mad_port *port, const struct rk_fabric *fabric,
		const struct rk_mad_options *options, struct rk_sm_status *status);

/** The first SM in MASTER state, or NULL. */
const struct rk_sm *rk_sm_master(const struct rk_sm_status *status);

/** The SM at lid in status, or NULL. */
const struct rk_sm *rk_sm_find(const struct rk_sm_status *status, uint16_t lid);

/** Free what rk_sm_query filled in. */
void rk_sm_status_free(struct rk_sm_status *status);

/** "MASTER", "STANDBY", "DISCOVERING", "NOT_ACTIVE" or "UNKNOWN". */
const char *rk_sm_state_name(enum rk_sm_state state);

#endif
