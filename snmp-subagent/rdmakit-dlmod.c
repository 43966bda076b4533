/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit-dlmod.so: the subagent's tables served inside snmpd (`dlmod rdmakit PATH`), from the
 * same handlers, snapshots and refresh thread, without the AgentX hop. It reads the subagent's
 * config file (RDMAKIT_DLMOD_CONFIG, else the default path); it runs inside snmpd, with
 * snmpd's privileges. */
#include "ak_agent.h"
#include "ak_config.h"
#include "ak_log.h"
#include "ak_oid.h"
#include "ak_refresh.h"

#include "rdmakit/host.h"
#include "rdmakit/log.h"
#include "rdmakit/sysfs.h"

#include <net-snmp/net-snmp-config.h>

#include <net-snmp/net-snmp-includes.h>

#include <net-snmp/agent/net-snmp-agent-includes.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>

/* What a loaded module holds; snmpd is single-threaded, the refresh thread posts to it. */
static struct {
	struct ak_mailbox mailbox;
	struct ak_config config;
	struct ak_fabric_watch fabric;
	struct ak_refresher refresher;
	struct rk_host *host;
	struct ak_log_route log_route;
	unsigned modes;	    /* the MIB's parts registered */
	unsigned int alarm; /* the start of the refresh thread, until it has run */
	int stage;	    /* how far init_rdmakit got, for deinit_rdmakit */
} mod;

/* The host, the fabric watch and the first snapshot; 0 or -errno (logged). */
static int open_parts(void)
{
	struct rk_health_options health = {.expect_rate_gbps = mod.config.expect_rate_gbps};
	int err;

	rk_sysfs_set_fd_floor(FD_SETSIZE);
	err = rk_host_open(mod.config.sysfs_root, &mod.host);
	if (err) {
		snmp_log(LOG_ERR, "rdmakit: cannot read %s: %s\n", mod.config.sysfs_root,
			 strerror(-err));
		return err;
	}
	mod.stage = 3;
	err = ak_fabric_open(&mod.fabric, &mod.config);
	if (err) {
		snmp_log(LOG_ERR, "rdmakit: fabric, SM or tune mode: %s\n", strerror(-err));
		return err;
	}
	mod.stage = 4;
	err = ak_refresher_init(&mod.refresher, &mod.mailbox, mod.host, &mod.fabric,
				mod.config.refresh, &health, mod.config.state_dir);
	if (err)
		snmp_log(LOG_ERR, "rdmakit: starting the refresh failed: %s\n", strerror(-err));
	else
		mod.stage = 5;
	return err;
}

/* The config (missing_ok: the defaults when there is none), each error a line of snmpd's log;
 * -EINVAL when it has errors. */
static int load_rdmakit_config(const char *path, bool missing_ok)
{
	char *errors = NULL;
	size_t size = 0;
	FILE *err = open_memstream(&errors, &size);
	int status;

	if (!err)
		return -ENOMEM;
	ak_config_defaults(&mod.config);
	status = ak_config_read(path, missing_ok, &mod.config, err);
	fclose(err);
	ak_log_error_lines("rdmakit: ", errors);
	free(errors);
	if (status != 0) {
		ak_config_free(&mod.config);
		snmp_log(LOG_ERR, "rdmakit: %s has errors: not loaded\n", path);
	}
	return status;
}

/* From snmpd's main loop, once it runs in its final process: the refresh thread. */
static void start_threads(unsigned int reg, void *arg)
{
	int err = ak_refresher_start(&mod.refresher);

	(void)reg;
	(void)arg;
	mod.alarm = 0;
	if (err)
		snmp_log(LOG_ERR, "rdmakit: starting the refresh thread failed: %s\n",
			 strerror(-err));
}

/* The two symbols snmpd looks up (everything else is hidden). */
#define AK_EXPORT __attribute__((visibility("default")))

/* Called by snmpd when it loads the module. */
AK_EXPORT void init_rdmakit(void);
AK_EXPORT void init_rdmakit(void)
{
	const char *path = getenv("RDMAKIT_DLMOD_CONFIG");
	int err;

	mod.log_route = (struct ak_log_route){
	    .snmp_thread = pthread_self(), .mailbox = &mod.mailbox, .prefix = "rdmakit: "};
	if (load_rdmakit_config(path ? path : AK_DEFAULT_CONFIG, !path) != 0)
		return;
	mod.stage = 1;
	ak_table_defs_init();
	if (ak_mailbox_init(&mod.mailbox) != 0)
		return;
	mod.stage = 2;
	rk_log_set_handler(ak_log_to_snmp, &mod.log_route);
	if (open_parts() != 0)
		return;
	mod.modes = ak_fabric_modes(&mod.fabric);
	err = ak_agent_register(&mod.mailbox, mod.modes);
	if (err) {
		ak_agent_unregister(&mod.mailbox, mod.modes);
		snmp_log(LOG_ERR, "rdmakit: not serving: %s\n", strerror(-err));
		return;
	}
	mod.stage = 6;
	/* snmpd loads modules before it forks into the background: threads start after. */
	mod.alarm = snmp_alarm_register(1, 0, start_threads, NULL);
	ak_agent_drain(&mod.mailbox);
	snmp_log(LOG_INFO, "rdmakit " RDMAKIT_VERSION " serving %s inside snmpd\n",
		 mod.config.sysfs_root);
}

/* Called by snmpd when it unloads the module. */
AK_EXPORT void deinit_rdmakit(void);
AK_EXPORT void deinit_rdmakit(void)
{
	if (mod.alarm)
		snmp_alarm_unregister(mod.alarm);
	mod.alarm = 0;
	if (mod.stage >= 5)
		ak_refresher_stop(&mod.refresher);
	if (mod.stage >= 6) {
		ak_agent_unregister(&mod.mailbox, mod.modes);
		ak_agent_drain(&mod.mailbox);
		ak_agent_release(&mod.mailbox);
	}
	if (mod.stage >= 4)
		ak_fabric_close(&mod.fabric);
	if (mod.stage >= 3)
		rk_host_close(mod.host);
	if (mod.stage >= 2) {
		rk_log_set_handler(NULL, NULL);
		ak_mailbox_destroy(&mod.mailbox);
	}
	if (mod.stage >= 1)
		ak_config_free(&mod.config);
	mod.stage = 0;
}
