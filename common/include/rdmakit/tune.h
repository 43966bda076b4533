/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Host tuning checks under a root prefix, the profiles, and the changes a profile asks for. */
#ifndef RDMAKIT_TUNE_H
#define RDMAKIT_TUNE_H

#include "rdmakit/findings.h"

#include <stdbool.h>
#include <stddef.h>

/* One setting of a profile: which knob, the value it wants, and why. */
struct rk_tune_setting {
	const char *key; /* e.g. "thp", "governor", "sysctl:kernel.numa_balancing" */
	const char *value;
	const char *why;
};

/* A named table of settings. */
struct rk_tune_profile {
	const char *name;
	const char *summary;
	const struct rk_tune_setting *settings;
	size_t count;
};

/* What a finding of the audit is about, in fields (findings[i] goes with facts[i]). */
struct rk_tune_fact {
	char area[16]; /* memory, cpu, irq, pcie, ipoib, roce, sriov, opensm, partitions, log */
	char current[128];
	char recommended[128];
};

/* Findings of an audit and the facts behind each of them, in the order the checks ran. */
struct rk_tune_audit {
	struct rk_findings findings;
	struct rk_tune_fact *facts;
	size_t facts_capacity;
};

enum rk_tune_change_kind {
	RK_TUNE_LIVE, /* a value written to a /proc or /sys file */
	RK_TUNE_FILE, /* a whole file (a drop-in) written atomically */
};

/* One change of a plan: path relative to the root, current and wanted bytes. */
struct rk_tune_change {
	enum rk_tune_change_kind kind;
	char key[96];
	char path[256];
	bool existed; /* FILE: the file is there now */
	char *current;
	size_t current_len;
	unsigned current_mode;
	char *wanted;
	size_t wanted_len;
	unsigned wanted_mode;
};

/* The changes a profile asks for, in the order they will be made. */
struct rk_tune_plan {
	struct rk_tune_change *items;
	size_t count, capacity;
};

/* What to audit: the root prefix and the profile to compare with (NULL: hazards only). */
struct rk_tune_options {
	const char *root;
	const struct rk_tune_profile *profile;
	const char *partitions; /* partitions.conf under root: the fabric's IPoIB MTU, or NULL */
};

/* Sizes from the PCI Express capability of a device's config space, in bytes. */
struct rk_tune_pcie_caps {
	unsigned max_payload_supported; /* Device Capabilities */
	unsigned max_payload;		/* Device Control */
	unsigned max_read_request;	/* Device Control */
};

/** Walk a config space dump's capability list to the PCIe capability: -ENODATA when the dump
 * stops first (64 bytes for a non-root reader), -ENOENT when absent, -EINVAL or -ELOOP when the
 * list is broken. */
int rk_tune_parse_pcie_config(const unsigned char *config, size_t len,
			      struct rk_tune_pcie_caps *caps);

/** The profile named name ("latency" or "throughput"), or NULL. */
const struct rk_tune_profile *rk_tune_profile_find(const char *name);

/** Every built-in profile; *count gets their number. */
const struct rk_tune_profile *rk_tune_profiles(size_t *count);

/** The value profile sets for key, or NULL (also when profile is NULL). */
const char *rk_tune_profile_value(const struct rk_tune_profile *profile, const char *key);

/** The setting of profile for key, or NULL (also when profile is NULL). */
const struct rk_tune_setting *rk_tune_profile_setting(const struct rk_tune_profile *profile,
						      const char *key);

/** Check that root is a directory one can read; -errno (logged) otherwise. */
int rk_tune_check_root(const char *root);

/** Run every host check under options->root; changes the profile asks for go to plan (may be
 * NULL). */
int rk_tune_audit_host(const struct rk_tune_options *options, struct rk_tune_audit *audit,
		       struct rk_tune_plan *plan);

/** Append a finding with its facts (area, current and recommended values); -ENOMEM. */
int rk_tune_report(struct rk_tune_audit *audit, enum rk_severity severity, const char *code,
		   const char *area, const char *subject, const char *current,
		   const char *recommended, const char *remedy, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));

/** Free an audit's findings and facts. */
void rk_tune_audit_free(struct rk_tune_audit *audit);

/** Append a change (bytes are copied; current may be NULL when the file is absent). */
int rk_tune_plan_add(struct rk_tune_plan *plan, enum rk_tune_change_kind kind, const char *key,
		     const char *path, const char *current, size_t current_len,
		     unsigned current_mode, const char *wanted, size_t wanted_len,
		     unsigned wanted_mode);

/** Free a plan's changes. */
void rk_tune_plan_free(struct rk_tune_plan *plan);

#endif
