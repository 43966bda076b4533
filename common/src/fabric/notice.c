/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The SA's InformInfo subscription and the Notices its Reports carry (IBA 13.4.8, 15.2.5.12). */
#include "rdmakit/notice.h"

#include "rdmakit/route.h"

#include <endian.h>
#include <errno.h>
#include <infiniband/mad.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define SA_CLASS 0x03

/* InformInfo (IBA 15.2.5.12): byte offsets in the SA data. */
#define II_LID_BEGIN   16
#define II_LID_END     18
#define II_IS_GENERIC  22
#define II_SUBSCRIBE   23
#define II_TYPE	       24
#define II_TRAP_NUMBER 26
#define II_QPN	       28 /* 24 bits, then RespTimeValue */
#define II_PRODUCER    33 /* 24 bits */
#define GSI_QPN	       1  /* Reports come to QP1 */
#define ALL_LIDS       0xffff
#define ALL_TYPES      0xffff
#define ALL_TRAPS      0xffff
#define ALL_PRODUCERS  0xffffff
/* InformInfo component mask bits are not used by Set: the whole record counts. */

/* Notice (IBA 13.4.8.2): byte offsets in the SA data of a Report. */
#define N_GENERIC_TYPE 0 /* IsGeneric (bit 7), Type (bits 6..0) */
#define N_PRODUCER     1 /* 24 bits */
#define N_TRAP_NUMBER  4
#define N_ISSUER_LID   6
#define N_DETAILS      10 /* DataDetails, 54 bytes */
#define N_SIZE	       80
#define D_SWITCH_LID   0 /* 128: the switch's LID in DataDetails */
#define D_LID	       2 /* 129-131, 144, 145, 256-259: the (first) LID */
#define D_PORT	       4 /* 129-131: the port */
#define D_GID	       6 /* 64-67: the GID */
#define D_SYSTEM_GUID  6 /* 145: the new system image GUID */

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void rk_notice_subscription(struct rk_mad_request *request, uint16_t sa_lid, bool subscribe)
{
	uint8_t *ii = request->data; /* an SA request's data go from RK_SA_DATA_OFFSET */

	*request = (struct rk_mad_request){.route = RK_MAD_LID,
					   .mgmt_class = RK_MAD_CLASS_SA,
					   .lid = sa_lid,
					   .method = RK_MAD_METHOD_SET,
					   .attr_id = RK_SA_ATTR_INFORM_INFO};
	put16(ii + II_LID_BEGIN, ALL_LIDS);
	put16(ii + II_LID_END, 0);
	ii[II_IS_GENERIC] = 1;
	ii[II_SUBSCRIBE] = subscribe;
	put16(ii + II_TYPE, ALL_TYPES);
	put16(ii + II_TRAP_NUMBER, ALL_TRAPS);
	ii[II_QPN + 2] = GSI_QPN; /* what an SA matches an unsubscription on */
	ii[II_PRODUCER] = (uint8_t)(ALL_PRODUCERS >> 16);
	put16(ii + II_PRODUCER + 1, (uint16_t)ALL_PRODUCERS);
}

/* The subject of a trap from its DataDetails. */
static void decode_details(const uint8_t *d, struct rk_notice *out)
{
	switch (out->trap) {
	case RK_TRAP_GID_IN_SERVICE:
	case RK_TRAP_GID_OUT_OF_SERVICE:
	case RK_TRAP_MCAST_CREATED:
	case RK_TRAP_MCAST_DELETED:
		out->guid = get64(d + D_GID + 8); /* the GID's interface id */
		return;
	case RK_TRAP_LINK_INTEGRITY:
	case RK_TRAP_BUFFER_OVERRUN:
	case RK_TRAP_FLOW_WATCHDOG:
		out->port = d[D_PORT];
		out->lid = get16(d + D_LID);
		return;
	case RK_TRAP_SYSTEM_IMAGE_CHANGED:
		out->guid = get64(d + D_SYSTEM_GUID);
		out->lid = get16(d + D_LID);
		return;
	case RK_TRAP_LINK_STATE:
		out->lid = get16(d + D_SWITCH_LID);
		return;
	case RK_TRAP_CAPABILITY_CHANGED:
	case RK_TRAP_BAD_MKEY:
	case RK_TRAP_BAD_PKEY:
	case RK_TRAP_BAD_QKEY:
	case RK_TRAP_BAD_SWITCH_PKEY:
		out->lid = get16(d + D_LID);
		return;
	default:
		return;
	}
}

