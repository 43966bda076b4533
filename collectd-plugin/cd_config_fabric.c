/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The fabric and SM options of the <Plugin rdmakit> block. */
#include "cd_config_fabric.h"

#include "cd_submit.h"

#include "rdmakit/fabric_cache.h"
#include "rdmakit/file.h"
#include "rdmakit/mad.h"

#define CA_NAME_MAX 63

/* Remember the first fabric option given, for the check that a mode is on. */
static void note_option(struct cd_fabric_config *fabric, const oconfig_item_t *item,
			const char *shown)
{
	if (!fabric->orphan[0])
		snprintf(fabric->orphan, sizeof(fabric->orphan), "%s %s", item->key, shown);
}

static int set_fabric(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	return cd_key_bool(item, shown, &config->fabric.ports);
}

static int set_subnet_manager(struct cd_config *config, const oconfig_item_t *item,
			      const char *shown)
{
	return cd_key_bool(item, shown, &config->fabric.sm);
}

static int set_interval(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting(item, shown, RK_SETTING_FABRIC_INTERVAL, &config->fabric.interval);
}

static int set_window(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting_unsigned(item, shown, RK_SETTING_WINDOW, &config->fabric.window);
}

static int set_timeout(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting_unsigned(item, shown, RK_SETTING_TIMEOUT_MS,
				       &config->fabric.timeout_ms);
}

static int set_routes(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_bool(item, shown, &config->fabric.routes);
}

static int set_routes_interval(struct cd_config *config, const oconfig_item_t *item,
			       const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting(item, shown, RK_SETTING_ROUTES_INTERVAL, &config->fabric.routes_s);
}

static int set_audit(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_bool(item, shown, &config->fabric.audit);
}

static int set_audit_interval(struct cd_config *config, const oconfig_item_t *item,
			      const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting(item, shown, RK_SETTING_AUDIT_INTERVAL, &config->fabric.audit_s);
}

static int set_packets(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_bool(item, shown, &config->fabric.packets);
}

/* A file init or the engine reads later: here it only has to be a regular file that can be read
 * (never a FIFO, whose open would wait for a writer and hang collectd's start). */
static int set_readable_file(const oconfig_item_t *item, const char *shown, const char *what,
			     char **field)
{
	const char *path = cd_key_string(item);
	char why[160];
	char *copy;
	FILE *file;
	int err = 0;

	if (!path || !path[0]) {
		snprintf(why, sizeof(why), "expected the path of %s", what);
		return cd_key_reject(item, shown, why);
	}
	file = rk_file_open_regular(path, &err);
	if (!file) {
		snprintf(why, sizeof(why), "cannot read it: %s", rk_sysfs_error(err));
		return cd_key_reject(item, shown, why);
	}
	fclose(file);
	copy = strdup(path);
	if (!copy)
		return cd_key_reject(item, shown, "out of memory");
	free(*field);
	*field = copy;
	return 0;
}

static int set_name_map(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return set_readable_file(item, shown, "a node name map file", &config->fabric.name_map);
}

/* The plan is read by the engine at each sweep that finds it changed. */
static int set_expect(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	if (!config->fabric.expect[0])
		snprintf(config->fabric.expect, sizeof(config->fabric.expect), "%s %s", item->key,
			 shown);
	return set_readable_file(item, shown, "a fabric plan file (rdmakit fabric --save)",
				 &config->fabric.plan);
}

/* The partitions file is read by the engine at each audit. */
static int set_partitions(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return set_readable_file(item, shown, "the SM's partitions.conf",
				 &config->fabric.partitions);
}

static int set_rediscover(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting(item, shown, RK_SETTING_REDISCOVER_S, &config->fabric.rediscover);
}

static int set_unreachable_hold(struct cd_config *config, const oconfig_item_t *item,
				const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting(item, shown, RK_SETTING_UNREACHABLE_HOLD,
			      &config->fabric.unreachable_hold);
}

static int set_discovery_deadline(struct cd_config *config, const oconfig_item_t *item,
				  const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting_unsigned(item, shown, RK_SETTING_HELPER_DEADLINE,
				       &config->fabric.discovery_deadline);
}

static int set_ca(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	const char *name = cd_key_string(item);
	char *copy;

	note_option(&config->fabric, item, shown);
	if (!name || !name[0] || strlen(name) > CA_NAME_MAX || strchr(name, '/'))
		return cd_key_reject(item, shown,
				     "expected the name of an RDMA device (\"mlx5_0\")");
	copy = strdup(name);
	if (!copy)
		return cd_key_reject(item, shown, "out of memory");
	free(config->fabric.ca);
	config->fabric.ca = copy;
	return 0;
}

static int set_ca_port(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	double value;

	note_option(&config->fabric, item, shown);
	if (cd_key_setting(item, shown, RK_SETTING_CA_PORT, &value) != 0)
		return -1;
	config->fabric.ca_port = (int)value;
	return 0;
}

static int set_threshold(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting(item, shown, RK_SETTING_CONGESTION_PCT,
			      &config->fabric.congestion.threshold);
}

static int set_tick(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting(item, shown, RK_SETTING_XMIT_WAIT_TICK,
			      &config->fabric.congestion.tick_ns);
}

