/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* RDMAKIT-MIB's notifications, made from the core's events. */
#include "ak_trap.h"

#include "ak_columns.h"
#include "ak_oid.h"
#include "rdmakit/fabric.h"

#include <net-snmp/net-snmp-config.h>

#include <net-snmp/net-snmp-includes.h>

#include <net-snmp/agent/net-snmp-agent-includes.h>

#include <string.h>

/* OIDs under the root: a table entry (or group) with a column and an index of up to two. */
struct ak_name {
	oid subids[AK_OID_MAX];
	size_t len;
};

static struct ak_name name_of(const uint32_t *arcs, size_t narcs, oid column, const uint32_t *index,
			      size_t nindex)
{
	static const oid root[] = {AK_ROOT_OID};
	struct ak_name name;

	memcpy(name.subids, root, sizeof(root));
	name.len = AK_ROOT_LEN;
	for (size_t i = 0; i < narcs; i++)
		name.subids[name.len++] = arcs[i];
	name.subids[name.len++] = column;
	for (size_t i = 0; i < nindex; i++)
		name.subids[name.len++] = index[i];
	return name;
}

static void add_string(netsnmp_variable_list **vars, struct ak_name name, const char *text)
{
	snmp_varlist_add_variable(vars, name.subids, name.len, ASN_OCTET_STR, text,
				  strnlen(text, 255));
}

static void add_integer(netsnmp_variable_list **vars, struct ak_name name, long value)
{
	snmp_varlist_add_variable(vars, name.subids, name.len, ASN_INTEGER, &value, sizeof(value));
}

static void add_unsigned(netsnmp_variable_list **vars, struct ak_name name, uint64_t value)
{
	u_long number = (u_long)value;

	snmp_varlist_add_variable(vars, name.subids, name.len, ASN_UNSIGNED, &number,
				  sizeof(number));
}

static void add_trap_oid(netsnmp_variable_list **vars, oid notification)
{
	static const oid snmp_trap_oid[] = {1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0};
	static const uint32_t notifications[] = {0};
	struct ak_name value = name_of(notifications, 1, notification, NULL, 0);

	snmp_varlist_add_variable(vars, snmp_trap_oid, OID_LENGTH(snmp_trap_oid), ASN_OBJECT_ID,
				  value.subids, value.len * sizeof(oid));
}

/* rdmakitNotifyObjects ::= { rdmakitNotifications 100 } */
#define AK_NOTIFY_OLD_PORT_STATE       1
#define AK_NOTIFY_OLD_PHYS_STATE       2
#define AK_NOTIFY_OLD_MASTER_LID       3
#define AK_NOTIFY_OLD_MASTER_GUID      4
#define AK_NOTIFY_DEVICE	       5
#define AK_NOTIFY_PORT		       6
#define AK_NOTIFY_SEVERITY	       7
#define AK_NOTIFY_OLD_SEVERITY	       8
#define AK_NOTIFY_OLD_MASTER_GUID_TEXT 9

static struct ak_name notify_name(oid object)
{
	static const uint32_t notify[] = {0, 100};
	static const uint32_t zero = 0;

	return name_of(notify, 2, object, &zero, 1);
}

/* What every notification ends with: the event's severity (RdmakitSeverity: ok when it
 * cleared), and for host events the device and port in plain text. */
static void add_subject(netsnmp_variable_list **vars, const struct ak_trap *trap, bool located)
{
	add_integer(vars, notify_name(AK_NOTIFY_SEVERITY), (long)trap->event.severity + 1);
	if (!located)
		return;
	add_string(vars, notify_name(AK_NOTIFY_DEVICE), trap->device);
	add_unsigned(vars, notify_name(AK_NOTIFY_PORT), trap->port);
}

static oid finding_notification(const struct ak_trap *trap)
{
	if (trap->event.kind == RK_EVENT_FINDING_CHANGED)
		return AK_TRAP_FINDING_CHANGED;
	return trap->cleared ? AK_TRAP_FINDING_CLEARED : AK_TRAP_FINDING_RAISED;
}

/* The fabric node and port a finding is about, as its row has them. */
static void add_finding_node(netsnmp_variable_list **vars, const struct ak_table_def *def,
			     const uint32_t *index, const struct rk_finding *finding)
{
	char guid[24] = "";

	if (finding->node_guid)
		rk_format_guid_groups(finding->node_guid, guid, sizeof(guid));
	add_string(vars, name_of(def->arcs, def->narcs, AK_FINDING_NODE_GUID, index, 1), guid);
	add_unsigned(vars, name_of(def->arcs, def->narcs, AK_FINDING_NODE_PORT, index, 1),
		     finding->node_guid && finding->port > 0 ? (unsigned)finding->port : 0);
}

