/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The table of facts (facts.h). Columns are written out here and never renumbered: a fact that
 * goes away leaves its column unused, a new one takes the next free column of its scope. Port
 * facts use columns 3 to 29 of the port table; the PMA counters (catalog.c) 30 and up. The
 * fabric node and port tables are indexed by the GUID (and the port number): their facts
 * take columns from 2. */
#include "rdmakit/facts.h"

#include "rdmakit/array.h"
#include "rdmakit/route.h"
#include "rdmakit/text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PORT_NUMBER(field_)                                                                        \
	static double port_##field_(const struct rk_port *port)                                    \
	{                                                                                          \
		return (double)port->field_;                                                       \
	}
#define PORT_TEXT(field_)                                                                          \
	static const char *port_##field_(const struct rk_port *port)                               \
	{                                                                                          \
		return port->field_;                                                               \
	}
#define DEVICE_NUMBER(name_, field_)                                                               \
	static double device_##name_(const struct rk_device *device)                               \
	{                                                                                          \
		return (double)device->field_;                                                     \
	}
#define DEVICE_TEXT(name_, field_)                                                                 \
	static const char *device_##name_(const struct rk_device *device)                          \
	{                                                                                          \
		return device->field_;                                                             \
	}

PORT_NUMBER(state)
PORT_TEXT(state_name)
PORT_NUMBER(phys_state)
PORT_TEXT(phys_state_name)
PORT_NUMBER(rate_gbps)
PORT_NUMBER(width)
static const char *port_speed(const struct rk_port *port)
{
	return rk_speed_info(port->speed)->name;
}
PORT_NUMBER(lid)
PORT_NUMBER(sm_lid)
PORT_NUMBER(sm_sl)
PORT_NUMBER(lmc)
PORT_NUMBER(cap_mask)
PORT_TEXT(link_layer)
PORT_TEXT(gid0)
PORT_TEXT(netdev)

/* The port GUID: the interface identifier of GID 0 (its last four groups), "" without one. */
static const char *port_guid(const struct rk_port *port)
{
	static const size_t gid_text = sizeof("fe80:0000:0000:0000:0002:c903:0000:0001") - 1;
	size_t length = strlen(port->gid0);

	return length == gid_text ? port->gid0 + gid_text / 2 + 1 : "";
}
DEVICE_NUMBER(node_type, node_type)
DEVICE_TEXT(node_type_name, node_type_name)
DEVICE_TEXT(node_guid, node_guid)
DEVICE_TEXT(sys_image_guid, sys_image_guid)
DEVICE_TEXT(fw_ver, fw_ver)
DEVICE_TEXT(hca_type, hca_type)
DEVICE_TEXT(board_id, board_id)
DEVICE_TEXT(hw_rev, hw_rev)
DEVICE_TEXT(node_desc, node_desc)
DEVICE_NUMBER(num_ports, nports)
DEVICE_NUMBER(vanished, vanished)
DEVICE_TEXT(pci_address, pci.address)
DEVICE_NUMBER(numa_node, pci.numa_node)
DEVICE_NUMBER(pcie_speed, pci.cur_speed_gts)
DEVICE_NUMBER(pcie_max_speed, pci.max_speed_gts)
DEVICE_NUMBER(pcie_width, pci.cur_width)
DEVICE_NUMBER(pcie_max_width, pci.max_width)
DEVICE_NUMBER(sriov_numvfs, pci.sriov_numvfs)
DEVICE_NUMBER(sriov_totalvfs, pci.sriov_totalvfs)
DEVICE_NUMBER(pci_vendor, pci.vendor)
DEVICE_NUMBER(pci_device, pci.device_id)

/* What an SM answered: nothing when it did not answer. */
static double sm_lid(const struct rk_sm *sm)
{
	return sm->lid;
}

static double sm_answered(const struct rk_sm *sm)
{
	return sm->status == 0;
}

static double sm_priority(const struct rk_sm *sm)
{
	return sm->status == 0 ? (double)sm->priority : -1;
}

static double sm_state(const struct rk_sm *sm)
{
	return sm->status == 0 ? (double)sm->state : -1;
}

static double sm_activity_count(const struct rk_sm *sm)
{
	return sm->status == 0 ? (double)sm->activity_count : -1;
}

static const char *sm_guid(const struct rk_sm *sm, char *buf)
{
	if (sm->status != 0)
		return "";
	rk_format_guid(sm->guid, buf, RK_FACT_TEXT_MAX);
	return buf;
}

/* The SM's GUID in sysfs's form; known also when it did not answer (it is the table's key). */
static const char *sm_guid_text(const struct rk_sm *sm, char *buf)
{
	rk_format_guid_groups(sm->guid, buf, RK_FACT_TEXT_MAX);
	return buf;
}

static const char *sm_state_name(const struct rk_sm *sm, char *buf)
{
	(void)buf;
	return sm->status == 0 ? rk_sm_state_name(sm->state) : "";
}

static const char *sm_name(const struct rk_sm *sm, char *buf)
{
	(void)buf;
	return sm->status == 0 ? sm->name : "";
}

/* What a fabric node and a fabric port show. */
static double node_type(const struct rk_fabric_node *node)
{
	return node->type;
}

static const char *node_description(const struct rk_fabric_node *node, char *buf)
{
	rk_text_clean(node->description, sizeof(node->description), buf, RK_FACT_TEXT_MAX);
	return buf;
}

static const char *node_name(const struct rk_fabric_node *node, char *buf)
{
	(void)buf;
	return node->name;
}

static const char *node_guid_text(const struct rk_fabric_node *node, char *buf)
{
	rk_format_guid_groups(node->guid, buf, RK_FACT_TEXT_MAX);
	return buf;
}

static double node_lid(const struct rk_fabric_node *node)
{
	return node->lid;
}

static double node_ports(const struct rk_fabric_node *node)
{
	return node->nports;
}

static double fabric_port_state(const struct rk_fabric_port_ref *ref)
{
	return ref->port->state;
}

static double fabric_port_phys_state(const struct rk_fabric_port_ref *ref)
{
	return ref->port->phys_state;
}

static double fabric_port_width(const struct rk_fabric_port_ref *ref)
{
	return ref->port->active_width;
}

static double fabric_port_speed(const struct rk_fabric_port_ref *ref)
{
	return ref->port->active_speed;
}

/* The node at the other end of the port's link, or NULL. */
static const struct rk_fabric_node *peer_of(const struct rk_fabric_port_ref *ref)
{
	int peer = ref->port->remote_node;

	return peer >= 0 && (size_t)peer < ref->fabric->nnodes ? &ref->fabric->nodes[peer] : NULL;
}

/* The peer's GUID in the kernel's way of writing one ("0002:c903:0000:0021"). */
static const char *fabric_port_peer_guid(const struct rk_fabric_port_ref *ref, char *buf)
{
	const struct rk_fabric_node *peer = peer_of(ref);

	if (!peer)
		return "";
	rk_format_guid_groups(peer->guid, buf, RK_FACT_TEXT_MAX);
	return buf;
}

static const char *fabric_port_name(const struct rk_fabric_port_ref *ref, char *buf)
{
	rk_fabric_port_label(ref->fabric, ref->node, ref->port->num, buf, RK_FACT_TEXT_MAX);
	return buf;
}

static double fabric_port_peer_port(const struct rk_fabric_port_ref *ref)
{
	return peer_of(ref) ? ref->port->remote_port : -1;
}

