/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* NDT plans: the network design topology CSV that UFM's NDT plugin compares a fabric with. A
 * header line names the columns (StartDevice, StartPort, EndDevice, EndPort, LinkType; "#" or
 * "#Fields:" may come first, other columns are passed over); each later row is a cable between
 * two devices named, not given by GUID, placed on the fabric when compared (plan_place.c). */
#include "plan_internal.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* The columns a row is read from. */
enum ndt_column {
	START_DEVICE,
	START_PORT,
	END_DEVICE,
	END_PORT,
	LINK_TYPE,
	NDT_COLUMNS,
};

static const char *const column_names[NDT_COLUMNS] = {"StartDevice", "StartPort", "EndDevice",
						      "EndPort", "LinkType"};

/* Where each column is in a row (-1: the header has none). */
struct ndt_header {
	int index[NDT_COLUMNS];
};

/* A row's fields by column, and which the row has. */
struct ndt_row {
	char field[NDT_COLUMNS][RK_PLAN_MAX_LINE + 1];
	bool present[NDT_COLUMNS];
	bool blank; /* every field empty */
};

/* The CSV field at s into out (size bytes, a longer one cut): quotes taken off ("" in quotes
 * is one "), blanks around it trimmed. Where the next field starts, NULL after the last. */
static const char *csv_field(const char *s, char *out, size_t size)
{
	bool quoted = false;
	size_t n = 0;

	for (s += strspn(s, " \t"); *s && *s != '\n' && *s != '\r' && (quoted || *s != ','); s++) {
		if (*s == '"' && !(quoted && s[1] == '"')) {
			quoted = !quoted;
			continue;
		}
		s += *s == '"'; /* "" in quotes */
		if (n + 1 < size)
			out[n++] = *s;
	}
	while (n && (out[n - 1] == ' ' || out[n - 1] == '\t'))
		n--;
	out[n] = '\0';
	return *s == ',' ? s + 1 : NULL;
}

/* A header cell's column name: a leading "#" and "Fields:", and blanks, dropped. */
static void column_key(const char *cell, char *key, size_t size)
{
	size_t n = 0;

	cell += *cell == '#';
	if (strncasecmp(cell, "Fields:", 7) == 0)
		cell += 7;
	for (; *cell && n + 1 < size; cell++)
		if (!isspace((unsigned char)*cell))
			key[n++] = *cell;
	key[n] = '\0';
}

/* The columns of a header line; false when it lacks one of the two ends' columns. */
static bool read_header(const char *line, struct ndt_header *h)
{
	char cell[RK_PLAN_MAX_LINE + 1], key[32];
	int index = 0;

	for (int c = 0; c < NDT_COLUMNS; c++)
		h->index[c] = -1;
	for (const char *s = line; s; index++) {
		s = csv_field(s, cell, sizeof(cell));
		column_key(cell, key, sizeof(key));
		for (int c = 0; c < NDT_COLUMNS; c++)
			if (h->index[c] < 0 && strcasecmp(key, column_names[c]) == 0)
				h->index[c] = index;
	}
	for (int c = 0; c < LINK_TYPE; c++)
		if (h->index[c] < 0)
			return false;
	return true;
}

bool plan_ndt_header(const char *line)
{
	struct ndt_header h;

	return read_header(line, &h);
}

/* The row's fields of the header's columns. */
static void read_row(const struct ndt_header *h, const char *line, struct ndt_row *row)
{
	char cell[RK_PLAN_MAX_LINE + 1];
	int index = 0;

	memset(row->present, 0, sizeof(row->present));
	row->blank = true;
	for (const char *s = line; s; index++) {
		s = csv_field(s, cell, sizeof(cell));
		row->blank = row->blank && !cell[0];
		for (int c = 0; c < NDT_COLUMNS; c++)
			if (h->index[c] == index) {
				memcpy(row->field[c], cell, strlen(cell) + 1);
				row->present[c] = true;
			}
	}
}

/* "N", "Port N", "PortN", "P N", "PN", "IB Port N" (any case), or a cage and its split "C/S"
 * (S 1 or 2, also after "Port"), on switches of two ports a cage port 2(C-1)+S: the port, or
 * 0 when text is none of them. */
