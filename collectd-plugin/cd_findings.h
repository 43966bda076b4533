/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric and SM findings reported once per event: when they appear and when they clear. */
#ifndef RDMAKIT_CD_FINDINGS_H
#define RDMAKIT_CD_FINDINGS_H

#include "rdmakit/health.h"

#include <stdbool.h>
#include <stddef.h>

/* One finding of the last interval: what identifies it, and where it was reported. */
struct cd_seen_item {
	char code[32];
	char subject[224];
	char instance[128]; /* the plugin instance of its notifications */
	enum rk_severity severity;
};

/* The findings of the last interval, sorted by code and subject. */
struct cd_seen {
	const char *plugin; /* "rdma_fabric" or "rdma_sm" */
	struct cd_seen_item *items;
	size_t count;
};

/* Writes the plugin instance a finding is about ("" for the whole fabric). */
typedef void (*cd_instance_fn)(const struct rk_finding *finding, char *buf, size_t size, void *ctx);

/** Log each finding not seen last time (and notify it), and each one that cleared. */
void cd_findings_report(struct cd_seen *seen, const struct rk_findings *now, bool notify,
			cd_instance_fn instance, void *ctx);

/** Forget every finding. */
void cd_seen_free(struct cd_seen *seen);

#endif
