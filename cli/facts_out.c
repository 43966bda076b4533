/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The core's facts (rdmakit/facts.h) through the one writer. */
#include "facts_out.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static bool fact_known(const struct fact_field *field, const struct rk_fact_subject *item)
{
	const struct rk_fact *fact = rk_fact(field->id);
	char buf[RK_FACT_TEXT_MAX];

	if (fact->kind == RK_KIND_TEXT)
		return rk_fact_text(fact, item, buf)[0] != '\0';
	return rk_fact_number(fact, item) >= 0;
}

void print_width(struct printer *p, const char *key, const char *fmt, int lanes)
{
	char text[16];

	if (lanes <= 0) {
		print_null(p, PRINT_ANY, key, fmt);
		return;
	}
	snprintf(text, sizeof(text), "%dX", lanes);
	print_string(p, PRINT_ANY, key, fmt, text);
}

void print_speed(struct printer *p, const char *key, const char *fmt, enum rk_speed speed)
{
	print_string(p, PRINT_ANY, key, fmt, speed == RK_SPEED_NONE ? NULL : rk_speed_name(speed));
}

/* A hexadecimal number, or null when negative; text leaves out the 0x of a PCI id. */
static void print_hex(struct printer *p, const char *key, const struct fact_field *field,
		      double value)
{
	char text[24];

	if (value < 0) {
		print_null(p, PRINT_ANY, key, field->fmt);
		return;
	}
	snprintf(text, sizeof(text), "0x%0*llx", field->style == STYLE_MASK ? 8 : 4,
		 (unsigned long long)value);
	print_string(p, PRINT_JSON, key, NULL, text);
	print_string(p, PRINT_TEXT, key, field->fmt, field->style == STYLE_MASK ? text : text + 2);
}

static void print_fact_number(struct printer *p, const char *key, const struct fact_field *field,
			      double value)
{
	switch (field->style) {
	case STYLE_FLAG:
		print_bool(p, PRINT_ANY, key, value != 0 ? field->fmt : NULL, value != 0);
		break;
	case STYLE_YES_NO:
		print_bool(p, PRINT_ANY, key, field->fmt, value != 0);
		break;
	case STYLE_LANES:
		print_width(p, key, field->fmt, (int)value);
		break;
	case STYLE_MASK:
	case STYLE_PCI_ID:
		print_hex(p, key, field, value);
		break;
	case STYLE_NODE_TYPE:
		print_string(p, PRINT_ANY, key, field->fmt,
			     rk_node_type_name((enum rk_node_type)value));
		break;
	case STYLE_PORT_STATE:
		print_string(p, PRINT_ANY, key, field->fmt, rk_port_state_name((int)value));
		break;
	case STYLE_PHYS_STATE:
		print_string(p, PRINT_ANY, key, field->fmt, rk_phys_state_name((int)value));
		break;
	case STYLE_SPEED:
		print_speed(p, key, field->fmt, (enum rk_speed)value);
		break;
	default:
		print_number_or_null(p, PRINT_ANY, key, field->fmt, value);
	}
}

const char *fact_key(enum rk_fact_id id)
{
	const char *name = rk_fact(id)->cli_name;
	const char *dot = strrchr(name, '.');

	return dot ? dot + 1 : name;
}

/* The name of the object a nested fact is a member of ("pci" of "pci.numa_node"), in key. */
static const char *fact_object(enum rk_fact_id id, char *key, size_t size)
{
	const char *name = rk_fact(id)->cli_name;

	snprintf(key, size, "%.*s", (int)(fact_key(id) - 1 - name), name);
	return key;
}

void print_open_fact_object(struct printer *p, enum rk_fact_id id)
{
	char key[32];

	print_open_object(p, fact_object(id, key, sizeof(key)));
}

/* Whether an empty text is shown as it is: an SM's or a node's name may be "", and says so. */
static bool empty_text_shown(const struct rk_fact *fact)
{
	return fact->scope == RK_SCOPE_SM_ENTRY || fact->scope == RK_SCOPE_FABRIC_NODE;
}

void print_fact(struct printer *p, const struct fact_field *field,
		const struct rk_fact_subject *subject)
{
	const struct rk_fact *fact = rk_fact(field->id);
	const char *key = fact_key(field->id);
	char buf[RK_FACT_TEXT_MAX];

	if (fact->kind != RK_KIND_TEXT)
		print_fact_number(p, key, field, rk_fact_number(fact, subject));
	else if (empty_text_shown(fact))
		print_string(p, PRINT_ANY, key, field->fmt, rk_fact_text(fact, subject, buf));
	else
		print_string_or_null(p, PRINT_ANY, key, field->fmt,
				     rk_fact_text(fact, subject, buf));
}

