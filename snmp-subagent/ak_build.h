/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Building a snapshot from what the core read: the host, its findings and the agent's stats. */
#ifndef AK_BUILD_H
#define AK_BUILD_H

#include "ak_index_map.h"
#include "ak_snapshot.h"

#include "rdmakit/events.h"
#include "rdmakit/facts.h"
#include "rdmakit/health.h"
#include "rdmakit/host.h"

#include <stdint.h>

/* A finding's row number, kept while it stays active. */
struct ak_active_finding {
	struct rk_finding key; /* the finding as raised: its code, node GUID and port, subject */
	uint32_t index;
	uint32_t raised_at; /* Unix time */
	enum rk_severity severity;
};

/* When a port's counters last went back. */
struct ak_discontinuity {
	char device[64];
	unsigned port;
	uint32_t ticks; /* centiseconds since the subagent started */
};

/* What one build hands to the next. */
struct ak_build_state {
	double started_at; /* monotonic seconds when the subagent started */
	struct ak_active_finding *findings;
	size_t nfindings;
	uint32_t next_finding;
	uint32_t findings_raised, findings_cleared; /* the core's events since the start, the
						     * first pass's raises too */
	uint32_t findings_changed_at;		    /* Unix time of the last raise, clear or
						     * change of severity; 0 before any */
	struct ak_discontinuity *discontinuities;
	size_t ndiscontinuities;
	struct ak_index_map indexes; /* devices' and driver counters' numbers, by name */
};

/* How the refresh went. */
struct ak_refresh_stats {
	uint32_t refreshed_at; /* Unix time */
	uint32_t duration_ms;
	uint32_t errors; /* failed refreshes so far */
	bool fabric;	 /* fabric or SM mode is on */
	unsigned modes;	 /* the modes served (enum ak_mode) */
	uint32_t fabric_swept_at, fabric_duration_ms, fabric_errors;
};

/** A snapshot of the host, its findings and the refresh stats, not sealed yet; -ENOMEM. */
int ak_build_host(struct ak_build_state *state, const struct rk_host *host,
		  const struct rk_findings *findings, const struct ak_refresh_stats *stats,
		  struct ak_snapshot **out);

/** Free what the build state keeps (its index map too). */
void ak_build_state_free(struct ak_build_state *state);

/** Add the findings table rows, numbering new findings and keeping old numbers. */
int ak_build_findings(struct ak_build_state *state, const struct rk_findings *findings,
		      struct ak_snapshot *snapshot);

/** Count a core event in the findings summary: a finding raised or cleared, and when one was
 * raised, cleared or changed severity. */
void ak_build_count_event(struct ak_build_state *state, const struct rk_event *event);

/** The row number a finding (by code and subject) has in the findings table; 0 if none. */
uint32_t ak_build_finding_index(const struct ak_build_state *state,
				const struct rk_finding *finding);

/** Set a row's cells of every fact of scope SNMP serves, read from subject as the table of
 * facts says (syntax, scale, when); -ENOMEM. */
int ak_row_set_facts(struct ak_row *row, enum rk_fact_scope scope,
		     const struct rk_fact_subject *subject);

/** Parse groups of hex digits separated by ':' ("b859:9f03:...") into len bytes; -EINVAL. */
int ak_parse_hex_bytes(const char *text, unsigned char *out, size_t len);

#endif