static void add_finding(netsnmp_variable_list **vars, const struct ak_trap *trap)
{
	const struct ak_table_def *def = ak_table_def(AK_T_FINDING);
	const struct rk_finding *finding = &trap->event.finding;
	const uint32_t *arcs = def->arcs, *index = &trap->finding_index;
	oid notification = finding_notification(trap);

	add_trap_oid(vars, notification);
	add_string(vars, name_of(arcs, def->narcs, AK_FINDING_CODE, index, 1), finding->code);
	add_integer(vars, name_of(arcs, def->narcs, AK_FINDING_SEVERITY, index, 1),
		    (long)finding->severity + 1);
	add_string(vars, name_of(arcs, def->narcs, AK_FINDING_SUBJECT, index, 1), finding->subject);
	add_string(vars, name_of(arcs, def->narcs, AK_FINDING_MESSAGE, index, 1), finding->message);
	if (!trap->cleared)
		add_string(vars, name_of(arcs, def->narcs, AK_FINDING_REMEDY, index, 1),
			   finding->remedy);
	if (notification == AK_TRAP_FINDING_CHANGED)
		add_integer(vars, notify_name(AK_NOTIFY_OLD_SEVERITY),
			    (long)trap->event.old.number + 1);
	add_subject(vars, trap, true);
	add_finding_node(vars, def, index, finding);
}

static void add_port_state(netsnmp_variable_list **vars, const struct ak_trap *trap)
{
	const struct ak_table_def *dev = ak_table_def(AK_T_DEVICE);
	const struct ak_table_def *port = ak_table_def(AK_T_PORT);
	static const uint32_t notify[] = {0, 100};
	uint32_t index[2] = {trap->device_index, trap->event.port};
	struct ak_name guid = name_of(dev->arcs, dev->narcs, AK_DEVICE_NODE_GUID, index, 1);

	add_trap_oid(vars, AK_TRAP_PORT_STATE);
	add_string(vars, name_of(dev->arcs, dev->narcs, AK_DEVICE_NAME, index, 1),
		   trap->event.device);
	snmp_varlist_add_variable(vars, guid.subids, guid.len, ASN_OCTET_STR, trap->node_guid,
				  sizeof(trap->node_guid));
	add_integer(vars, name_of(port->arcs, port->narcs, AK_PORT_STATE, index, 2),
		    (long)trap->event.now.number);
	add_integer(vars, name_of(port->arcs, port->narcs, AK_PORT_PHYS_STATE, index, 2),
		    (long)trap->event.now.detail);
	add_integer(vars, name_of(notify, 2, AK_NOTIFY_OLD_PORT_STATE, index, 2),
		    (long)trap->event.old.number);
	add_integer(vars, name_of(notify, 2, AK_NOTIFY_OLD_PHYS_STATE, index, 2),
		    (long)trap->event.old.detail);
	add_subject(vars, trap, true);
	add_string(vars, name_of(dev->arcs, dev->narcs, AK_DEVICE_NODE_GUID_TEXT, index, 1),
		   trap->node_guid_text);
}

static void add_guid(netsnmp_variable_list **vars, struct ak_name name, uint64_t guid)
{
	unsigned char octets[8];

	for (int i = 0; i < 8; i++)
		octets[i] = (unsigned char)(guid >> (56 - 8 * i));
	snmp_varlist_add_variable(vars, name.subids, name.len, ASN_OCTET_STR, octets, 8);
}

/* A GUID as the kernel writes one (RdmakitGuidText), empty when unknown. */
static void add_guid_text(netsnmp_variable_list **vars, struct ak_name name, uint64_t guid,
			  bool known)
{
	char text[24] = "";

	if (known)
		rk_format_guid_groups(guid, text, sizeof(text));
	add_string(vars, name, text);
}

/* rdmakitSmMasterChange: the new master (rdmakitSmMaster scalars) and the old one, their GUIDs
 * as octets and, last, as text. */
static void add_master_change(netsnmp_variable_list **vars, const struct ak_trap *trap)
{
	const struct ak_table_def *master = ak_table_def(AK_T_SM_MASTER);
	static const uint32_t notify[] = {0, 100};
	static const uint32_t zero = 0;
	const struct rk_event_value *now = &trap->event.now, *old = &trap->event.old;

	add_trap_oid(vars, AK_TRAP_SM_MASTER_CHANGE);
	add_unsigned(vars, name_of(master->arcs, master->narcs, AK_SM_MASTER_LID, &zero, 1),
		     (uint64_t)now->number);
	add_guid(vars, name_of(master->arcs, master->narcs, AK_SM_MASTER_GUID, &zero, 1),
		 now->guid);
	add_unsigned(vars, name_of(master->arcs, master->narcs, AK_SM_MASTER_PRIORITY, &zero, 1),
		     (uint64_t)now->detail);
	add_unsigned(vars, name_of(notify, 2, AK_NOTIFY_OLD_MASTER_LID, &zero, 1),
		     old->known ? (uint64_t)old->number : 0);
	add_guid(vars, name_of(notify, 2, AK_NOTIFY_OLD_MASTER_GUID, &zero, 1),
		 old->known ? old->guid : 0);
	add_subject(vars, trap, false);
	add_guid_text(vars, name_of(master->arcs, master->narcs, AK_SM_MASTER_GUID_TEXT, &zero, 1),
		      now->guid, true);
	add_guid_text(vars, name_of(notify, 2, AK_NOTIFY_OLD_MASTER_GUID_TEXT, &zero, 1), old->guid,
		      old->known);
}

void ak_trap_send(const struct ak_trap *trap)
{
	netsnmp_variable_list *vars = NULL;

	if (trap->event.kind == RK_EVENT_PORT_STATE)
		add_port_state(&vars, trap);
	else if (trap->event.kind == RK_EVENT_SM_MASTER_CHANGED)
		add_master_change(&vars, trap);
	else
		add_finding(&vars, trap);
	send_v2trap(vars);
	snmp_free_varbind(vars);
}
