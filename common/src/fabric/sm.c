/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/sm.h"

#include "rdmakit/array.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rk_sm_state_name(enum rk_sm_state state)
{
	static const char *const names[] = {
	    [RK_SM_NOT_ACTIVE] = "NOT_ACTIVE",
	    [RK_SM_DISCOVERING] = "DISCOVERING",
	    [RK_SM_STANDBY] = "STANDBY",
	    [RK_SM_MASTER] = "MASTER",
	};

	return RK_NAME_IN(names, state, "UNKNOWN");
}

static bool have_lid(const uint16_t *lids, size_t count, uint16_t lid)
{
	for (size_t i = 0; i < count; i++)
		if (lids[i] == lid)
			return true;
	return false;
}

/* The LID of every node advertising IsSM: a switch answers at port 0, a CA at its port. */
static size_t sm_candidates(const struct rk_fabric *fabric, uint16_t master, uint16_t *lids,
			    size_t max)
{
	size_t count = 0;

	if (rk_lid_is_unicast(master))
		lids[count++] = master;
	for (size_t n = 0; fabric && n < fabric->nnodes && count < max; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];

		for (int p = 0; node->is_sm && p <= node->nports && count < max; p++) {
			const struct rk_fabric_port *port = &node->ports[p];

			if (port->present && (port->cap_mask & 2) && rk_lid_is_unicast(port->lid) &&
			    !have_lid(lids, count, port->lid))
				lids[count++] = port->lid;
		}
	}
	return count;
}

static void name_sm(const struct rk_fabric *fabric, struct rk_sm *sm)
{
	for (size_t n = 0; fabric && n < fabric->nnodes; n++)
		for (int p = 0; p <= fabric->nodes[n].nports; p++)
			if (fabric->nodes[n].ports[p].present &&
			    fabric->nodes[n].ports[p].guid == sm->guid) {
				snprintf(sm->name, sizeof(sm->name), "%s", fabric->nodes[n].name);
				return;
			}
}

static void decode_sminfo(const struct rk_mad_request *request, struct rk_sm *sm)
{
	const uint8_t *data = rk_mad_reply_data(request);

	sm->status = request->status;
	if (request->status != 0)
		return;
	sm->guid = mad_get_field64((void *)data, 0, IB_SMINFO_GUID_F);
	sm->activity_count = mad_get_field((void *)data, 0, IB_SMINFO_ACT_F);
	sm->priority = (int)mad_get_field((void *)data, 0, IB_SMINFO_PRIO_F);
	sm->state = (enum rk_sm_state)mad_get_field((void *)data, 0, IB_SMINFO_STATE_F);
}

/* The master SM's LID as the local port's PortInfo says now (an SMP to the port itself; sysfs
 * sm_lid, fallback, when it is not answered): ibsim's shim writes sysfs once, never again. */
static uint16_t local_master_lid(struct rk_mad_port *port, const struct rk_mad_options *options,
				 uint16_t fallback)
{
	struct rk_mad_request request;

	if (rk_mad_master_sm_request(port, &request) != 0 ||
	    rk_mad_run(port, &request, 1, options, NULL, NULL, NULL) != 0 || request.status != 0)
		return fallback;
	return rk_mad_master_sm_lid(&request);
}

