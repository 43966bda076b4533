/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Findings: what is wrong, how badly, and what to do; the container every rule appends to. */
#ifndef RDMAKIT_FINDINGS_H
#define RDMAKIT_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

enum rk_severity {
	RK_SEVERITY_OK,
	RK_SEVERITY_WARNING,
	RK_SEVERITY_CRITICAL,
};

/* Room for a subject: a link's two node names (RK_FABRIC_NAME_MAX each) and their ports. */
#define RK_FINDING_SUBJECT_MAX 600

struct rk_finding {
	enum rk_severity severity;
	char code[32];			      /* stable, e.g. PORT_NO_SM */
	char subject[RK_FINDING_SUBJECT_MAX]; /* device, device:port, HCA model, node[port] or
					       * link */
	char message[320];		      /* what is wrong */
	char remedy[256];		      /* what to do */
	uint64_t node_guid; /* the fabric node it is about (a link's first end), 0 if none */
	char device[64];    /* or the host device it is about ("mlx5_0"), "" if none */
	int port;	    /* and the port on that node or device, 0 if none */
};

struct rk_findings {
	struct rk_finding *items;
	size_t count, capacity;
};

/** Append one finding (printf-style message); -ENOMEM when out of memory. */
int rk_findings_add(struct rk_findings *findings, enum rk_severity severity, const char *code,
		    const char *subject, const char *remedy, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/** Append a copy of finding (its location included); -ENOMEM. */
int rk_findings_append(struct rk_findings *findings, const struct rk_finding *finding);

/** Append a copy of every finding of from; -ENOMEM (those copied so far stay). */
int rk_findings_append_all(struct rk_findings *findings, const struct rk_findings *from);

/** The finding of that code and subject, or NULL: the key the trackers and tables use. */
struct rk_finding *rk_findings_find(struct rk_findings *findings, const char *code,
				    const char *subject);

/** Set the fabric node and port the finding added last is about. */
void rk_findings_locate(struct rk_findings *findings, uint64_t node_guid, int port);

/** Set the host device and port (0: the device) of each finding added since first. */
void rk_findings_locate_device(struct rk_findings *findings, size_t first, const char *device,
			       int port);

/** The order of two findings' keys: the code, then the fabric node GUID and port when the
 * finding is about a fabric node, else the subject; never the text of a node's name. */
int rk_finding_key_compare(const struct rk_finding *a, const struct rk_finding *b);

/** Sort findings most severe first, then by code and subject. */
void rk_findings_sort(struct rk_findings *findings);

/** The most severe finding's severity (RK_SEVERITY_OK when there are none). */
enum rk_severity rk_findings_worst(const struct rk_findings *findings);

/** dst: a copy of src with storage of its own; 0 or -ENOMEM (dst then empty). */
int rk_findings_copy(const struct rk_findings *src, struct rk_findings *dst);

/** Free the findings' storage. */
void rk_findings_free(struct rk_findings *findings);

/** "ok", "warning" or "critical". */
const char *rk_severity_name(enum rk_severity severity);

#endif