/* The link a port is an end of, or NULL. */
static const struct rk_fabric_link *link_of(const struct rk_fabric_port_ref *ref)
{
	int node = (int)ref->node, port = ref->port->num;

	for (size_t i = 0; i < ref->fabric->nlinks; i++) {
		const struct rk_fabric_link *l = &ref->fabric->links[i];

		if ((l->node_a == node && l->port_a == port) ||
		    (l->node_b == node && l->port_b == port))
			return l;
	}
	return NULL;
}

static double fabric_port_degraded(const struct rk_fabric_port_ref *ref)
{
	const struct rk_fabric_link *link = link_of(ref);

	return link && rk_link_degraded(link);
}

/* The message of the LINK_DEGRADED finding located at the first end of the port's link. */
static const char *fabric_port_degraded_reason(const struct rk_fabric_port_ref *ref, char *buf)
{
	const struct rk_fabric_link *link = link_of(ref);
	uint64_t guid;

	(void)buf;
	if (!link || !rk_link_degraded(link) || !ref->findings)
		return "";
	guid = ref->fabric->nodes[link->node_a].guid;
	for (size_t i = 0; i < ref->findings->count; i++) {
		const struct rk_finding *f = &ref->findings->items[i];

		if (f->node_guid == guid && f->port == link->port_a &&
		    strcmp(f->code, "LINK_DEGRADED") == 0)
			return f->message;
	}
	return "";
}

/* 1 while the port has LINK_FLAPPING (from fabric events and LinkDownedCounter). */
static double fabric_port_flapping(const struct rk_fabric_port_ref *ref)
{
	const struct rk_fabric_node *node = &ref->fabric->nodes[ref->node];
	int port = (int)(ref->port - node->ports);

	for (size_t i = 0; ref->findings && i < ref->findings->count; i++) {
		const struct rk_finding *f = &ref->findings->items[i];

		if (f->node_guid == node->guid && f->port == port &&
		    strcmp(f->code, "LINK_FLAPPING") == 0)
			return 1;
	}
	return 0;
}

/* The share of the last sweep interval the port waited to send (at most all of it), where the
 * port answered and its node's tick is known. */
static double reading_xmit_wait(const struct rk_sweep_reading *reading)
{
	if (reading->status != 0 || !(reading->xmit_wait >= 0))
		return -1;
	return reading->xmit_wait < 100 ? reading->xmit_wait : 100;
}

/* The Gb/s the port's link lost to that wait, where the port answered and its tick is known. */
static double reading_lost_bandwidth(const struct rk_sweep_reading *reading)
{
	return reading->status == 0 && reading->lost_gbps >= 0 ? reading->lost_gbps : -1;
}

/* The number RdmakitLinkSpeed gives a speed's name: enum rk_speed's (0 when unknown). */
static unsigned speed_code(const char *name)
{
	return (unsigned)rk_speed_from_name(name);
}

/* The number RdmakitLinkLayer gives a link layer (0 when unknown). */
static unsigned link_layer_code(const char *link_layer)
{
	if (strcmp(link_layer, "InfiniBand") == 0)
		return 1;
	return strcmp(link_layer, "Ethernet") == 0 ? 2 : 0;
}

#define ENTRY(id_, scope_, kind_, col_, name_, unit_, cli_, help_, ...)                            \
	[id_] = {.id = id_,                                                                        \
		 .scope = scope_,                                                                  \
		 .name = name_,                                                                    \
		 .kind = kind_,                                                                    \
		 .unit = unit_,                                                                    \
		 .help = help_,                                                                    \
		 .column = col_,                                                                   \
		 .cli_name = cli_,                                                                 \
		 __VA_ARGS__}