static int port_number(const char *text)
{
	const char *s = text;
	int n, split;

	if (strncasecmp(s, "IB ", 3) == 0)
		s += 3;
	if (strncasecmp(s, "Port", 4) == 0)
		s += 4;
	else if (*s == 'P' || *s == 'p')
		s++;
	s += strspn(s, " ");
	if (!plan_parse_int(&s, RK_PLAN_MAX_PORT, &n) || n < 1)
		return 0;
	if (*s == '/') {
		s++;
		if (n > RK_PLAN_MAX_PORT / 2 || !plan_parse_int(&s, 2, &split) || split < 1)
			return 0;
		n = 2 * (n - 1) + split;
	}
	return *s ? 0 : n;
}

/* An HCA's port as switch-to-host NDTs write it, its node description "HOST ibpXsYfZ" (or
 * "ibpXsYfZ" alone, after the device HOST): that node's name into name; false when text is
 * not one. */
static bool host_port(const char *device, const char *text, char *name, size_t size)
{
	size_t len = strlen(device);

	if (strncasecmp(text, device, len) == 0 && text[len] == ' ')
		return (size_t)snprintf(name, size, "%s", text) < size;
	if (strncasecmp(text, "ibp", 3) == 0 && isdigit((unsigned char)text[3]))
		return (size_t)snprintf(name, size, "%s %s", device, text) < size;
	return false;
}

/* One end of a row into its node's name (PLAN_NAME_MAX + 1 bytes) and port; NULL, or why
 * not. */
static const char *row_end(const char *device, const char *text, char *name, int *port)
{
	if (!*device)
		return "no device name";
	if (strlen(device) > PLAN_NAME_MAX)
		return "a device name longer than 95 characters";
	if (!*text)
		return "no port";
	if (strncasecmp(text, "Blade", 5) == 0)
		return "a director's port (Blade N_Port i/j) is a port of one of its leaf "
		       "switches: "
		       "write that leaf's own name and port number";
	*port = 1;
	if (host_port(device, text, name, PLAN_NAME_MAX + 1))
		return NULL;
	if (!(*port = port_number(text)))
		return "not a port: N, Port N, PN, a cage and split as 1/2, or an HCA as "
		       "HOST ibpXsYfZ";
	memcpy(name, device, strlen(device) + 1);
	return NULL;
}

/* The end of the row whose device is in column device (its port in the next); false, reported,
 * when it cannot be read. */
static bool read_end(struct plan_parser *p, const struct ndt_row *row, enum ndt_column device,
		     char *name, int *port)
{
	const char *why = row_end(row->field[device], row->field[device + 1], name, port);

	if (why)
		plan_bad(p, "%s \"%.40s\" %s \"%.40s\": %s", column_names[device],
			 row->field[device], column_names[device + 1], row->field[device + 1], why);
	return !why;
}

/* One row after the header: a link, or nothing for a blank row or one whose LinkType is
 * neither Data nor empty (not an InfiniBand cable). */
static int ndt_row(struct plan_parser *p, const struct ndt_header *h, const char *line)
{
	char a[PLAN_NAME_MAX + 1], b[PLAN_NAME_MAX + 1];
	struct ndt_row row;
	int pa, pb;

	read_row(h, line, &row);
	if (row.blank || (row.present[LINK_TYPE] && row.field[LINK_TYPE][0] &&
			  strcasecmp(row.field[LINK_TYPE], "Data") != 0))
		return 0;
	for (int c = 0; c < NDT_COLUMNS; c++)
		if (h->index[c] >= 0 && !row.present[c])
			return plan_bad(p, "the row has no %s field", column_names[c]), 0;
	if (!read_end(p, &row, START_DEVICE, a, &pa) || !read_end(p, &row, END_DEVICE, b, &pb))
		return 0;
	return plan_add_named_link(p, a, pa, b, pb, 0, RK_SPEED_NONE);
}

int plan_read_ndt(struct plan_parser *p, FILE *in)
{
	char buf[RK_PLAN_MAX_LINE + 2];
	struct ndt_header h = {0}, next; /* h is read only once a header set it */
	bool header = false, too_long;
	int err = 0;

	while (!err && !p->too_big && plan_read_line(p, in, buf, sizeof(buf), &too_long)) {
		const char *s = plan_line_start(p, buf);

		s += strspn(s, " \t");
		if (too_long)
			plan_bad(p, "line longer than 1024 characters");
		else if (read_header(s, &next)) /* files joined together each have one */
			h = next, header = true;
		else if (*s == '#' || *s == '\0' || *s == '\n' || *s == '\r')
			continue;
		else if (!header)
			plan_bad(p, "a row before the header line (StartDevice,StartPort,EndDevice,"
				    "EndPort,LinkType)");
		else
			err = ndt_row(p, &h, s);
	}
	return err;
}