static int set_events(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_bool(item, shown, &config->fabric.events);
}

static int set_flap_downs(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting_unsigned(item, shown, RK_SETTING_FLAP_DOWNS,
				       &config->fabric.flap.downs);
}

static int set_flap_window(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting(item, shown, RK_SETTING_FLAP_WINDOW, &config->fabric.flap.window_s);
}

static int set_flap_stable(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting(item, shown, RK_SETTING_FLAP_STABLE, &config->fabric.flap.stable_s);
}

static int set_role(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	if (rk_role_setting_parse(cd_key_string(item), &config->fabric.role) != 0)
		return cd_key_reject(item, shown, "expected auto, active or standby");
	return 0;
}

static int set_host(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	const char *host = cd_key_string(item);

	note_option(&config->fabric, item, shown);
	if (!host || !host[0] || strlen(host) >= sizeof(config->fabric.host) || strchr(host, '/'))
		return cd_key_reject(item, shown,
				     "expected a name for the subnet (\"ib-subnet0\"), at most 63 "
				     "characters, no /");
	snprintf(config->fabric.host, sizeof(config->fabric.host), "%s", host);
	return 0;
}

static int set_priority(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting_unsigned(item, shown, RK_SETTING_FABRIC_PRIORITY,
				       &config->fabric.priority);
}

static int set_lease(struct cd_config *config, const oconfig_item_t *item, const char *shown)
{
	note_option(&config->fabric, item, shown);
	return cd_key_setting(item, shown, RK_SETTING_WATCHER_LEASE, &config->fabric.lease);
}

static const struct cd_key keys[] = {
    {"Fabric", set_fabric},
    {"SubnetManager", set_subnet_manager},
    {"FabricInterval", set_interval},
    {"FabricWindow", set_window},
    {"FabricTimeout", set_timeout},
    {"FabricPackets", set_packets},
    {"Routes", set_routes},
    {"RoutesInterval", set_routes_interval},
    {"NodeNameMap", set_name_map},
    {"Expect", set_expect},
    {"Rediscover", set_rediscover},
    {"CA", set_ca},
    {"CAPort", set_ca_port},
    {"CongestionThreshold", set_threshold},
    {"XmitWaitTick", set_tick},
    {"UnreachableHold", set_unreachable_hold},
    {"DiscoveryDeadline", set_discovery_deadline},
    {"Events", set_events},
    {"FlapDowns", set_flap_downs},
    {"FlapWindow", set_flap_window},
    {"FlapStable", set_flap_stable},
    {"FabricRole", set_role},
    {"FabricPriority", set_priority},
    {"FabricLease", set_lease},
    {"FabricHost", set_host},
    {"Audit", set_audit},
    {"AuditInterval", set_audit_interval},
    {"AuditPartitions", set_partitions},
};

const struct cd_key *cd_fabric_keys(size_t *count)
{
	*count = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

void cd_fabric_config_init(struct cd_fabric_config *fabric)
{
	memset(fabric, 0, sizeof(*fabric));
	fabric->window = RK_MAD_DEFAULT_WINDOW;
	fabric->timeout_ms = RK_MAD_DEFAULT_TIMEOUT_MS;
	fabric->rediscover = RK_REDISCOVER_DEFAULT_S;
	fabric->unreachable_hold = RK_UNREACHABLE_HOLD_DEFAULT_S;
	fabric->routes_s = RK_ROUTES_INTERVAL_DEFAULT_S;
	fabric->audit_s = RK_AUDIT_INTERVAL_DEFAULT_S;
	fabric->events = true;
	fabric->role = RK_ROLE_AUTO;
	fabric->lease = RK_WATCHER_LEASE_DEFAULT_S;
	rk_flap_settings_defaults(&fabric->flap);
}

int cd_fabric_config_check(const struct cd_fabric_config *fabric)
{
	if (fabric->orphan[0] && !fabric->ports && !fabric->sm) {
		cd_log(LOG_ERR, "%s: needs Fabric true or SubnetManager true", fabric->orphan);
		return -1;
	}
	if (fabric->plan && !fabric->ports) {
		cd_log(LOG_ERR, "%s: needs Fabric true", fabric->expect);
		return -1;
	}
	if (fabric->packets && !fabric->ports) {
		cd_log(LOG_ERR, "FabricPackets true: needs Fabric true");
		return -1;
	}
	if (fabric->routes && !fabric->ports) {
		cd_log(LOG_ERR,
		       "Routes true: needs Fabric true (the route check runs with the sweep)");
		return -1;
	}
	if ((fabric->audit || fabric->partitions) && !fabric->ports) {
		cd_log(LOG_ERR, "Audit: needs Fabric true (the fabric audit runs with the sweep)");
		return -1;
	}
	if (fabric->partitions && !fabric->audit) {
		cd_log(LOG_ERR, "AuditPartitions: needs Audit true");
		return -1;
	}
	return 0;
}

void cd_fabric_config_free(struct cd_fabric_config *fabric)
{
	free(fabric->name_map);
	free(fabric->plan);
	free(fabric->partitions);
	free(fabric->ca);
	memset(fabric, 0, sizeof(*fabric));
}
