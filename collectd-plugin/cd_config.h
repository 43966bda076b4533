/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The <Plugin rdmakit> block: keys, values, checks. */
#ifndef RDMAKIT_CD_CONFIG_H
#define RDMAKIT_CD_CONFIG_H

#include "cd_collectd.h"
#include "cd_ports.h"

#include "rdmakit/congestion.h"
#include "rdmakit/election.h"
#include "rdmakit/link_history.h"
#include "rdmakit/tune.h"

#include <stdbool.h>
#include <stddef.h>

/* The fabric and SM modes: MADs from a local port, e.g. on a management node. */
struct cd_fabric_config {
	bool ports;		 /* Fabric: sweep every port's counters */
	bool sm;		 /* SubnetManager: the subnet managers' status */
	double interval;	 /* FabricInterval, seconds; 0: collectd's Interval */
	unsigned window;	 /* FabricWindow: MADs in flight */
	unsigned timeout_ms;	 /* FabricTimeout: per MAD */
	bool packets;		 /* FabricPackets: also the packet counters */
	char *name_map;		 /* NodeNameMap, or NULL */
	double rediscover;	 /* Rediscover: seconds between discoveries (0: only on changes) */
	double unreachable_hold; /* UnreachableHold: seconds a node a rediscovery missed is kept */
	unsigned discovery_deadline; /* DiscoveryDeadline: seconds a discovery may take (0: the
				      * core's RK_HELPER_DEADLINE_DEFAULT_S) */
	char *ca;		     /* CA, or NULL for libibumad's default */
	int ca_port;		     /* CAPort, or 0 for the first active port */
	struct rk_congestion_options congestion; /* CongestionThreshold, XmitWaitTick */
	char orphan[128]; /* the first fabric key given, as written, for the mode check */
	char *plan;	  /* Expect: the plan the fabric is checked against, or NULL */
	char expect[128]; /* Expect as written, for the check that Fabric is on */
	bool routes;	  /* Routes: check the routes after each discovery and hourly */
	double routes_s;  /* RoutesInterval, seconds (default 3600) */
	bool audit;	  /* Audit: the fabric audit after each discovery and hourly */
	double audit_s;	  /* AuditInterval, seconds (default 3600) */
	char *partitions; /* AuditPartitions: the SM's partitions.conf, or NULL */
	bool events;	  /* Events: follow the SM's events between sweeps (default true) */
	enum rk_role_setting role; /* FabricRole: auto (default), active, standby */
	unsigned priority;	   /* FabricPriority: 0 to 255 */
	double lease;		   /* FabricLease: seconds */
	char host[64]; /* FabricHost: the fabric values' and notifications' host ("": Hostname) */
	struct rk_flap_settings flap; /* FlapDowns, FlapWindow, FlapStable */
};

/* The tune mode: rdmakit tune's audit of a root every interval. */
struct cd_tune_config {
	bool enabled;			       /* Tune */
	double interval;		       /* TuneInterval, seconds (default 3600) */
	char *root;			       /* TuneRoot, or NULL for / */
	const struct rk_tune_profile *profile; /* TuneProfile, or NULL: hazards only */
};

/* One ProbeDevice entry: a device, and one of its ports or all of them (0). */
struct cd_probe_target {
	char device[64];
	unsigned port;
};

/* The probe mode: the loopback probe on ports every interval. */
struct cd_probe_config {
	bool enabled;			 /* Probe */
	double interval;		 /* ProbeInterval, seconds (default 300) */
	struct cd_probe_target *targets; /* ProbeDevice entries; none: every ACTIVE port */
	size_t ntargets;
};

/* What the plugin reads and sends. */
struct cd_config {
	char *sysfs_root;      /* SysfsRoot, default "/sys" */
	struct cd_ports ports; /* Port, IgnoreSelected */
	bool hw_counters;      /* HwCounters, default true */
	double rescan;	       /* Rescan, seconds (default RK_RESCAN_DEFAULT_S) */
	char **hw_names;       /* HwCounter entries: only these driver counters when any */
	size_t hw_count;
	bool notifications; /* Notifications, default false */
	struct cd_fabric_config fabric;
	struct cd_tune_config tune;
	struct cd_probe_config probe;
};

/** Fill in the defaults; -ENOMEM when out of memory. */
int cd_config_init(struct cd_config *config);

/** Apply one <Plugin rdmakit> block; logs every bad key or value and returns -1 if any. */
int cd_config_apply(struct cd_config *config, const oconfig_item_t *block);

/** True when the driver counter named name is to be dispatched. */
bool cd_config_wants_hw(const struct cd_config *config, const char *name);

/** Free what the configuration holds. */
void cd_config_free(struct cd_config *config);

#endif
