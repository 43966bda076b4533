/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* mcast_join MGID: join the local port to multicast group MGID as a full member (an SA
 * Set(MCMemberRecord) to the master SM, creating the group in the default partition when it
 * does not exist), as IPoIB or rdma_join_multicast would; prints the group's MLID. The test's
 * member, under ibsim's shim (SIM_HOST picks the CA). */
#include "rdmakit/mad.h"

#include <arpa/inet.h>
#include <infiniband/mad.h>
#include <infiniband/umad_sa_mcm.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_PKEY 0xffff
#define QKEY	     0x0b1b
#define CREATE_MASK                                                                                \
	(UMAD_SA_MCM_COMP_MASK_MGID | UMAD_SA_MCM_COMP_MASK_QKEY | UMAD_SA_MCM_COMP_MASK_TCLASS |  \
	 UMAD_SA_MCM_COMP_MASK_PKEY | UMAD_SA_MCM_COMP_MASK_SL |                                   \
	 UMAD_SA_MCM_COMP_MASK_FLOW_LABEL | UMAD_SA_MCM_COMP_MASK_JOIN_STATE)

static void join_request(struct rk_mad_request *r, const uint8_t *mgid,
			 const struct rk_mad_local *local)
{
	rk_sa_mcmember_request(r, local->sm_lid, RK_MAD_METHOD_SET, local->port_guid);
	r->component_mask |= CREATE_MASK;
	mad_set_array(r->data, 0, IB_SA_MCM_MGID_F, (void *)mgid);
	mad_set_field(r->data, 0, IB_SA_MCM_QKEY_F, QKEY);
	mad_set_field(r->data, 0, IB_SA_MCM_PKEY_F, DEFAULT_PKEY);
	mad_set_field(r->data, 0, IB_SA_MCM_JOIN_STATE_F, 1); /* full member */
}

int main(int argc, char **argv)
{
	struct rk_mad_request r;
	struct rk_mad_local local;
	struct rk_mad_port *port;
	uint8_t mgid[16];
	int err;

	if (argc != 2 || inet_pton(AF_INET6, argv[1], mgid) != 1 || mgid[0] != 0xff) {
		fprintf(stderr, "usage: mcast_join MGID (ff12:...)\n");
		return 2;
	}
	if (rk_mad_port_open(NULL, 0, &port) != 0)
		return 1;
	err = rk_mad_port_local(port, &local);
	if (!err && !local.sm_lid)
		err = -1;
	if (!err) {
		join_request(&r, mgid, &local);
		err = rk_mad_run(port, &r, 1, NULL, NULL, NULL, NULL);
	}
	if (!err && r.status)
		fprintf(stderr,
			"mcast_join: the SA refused the join: status %d, MAD status 0x%04x\n",
			r.status, r.mad_status);
	else if (!err)
		printf("MLID 0x%04x\n",
		       (unsigned)mad_get_field((void *)(r.reply + RK_SA_DATA_OFFSET), 0,
					       IB_SA_MCM_MLID_F));
	rk_mad_port_close(port);
	return !err && !r.status ? 0 : 1;
}
