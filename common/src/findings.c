/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/findings.h"

#include "rdmakit/array.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rk_findings_add(struct rk_findings *findings, enum rk_severity severity, const char *code,
		    const char *subject, const char *remedy, const char *fmt, ...)
{
	struct rk_finding *items, *finding;
	va_list args;

	items = rk_array_room(findings->items, &findings->capacity, findings->count, sizeof(*items),
			      16);
	if (!items)
		return -ENOMEM;
	findings->items = items;
	finding = &findings->items[findings->count++];
	finding->severity = severity;
	snprintf(finding->code, sizeof(finding->code), "%s", code);
	snprintf(finding->subject, sizeof(finding->subject), "%s", subject);
	snprintf(finding->remedy, sizeof(finding->remedy), "%s", remedy);
	finding->node_guid = 0;
	finding->device[0] = '\0';
	finding->port = 0;
	va_start(args, fmt);
	vsnprintf(finding->message, sizeof(finding->message), fmt, args);
	va_end(args);
	return 0;
}

int rk_findings_append(struct rk_findings *findings, const struct rk_finding *finding)
{
	struct rk_finding *items = rk_array_room(findings->items, &findings->capacity,
						 findings->count, sizeof(*items), 16);

	if (!items)
		return -ENOMEM;
	findings->items = items;
	findings->items[findings->count++] = *finding;
	return 0;
}

struct rk_finding *rk_findings_find(struct rk_findings *findings, const char *code,
				    const char *subject)
{
	for (size_t i = 0; i < findings->count; i++)
		if (strcmp(findings->items[i].code, code) == 0 &&
		    strcmp(findings->items[i].subject, subject) == 0)
			return &findings->items[i];
	return NULL;
}

int rk_findings_append_all(struct rk_findings *findings, const struct rk_findings *from)
{
	int err = 0;

	for (size_t i = 0; i < from->count && !err; i++)
		err = rk_findings_append(findings, &from->items[i]);
	return err;
}

void rk_findings_locate(struct rk_findings *findings, uint64_t node_guid, int port)
{
	if (findings->count == 0)
		return;
	findings->items[findings->count - 1].node_guid = node_guid;
	findings->items[findings->count - 1].port = port;
}

int rk_finding_key_compare(const struct rk_finding *a, const struct rk_finding *b)
{
	int order = strcmp(a->code, b->code);

	if (order)
		return order;
	if (a->node_guid != b->node_guid)
		return a->node_guid < b->node_guid ? -1 : 1;
	if (a->node_guid && a->port != b->port)
		return a->port < b->port ? -1 : 1;
	return a->node_guid ? 0 : strcmp(a->subject, b->subject);
}

void rk_findings_locate_device(struct rk_findings *findings, size_t first, const char *device,
			       int port)
{
	for (size_t i = first; i < findings->count; i++) {
		snprintf(findings->items[i].device, sizeof(findings->items[i].device), "%s",
			 device);
		findings->items[i].port = port;
	}
}

static int compare_findings(const void *a, const void *b)
{
	const struct rk_finding *x = a, *y = b;
	int order;

	if (x->severity != y->severity)
		return x->severity > y->severity ? -1 : 1;
	order = strcmp(x->code, y->code);
	return order ? order : strverscmp(x->subject, y->subject);
}

void rk_findings_sort(struct rk_findings *findings)
{
	if (findings->count > 1)
		qsort(findings->items, findings->count, sizeof(*findings->items), compare_findings);
}

enum rk_severity rk_findings_worst(const struct rk_findings *findings)
{
	enum rk_severity worst = RK_SEVERITY_OK;

	for (size_t i = 0; i < findings->count; i++)
		if (findings->items[i].severity > worst)
			worst = findings->items[i].severity;
	return worst;
}

int rk_findings_copy(const struct rk_findings *src, struct rk_findings *dst)
{
	int err = rk_array_dup(src->items, src->count, sizeof(*src->items), (void **)&dst->items);

	dst->count = dst->capacity = err ? 0 : src->count;
	return err;
}

void rk_findings_free(struct rk_findings *findings)
{
	free(findings->items);
	memset(findings, 0, sizeof(*findings));
}

const char *rk_severity_name(enum rk_severity severity)
{
	switch (severity) {
	case RK_SEVERITY_CRITICAL:
		return "critical";
	case RK_SEVERITY_WARNING:
		return "warning";
	default:
		return "ok";
	}
}
