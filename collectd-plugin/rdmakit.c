/* collectd's entry points: config, init, read, shutdown. The modes do the work: the host mode
 * in cd_host.c; fabric and SM modes go in files of their own and start and stop here too. */
#include "cd_config.h"
#include "cd_host.h"
#include "cd_submit.h"

static struct cd_config config;
static bool config_ready;  /* defaults are in place */
static bool config_failed; /* a block was rejected: the plugin must not start */
static struct cd_host *host_mode;

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

static int rdmakit_init(void)
{
	int err;

	if (!config_ready || config_failed) {
		cd_log(LOG_ERR, "not started: the configuration has errors");
		return -1;
	}
	rk_log_set_handler(cd_core_log, NULL);
	err = cd_host_start(&config, &host_mode);
	if (err) {
		cd_log(LOG_ERR, "not started: cannot read %s: %s", config.sysfs_root,
		       strerror(-err));
		return -1;
	}
	return plugin_register_complex_read(NULL, CD_PLUGIN_NAME, rdmakit_read, 0, NULL);
}

static int rdmakit_shutdown(void)
{
	cd_host_stop(host_mode);
	host_mode = NULL;
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
