/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit-agentx's settings: the config file (one "key value" per line) and the options. */
#ifndef AK_CONFIG_H
#define AK_CONFIG_H

#include "ak_probe.h"

#include "rdmakit/congestion.h"
#include "rdmakit/election.h"
#include "rdmakit/link_history.h"
#include "rdmakit/tune.h"

#include <stdbool.h>
#include <stdio.h>

#define AK_DEFAULT_CONFIG	   "/etc/rdmakit/agentx.conf"
#define AK_DEFAULT_REFRESH	   10.0
#define AK_DEFAULT_FABRIC_INTERVAL 30.0
#define AK_DEFAULT_REDISCOVER	   300.0

struct ak_config {
	char *agentx_socket; /* NULL: net-snmp's default */
	char *sysfs_root;    /* "/sys" */
	char *pidfile, *user;
	char *state_dir;	 /* the index map's directory; NULL: indexes kept in memory */
	double refresh;		 /* seconds between host refreshes */
	double expect_rate_gbps; /* health option; 0 = none */
	bool fabric, sm;	 /* fabric and SM modes (a management node) */
	char *ca, *node_name_map;
	char *plan;  /* expect: the cabling plan the fabric is checked against, or NULL */
	int ca_port; /* 0: libibumad's default */
	unsigned window, timeout_ms;		 /* 0: the core's defaults */
	double fabric_interval;			 /* seconds between fabric sweeps and SM queries */
	double rediscover;			 /* seconds before the topology is rediscovered */
	double unreachable_hold;		 /* seconds a node a rediscovery missed is kept */
	unsigned discovery_deadline;		 /* seconds a discovery may take (0: the core's) */
	struct rk_congestion_options congestion; /* congestion-threshold, xmit-wait-tick */
	bool routes;		      /* with fabric: the route check after each discovery */
	double routes_interval;	      /* and this often on one topology (routes-interval) */
	bool audit;		      /* with fabric: the fabric audit after each discovery */
	double audit_interval;	      /* and this often on one topology (audit-interval) */
	char *audit_partitions;	      /* audit-partitions: the SM's partitions.conf, or NULL */
	bool events;		      /* with fabric: follow the SM's events (default yes) */
	struct rk_flap_settings flap; /* flap-downs, flap-window, flap-stable */
	enum rk_role_setting role;    /* fabric-role: auto (default), active, standby */
	unsigned priority;	      /* fabric-priority: 0 to 255 */
	double lease;		      /* fabric-lease: seconds */
	struct ak_probe_config probe; /* probe, probe-interval */
	bool tune;		      /* tune mode: the host's tuning audited */
	double tune_interval;	      /* seconds between two audits */
	char *tune_root;	      /* the prefix of /etc, /proc and /sys; NULL: / */
	const struct rk_tune_profile *tune_profile; /* NULL: hazards only */
};

/** The defaults (host only, /sys, refresh every 10 s). */
void ak_config_defaults(struct ak_config *config);

/** Free the strings of a config. */
void ak_config_free(struct ak_config *config);

/** Read a config file into config; a missing file is fine when missing_ok. Errors go to err
 * as "FILE:LINE: reason"; returns 0 or -EINVAL / -errno. */
int ak_config_read(const char *path, bool missing_ok, struct ak_config *config, FILE *err);

/** Apply one setting by name (as in the file); "why" gets the reason on -EINVAL. */
int ak_config_set(struct ak_config *config, const char *key, const char *value, char *why,
		  size_t why_size);

/** Whether the key of that name has another value in a than in b (false for an unknown one). */
bool ak_config_key_changed(const struct ak_config *a, const struct ak_config *b, const char *name);

/** The names of the keys whose values differ between a and b, ", " between them, into out,
 * but for those of skip (NULL-terminated); how many there are. */
size_t ak_config_changed_keys(const struct ak_config *a, const struct ak_config *b,
			      const char *const *skip, char *out, size_t out_size);

#endif
