/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* OpenSM's configuration: opensm.conf against the installed OpenSM's keys, a strict
 * partitions.conf parser, a summary of an OpenSM log, and opensm.conf changes. */
#ifndef RDMAKIT_TUNE_OPENSM_H
#define RDMAKIT_TUNE_OPENSM_H

#include "rdmakit/tune.h"

#include <stddef.h>
#include <stdint.h>

enum rk_opensm_type {
	RK_OPENSM_BOOL,	  /* TRUE or FALSE */
	RK_OPENSM_NUMBER, /* decimal or 0x hex */
	RK_OPENSM_STRING,
};

/* One key of the template `opensm -c` writes, typed by its default value. */
struct rk_opensm_key {
	char name[64];
	char default_value[160];
	enum rk_opensm_type type;
};

/* Every key the installed OpenSM knows, its routing engines and console modes. */
struct rk_opensm_keys {
	struct rk_opensm_key *items;
	size_t count;
	char engines[32][24]; /* "Supported engines:" of the template */
	size_t nengines;
	char consoles[8][16]; /* "# console [off|local|...]" of the template */
	size_t nconsoles;
};

/** Parse a template as `opensm -c` writes it; -ENOMEM, or -EINVAL when it has no keys. */
int rk_opensm_keys_parse(const char *text, struct rk_opensm_keys *keys);

/** The keys of the installed OpenSM: `opensm -c` (binary: opensm, or NULL for $RDMAKIT_OPENSM
 * or opensm on the PATH) run once per process with a fixed argument list in a private temporary
 * directory. */
int rk_opensm_keys_load(const char *opensm, const struct rk_opensm_keys **keys);

/** The key named name, or NULL. */
const struct rk_opensm_key *rk_opensm_key_find(const struct rk_opensm_keys *keys, const char *name);

/** Free parsed keys. */
void rk_opensm_keys_free(struct rk_opensm_keys *keys);

/** Audit opensm.conf files under root (one per OpenSM instance): syntax, unknown and repeated
 * keys, values, ranges, security, priorities, guids. */
int rk_tune_audit_opensm(const char *root, const char *const *confs, size_t nconfs,
			 const struct rk_opensm_keys *keys, struct rk_tune_audit *audit);

/** Strict partitions.conf parser: every error OpenSM would swallow, and the Default
 * partition's membership. */
int rk_tune_audit_partitions(const char *root, const char *path, struct rk_tune_audit *audit);

/** The IB MTU (bytes) of the IPoIB broadcast group partitions.conf gives P_Key pkey; -ENOENT
 * when that partition has no ipoib flag or is absent. */
int rk_tune_partitions_ipoib_mtu(const char *root, const char *path, unsigned pkey,
				 unsigned *ib_mtu);

/* Who a partitions.conf port entry names (opensm(8), PARTITION CONFIGURATION). */
enum rk_partition_who {
	RK_PARTITION_GUID, /* a port GUID */
	RK_PARTITION_ALL,
	RK_PARTITION_ALL_CAS,
	RK_PARTITION_ALL_SWITCHES,
	RK_PARTITION_ALL_ROUTERS,
	RK_PARTITION_SELF, /* the SM's own port */
};

/* Membership bits of a port in a partition. */
#define RK_PARTITION_LIMITED 1u
#define RK_PARTITION_FULL    2u

struct rk_partition_member {
	enum rk_partition_who who;
	uint64_t guid;	     /* RK_PARTITION_GUID */
	unsigned membership; /* RK_PARTITION_LIMITED and/or RK_PARTITION_FULL */
};

/* One partition as OpenSM builds it: its P_Key (15 bits) and who is in it. */
struct rk_partition {
	char name[64];
	uint16_t pkey;
	int sl;	       /* its sl= flag (the SL of its traffic), -1 when it has none */
	unsigned line; /* where the file defines it */
	struct rk_partition_member *members;
	size_t nmembers, capacity;
};

/* The partitions OpenSM makes of a partitions.conf, the Default one always among them. */
struct rk_partitions {
	struct rk_partition *items;
	size_t count, capacity;
};

/** Read the partitions of the partitions.conf at path (an operator's file: only a regular one,
 * at most 16 MiB) as OpenSM makes them: members by GUID or keyword with their membership
 * (defmember= or limited), partitions with the same P_Key merged, and "Default=0x7fff :
 * ALL=limited, SELF=full" when the file has no Default rule; *errors counts the statements
 * OpenSM would drop (logged). 0, or -errno (logged) when the file cannot be read, -EILSEQ when
 * it holds binary data. */
int rk_partitions_load(const char *path, struct rk_partitions *out, unsigned *errors);

/** Free what rk_partitions_load read. */
void rk_partitions_free(struct rk_partitions *partitions);

/** Summarize the ERR and WARN lines of an OpenSM log under root. */
int rk_tune_audit_opensm_log(const char *root, const char *path, struct rk_tune_audit *audit);

/** Plan setting "key=value" pairs in an opensm.conf under root (keys must be known). */
int rk_tune_plan_opensm_set(const char *root, const char *path, const char *const *settings,
			    size_t nsettings, const struct rk_opensm_keys *keys,
			    struct rk_tune_plan *plan);

#endif
