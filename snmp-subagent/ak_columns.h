/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Column numbers of RDMAKIT-MIB's tables (mibs/RDMAKIT-MIB.txt). Whatever the core's table of
 * facts (facts.h) or its catalog (catalog.h) describes takes its column from there; the
 * subagent's own columns are the numbers below (90 and up in fact-numbered tables, so that
 * the table of facts can grow without meeting them). */
#ifndef AK_COLUMNS_H
#define AK_COLUMNS_H

#include "rdmakit/facts.h"

#define AK_FACT_COLUMN(id_) (rk_fact(id_)->column)

/* rdmakitAgent scalars */
enum {
	AK_AGENT_VERSION = 1,
	AK_AGENT_HOST_REFRESHED_AT,
	AK_AGENT_HOST_REFRESH_DURATION,
	AK_AGENT_SNAPSHOT_AGE,
	AK_AGENT_REFRESH_ERRORS,
	AK_AGENT_FABRIC_SWEPT_AT,
	AK_AGENT_FABRIC_SWEEP_DURATION,
	AK_AGENT_FABRIC_SWEEP_ERRORS,
	AK_AGENT_ACTIVE_FINDINGS,
	AK_AGENT_SERVED_MODES,
};

/* rdmakitDeviceEntry: the facts' columns (ak_row_set_facts), and the name; the GUID traps send
 * (as octets, not served, and as text) */
#define AK_DEVICE_NODE_GUID	 AK_FACT_COLUMN(RK_FACT_DEVICE_NODE_GUID)
#define AK_DEVICE_NODE_GUID_TEXT AK_FACT_COLUMN(RK_FACT_DEVICE_NODE_GUID_TEXT)
#define AK_DEVICE_NAME		 90

/* rdmakitPortEntry: the facts' columns (the states traps send), the worst finding and the
 * probe's outcome */
#define AK_PORT_STATE	       AK_FACT_COLUMN(RK_FACT_PORT_STATE)
#define AK_PORT_PHYS_STATE     AK_FACT_COLUMN(RK_FACT_PORT_PHYS_STATE)
#define AK_PORT_WORST_SEVERITY 90
#define AK_PORT_WORST_FINDING  91
#define AK_PORT_PROBE_STATUS   92 /* the loopback probe (ak_probe.h) */
#define AK_PORT_PROBE_RTT      93
#define AK_PORT_PROBE_FAILURE  94
#define AK_PORT_DEVICE_NAME    95

/* rdmakitPortCounterEntry and rdmakitFabricCounterEntry: the catalog's PMA columns, and */
#define AK_PC_DISCONTINUITY 90
#define AK_PC_SATURATED	    91
#define AK_PC_UNAVAILABLE   92

/* rdmakitDriverCounterEntry */
enum {
	AK_DC_NAME = 3,
	AK_DC_VALUE,
	AK_DC_STATE,
	AK_DC_DEVICE_NAME,
	AK_DC_PORT_NUM,
};

/* rdmakitFindingEntry */
enum {
	AK_FINDING_CODE = 2,
	AK_FINDING_SEVERITY,
	AK_FINDING_SUBJECT,
	AK_FINDING_MESSAGE,
	AK_FINDING_REMEDY,
	AK_FINDING_RAISED_AT,
	AK_FINDING_NODE_GUID,
	AK_FINDING_NODE_PORT,
};

/* rdmakitFindingSummary scalars: what a poller without traps follows findings by */
enum {
	AK_FINDINGS_RAISED = 1,
	AK_FINDINGS_CLEARED,
	AK_FINDINGS_LAST_CHANGE,
	AK_FINDINGS_CRITICAL,
	AK_FINDINGS_WARNING,
};

/* rdmakitSmScalars: the SM facts' columns (those traps send), and the master's GUID as text
 * (as octets only in rdmakitSmMasterChange); the SM, fabric node and fabric port tables have
 * only facts' columns */
#define AK_SM_MASTER_LID       AK_FACT_COLUMN(RK_FACT_SM_MASTER_LID)
#define AK_SM_MASTER_PRIORITY  AK_FACT_COLUMN(RK_FACT_SM_MASTER_PRIORITY)
#define AK_SM_MASTER_GUID      90
#define AK_SM_MASTER_GUID_TEXT 91

/* TruthValue */
enum {
	AK_TRUE = 1,
	AK_FALSE = 2,
};

#endif
