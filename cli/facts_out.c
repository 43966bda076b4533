/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "facts_out.h"

#include <stdio.h>
#include <string.h>

static double fact_number(const struct rk_fact *fact, const struct fact_item *item)
{
	if (fact->scope == RK_SCOPE_SM_ENTRY)
		return fact->sm_number(item->sm);
	return item->port ? fact->port_number(item->port) : fact->device_number(item->dev);
}

static const char *fact_text(const struct rk_fact *fact, const struct fact_item *item,
			     char buf[RK_FACT_TEXT_MAX])
{
	if (fact->scope == RK_SCOPE_SM_ENTRY)
		return fact->sm_text(item->sm, buf);
	return item->port ? fact->port_text(item->port) : fact->device_text(item->dev);
}

bool fact_known(const struct fact_field *field, const struct fact_item *item)
{
	const struct rk_fact *fact = rk_fact(field->id);
	char buf[RK_FACT_TEXT_MAX];

	if (fact->kind == RK_KIND_TEXT)
		return fact_text(fact, item, buf)[0] != '\0';
	return fact_number(fact, item) >= 0;
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
	default:
		print_number_or_null(p, PRINT_ANY, key, field->fmt, value);
	}
}

void print_fact(struct printer *p, const struct fact_field *field, const struct fact_item *item)
{
	const struct rk_fact *fact = rk_fact(field->id);
	const char *dot = strrchr(fact->cli_name, '.');
	const char *key = dot ? dot + 1 : fact->cli_name;
	char buf[RK_FACT_TEXT_MAX];

	if (fact->kind != RK_KIND_TEXT)
		print_fact_number(p, key, field, fact_number(fact, item));
	else if (fact->scope == RK_SCOPE_SM_ENTRY) /* an SM's name may be "", and says so */
		print_string(p, PRINT_ANY, key, field->fmt, fact_text(fact, item, buf));
	else
		print_string_or_null(p, PRINT_ANY, key, field->fmt, fact_text(fact, item, buf));
}

void print_facts(struct printer *p, const struct fact_field *fields, size_t count,
		 const struct fact_item *item)
{
	for (size_t i = 0; i < count; i++)
		print_fact(p, &fields[i], item);
}