#define SM_G(id_, col_, name_, kind_, unit_, cli_, fn_, help_, ...)                                \
	ENTRY(id_, RK_SCOPE_SM_ENTRY, kind_, col_, name_, unit_, cli_, help_,                      \
	      .sm_number = sm_##fn_, __VA_ARGS__)
#define SM_T(id_, col_, name_, unit_, cli_, fn_, help_, ...)                                       \
	ENTRY(id_, RK_SCOPE_SM_ENTRY, RK_KIND_TEXT, col_, name_, unit_, cli_, help_,               \
	      .sm_text = sm_##fn_, __VA_ARGS__)
#define PORT_G(id_, col_, name_, unit_, cli_, fn_, help_, ...)                                     \
	ENTRY(id_, RK_SCOPE_PORT, RK_KIND_GAUGE, col_, name_, unit_, cli_, help_,                  \
	      .port_number = port_##fn_, __VA_ARGS__)
#define PORT_T(id_, col_, name_, unit_, cli_, fn_, help_, ...)                                     \
	ENTRY(id_, RK_SCOPE_PORT, RK_KIND_TEXT, col_, name_, unit_, cli_, help_,                   \
	      .port_text = port_##fn_, __VA_ARGS__)
#define DEV_G(id_, col_, name_, unit_, cli_, fn_, help_, ...)                                      \
	ENTRY(id_, RK_SCOPE_DEVICE, RK_KIND_GAUGE, col_, name_, unit_, cli_, help_,                \
	      .device_number = device_##fn_, __VA_ARGS__)
#define DEV_T(id_, col_, name_, unit_, cli_, fn_, help_, ...)                                      \
	ENTRY(id_, RK_SCOPE_DEVICE, RK_KIND_TEXT, col_, name_, unit_, cli_, help_,                 \
	      .device_text = device_##fn_, __VA_ARGS__)
#define FABRIC(id_, col_, name_, unit_, cli_, help_, ...)                                          \
	ENTRY(id_, RK_SCOPE_FABRIC, RK_KIND_GAUGE, col_, name_, unit_, cli_, help_, __VA_ARGS__)
#define SM(id_, col_, name_, kind_, unit_, help_, ...)                                             \
	ENTRY(id_, RK_SCOPE_SM, kind_, col_, name_, unit_, NULL, help_, __VA_ARGS__)
#define NODE_G(id_, col_, name_, unit_, cli_, fn_, help_, ...)                                     \
	ENTRY(id_, RK_SCOPE_FABRIC_NODE, RK_KIND_GAUGE, col_, name_, unit_, cli_, help_,           \
	      .node_number = node_##fn_, __VA_ARGS__)
#define NODE_T(id_, col_, name_, unit_, cli_, fn_, help_, ...)                                     \
	ENTRY(id_, RK_SCOPE_FABRIC_NODE, RK_KIND_TEXT, col_, name_, unit_, cli_, help_,            \
	      .node_text = node_##fn_, __VA_ARGS__)
#define FPORT_G(id_, col_, name_, unit_, cli_, fn_, help_, ...)                                    \
	ENTRY(id_, RK_SCOPE_FABRIC_PORT, RK_KIND_GAUGE, col_, name_, unit_, cli_, help_,           \
	      .fabric_port_number = fabric_port_##fn_, __VA_ARGS__)
#define COUNTER_G(id_, col_, name_, unit_, cli_, fn_, help_, ...)                                  \
	ENTRY(id_, RK_SCOPE_FABRIC_COUNTER, RK_KIND_GAUGE, col_, name_, unit_, cli_, help_,        \
	      .reading_number = reading_##fn_, __VA_ARGS__)
#define FPORT_T(id_, col_, name_, unit_, cli_, fn_, help_, ...)                                    \
	ENTRY(id_, RK_SCOPE_FABRIC_PORT, RK_KIND_TEXT, col_, name_, unit_, cli_, help_,            \
	      .fabric_port_text = fabric_port_##fn_, __VA_ARGS__)

/* How a front end shows a fact: collectd's type, type instance and when it gets it; SNMP's
 * syntax and when it serves it (SNMP_X: times a scale); the CLI's text label and unit. */
#define CD(type_, instance_, when_) .cd_type = type_, .cd_instance = instance_, .cd_when = when_
#define SNMP(syntax_, when_)	    SNMP_X(syntax_, when_, 1)
#define SNMP_X(syntax_, when_, scale_)                                                             \
	.snmp_syntax = RK_SNMP_##syntax_, .snmp_when = RK_SNMP_##when_, .snmp_scale = scale_
#define SNMP_NAMED(code_)	 SNMP(NAMED, ALWAYS), .snmp_code = code_
#define TEXT(label_, text_unit_) .label = label_, .text_unit = text_unit_
/* RDMAKIT-MIB's object, where the fact's name and syntax do not say it (facts.h). */
#define MIB_NAME(name_)		.mib_name = name_
#define MIB_SYNTAX(syntax_)	.mib_syntax = syntax_
#define MIB_UNITS(units_)	.mib_units = units_
#define MIB_NOTE(note_)		.mib_note = note_
#define MIB_DEPRECATED(syntax_) .mib_deprecated = true, .mib_syntax = syntax_
#define MIB_LID			"Unsigned32 (0..65535)"
#define MIB_PORT		"Unsigned32 (0..255)"
#define MIB_GUID_TEXT		"RdmakitGuidText"

#define SWEEP  "every sweep"
#define ROUTES "with Routes true, every sweep after the first route check"
#define AUDIT  "with Audit true, every sweep after the first audit"
#define QUERY  "every query"
#define MASTER "when the master answers"
#define AUDIT_NOTE                                                                                 \
	"Served with the subagent's audit yes, from the first audit on; the findings are rows of " \
	"rdmakitFindingTable."

static const struct rk_fact facts[RK_FACT_TABLE_SIZE] = {
    PORT_G(RK_FACT_PORT_STATE, 3, "state", "state", NULL, state,
	   "Logical port state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER",
	   CD("gauge", "state", NULL), SNMP(INTEGER, POSITIVE), TEXT("State", ""),
	   MIB_SYNTAX("RdmakitLinkState")),
    PORT_T(RK_FACT_PORT_STATE_NAME, 4, "state_name", "name", "state", state_name,
	   "Logical port state as the kernel names it (ACTIVE, DOWN, ...)", TEXT("State", "")),
    PORT_G(RK_FACT_PORT_PHYS_STATE, 5, "phys_state", "state", NULL, phys_state,
	   "Physical port state: 1 Sleep, 2 Polling, 3 Disabled, 4 Training, 5 LinkUp, "
	   "6 LinkErrorRecovery, 7 PhyTest",
	   CD("gauge", "phys_state", NULL), SNMP(INTEGER, POSITIVE), TEXT("Physical state", ""),
	   MIB_SYNTAX("RdmakitPhysState")),
    PORT_T(RK_FACT_PORT_PHYS_STATE_NAME, 6, "phys_state_name", "name", "phys_state",
	   phys_state_name, "Physical port state as the kernel names it (LinkUp, Polling, ...)",
	   TEXT("Physical state", "")),
    PORT_G(RK_FACT_PORT_RATE, 7, "rate", "Gb/s", "rate_gbps", rate_gbps,
	   "Link rate: lanes times lane speed", CD("gauge", "rate", NULL),
	   SNMP_X(GAUGE, KNOWN, 1000), TEXT("Rate", "Gb/s"), MIB_UNITS("Mb/s")),
    PORT_G(RK_FACT_PORT_WIDTH, 8, "width", "lanes", "width", width,
	   "Active link width in lanes (1, 2, 4, 8, 12)", SNMP(GAUGE, KNOWN), TEXT("Width", "x"),
	   MIB_UNITS("lanes")),
    PORT_T(RK_FACT_PORT_SPEED, 9, "speed", "name", "speed", speed,
	   "Active lane speed (SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR)",
	   SNMP_NAMED(speed_code), TEXT("Speed", ""), MIB_SYNTAX("RdmakitLinkSpeed")),
    PORT_T(RK_FACT_PORT_LINK_LAYER, 15, "link_layer", "name", "link_layer", link_layer,
	   "Link layer: InfiniBand or Ethernet (RoCE)", SNMP_NAMED(link_layer_code),
	   TEXT("Link layer", ""), MIB_SYNTAX("RdmakitLinkLayer")),
    PORT_G(RK_FACT_PORT_LID, 10, "lid", "LID", "lid", lid, "Base LID of the port (0 on RoCE)",
	   CD("gauge", "lid", NULL), SNMP(GAUGE, KNOWN), TEXT("Base LID", ""), MIB_SYNTAX(MIB_LID)),
    PORT_G(RK_FACT_PORT_SM_LID, 11, "sm_lid", "LID", "sm_lid", sm_lid,
	   "LID of the master subnet manager (0 on RoCE)", CD("gauge", "sm_lid", NULL),
	   SNMP(GAUGE, KNOWN), TEXT("SM LID", ""), MIB_SYNTAX(MIB_LID)),
    PORT_G(RK_FACT_PORT_SM_SL, 12, "sm_sl", "SL", "sm_sl", sm_sl,
	   "Service level for talking to the subnet manager", CD("gauge", "sm_sl", NULL),
	   SNMP(GAUGE, KNOWN), TEXT("SM SL", ""), MIB_SYNTAX("Unsigned32 (0..15)")),
    PORT_G(RK_FACT_PORT_LMC, 13, "lid_mask_count", "bits", "lmc", lmc,
	   "LMC: low LID bits masked for multipath", CD("gauge", "lid_mask_count", NULL),
	   SNMP(GAUGE, KNOWN), TEXT("LMC", ""), MIB_NAME("PortLmc"),
	   MIB_SYNTAX("Unsigned32 (0..7)")),
    PORT_G(RK_FACT_PORT_CAP_MASK, 14, "cap_mask", "bitmask", "cap_mask", cap_mask,
	   "PortInfo CapabilityMask", CD("gauge", "cap_mask", NULL), TEXT("Capability mask", "")),
    PORT_T(RK_FACT_PORT_GID0, 16, "gid0", "GID", "gid0", gid0, "GID at index 0 of the port",
	   SNMP(GID, ALWAYS), TEXT("GID 0", "")),
    PORT_T(RK_FACT_PORT_NETDEV, 17, "netdev", "name", "netdev", netdev,
	   "Network device behind a RoCE port", SNMP(TEXT, ALWAYS), TEXT("Netdev", ""),
	   MIB_SYNTAX("DisplayString (SIZE(0..31))")),
    PORT_T(RK_FACT_PORT_GUID, 18, "guid", "GUID", NULL, guid,
	   "Port GUID as the kernel writes GUIDs (0002:c903:0000:0001): GID 0's interface "
	   "identifier (empty when GID 0 is unreadable)",
	   SNMP(TEXT, ALWAYS), TEXT("Port GUID", ""), MIB_SYNTAX(MIB_GUID_TEXT),
	   MIB_NOTE("On RoCE it is the one GID 0 is made of (from the MAC address).")),
    DEV_G(RK_FACT_DEVICE_NODE_TYPE, 3, "node_type", "type", NULL, node_type,
	  "Node type: 1 CA, 2 switch, 3 router, 4 RNIC", SNMP(INTEGER, POSITIVE),
	  TEXT("Node type", ""), MIB_SYNTAX("RdmakitNodeType")),
    DEV_T(RK_FACT_DEVICE_NODE_TYPE_NAME, 4, "node_type_name", "name", "node_type", node_type_name,
	  "Node type as the kernel names it (CA, switch, ...)", TEXT("Node type", "")),
    DEV_T(RK_FACT_DEVICE_NODE_GUID, 5, "node_guid", "GUID", "node_guid", node_guid,
	  "Node GUID of the device", TEXT("Node GUID", ""), MIB_DEPRECATED("RdmakitGuid")),
    DEV_T(RK_FACT_DEVICE_SYS_IMAGE_GUID, 6, "sys_image_guid", "GUID", "sys_image_guid",
	  sys_image_guid, "System image GUID (shared by the functions of one adapter)",
	  TEXT("System image GUID", ""), MIB_DEPRECATED("RdmakitGuid")),
    DEV_T(RK_FACT_DEVICE_FW_VER, 7, "fw_ver", "version", "fw_ver", fw_ver, "Firmware version",
	  SNMP(TEXT, ALWAYS), TEXT("Firmware version", ""), MIB_NAME("DeviceFirmware"),
	  MIB_SYNTAX("DisplayString (SIZE(0..63))")),
    DEV_T(RK_FACT_DEVICE_HCA_TYPE, 8, "hca_type", "name", "hca_type", hca_type,
	  "HCA model (e.g. MT4123)", SNMP(TEXT, ALWAYS), TEXT("HCA type", ""),
	  MIB_SYNTAX("DisplayString (SIZE(0..31))")),
    DEV_T(RK_FACT_DEVICE_BOARD_ID, 9, "board_id", "name", "board_id", board_id,
	  "Board identifier (the adapter's PSID)", SNMP(TEXT, ALWAYS), TEXT("Board ID", ""),
	  MIB_SYNTAX("DisplayString (SIZE(0..63))")),
    DEV_T(RK_FACT_DEVICE_HW_REV, 10, "hw_rev", "version", "hw_rev", hw_rev, "Hardware revision",
	  SNMP(TEXT, ALWAYS), TEXT("Hardware revision", ""),
	  MIB_SYNTAX("DisplayString (SIZE(0..15))")),
    DEV_T(RK_FACT_DEVICE_NODE_DESC, 11, "node_desc", "name", "node_desc", node_desc,
	  "Node description, as other nodes of the fabric see it", SNMP(TEXT, ALWAYS),
	  TEXT("Node description", ""), MIB_SYNTAX("DisplayString (SIZE(0..71))")),
    DEV_G(RK_FACT_DEVICE_NUM_PORTS, 12, "num_ports", "ports", "num_ports", num_ports,
	  "Ports of the device", SNMP(GAUGE, KNOWN), TEXT("Number of ports", "")),
    DEV_G(RK_FACT_DEVICE_VANISHED, 13, "vanished", "boolean", "vanished", vanished,
	  "1 when the device disappeared (its values are the last ones read)",
	  TEXT("Vanished", "")),
    DEV_T(RK_FACT_DEVICE_PCI_ADDRESS, 14, "pci_address", "address", "pci.address", pci_address,
	  "PCI address of the function behind the device (none for virtual devices)",
	  SNMP(TEXT, ALWAYS), TEXT("PCI address", ""), MIB_SYNTAX("DisplayString (SIZE(0..15))")),
    DEV_G(RK_FACT_DEVICE_PCI_VENDOR, 22, "pci_vendor", "id", "pci.vendor_id", pci_vendor,
	  "PCI vendor id of the function (0x15b3: Mellanox, NVIDIA)", SNMP(GAUGE, KNOWN),
	  TEXT("PCI vendor", "")),
    DEV_G(RK_FACT_DEVICE_PCI_DEVICE, 23, "pci_device", "id", "pci.device_id", pci_device,
	  "PCI device id of the function (the adapter model)", SNMP(GAUGE, KNOWN),
	  TEXT("PCI device", "")),
    DEV_G(RK_FACT_DEVICE_NUMA_NODE, 15, "numa_node", "node", "pci.numa_node", numa_node,
	  "NUMA node of the PCI function", SNMP(INTEGER, ALWAYS), TEXT("NUMA node", ""),
	  MIB_SYNTAX("Integer32 (-1..65535)"), MIB_NOTE("-1 when the kernel does not say.")),
    DEV_G(RK_FACT_DEVICE_PCIE_SPEED, 16, "pcie_speed", "GT/s", "pci.link_speed_gts", pcie_speed,
	  "Current PCIe link speed", SNMP_X(GAUGE, POSITIVE, 1000), TEXT("PCIe speed", "GT/s"),
	  MIB_NAME("DevicePcieCurSpeed"), MIB_UNITS("MT/s")),
    DEV_G(RK_FACT_DEVICE_PCIE_MAX_SPEED, 17, "pcie_max_speed", "GT/s", "pci.max_link_speed_gts",
	  pcie_max_speed, "Maximum PCIe link speed of the function", SNMP_X(GAUGE, POSITIVE, 1000),
	  TEXT("PCIe maximum speed", "GT/s"), MIB_UNITS("MT/s")),
    DEV_G(RK_FACT_DEVICE_PCIE_WIDTH, 18, "pcie_width", "lanes", "pci.link_width", pcie_width,
	  "Current PCIe link width", SNMP(GAUGE, KNOWN), TEXT("PCIe width", "x"),
	  MIB_NAME("DevicePcieCurWidth"), MIB_UNITS("lanes")),
    DEV_G(RK_FACT_DEVICE_PCIE_MAX_WIDTH, 19, "pcie_max_width", "lanes", "pci.max_link_width",
	  pcie_max_width, "Maximum PCIe link width of the function", SNMP(GAUGE, KNOWN),
	  TEXT("PCIe maximum width", "x"), MIB_UNITS("lanes")),
    DEV_G(RK_FACT_DEVICE_SRIOV_NUMVFS, 20, "sriov_numvfs", "functions", "pci.sriov_numvfs",
	  sriov_numvfs, "SR-IOV virtual functions enabled", SNMP(GAUGE, KNOWN),
	  TEXT("SR-IOV VFs", ""), MIB_NAME("DeviceSriovNumVfs")),
    DEV_G(RK_FACT_DEVICE_SRIOV_TOTALVFS, 21, "sriov_totalvfs", "functions", "pci.sriov_totalvfs",
	  sriov_totalvfs, "SR-IOV virtual functions the device supports", SNMP(GAUGE, KNOWN),
	  TEXT("SR-IOV VFs supported", ""), MIB_NAME("DeviceSriovTotalVfs")),
    DEV_T(RK_FACT_DEVICE_NODE_GUID_TEXT, 24, "node_guid_text", "GUID", NULL, node_guid,
	  "Node GUID as the kernel writes it (0002:c903:0000:0001)", SNMP(TEXT, ALWAYS),
	  TEXT("Node GUID", ""), MIB_SYNTAX(MIB_GUID_TEXT)),
    DEV_T(RK_FACT_DEVICE_SYS_IMAGE_GUID_TEXT, 25, "sys_image_guid_text", "GUID", NULL,
	  sys_image_guid, "System image GUID as the kernel writes it (0002:c903:0000:0001)",
	  SNMP(TEXT, ALWAYS), TEXT("System image GUID", ""), MIB_SYNTAX(MIB_GUID_TEXT)),
    FABRIC(RK_FACT_FABRIC_NODES, 1, "nodes", "nodes", NULL,
	   "Nodes found by the last discovery (switches, CAs, routers)",
	   CD("count", "nodes", SWEEP), SNMP(GAUGE, KNOWN), TEXT("Nodes", "")),
    FABRIC(RK_FACT_FABRIC_SWITCHES, 2, "switches", "nodes", NULL, "Switches found",
	   CD("count", "switches", SWEEP), SNMP(GAUGE, KNOWN), TEXT("Switches", "")),
    FABRIC(RK_FACT_FABRIC_CAS, 3, "cas", "nodes", NULL, "Channel adapters (HCAs) found",
	   CD("count", "cas", SWEEP), SNMP(GAUGE, KNOWN), TEXT("CAs", "")),
    FABRIC(RK_FACT_FABRIC_ROUTERS, 4, "routers", "nodes", NULL, "Routers found", SNMP(GAUGE, KNOWN),
	   TEXT("Routers", "")),
    FABRIC(RK_FACT_FABRIC_LINKS, 5, "links", "links", NULL, "Links between two ports",
	   CD("count", "links", SWEEP), SNMP(GAUGE, KNOWN), TEXT("Links", "")),
    FABRIC(RK_FACT_FABRIC_DEGRADED_LINKS, 6, "degraded_links", "links", NULL,
	   "Links below the speed or width both ends enable, or below most links between the "
	   "same models",
	   CD("count", "degraded_links", SWEEP), SNMP(GAUGE, KNOWN), TEXT("Degraded links", "")),
    FABRIC(RK_FACT_FABRIC_SWEPT_PORTS, 7, "swept_ports", "ports", "ports_swept",
	   "Ports whose counters the sweep asks for (every switch port, CA ports with a LID)",
	   CD("count", "swept_ports", SWEEP), SNMP(GAUGE, KNOWN), TEXT("Ports swept", "")),
    FABRIC(RK_FACT_FABRIC_ANSWERED_PORTS, 8, "answered_ports", "ports", NULL,
	   "Swept ports that answered", SNMP(GAUGE, KNOWN), TEXT("Ports that answered", "")),
    FABRIC(RK_FACT_FABRIC_UNANSWERED_PORTS, 9, "unanswered_ports", "ports", NULL,
	   "Swept ports that did not answer", CD("count", "unanswered_ports", SWEEP),
	   SNMP(GAUGE, KNOWN), TEXT("Ports that did not answer", "")),
    FABRIC(RK_FACT_FABRIC_SWEEP_SECONDS, 10, "sweep_seconds", "seconds", NULL,
	   "Time of the last sweep as the front end measured it, rediscovery included when "
	   "there was one",
	   CD("duration", "sweep", SWEEP), SNMP_X(GAUGE, KNOWN, 1000), TEXT("Sweep", "s"),
	   MIB_NAME("FabricSweepTime"), MIB_UNITS("milliseconds")),
    FABRIC(RK_FACT_FABRIC_DISCOVERY_SECONDS, 11, "discovery_seconds", "seconds",
	   "discovery_seconds", "Time the last discovery of the topology took",
	   CD("duration", "discovery", SWEEP), SNMP_X(GAUGE, KNOWN, 1000), TEXT("Discovery", "s"),
	   MIB_NAME("FabricDiscoveryTime"), MIB_UNITS("milliseconds")),
    FABRIC(RK_FACT_FABRIC_ROUTES, 12, "routes", "routes", NULL,
	   "Routes the last route check followed (every switch to every CA LID, the leaves to "
	   "every switch LID)",
	   CD("count", "routes_followed", ROUTES), SNMP(GAUGE, KNOWN), TEXT("Routes followed", ""),
	   MIB_NOTE("Served with the subagent's routes yes.")),
    FABRIC(RK_FACT_FABRIC_ROUTE_HOLES, 13, "route_holes", "routes", NULL,
	   "Routes of the last check that end in a hole (no out port for the LID)",
	   CD("count", "route_holes", ROUTES), SNMP(GAUGE, KNOWN), TEXT("Route holes", ""),
	   MIB_NOTE("Served with the subagent's routes yes.")),
    FABRIC(RK_FACT_FABRIC_ROUTE_LOOPS, 14, "route_loops", "routes", NULL,
	   "Routes of the last check that loop (a switch seen twice)",
	   CD("count", "route_loops", ROUTES), SNMP(GAUGE, KNOWN), TEXT("Route loops", ""),
	   MIB_NOTE("Served with the subagent's routes yes.")),
    FABRIC(RK_FACT_FABRIC_ROUTE_DEAD_ENDS, 15, "route_dead_ends", "routes", NULL,
	   "Routes of the last check that leave by a port that is down or leads elsewhere",
	   CD("count", "route_dead_ends", ROUTES), SNMP(GAUGE, KNOWN), TEXT("Route dead ends", ""),
	   MIB_NOTE("Served with the subagent's routes yes.")),
    FABRIC(RK_FACT_FABRIC_ROUTE_MAX_HOPS, 16, "route_max_hops", "hops", NULL,
	   "The most hops of a route of the last check that reaches its destination",
	   CD("count", "route_max_hops", ROUTES), SNMP(GAUGE, KNOWN), TEXT("Route max hops", ""),
	   MIB_NOTE("Served with the subagent's routes yes.")),
    FABRIC(RK_FACT_FABRIC_ROUTES_UNBALANCED, 17, "routes_unbalanced", "switches", NULL,
	   "Switches whose CA LIDs the last check found spread unevenly over their up-links",
	   CD("count", "routes_unbalanced", ROUTES), SNMP(GAUGE, KNOWN),
	   TEXT("Unbalanced switches", ""), MIB_NOTE("Served with the subagent's routes yes.")),
    FABRIC(RK_FACT_FABRIC_WATCHER_ACTIVE, 18, "watcher_active", "boolean", NULL,
	   "1 when this watcher is the subnet's active one (it discovers and sweeps), 0 when it "
	   "is standby (FabricRole: one active watcher per subnet)",
	   CD("gauge", "watcher_active", "every FabricInterval, with the election"),
	   SNMP(TRUTH, KNOWN), TEXT("Active watcher here", ""),
	   MIB_NOTE("The subagent's option is fabric-role. A standby serves no fabric rows; absent "
		    "without an election.")),
    ENTRY(RK_FACT_FABRIC_ACTIVE_WATCHER, RK_SCOPE_FABRIC, RK_KIND_TEXT, 19, "active_watcher",
	  "text", NULL,
	  "The active watcher's node name as its record in the SA says (empty when none is "
	  "known)",
	  SNMP(TEXT, ALWAYS), TEXT("Active watcher", ""),
	  MIB_SYNTAX("DisplayString (SIZE(0..47))")),
    FABRIC(RK_FACT_FABRIC_AUDIT_CRITICAL, 20, "audit_critical", "findings", NULL,
	   "Critical findings of the last fabric audit (a GUID or LID used twice, a port out of "
	   "the Default partition, ...)",
	   CD("count", "audit_critical", AUDIT), SNMP(GAUGE, KNOWN),
	   TEXT("Audit: critical findings", ""), MIB_NOTE(AUDIT_NOTE)),
    FABRIC(RK_FACT_FABRIC_AUDIT_WARNING, 21, "audit_warning", "findings", NULL,
	   "Warning findings of the last fabric audit (a port stuck in INIT, an SL mapped to "
	   "VL15, a partition missing, ...)",
	   CD("count", "audit_warning", AUDIT), SNMP(GAUGE, KNOWN),
	   TEXT("Audit: warning findings", ""), MIB_NOTE(AUDIT_NOTE)),
    SM(RK_FACT_SM_MASTER_LID, 1, "master_lid", RK_KIND_GAUGE, "LID", "LID of the master SM",
       CD("gauge", "master_lid", MASTER), SNMP(GAUGE, KNOWN), TEXT("Master LID", ""),
       MIB_SYNTAX(MIB_LID)),
    SM(RK_FACT_SM_MASTER_PRIORITY, 2, "master_priority", RK_KIND_GAUGE, "priority",
       "SMInfo priority of the master SM (0-15)", CD("gauge", "master_priority", MASTER),
       SNMP(GAUGE, KNOWN), TEXT("Master priority", ""), MIB_SYNTAX("Unsigned32 (0..15)")),
    SM(RK_FACT_SM_MASTER_STATE, 3, "master_state", RK_KIND_GAUGE, "state",
       "SMInfo state of the master SM: 3 MASTER (when no SM claims MASTER, the state of the SM "
       "the local port points at: 0 NOT_ACTIVE, 1 DISCOVERING, 2 STANDBY)",
       CD("gauge", "master_state", MASTER), SNMP(INTEGER, KNOWN), TEXT("Master state", ""),
       MIB_SYNTAX("RdmakitSubnetManagerState")),
    SM(RK_FACT_SM_MASTER_ACTIVITY, 4, "master_activity_count", RK_KIND_COUNTER, "MADs",
       "SMInfo ActCount of the master SM (OpenSM: the SMPs it has sent); it stops rising when "
       "the SM hangs",
       CD("derive", "master_activity_count", MASTER), SNMP(COUNTER32, KNOWN),
       TEXT("Master activity", ""), MIB_NAME("SmMasterActivity")),
    SM(RK_FACT_SM_ANSWERED, 5, "answered", RK_KIND_GAUGE, "SMs", "SMs that answered SMInfo",
       CD("count", "sms", QUERY), SNMP(GAUGE, KNOWN), TEXT("SMs that answered", "")),
    SM(RK_FACT_SM_MASTERS, 6, "masters", RK_KIND_GAUGE, "SMs",
       "SMs in MASTER state (1 in a healthy subnet)", CD("count", "masters", QUERY),
       SNMP(GAUGE, KNOWN), TEXT("Masters", ""), MIB_NOTE("More than one is a split subnet.")),
    SM(RK_FACT_SM_STANDBYS, 7, "standbys", RK_KIND_GAUGE, "SMs",
       "SMs in STANDBY state, ready to take over", CD("count", "standbys", QUERY),
       SNMP(GAUGE, KNOWN), TEXT("Standbys", ""),
       MIB_NOTE("0 means no SM takes over when the master fails.")),
    SM(RK_FACT_SM_DISCOVERING, 8, "discovering", RK_KIND_GAUGE, "SMs",
       "SMs in DISCOVERING state (sweeping the subnet before they settle)", SNMP(GAUGE, KNOWN),
       TEXT("Discovering", "")),
    SM(RK_FACT_SM_NOT_ACTIVE, 9, "not_active", RK_KIND_GAUGE, "SMs",
       "SMs in NOT_ACTIVE state (answering, but not managing the subnet)", SNMP(GAUGE, KNOWN),
       TEXT("Not active", "")),
    SM_G(RK_FACT_SM_ENTRY_LID, 3, "lid", RK_KIND_GAUGE, "LID", "lid", lid,
	 "LID the SM was queried at", SNMP(GAUGE, KNOWN), TEXT("LID", ""), MIB_SYNTAX(MIB_LID)),
    SM_G(RK_FACT_SM_ENTRY_ANSWERED, 4, "answered", RK_KIND_GAUGE, "boolean", "answered", answered,
	 "1 when the SM answered SMInfo (its other facts are known only then)", SNMP(TRUTH, ALWAYS),
	 TEXT("Answered", ""), MIB_NAME("SmAnswers")),
    SM_T(RK_FACT_SM_ENTRY_GUID, 5, "guid", "GUID", "guid", guid, "Port GUID of the SM",
	 TEXT("GUID", "")),
    SM_G(RK_FACT_SM_ENTRY_PRIORITY, 6, "priority", RK_KIND_GAUGE, "priority", "priority", priority,
	 "SMInfo priority (0-15): the highest becomes master", SNMP(GAUGE, OR_ZERO),
	 TEXT("Priority", ""), MIB_SYNTAX("Unsigned32 (0..15)")),
    SM_G(RK_FACT_SM_ENTRY_STATE, 7, "state", RK_KIND_GAUGE, "state", NULL, state,
	 "SMInfo state: 0 NOT_ACTIVE, 1 DISCOVERING, 2 STANDBY, 3 MASTER", SNMP(INTEGER, OR_ZERO),
	 TEXT("State", ""), MIB_SYNTAX("RdmakitSubnetManagerState")),
    SM_T(RK_FACT_SM_ENTRY_STATE_NAME, 8, "state_name", "name", "state", state_name,
	 "SMInfo state by name (MASTER, STANDBY, DISCOVERING, NOT_ACTIVE)", TEXT("State", "")),
    SM_G(RK_FACT_SM_ENTRY_ACTIVITY, 9, "activity_count", RK_KIND_COUNTER, "MADs", "activity_count",
	 activity_count,
	 "SMInfo ActCount (OpenSM: the SMPs it has sent); it stops rising when the SM hangs",
	 SNMP(COUNTER32, OR_ZERO), TEXT("Activity", ""), MIB_NAME("SmActivity")),
    SM_T(RK_FACT_SM_ENTRY_NAME, 10, "name", "name", "name", name,
	 "Name of the SM's node (node name map, else its description)", SNMP(TEXT, ALWAYS),
	 TEXT("Name", ""), MIB_SYNTAX("DisplayString (SIZE(0..95))")),
    SM_T(RK_FACT_SM_ENTRY_GUID_TEXT, 11, "guid_text", "GUID", NULL, guid_text,
	 "Port GUID of the SM as the kernel writes GUIDs (0002:c903:0000:0001)", SNMP(TEXT, ALWAYS),
	 TEXT("GUID", ""), MIB_SYNTAX(MIB_GUID_TEXT)),
    NODE_G(RK_FACT_NODE_TYPE, 2, "type", "type", "type", type,
	   "Node type: 1 CA, 2 switch, 3 router", SNMP(INTEGER, ALWAYS), TEXT("Type", ""),
	   MIB_SYNTAX("RdmakitNodeType")),
    NODE_T(RK_FACT_NODE_DESCRIPTION, 3, "description", "name", "description", description,
	   "Node description the node answers with", SNMP(TEXT, ALWAYS), TEXT("Description", ""),
	   MIB_SYNTAX("DisplayString (SIZE(0..64))")),
    NODE_T(RK_FACT_NODE_NAME, 4, "name", "name", "name", name,
	   "Name of the node (node name map, else its description)", SNMP(TEXT, ALWAYS),
	   TEXT("Name", ""), MIB_SYNTAX("DisplayString (SIZE(0..95))")),
    NODE_G(RK_FACT_NODE_LID, 5, "lid", "LID", "lid", lid,
	   "LID of the node (a switch's port 0, a CA's first port)", SNMP(GAUGE, ALWAYS),
	   TEXT("LID", ""), MIB_SYNTAX(MIB_LID)),
    NODE_G(RK_FACT_NODE_PORTS, 6, "ports", "ports", "num_ports", ports,
	   "Ports of the node (a switch's management port 0 not counted)", SNMP(GAUGE, ALWAYS),
	   TEXT("Ports", ""), MIB_SYNTAX(MIB_PORT)),
    NODE_T(RK_FACT_NODE_GUID_TEXT, 7, "guid_text", "GUID", NULL, guid_text,
	   "Node GUID as the kernel writes it (0002:c903:0000:0001)", SNMP(TEXT, ALWAYS),
	   TEXT("GUID", ""), MIB_SYNTAX(MIB_GUID_TEXT)),
    FPORT_G(RK_FACT_FABRIC_PORT_STATE, 2, "state", "state", "state", state,
	    "Logical port state: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE", SNMP(INTEGER, POSITIVE),
	    TEXT("State", ""), MIB_SYNTAX("RdmakitLinkState")),
    FPORT_G(RK_FACT_FABRIC_PORT_PHYS_STATE, 3, "phys_state", "state", "phys_state", phys_state,
	    "Physical port state: 2 Polling, 3 Disabled, 5 LinkUp, ...", SNMP(INTEGER, POSITIVE),
	    TEXT("Physical state", ""), MIB_SYNTAX("RdmakitPhysState")),
    FPORT_G(RK_FACT_FABRIC_PORT_WIDTH, 4, "width", "lanes", "width", width,
	    "Active link width in lanes (0 when the port is down)", SNMP(GAUGE, ALWAYS),
	    TEXT("Width", "x"), MIB_UNITS("lanes")),
    FPORT_G(RK_FACT_FABRIC_PORT_SPEED, 5, "speed", "speed", "speed", speed,
	    "Active lane speed, as RdmakitLinkSpeed numbers it (0 when unknown)",
	    SNMP(INTEGER, ALWAYS), TEXT("Speed", ""), MIB_SYNTAX("RdmakitLinkSpeed")),
    FPORT_T(RK_FACT_FABRIC_PORT_PEER_GUID, 6, "peer_guid", "GUID", "remote.guid", peer_guid,
	    "Node GUID at the other end of the link (none when the port has no peer)",
	    TEXT("Peer GUID", ""), MIB_DEPRECATED("RdmakitGuid")),
    FPORT_G(RK_FACT_FABRIC_PORT_PEER_PORT, 7, "peer_port", "port", "remote.port", peer_port,
	    "Port number at the other end of the link", SNMP(GAUGE, KNOWN), TEXT("Peer port", ""),
	    MIB_SYNTAX(MIB_PORT)),
    FPORT_G(RK_FACT_FABRIC_PORT_DEGRADED, 8, "degraded", "boolean", NULL, degraded,
	    "1 when the port's link is degraded (below what both ends enable, or its peers)",
	    SNMP(TRUTH, ALWAYS), TEXT("Degraded", "")),
    FPORT_T(RK_FACT_FABRIC_PORT_DEGRADED_REASON, 9, "degraded_reason", "text", NULL,
	    degraded_reason, "Why the port's link is degraded (the LINK_DEGRADED finding)",
	    SNMP(TEXT, ALWAYS), TEXT("Degraded because", ""),
	    MIB_SYNTAX("DisplayString (SIZE(0..255))")),
    FPORT_T(RK_FACT_FABRIC_PORT_PEER_GUID_TEXT, 10, "peer_guid_text", "GUID", NULL, peer_guid,
	    "Node GUID at the other end of the link as the kernel writes it (empty when the "
	    "port has no peer)",
	    SNMP(TEXT, ALWAYS), TEXT("Peer GUID", ""), MIB_SYNTAX(MIB_GUID_TEXT)),
    FPORT_G(RK_FACT_FABRIC_PORT_FLAPPING, 11, "flapping", "boolean", NULL, flapping,
	    "1 while the port's link is flapping (LINK_FLAPPING: FlapDowns downs within "
	    "FlapWindow, until it stays up FlapStable)",
	    SNMP(TRUTH, ALWAYS), TEXT("Flapping", ""),
	    MIB_NOTE("The subagent's options are flap-downs, flap-window and flap-stable.")),
    FPORT_T(RK_FACT_FABRIC_PORT_NAME, 12, "name", "text", NULL, name,
	    "The port as findings and traces name it: its node's name and [port], as Leaf1[2]",
	    SNMP(TEXT, ALWAYS), TEXT("Name", ""), MIB_SYNTAX("DisplayString (SIZE(0..255))")),
    COUNTER_G(RK_FACT_FABRIC_COUNTER_XMIT_WAIT, 93, "xmit_wait_percent", "percent",
	      "xmit_wait_percent", xmit_wait,
	      "Share of the last sweep interval the port had data to send and sent none "
	      "(port_xmit_wait times its tick)",
	      CD("percent", "xmit_wait", "where the tick is known"), SNMP_X(GAUGE, KNOWN, 100),
	      TEXT("Transmit wait", "%"), MIB_UNITS("0.01 percent"),
	      MIB_NOTE("2500 is 25%. The tick is the node's PortSamplesControl Tick or the "
		       "subagent's xmit-wait-tick; not served before the second sweep or while "
		       "port_xmit_wait is saturated. A port over congestion-threshold for two "
		       "intervals in a row raises the finding PORT_CONGESTED.")),
    COUNTER_G(RK_FACT_FABRIC_COUNTER_LOST_BANDWIDTH, 94, "lost_bandwidth", "Gb/s",
	      "lost_bandwidth_gbps", lost_bandwidth,
	      "Data rate the port's link lost to waiting over the last sweep interval: the share "
	      "of it the port had data to send and sent none (xmit_wait) times the link's data "
	      "rate (lanes times a lane's rate after line encoding)",
	      CD("gauge", "lost_bandwidth", "where the tick is known"), SNMP_X(GAUGE, KNOWN, 1000),
	      TEXT("Lost bandwidth", "Gb/s"), MIB_UNITS("Mb/s"),
	      MIB_NOTE("100000 at 4X EDR. Not served where rdmakitFcXmitWaitPercent is not, or "
		       "where the link's width or speed is not known.")),
};

static const struct rk_counter_pair pairs[] = {
    {"data", "port_rcv_data", "port_xmit_data", "if_octets", ""},
    {"packets", "port_rcv_packets", "port_xmit_packets", "if_packets", ""},
    {"unicast_packets", "unicast_rcv_packets", "unicast_xmit_packets", "if_packets", "unicast"},
    {"multicast_packets", "multicast_rcv_packets", "multicast_xmit_packets", "if_packets",
     "multicast"},
};

const char *rk_fact_scope_name(enum rk_fact_scope scope)
{
	static const char *const names[] = {
	    [RK_SCOPE_PORT] = "port",
	    [RK_SCOPE_DEVICE] = "device",
	    [RK_SCOPE_FABRIC] = "fabric",
	    [RK_SCOPE_SM] = "sm",
	    [RK_SCOPE_SM_ENTRY] = "sm_entry",
	    [RK_SCOPE_FABRIC_NODE] = "fabric_node",
	    [RK_SCOPE_FABRIC_PORT] = "fabric_port",
	    [RK_SCOPE_FABRIC_COUNTER] = "fabric_counter",
	};

	return RK_NAME_IN(names, scope, "?");
}

const struct rk_fact *rk_facts_all(size_t *count)
{
	*count = RK_FACT_COUNT;
	return facts;
}

const struct rk_fact *rk_facts_topology(size_t *count)
{
	*count = RK_FACT_TABLE_SIZE - RK_FACT_COUNT;
	return &facts[RK_FACT_COUNT];
}

bool rk_fact_served(const struct rk_fact *fact, enum rk_front_end front_end)
{
	switch (front_end) {
	case RK_FRONT_COLLECTD:
		return fact->cd_type != NULL;
	case RK_FRONT_SNMP:
		return fact->snmp_syntax != RK_SNMP_NONE;
	case RK_FRONT_CLI:
		return fact->cli_name != NULL;
	}
	return false;
}

double rk_fact_number(const struct rk_fact *fact, const struct rk_fact_subject *subject)
{
	switch (fact->scope) {
	case RK_SCOPE_PORT:
		return fact->port_number(subject->port);
	case RK_SCOPE_DEVICE:
		return fact->device_number(subject->device);
	case RK_SCOPE_SM_ENTRY:
		return fact->sm_number(subject->sm);
	case RK_SCOPE_FABRIC_NODE:
		return fact->node_number(subject->node);
	case RK_SCOPE_FABRIC_PORT:
		return fact->fabric_port_number(subject->fabric_port);
	case RK_SCOPE_FABRIC_COUNTER:
		return fact->reading_number(subject->reading);
	case RK_SCOPE_FABRIC:
	case RK_SCOPE_SM:
		break;
	}
	return subject->values[fact->id];
}

const char *rk_fact_text(const struct rk_fact *fact, const struct rk_fact_subject *subject,
			 char buf[RK_FACT_TEXT_MAX])
{
	switch (fact->scope) {
	case RK_SCOPE_PORT:
		return fact->port_text(subject->port);
	case RK_SCOPE_DEVICE:
		return fact->device_text(subject->device);
	case RK_SCOPE_SM_ENTRY:
		return fact->sm_text(subject->sm, buf);
	case RK_SCOPE_FABRIC_NODE:
		return fact->node_text(subject->node, buf);
	case RK_SCOPE_FABRIC_PORT:
		return fact->fabric_port_text(subject->fabric_port, buf);
	case RK_SCOPE_FABRIC:
		return subject->active_watcher ? subject->active_watcher : "";
	case RK_SCOPE_FABRIC_COUNTER:
	case RK_SCOPE_SM:
		break;
	}
	return ""; /* the other scalars are numbers */
}

bool rk_fact_in_mib(const struct rk_fact *fact)
{
	return rk_fact_served(fact, RK_FRONT_SNMP) || fact->mib_deprecated;
}

const char *rk_fact_mib_name(const struct rk_fact *fact, char *buf, size_t size)
{
	static const char *const prefixes[] = {
	    [RK_SCOPE_PORT] = "Port",	   [RK_SCOPE_DEVICE] = "Device",
	    [RK_SCOPE_FABRIC] = "Fabric",  [RK_SCOPE_SM] = "Sm",
	    [RK_SCOPE_SM_ENTRY] = "Sm",	   [RK_SCOPE_FABRIC_NODE] = "Fn",
	    [RK_SCOPE_FABRIC_PORT] = "Fp", [RK_SCOPE_FABRIC_COUNTER] = "Fc",
	};
	size_t n;

	if (fact->mib_name) {
		snprintf(buf, size, "rdmakit%s", fact->mib_name);
		return buf;
	}
	n = (size_t)snprintf(buf, size, "rdmakit%s", prefixes[fact->scope]);
	for (const char *c = fact->name; *c && n + 1 < size; c++) {
		bool word_start = c == fact->name || c[-1] == '_';

		if (*c != '_')
			buf[n++] = word_start ? (char)toupper((unsigned char)*c) : *c;
	}
	buf[n < size ? n : size - 1] = '\0';
	return buf;
}

const struct rk_fact *rk_fact(enum rk_fact_id id)
{
	return &facts[id];
}

const struct rk_counter_pair *rk_counter_pairs(size_t *count)
{
	*count = sizeof(pairs) / sizeof(pairs[0]);
	return pairs;
}

const struct rk_counter_pair *rk_counter_pair_of(const char *counter, bool *is_tx)
{
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (strcmp(counter, pairs[i].rx) == 0 || strcmp(counter, pairs[i].tx) == 0) {
			*is_tx = strcmp(counter, pairs[i].tx) == 0;
			return &pairs[i];
		}
	}
	return NULL;
}

void rk_fabric_fact_values(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
			   double sweep_seconds, double values[RK_FACT_COUNT])
{
	struct rk_fabric_summary summary;

	rk_fabric_summarize(fabric, &summary);
	values[RK_FACT_FABRIC_NODES] = (double)summary.nodes;
	values[RK_FACT_FABRIC_SWITCHES] = (double)summary.switches;
	values[RK_FACT_FABRIC_CAS] = (double)summary.cas;
	values[RK_FACT_FABRIC_ROUTERS] = (double)summary.routers;
	values[RK_FACT_FABRIC_LINKS] = (double)summary.links;
	values[RK_FACT_FABRIC_DEGRADED_LINKS] = (double)summary.degraded_links;
	values[RK_FACT_FABRIC_SWEPT_PORTS] = sweep ? (double)sweep->count : NAN;
	values[RK_FACT_FABRIC_ANSWERED_PORTS] = sweep ? (double)sweep->answered : NAN;
	values[RK_FACT_FABRIC_UNANSWERED_PORTS] = sweep ? (double)sweep->failed : NAN;
	values[RK_FACT_FABRIC_SWEEP_SECONDS] = sweep ? sweep_seconds : NAN;
	values[RK_FACT_FABRIC_DISCOVERY_SECONDS] = fabric->discovery_seconds;
	values[RK_FACT_FABRIC_WATCHER_ACTIVE] = NAN; /* the watch engine's: rk_watch_fact_values */
	values[RK_FACT_FABRIC_AUDIT_CRITICAL] = NAN; /* and these two */
	values[RK_FACT_FABRIC_AUDIT_WARNING] = NAN;
	rk_route_fact_values(NULL, values);
}

void rk_route_fact_values(const struct rk_route_summary *routes, double values[RK_FACT_COUNT])
{
	values[RK_FACT_FABRIC_ROUTES] = routes ? (double)routes->routes : NAN;
	values[RK_FACT_FABRIC_ROUTE_HOLES] = routes ? (double)routes->holes : NAN;
	values[RK_FACT_FABRIC_ROUTE_LOOPS] = routes ? (double)routes->loops : NAN;
	values[RK_FACT_FABRIC_ROUTE_DEAD_ENDS] = routes ? (double)routes->dead_ends : NAN;
	values[RK_FACT_FABRIC_ROUTE_MAX_HOPS] = routes ? (double)routes->max_hops : NAN;
	values[RK_FACT_FABRIC_ROUTES_UNBALANCED] =
	    routes ? (double)routes->unbalanced_switches : NAN;
}

void rk_fabric_readings_fact_values(const struct rk_fabric *fabric,
				    const struct rk_sweep_readings *sweep, double sweep_seconds,
				    double values[RK_FACT_COUNT])
{
	/* the counts alone: the facts read no port */
	const struct rk_sweep counts = {.count = sweep ? sweep->count : 0,
					.answered = sweep ? sweep->answered : 0,
					.failed = sweep ? sweep->failed : 0};

	rk_fabric_fact_values(fabric, sweep ? &counts : NULL, sweep_seconds, values);
}

void rk_sm_fact_values(const struct rk_sm_status *status, double values[RK_FACT_COUNT])
{
	struct rk_sm_summary summary;
	const struct rk_sm *sm;

	rk_sm_summarize(status, &summary);
	sm = summary.described;
	values[RK_FACT_SM_MASTER_LID] = sm ? sm->lid : NAN;
	values[RK_FACT_SM_MASTER_PRIORITY] = sm ? sm->priority : NAN;
	values[RK_FACT_SM_MASTER_STATE] = sm ? sm->state : NAN;
	values[RK_FACT_SM_MASTER_ACTIVITY] = sm ? sm->activity_count : NAN;
	values[RK_FACT_SM_ANSWERED] = (double)summary.answered;
	values[RK_FACT_SM_MASTERS] = (double)summary.in_state[RK_SM_MASTER];
	values[RK_FACT_SM_STANDBYS] = (double)summary.in_state[RK_SM_STANDBY];
	values[RK_FACT_SM_DISCOVERING] = (double)summary.in_state[RK_SM_DISCOVERING];
	values[RK_FACT_SM_NOT_ACTIVE] = (double)summary.in_state[RK_SM_NOT_ACTIVE];
}
