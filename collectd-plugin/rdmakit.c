/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* collectd's entry points: config, init, reads, shutdown. The modes do the work: the host mode
 * in cd_host.c, the fabric mode in cd_fabric.c, the SM mode in cd_sm.c, the tune and probe modes
 * in cd_tune.c and cd_probe.c, the last four reading what the core's watch engine (cd_mon.c) saw,
 * each in a read callback of its own. */
#include "cd_config.h"
#include "cd_fabric.h"
#include "cd_host.h"
#include "cd_mon.h"
#include "cd_probe.h"
#include "cd_sm.h"
#include "cd_submit.h"
#include "cd_tune.h"

#define FABRIC_READ CD_PLUGIN_NAME "/fabric"
#define SM_READ	    CD_PLUGIN_NAME "/sm"
#define TUNE_READ   CD_PLUGIN_NAME "/tune"
#define PROBE_READ  CD_PLUGIN_NAME "/probe"

static struct cd_config config;
static bool config_ready;  /* defaults are in place */
static bool config_failed; /* a block was rejected: the plugin must not start */
static struct cd_host *host_mode;
static struct rk_watch *mon; /* shared by the fabric and SM modes */
static struct cd_fabric *fabric_mode;
static struct cd_sm *sm_mode;
static struct cd_tune *tune_mode;
static struct cd_probe *probe_mode;

static int rdmakit_config(oconfig_item_t *block)
{
	if (cd_config_apply(&config, block) == 0)
		return 0;
	config_failed = true;
	return -1;
}

static int rdmakit_read(user_data_t *ud)
{
	(void)ud;
	return cd_host_read(host_mode);
}

static int rdmakit_read_fabric(user_data_t *ud)
{
	(void)ud;
	return cd_fabric_read(fabric_mode);
}

static int rdmakit_read_sm(user_data_t *ud)
{
	(void)ud;
	return cd_sm_read(sm_mode);
}

static int rdmakit_read_tune(user_data_t *ud)
{
	(void)ud;
	return cd_tune_read(tune_mode);
}

static int rdmakit_read_probe(user_data_t *ud)
{
	(void)ud;
	return cd_probe_read(probe_mode);
}

static void stop_modes(void)
{
	cd_probe_stop(probe_mode);
	probe_mode = NULL;
	cd_tune_stop(tune_mode);
	tune_mode = NULL;
	cd_sm_stop(sm_mode);
	cd_fabric_stop(fabric_mode);
	cd_mon_stop(mon);
	cd_host_stop(host_mode);
	sm_mode = NULL;
	fabric_mode = NULL;
	mon = NULL;
	host_mode = NULL;
}

static int start_modes(void)
{
	int err = cd_host_start(&config, &host_mode);

	if (err) {
		cd_log(LOG_ERR, "not started: cannot read %s: %s", config.sysfs_root,
		       strerror(-err));
		return err;
	}
	if (!config.fabric.ports && !config.fabric.sm && !config.tune.enabled &&
	    !config.probe.enabled)
		return 0;
	err = cd_mon_start(&config, &mon);
	if (err && config.fabric.name_map)
		cd_log(LOG_ERR, "not started: cannot load NodeNameMap \"%s\": %s",
		       config.fabric.name_map, strerror(-err));
	if (!err && config.fabric.ports)
		err = cd_fabric_start(mon, &config, &fabric_mode);
	if (!err && config.fabric.sm)
		err = cd_sm_start(mon, &config, &sm_mode);
	if (!err && config.tune.enabled)
		err = cd_tune_start(mon, &config, &tune_mode);
	if (!err && config.probe.enabled)
		err = cd_probe_start(mon, &config, &probe_mode);
	return err;
}

/* The host read at collectd's interval; fabric and SM reads a few times per FabricInterval, the
 * tune and probe reads a few times per TuneInterval and ProbeInterval (the engine's threads audit
 * and probe). */
static int register_reads(void)
{
	cdtime_t interval = cd_mon_read_interval(&config);
	int err = plugin_register_complex_read(NULL, CD_PLUGIN_NAME, rdmakit_read, 0, NULL);

	if (!err && fabric_mode)
		err = plugin_register_complex_read(NULL, FABRIC_READ, rdmakit_read_fabric, interval,
						   NULL);
	if (err) /* init fails: collectd unregisters the read named after the plugin only */
		return err;
	if (sm_mode)
		err = plugin_register_complex_read(NULL, SM_READ, rdmakit_read_sm, interval, NULL);
	if (!err && tune_mode)
		err = plugin_register_complex_read(NULL, TUNE_READ, rdmakit_read_tune,
						   cd_tune_read_interval(&config), NULL);
	if (!err && probe_mode)
		err = plugin_register_complex_read(NULL, PROBE_READ, rdmakit_read_probe,
						   cd_probe_read_interval(&config), NULL);
	if (err && tune_mode)
		plugin_unregister_read(TUNE_READ);
	if (err && sm_mode)
		plugin_unregister_read(SM_READ);
	if (err && fabric_mode)
		plugin_unregister_read(FABRIC_READ);
	return err;
}

static int rdmakit_init(void)
{
	if (!config_ready || config_failed) {
		cd_log(LOG_ERR, "not started: the configuration has errors");
		return -1;
	}
	rk_log_set_handler(cd_core_log, NULL);
	cd_submit_fabric_host(config.fabric.host);
	if (start_modes() != 0 || register_reads() != 0) {
		stop_modes();
		return -1;
	}
	cd_log(LOG_INFO, "rdmakit %s started: host mode%s%s%s", RDMAKIT_VERSION,
	       fabric_mode ? ", fabric mode" : "", sm_mode ? ", SM mode" : "",
	       probe_mode ? ", probe mode" : "");
	return 0;
}

static int rdmakit_shutdown(void)
{
	stop_modes();
	cd_config_free(&config);
	config_ready = false;
	rk_log_set_handler(NULL, NULL);
	return 0;
}

/** Called by collectd when it loads rdmakit.so: register the callbacks. */
__attribute__((visibility("default"))) void module_register(void);

void module_register(void)
{
	config_ready = cd_config_init(&config) == 0;
	plugin_register_complex_config(CD_PLUGIN_NAME, rdmakit_config);
	plugin_register_init(CD_PLUGIN_NAME, rdmakit_init);
	plugin_register_shutdown(CD_PLUGIN_NAME, rdmakit_shutdown);
}
