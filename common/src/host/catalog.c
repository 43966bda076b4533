/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/catalog.h"

#include "rdmakit/catalog_pma.h"

#include <infiniband/mad.h>
#include <string.h>

/* The fields of catalog_pma.h's rows; col_: the counter's MIB column, 30 and up (below: the
 * port facts', facts.c); fixed once published. */
#define PMA_FIELDS(col_, n_, w_, narrow_, scale_, unit_, err_, field_, ext_, bit_, help_)          \
	.name = n_, .source = RK_SRC_PORT_COUNTERS, .width = w_, .narrow_width = narrow_,          \
	.kind = RK_KIND_COUNTER, .scale = scale_, .unit = unit_, .is_error = err_, .help = help_,  \
	.pma_field = field_, .pma_ext_field = ext_, .reset_bit = bit_, .column = col_
/* A catalog entry of each row of catalog_pma.h. */
#define PMA(...) {PMA_FIELDS(__VA_ARGS__)},
/* A counter whose 64-bit form is one of PortCountersExtended's additional counters. */
#define PMA_ADDL(...) {PMA_FIELDS(__VA_ARGS__), .pma_ext_additional = true},
#define HW(n_, unit_, err_, help_)                                                                 \
	{                                                                                          \
		.name = n_, .source = RK_SRC_HW_COUNTERS, .width = 64, .kind = RK_KIND_COUNTER,    \
		.scale = 1, .unit = unit_, .is_error = err_, .wraps = true, .help = help_,         \
		.reset_bit = -1                                                                    \
	}

/* The PMA counters first (catalog_pma.h), then the driver's and the per-VL ones. */
static const struct rk_metric catalog[] = {
    RK_PMA_COUNTERS(PMA, PMA_ADDL)
	HW("out_of_buffer", "packets", true,
	   "Packets dropped because no receive WQE was posted (receive queue empty)"),
    HW("out_of_sequence", "packets", true, "Out-of-sequence packets received"),
    HW("packet_seq_err", "events", true, "NAKs for packet sequence errors received"),
    HW("local_ack_timeout_err", "events", true,
       "Times a sender's QP ACK timer expired (retransmissions)"),
    HW("rnr_nak_retry_err", "events", true, "RNR NAKs received after the retry limit"),
    HW("implied_nak_seq_err", "events", true, "ACKs with a PSN beyond the expected one"),
    HW("duplicate_request", "packets", false, "Duplicate requests received"),
    HW("req_cqe_error", "events", true, "Requester completions with an error"),
    HW("req_cqe_flush_error", "events", false, "Requester completions flushed with an error"),
    HW("resp_cqe_error", "events", true, "Responder completions with an error"),
    HW("resp_cqe_flush_error", "events", false, "Responder completions flushed with an error"),
    HW("resp_local_length_error", "events", true, "Responder local length errors"),
    HW("resp_remote_access_errors", "events", true, "Responder remote access errors"),
    HW("req_remote_access_errors", "events", true, "Requester remote access errors"),
    HW("req_remote_invalid_request", "events", true, "Requester remote invalid request NAKs"),
    HW("rx_write_requests", "packets", false, "RDMA WRITE requests received"),
    HW("rx_read_requests", "packets", false, "RDMA READ requests received"),
    HW("rx_atomic_requests", "packets", false, "Atomic requests received"),
    HW("rx_icrc_encapsulated", "packets", true, "RoCE packets received with an ICRC error"),
    HW("np_cnp_sent", "packets", false,
       "Congestion notification packets sent (notification point)"),
    HW("np_ecn_marked_roce_packets", "packets", false, "ECN-marked RoCE packets received"),
    HW("rp_cnp_handled", "packets", false,
       "Congestion notification packets handled (reaction point)"),
    HW("rp_cnp_ignored", "packets", false, "Congestion notification packets ignored"),
    HW("roce_adp_retrans", "events", false, "Adaptive retransmissions for RoCE traffic"),
    HW("roce_slow_restart", "events", false, "RoCE slow restarts"),
    HW("sent_pkts", "packets", false, "Packets sent (soft-RoCE)"),
    HW("rcvd_pkts", "packets", false, "Packets received (soft-RoCE)"),
    HW("out_of_seq_request", "packets", true, "Out-of-sequence requests received (soft-RoCE)"),
    HW("rcvd_rnr_err", "events", true, "RNR NAKs received (soft-RoCE)"),
    HW("send_rnr_err", "events", true, "RNR NAKs sent (soft-RoCE)"),
    HW("rcvd_seq_err", "events", true, "Sequence errors received (soft-RoCE)"),
    HW("ack_deferred", "events", false, "ACKs deferred (soft-RoCE)"),
    HW("retry_exceeded_err", "events", true, "Retries exceeded (soft-RoCE)"),
    HW("retry_rnr_exceeded_err", "events", true, "RNR retries exceeded (soft-RoCE)"),
    HW("completer_retry_err", "events", true, "Completer retries (soft-RoCE)"),
    HW("send_err", "events", true, "Send errors (soft-RoCE)"),
    HW("link_downed", "events", true, "Times the link went down (driver counter)"),
    HW("rdma_sends", "packets", false, "RDMA sends (soft-RoCE)"),
    HW("rdma_recvs", "packets", false, "RDMA receives (soft-RoCE)"),
    {.name = "lifespan",
     .source = RK_SRC_HW_COUNTERS,
     .width = 64,
     .kind = RK_KIND_GAUGE,
     .scale = 1,
     .unit = "ms",
     .help = "How long the driver caches hw_counters values (a setting, not a counter)",
     .reset_bit = -1},
    {.name = "port_vl_xmit_wait",
     .source = RK_SRC_PORT_VL_COUNTERS,
     .width = 16,
     .kind = RK_KIND_COUNTER,
     .scale = 1,
     .unit = "ticks",
     .help = "Ticks during which the port had data to send on one VL but no flow-control "
	     "credits (PortVLXmitWaitCounters, one counter per VL)",
     .pma_field = IB_PC_PORT_VL_XMIT_WAIT0_F,
     .reset_bit = -1},
};

/* The first entries above are the PMA counters, in their order. */
#define PMA_COUNT RK_PMA_COUNT

static const struct rk_metric unknown_hw =
    HW("(driver counter)", "events", false, "Driver-specific counter not described by rdmakit");

const struct rk_metric *rk_catalog_find(enum rk_source source, const char *name)
{
	for (size_t i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++)
		if (catalog[i].source == source && strcmp(catalog[i].name, name) == 0)
			return &catalog[i];
	return NULL;
}

const struct rk_metric *rk_catalog_unknown_hw(void)
{
	return &unknown_hw;
}

const struct rk_metric *rk_catalog_all(size_t *count)
{
	*count = sizeof(catalog) / sizeof(catalog[0]);
	return catalog;
}

const struct rk_metric *rk_catalog_pma(size_t *count)
{
	*count = PMA_COUNT;
	return catalog;
}

int rk_catalog_pma_index(const char *name)
{
	for (int i = 0; i < PMA_COUNT; i++)
		if (strcmp(catalog[i].name, name) == 0)
			return i;
	return -1;
}

uint64_t rk_metric_max(unsigned width)
{
	return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}