int rk_notice_decode(const uint8_t *mad, size_t length, struct rk_notice *out, const char **why)
{
	const uint8_t *n = mad + RK_SA_DATA_OFFSET;

	memset(out, 0, sizeof(*out));
	if (length < RK_SA_DATA_OFFSET + N_SIZE) {
		*why = "shorter than a Report of a Notice";
		return -EBADMSG;
	}
	if (mad[1] != SA_CLASS || mad[3] != RK_MAD_METHOD_REPORT ||
	    get16(mad + 16) != RK_SA_ATTR_NOTICE) {
		*why = "not a Report of a Notice from the SA";
		return -EBADMSG;
	}
	if (!(n[N_GENERIC_TYPE] & 0x80)) {
		*why = "a vendor-specific notice";
		return -EBADMSG;
	}
	out->type = n[N_GENERIC_TYPE] & 0x7f;
	out->producer = (uint32_t)n[N_PRODUCER] << 16 | get16(n + N_PRODUCER + 1);
	out->trap = get16(n + N_TRAP_NUMBER);
	out->issuer_lid = get16(n + N_ISSUER_LID);
	out->tid = (uint32_t)get64(mad + 8);
	decode_details(n + N_DETAILS, out);
	return 0;
}

const char *rk_trap_name(uint16_t trap)
{
	switch (trap) {
	case RK_TRAP_GID_IN_SERVICE:
		return "port in service";
	case RK_TRAP_GID_OUT_OF_SERVICE:
		return "port out of service";
	case RK_TRAP_MCAST_CREATED:
		return "multicast group created";
	case RK_TRAP_MCAST_DELETED:
		return "multicast group deleted";
	case RK_TRAP_LINK_STATE:
		return "link state change";
	case RK_TRAP_LINK_INTEGRITY:
		return "local link integrity";
	case RK_TRAP_BUFFER_OVERRUN:
		return "excessive buffer overrun";
	case RK_TRAP_FLOW_WATCHDOG:
		return "flow control watchdog";
	case RK_TRAP_CAPABILITY_CHANGED:
		return "capability or description change";
	case RK_TRAP_SYSTEM_IMAGE_CHANGED:
		return "system image GUID change";
	case RK_TRAP_BAD_MKEY:
		return "bad M_Key";
	case RK_TRAP_BAD_PKEY:
		return "bad P_Key";
	case RK_TRAP_BAD_QKEY:
		return "bad Q_Key";
	case RK_TRAP_BAD_SWITCH_PKEY:
		return "bad P_Key at a switch port";
	default:
		return "trap";
	}
}

const char *rk_trap_meaning(uint16_t trap)
{
	switch (trap) {
	case RK_TRAP_GID_IN_SERVICE:
		return "the SM brought a port into the subnet";
	case RK_TRAP_GID_OUT_OF_SERVICE:
		return "the SM took a port out of the subnet: its node is down, rebooting or "
		       "unplugged";
	case RK_TRAP_LINK_STATE:
		return "a port of this switch went down or came up: check the cable and both ends";
	case RK_TRAP_LINK_INTEGRITY:
		return "the port's local link integrity errors passed their threshold: check the "
		       "cable";
	case RK_TRAP_BUFFER_OVERRUN:
		return "the port's receive buffers overran past their threshold: check credits "
		       "and the peer";
	case RK_TRAP_FLOW_WATCHDOG:
		return "the port's flow control update watchdog fired: the link is stalling";
	case RK_TRAP_CAPABILITY_CHANGED:
		return "the node changed its capabilities or its description";
	case RK_TRAP_SYSTEM_IMAGE_CHANGED:
		return "the node's system image GUID changed (new firmware or a replaced board)";
	case RK_TRAP_BAD_MKEY:
		return "security: a management request carried a wrong M_Key; find who sent it "
		       "(an unauthorised SM or tool)";
	case RK_TRAP_BAD_PKEY:
	case RK_TRAP_BAD_SWITCH_PKEY:
		return "security: a packet carried a P_Key its port is not a member of; check "
		       "partitions and the sender";
	case RK_TRAP_BAD_QKEY:
		return "security: a datagram carried a wrong Q_Key; check the sending "
		       "application";
	default:
		return NULL;
	}
}

void rk_notice_subject(const struct rk_notice *notice, const struct rk_fabric *fabric, char *out,
		       size_t size)
{
	int port = notice->port, node = -1;

	if (notice->lid && fabric)
		node = rk_route_lid_owner(fabric, notice->lid, notice->port ? NULL : &port);
	else if (notice->guid && fabric && notice->trap != RK_TRAP_SYSTEM_IMAGE_CHANGED)
		node = rk_route_guid_owner(fabric, notice->guid, &port);
	if (node >= 0 && port > 0)
		rk_fabric_port_label(fabric, (size_t)node, port, out, size);
	else if (node >= 0)
		snprintf(out, size, "%s", fabric->nodes[node].name);
	else if (notice->lid && notice->port)
		snprintf(out, size, "LID %u port %u%s", (unsigned)notice->lid,
			 (unsigned)notice->port, fabric ? " (not in the fabric discovered)" : "");
	else if (notice->lid)
		snprintf(out, size, "LID %u%s", (unsigned)notice->lid,
			 fabric ? " (not in the fabric discovered)" : "");
	else if (notice->guid)
		snprintf(out, size, "port 0x%016" PRIx64, notice->guid);
	else
		snprintf(out, size, "LID %u", (unsigned)notice->issuer_lid);
}