void print_facts(struct printer *p, const struct fact_field *fields, size_t count,
		 const struct rk_fact_subject *subject)
{
	for (size_t i = 0; i < count; i++)
		print_fact(p, &fields[i], subject);
}

/* Where a block of lines, a fact each, starts, and how wide its labels (with their colon) are
 * padded before the values. */
struct fact_lines {
	const char *indent;
	int label_width;
};

/* The text of a fact on a line of its own: "\t\tRate:            %.15g Gb/s\n" (a number shown
 * as it is has its text unit after it; a label has no '%'). */
static void line_format(const struct fact_field *field, const struct fact_lines *lines, char *fmt,
			size_t size)
{
	const struct rk_fact *fact = rk_fact(field->id);
	bool number = fact->kind != RK_KIND_TEXT && field->style == STYLE_PLAIN;
	bool unit = number && fact->text_unit[0];
	char label[64];

	snprintf(label, sizeof(label), "%s:", fact->label);
	snprintf(fmt, size, "%s%-*s %s%s%s\n", lines->indent, lines->label_width, label,
		 number ? "%.15g" : "%s", unit ? " " : "", unit ? fact->text_unit : "");
}

/* How the CLI shows a host's port and device facts where a plain line of its own is not it: a
 * style, and the text of the facts that share a line (the "pci" object's, vanished's after the
 * device's name). */