int rk_sm_query(struct rk_mad_port *port, const struct rk_fabric *fabric,
		const struct rk_mad_options *options, struct rk_sm_status *status)
{
	struct rk_mad_local local;
	struct rk_mad_request *requests;
	uint16_t lids[256];
	size_t count;
	int err = rk_mad_port_local(port, &local);

	memset(status, 0, sizeof(*status));
	if (err)
		return err;
	status->local_lid = local.lid;
	status->local_sm_lid = local_master_lid(port, options, local.sm_lid);
	count = sm_candidates(fabric, status->local_sm_lid, lids, sizeof(lids) / sizeof(lids[0]));
	requests = calloc(count ? count : 1, sizeof(*requests));
	status->sms = calloc(count ? count : 1, sizeof(*status->sms));
	if (!requests || !status->sms) {
		free(requests);
		rk_sm_status_free(status);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count; i++)
		requests[i] = (struct rk_mad_request){.route = RK_MAD_LID,
						      .mgmt_class = RK_MAD_CLASS_SMP,
						      .lid = lids[i],
						      .method = RK_MAD_METHOD_GET,
						      .attr_id = RK_SMP_ATTR_SM_INFO};
	err = rk_mad_run(port, requests, count, options, NULL, NULL, NULL);
	for (size_t i = 0; i < count && !err; i++) {
		struct rk_sm *sm = &status->sms[status->count++];

		sm->lid = lids[i];
		decode_sminfo(&requests[i], sm);
		name_sm(fabric, sm);
		if (sm->status) /* front ends show it (a daemon once, not at every query) */
			rk_log(RK_LOG_DEBUG, "SMInfo from LID %u: %s", sm->lid,
			       strerror(-sm->status));
	}
	free(requests);
	if (err) /* nothing was filled in: the caller has nothing to free */
		rk_sm_status_free(status);
	return err;
}

const struct rk_sm *rk_sm_master(const struct rk_sm_status *status)
{
	for (size_t i = 0; i < status->count; i++)
		if (status->sms[i].status == 0 && status->sms[i].state == RK_SM_MASTER)
			return &status->sms[i];
	return NULL;
}

void rk_sm_summarize(const struct rk_sm_status *status, struct rk_sm_summary *out)
{
	const struct rk_sm *local;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < status->count; i++) {
		const struct rk_sm *sm = &status->sms[i];

		if (sm->status != 0)
			continue;
		out->answered++;
		if (sm->state >= RK_SM_NOT_ACTIVE && sm->state <= RK_SM_MASTER)
			out->in_state[sm->state]++;
	}
	out->master = rk_sm_master(status);
	local = rk_sm_find(status, status->local_sm_lid);
	out->described = out->master ? out->master : local && local->status == 0 ? local : NULL;
}

const struct rk_sm *rk_sm_find(const struct rk_sm_status *status, uint16_t lid)
{
	for (size_t i = 0; i < status->count; i++)
		if (status->sms[i].lid == lid)
			return &status->sms[i];
	return NULL;
}

void rk_sm_status_free(struct rk_sm_status *status)
{
	free(status->sms);
	memset(status, 0, sizeof(*status));
}

enum rk_sm_answer_change rk_sm_answer_change(const struct rk_sm_status *before,
					     const struct rk_sm *sm)
{
	const struct rk_sm *old = rk_sm_find(before, sm->lid);

	if (!old)
		return sm->status ? RK_SM_NEW_AND_SILENT : RK_SM_ANSWERS_AS_BEFORE;
	if (sm->status && !old->status)
		return RK_SM_STOPPED_ANSWERING;
	if (!sm->status && old->status)
		return RK_SM_ANSWERS_AGAIN;
	return RK_SM_ANSWERS_AS_BEFORE;
}

void rk_sm_describe(const struct rk_sm *sm, char *buf, size_t size)
{
	char guid[24];

	rk_format_guid(sm->guid, guid, sizeof(guid));
	snprintf(buf, size, "%s (LID %u, GUID %s, priority %d)", sm->name[0] ? sm->name : "unnamed",
		 sm->lid, guid, sm->priority);
}

int rk_sm_status_copy(const struct rk_sm_status *status, struct rk_sm_status *copy)
{
	*copy = *status;
	copy->sms = malloc((status->count ? status->count : 1) * sizeof(*copy->sms));
	if (!copy->sms) {
		memset(copy, 0, sizeof(*copy));
		return -ENOMEM;
	}
	if (status->count)
		memcpy(copy->sms, status->sms, status->count * sizeof(*copy->sms));
	return 0;
}
