/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The PMA port counters of the catalog, one row each and in this order: a new port counter is
 * one row here (catalog.c makes the catalog's entries of them, catalog.h counts them, the MIB
 * and the reference tables are written from the catalog). Each row is ROW or ADDL (a counter
 * whose 64-bit form is one of PortCountersExtended's additional counters) of: the MIB column
 * (30 and up, fixed once published), the sysfs name, the width in bits, the narrow width of
 * its PortCounters form (0: none), the scale to its unit, the unit, whether it counts errors,
 * its PortCounters and PortCountersExtended fields (libibmad's IB_PC_*, 0: none), its
 * CounterSelect bit (-1: not cleared by name) and its help text. */
#ifndef RDMAKIT_CATALOG_PMA_H
#define RDMAKIT_CATALOG_PMA_H

#define RK_PMA_COUNTERS(ROW, ADDL)                                                                 \
	ROW(30, "symbol_error", 16, 0, 1, "errors", true, IB_PC_ERR_SYM_F, 0, 0,                   \
	    "Minor link errors detected on one or more physical lanes")                            \
	ROW(31, "link_error_recovery", 8, 0, 1, "events", true, IB_PC_LINK_RECOVERS_F, 0, 1,       \
	    "Times the link error recovery process completed successfully")                        \
	ROW(32, "link_downed", 8, 0, 1, "events", true, IB_PC_LINK_DOWNED_F, 0, 2,                 \
	    "Times the link error recovery process failed and the link went down")                 \
	ROW(33, "port_rcv_errors", 16, 0, 1, "packets", true, IB_PC_ERR_RCV_F, 0, 3,               \
	    "Packets received with an error (bad CRC, length, VL or malformed)")                   \
	ROW(34, "port_rcv_remote_physical_errors", 16, 0, 1, "packets", true, IB_PC_ERR_PHYSRCV_F, \
	    0, 4, "Packets received marked bad by an upstream link (EBP delimiter)")               \
	ROW(35, "port_rcv_switch_relay_errors", 16, 0, 1, "packets", true, IB_PC_ERR_SWITCH_REL_F, \
	    0, 5, "Packets a switch could not forward (no route, wrong VL, loops)")                \
	ROW(36, "port_xmit_discards", 16, 0, 1, "packets", true, IB_PC_XMT_DISCARDS_F, 0, 6,       \
	    "Outbound packets discarded because the port was down or congested")                   \
	ROW(37, "port_xmit_constraint_errors", 8, 0, 1, "packets", true, IB_PC_ERR_XMTCONSTR_F, 0, \
	    7, "Outbound packets not sent because of a partition or raw constraint")               \
	ROW(38, "port_rcv_constraint_errors", 8, 0, 1, "packets", true, IB_PC_ERR_RCVCONSTR_F, 0,  \
	    8, "Inbound packets discarded because of a partition or raw constraint")               \
	ROW(39, "local_link_integrity_errors", 4, 0, 1, "events", true, IB_PC_ERR_LOCALINTEG_F, 0, \
	    9, "Times local physical errors exceeded the LocalPhyErrors threshold")                \
	ROW(40, "excessive_buffer_overrun_errors", 4, 0, 1, "events", true,                        \
	    IB_PC_ERR_EXCESS_OVR_F, 0, 10,                                                         \
	    "Times consecutive receive buffer overruns exceeded the OverrunErrors threshold")      \
	ROW(41, "VL15_dropped", 16, 0, 1, "packets", false, IB_PC_VL15_DROPPED_F, 0, 11,           \
	    "Subnet management packets dropped for lack of VL15 buffers")                          \
	ADDL(42, "port_xmit_wait", 64, 32, 1, "ticks", false, IB_PC_XMT_WAIT_F,                    \
	     IB_PC_EXT_XMT_WAIT_F, -1,                                                             \
	     "Ticks during which the port had data to send but no flow-control credits")           \
	ROW(43, "port_xmit_data", 64, 32, 4, "bytes", false, IB_PC_XMT_BYTES_F,                    \
	    IB_PC_EXT_XMT_BYTES_F, -1, "Data bytes transmitted, all VLs")                          \
	ROW(44, "port_rcv_data", 64, 32, 4, "bytes", false, IB_PC_RCV_BYTES_F,                     \
	    IB_PC_EXT_RCV_BYTES_F, -1, "Data bytes received, all VLs")                             \
	ROW(45, "port_xmit_packets", 64, 32, 1, "packets", false, IB_PC_XMT_PKTS_F,                \
	    IB_PC_EXT_XMT_PKTS_F, -1, "Packets transmitted, all VLs")                              \
	ROW(46, "port_rcv_packets", 64, 32, 1, "packets", false, IB_PC_RCV_PKTS_F,                 \
	    IB_PC_EXT_RCV_PKTS_F, -1, "Packets received, all VLs")                                 \
	ROW(47, "unicast_xmit_packets", 64, 0, 1, "packets", false, 0, IB_PC_EXT_XMT_UPKTS_F, -1,  \
	    "Unicast packets transmitted")                                                         \
	ROW(48, "unicast_rcv_packets", 64, 0, 1, "packets", false, 0, IB_PC_EXT_RCV_UPKTS_F, -1,   \
	    "Unicast packets received")                                                            \
	ROW(49, "multicast_xmit_packets", 64, 0, 1, "packets", false, 0, IB_PC_EXT_XMT_MPKTS_F,    \
	    -1, "Multicast packets transmitted")                                                   \
	ROW(50, "multicast_rcv_packets", 64, 0, 1, "packets", false, 0, IB_PC_EXT_RCV_MPKTS_F, -1, \
	    "Multicast packets received")

#endif