static const struct fact_field host_fields[] = {
    {RK_FACT_PORT_WIDTH, NULL, STYLE_LANES},
    {RK_FACT_PORT_CAP_MASK, NULL, STYLE_MASK},
    {RK_FACT_DEVICE_VANISHED, " (vanished)", STYLE_FLAG},
    {RK_FACT_DEVICE_PCI_ADDRESS, "\tPCI:               %s", STYLE_PLAIN},
    {RK_FACT_DEVICE_PCI_VENDOR, " [%s", STYLE_PCI_ID},
    {RK_FACT_DEVICE_PCI_DEVICE, ":%s]", STYLE_PCI_ID},
    {RK_FACT_DEVICE_NUMA_NODE, " NUMA node %.0f\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_PCIE_SPEED, "\tPCIe link:         %g GT/s", STYLE_PLAIN},
    {RK_FACT_DEVICE_PCIE_MAX_SPEED, " (max %g GT/s)", STYLE_PLAIN},
    {RK_FACT_DEVICE_PCIE_WIDTH, ", x%.0f", STYLE_PLAIN},
    {RK_FACT_DEVICE_PCIE_MAX_WIDTH, " (max x%.0f)\n", STYLE_PLAIN},
    {RK_FACT_DEVICE_SRIOV_NUMVFS, "\tSR-IOV VFs:        %.0f", STYLE_PLAIN},
    {RK_FACT_DEVICE_SRIOV_TOTALVFS, " of %.0f\n", STYLE_PLAIN},
};

/* Where the lines of a port's and of a device's facts start, and their values. */
static const struct fact_lines port_lines = {"\t\t", 16}, device_lines = {"\t", 18};

/* A host fact's field: its entry of host_fields, else a plain one with no text of its own. */
static struct fact_field host_field(const struct rk_fact *fact)
{
	for (size_t i = 0; i < sizeof(host_fields) / sizeof(host_fields[0]); i++)
		if (host_fields[i].id == fact->id)
			return host_fields[i];
	return (struct fact_field){fact->id, NULL, STYLE_PLAIN};
}

/* Whether the CLI shows a fact of the scope, in the "pci" object (nested) or at the top. */
static bool shown(const struct rk_fact *fact, enum rk_fact_scope scope, bool nested)
{
	return fact->scope == scope && rk_fact_served(fact, RK_FRONT_CLI) &&
	       (strchr(fact->cli_name, '.') != NULL) == nested;
}

/* A scope's facts, in the table's order: those at the top of the subject's object (nested
 * false) a line each, but for those with a text of their own, shown elsewhere; those of the
 * "pci" object (nested) each with its text, else a line of its own. */
static void print_scope_facts(struct printer *p, enum rk_fact_scope scope, bool nested,
			      const struct fact_lines *lines, const struct rk_fact_subject *subject)
{
	size_t count;
	const struct rk_fact *facts = rk_facts_all(&count);
	char fmt[128];

	for (size_t i = 0; i < count; i++) {
		struct fact_field field = host_field(&facts[i]);

		if (!shown(&facts[i], scope, nested) || (field.fmt && !nested))
			continue;
		if (!field.fmt) {
			line_format(&field, lines, fmt, sizeof(fmt));
			field.fmt = fmt;
		}
		print_fact(p, &field, subject);
	}
}

/* The text of an SM's facts, a column each. */
static const struct fact_field sm_fields[] = {
    {RK_FACT_SM_ENTRY_LID, "%-6.0f", STYLE_PLAIN},
    {RK_FACT_SM_ENTRY_ANSWERED, " %-8s", STYLE_YES_NO},
    {RK_FACT_SM_ENTRY_GUID, " %-18s", STYLE_PLAIN},
    {RK_FACT_SM_ENTRY_PRIORITY, " %-8.0f", STYLE_PLAIN},
    {RK_FACT_SM_ENTRY_STATE_NAME, " %-12s", STYLE_PLAIN},
    {RK_FACT_SM_ENTRY_ACTIVITY, " %-10.0f", STYLE_PLAIN},
    {RK_FACT_SM_ENTRY_NAME, " %s", STYLE_PLAIN},
};

/* The text of an SM fact; a fact the CLI does not know yet is a column of its own. */
static struct fact_field sm_field(const struct rk_fact *fact)
{
	for (size_t i = 0; i < sizeof(sm_fields) / sizeof(sm_fields[0]); i++)
		if (sm_fields[i].id == fact->id)
			return sm_fields[i];
	return (struct fact_field){fact->id, fact->kind == RK_KIND_TEXT ? " %s" : " %.0f",
				   STYLE_PLAIN};
}

void print_port_facts(struct printer *p, const struct rk_device *dev, const struct rk_port *port)
{
	print_scope_facts(p, RK_SCOPE_PORT, false, &port_lines,
			  &(struct rk_fact_subject){.device = dev, .port = port});
}

void print_device_facts(struct printer *p, const struct rk_device *dev)
{
	print_scope_facts(p, RK_SCOPE_DEVICE, false, &device_lines,
			  &(struct rk_fact_subject){.device = dev});
}

void print_pci_facts(struct printer *p, const struct rk_device *dev)
{
	char key[32];

	if (!dev->pci.address[0]) {
		print_null(p, PRINT_JSON, fact_object(RK_FACT_DEVICE_PCI_ADDRESS, key, sizeof(key)),
			   NULL);
		print_text(p, "\tPCI:               none (virtual device)\n");
		return;
	}
	print_open_fact_object(p, RK_FACT_DEVICE_PCI_ADDRESS);
	print_scope_facts(p, RK_SCOPE_DEVICE, true, &device_lines,
			  &(struct rk_fact_subject){.device = dev});
	print_close(p);
}

void print_vanished(struct printer *p, const struct rk_device *dev)
{
	struct fact_field field = host_field(rk_fact(RK_FACT_DEVICE_VANISHED));

	print_fact(p, &field, &(struct rk_fact_subject){.device = dev});
}

void print_sm_heading(struct printer *p)
{
	size_t count;
	const struct rk_fact *facts = rk_facts_all(&count);

	for (size_t i = 0; i < count; i++) {
		struct fact_field field = sm_field(&facts[i]);
		char label[64];

		if (facts[i].scope != RK_SCOPE_SM_ENTRY || !facts[i].cli_name)
			continue;
		snprintf(label, sizeof(label), "%s", facts[i].label);
		for (char *c = label; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		print_column_heading(p, field.fmt, label);
	}
	print_text(p, "\n");
}

void print_sm_facts(struct printer *p, const struct rk_sm *sm)
{
	struct rk_fact_subject item = {.sm = sm};
	size_t count;
	const struct rk_fact *facts = rk_facts_all(&count);

	for (size_t i = 0; i < count; i++) {
		struct fact_field field = sm_field(&facts[i]);

		if (facts[i].scope != RK_SCOPE_SM_ENTRY || !facts[i].cli_name)
			continue;
		if (sm->status == 0 || fact_known(&field, &item))
			print_fact(p, &field, &item);
	}
}
