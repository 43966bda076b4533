/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The AgentX side: every net-snmp call, from one thread, answering from snapshots. */
#include "ak_agent.h"

#include "ak_index.h"
#include "ak_oid.h"
#include "ak_trap.h"

#include "rdmakit/clock.h"

#include <net-snmp/net-snmp-config.h>

#include <net-snmp/net-snmp-includes.h>

#include <net-snmp/agent/agent_callbacks.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>

#include <errno.h>
#include <math.h>

/* Only the AgentX thread touches these. */
static struct ak_snapshot *current;
static bool connected;
static struct ak_mailbox *mailbox;

static size_t base_oid(const struct ak_table_def *def, oid *out)
{
	static const oid root[] = {AK_ROOT_OID};

	memcpy(out, root, sizeof(root));
	for (size_t i = 0; i < def->narcs; i++)
		out[AK_ROOT_LEN + i] = def->arcs[i];
	return AK_ROOT_LEN + def->narcs;
}

static void set_value(netsnmp_variable_list *vb, const struct ak_cell *cell)
{
	struct counter64 c64 = {.high = (u_long)(cell->u >> 32),
				.low = (u_long)(cell->u & 0xffffffffu)};
	long integer = (long)cell->i;
	u_long number = (u_long)cell->u;

	switch (cell->type) {
	case AK_CELL_INTEGER:
		snmp_set_var_typed_value(vb, ASN_INTEGER, &integer, sizeof(integer));
		break;
	case AK_CELL_UNSIGNED:
		snmp_set_var_typed_value(vb, ASN_UNSIGNED, &number, sizeof(number));
		break;
	case AK_CELL_COUNTER32:
		snmp_set_var_typed_value(vb, ASN_COUNTER, &number, sizeof(number));
		break;
	case AK_CELL_COUNTER64:
		snmp_set_var_typed_value(vb, ASN_COUNTER64, &c64, sizeof(c64));
		break;
	case AK_CELL_TIMETICKS:
		snmp_set_var_typed_value(vb, ASN_TIMETICKS, &number, sizeof(number));
		break;
	case AK_CELL_OCTETS:
		snmp_set_var_typed_value(vb, ASN_OCTET_STR, ak_cell_octets(cell), cell->len);
		break;
	case AK_CELL_AGE:
		number = (u_long)lround(rk_monotonic_seconds() - current->taken_at);
		snmp_set_var_typed_value(vb, ASN_UNSIGNED, &number, sizeof(number));
		break;
	case AK_CELL_NONE:
		break;
	}
}

static bool served_column(const struct ak_table_def *def, oid column)
{
	return column < AK_COLUMN_LIMIT && def->slot[column] != 0;
}

static int serve_get(const struct ak_table_def *def, netsnmp_variable_list *vb)
{
	oid base[AK_OID_MAX];
	size_t len = base_oid(def, base);
	uint32_t index[AK_INDEX_MAX];
	const struct ak_row *row;
	const struct ak_cell *cell;

	if (vb->name_length <= len ||
	    netsnmp_oid_is_subtree(base, len, vb->name, vb->name_length) ||
	    !served_column(def, vb->name[len]))
		return SNMP_NOSUCHOBJECT;
	if (!current || !ak_index_decode(vb->name + len + 1, vb->name_length - len - 1, index))
		return SNMP_NOSUCHINSTANCE;
	row = ak_table_find(ak_snapshot_table(current, def->id), index, vb->name_length - len - 1);
	cell = row ? ak_row_cell(row, (unsigned)vb->name[len]) : NULL;
	if (!cell || cell->type == AK_CELL_NONE)
		return SNMP_NOSUCHINSTANCE;
	set_value(vb, cell);
	return SNMP_ERR_NOERROR;
}

/* Where a GETNEXT starts: the position in the table's column list, and the first row to look
 * at in that column; false when the request is past this subtree. */
static bool next_start(const struct ak_table_def *def, const netsnmp_variable_list *vb,
		       const oid *base, size_t len, size_t *col, size_t *pos)
{
	uint32_t index[AK_INDEX_MAX];
	size_t index_len;

	*col = 0;
	*pos = 0;
	if (netsnmp_oid_is_subtree(base, len, vb->name, vb->name_length) != 0)
		return snmp_oid_compare(vb->name, vb->name_length, base, len) < 0;
	if (vb->name_length == len)
		return true;
	while (*col < def->ncolumns && def->columns[*col] < vb->name[len])
		(*col)++;
	if (*col == def->ncolumns || def->columns[*col] != vb->name[len])
		return *col < def->ncolumns; /* between columns: the next one from its first row */
	index_len = vb->name_length - len - 1;
	if (index_len > AK_INDEX_MAX)
		index_len = AK_INDEX_MAX;
	if (!ak_index_decode(vb->name + len + 1, index_len, index)) {
		(*col)++; /* past every row of this column */
		return *col < def->ncolumns;
	}
	*pos = ak_table_after(ak_snapshot_table(current, def->id), index, index_len);
	return true;
}

static void serve_next(const struct ak_table_def *def, netsnmp_variable_list *vb)
{
	oid base[AK_OID_MAX], name[AK_OID_MAX];
	size_t len = base_oid(def, base), col, pos;
	const struct ak_table *table;

	if (!current || !next_start(def, vb, base, len, &col, &pos))
		return; /* nothing here: the agent moves on to the next subtree */
	table = ak_snapshot_table(current, def->id);
	for (; col < def->ncolumns; col++, pos = 0)
		for (size_t r = pos; r < table->nrows; r++) {
			const struct ak_row *row = &table->rows[r];
			const struct ak_cell *cell = ak_row_cell(row, def->columns[col]);

			if (cell->type == AK_CELL_NONE)
				continue;
			memcpy(name, base, len * sizeof(oid));
			name[len] = def->columns[col];
			for (size_t i = 0; i < row->index_len; i++)
				name[len + 1 + i] = row->index[i];
			snmp_set_var_objid(vb, name, len + 1 + row->index_len);
			set_value(vb, cell);
			return;
		}
}

static int handle(netsnmp_mib_handler *handler, netsnmp_handler_registration *reginfo,
		  netsnmp_agent_request_info *reqinfo, netsnmp_request_info *requests)
{
	const struct ak_table_def *def = handler->myvoid;

	(void)reginfo;
	for (netsnmp_request_info *req = requests; req; req = req->next) {
		if (req->processed)
			continue;
		if (reqinfo->mode == MODE_GET) {
			int status = serve_get(def, req->requestvb);

			if (status != SNMP_ERR_NOERROR)
				netsnmp_set_request_error(reqinfo, req, status);
		} else if (reqinfo->mode == MODE_GETNEXT) {
			serve_next(def, req->requestvb);
		}
	}
	return SNMP_ERR_NOERROR;
}

static void log_line(const struct ak_log_line *line)
{
	static const int priorities[] = {LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG};

	snmp_log(priorities[line->level], "%s\n", line->text);
}

static void send_traps(struct ak_mailbox *box)
{
	struct ak_trap trap;
	size_t dropped = ak_mailbox_take_traps_dropped(box);

	if (dropped)
		snmp_log(LOG_WARNING, "%zu notifications dropped: more than %d waited for snmpd\n",
			 dropped, AK_TRAP_QUEUE);
	while (connected && ak_mailbox_peek_trap(box, &trap)) {
		ak_trap_send(&trap);
		ak_mailbox_pop_trap(box);
	}
}

void ak_agent_drain(struct ak_mailbox *box)
{
	static struct ak_log_line lines[AK_LOG_QUEUE];
	struct ak_snapshot *snapshot;
	size_t dropped, n;

	ak_mailbox_clear_wake(box);
	snapshot = ak_mailbox_take_snapshot(box);
	if (snapshot) {
		ak_mailbox_retire(box, current); /* freed by the refresh thread, not here */
		current = snapshot;
	}
	n = ak_mailbox_take_logs(box, lines, &dropped);
	for (size_t i = 0; i < n; i++)
		log_line(&lines[i]);
	if (dropped)
		snmp_log(LOG_WARNING, "%zu log lines dropped\n", dropped);
	send_traps(box);
}

static void on_wake(int fd, void *box)
{
	(void)fd;
	ak_agent_drain(box);
}

static int on_connection(int major, int minor, void *server, void *client)
{
	(void)major;
	(void)server;
	(void)client;
	connected = minor == SNMPD_CALLBACK_INDEX_START;
	if (connected)
		send_traps(mailbox);
	return SNMP_ERR_NOERROR;
}

static int register_def(const struct ak_table_def *def)
{
	oid base[AK_OID_MAX];
	size_t len = base_oid(def, base);
	netsnmp_handler_registration *reg =
	    netsnmp_create_handler_registration(def->name, handle, base, len, HANDLER_CAN_RONLY);

	if (!reg)
		return -ENOMEM;
	reg->handler->myvoid = (void *)def;
	return netsnmp_register_handler(reg) == MIB_REGISTERED_OK ? 0 : -EEXIST;
}

int ak_agent_register(struct ak_mailbox *box, unsigned modes)
{
	size_t count;
	const struct ak_table_def *defs = ak_table_defs(&count);
	int err = 0;

	for (size_t i = 0; i < count && !err; i++)
		if (ak_table_mode(defs[i].id) & modes)
			err = register_def(&defs[i]);
	if (err)
		return err;
	/* No client argument: snmp_shutdown frees the ones it was given. */
	mailbox = box;
	snmp_register_callback(SNMP_CALLBACK_APPLICATION, SNMPD_CALLBACK_INDEX_START, on_connection,
			       NULL);
	snmp_register_callback(SNMP_CALLBACK_APPLICATION, SNMPD_CALLBACK_INDEX_STOP, on_connection,
			       NULL);
	return register_readfd(box->fd, on_wake, box) == FD_REGISTERED_OK ? 0 : -EBADF;
}

void ak_agent_unregister(struct ak_mailbox *box, unsigned modes)
{
	size_t count;
	const struct ak_table_def *defs = ak_table_defs(&count);
	oid base[AK_OID_MAX];

	for (size_t i = 0; i < count; i++)
		if (ak_table_mode(defs[i].id) & modes)
			unregister_mib(base, base_oid(&defs[i], base));
	snmp_unregister_callback(SNMP_CALLBACK_APPLICATION, SNMPD_CALLBACK_INDEX_START,
				 on_connection, NULL, 1);
	snmp_unregister_callback(SNMP_CALLBACK_APPLICATION, SNMPD_CALLBACK_INDEX_STOP,
				 on_connection, NULL, 1);
	unregister_readfd(box->fd);
}

void ak_agent_release(struct ak_mailbox *box)
{
	ak_mailbox_retire(box, current);
	current = NULL;
}
