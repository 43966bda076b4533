/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Handing values, notifications and log lines to collectd. */
#include "cd_submit.h"

#include "cd_fabric_values.h"

/* Copy a name that the caller has checked to fit DATA_MAX_NAME_LEN (cheaper than sstrncpy). */
static void copy_name(char *dst, const char *src)
{
	size_t len = strlen(src);

	if (len >= DATA_MAX_NAME_LEN)
		len = DATA_MAX_NAME_LEN - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* FabricHost: the host the fabric's and the SMs' values and notifications go under ("":
 * collectd's Hostname). */
static char fabric_host[DATA_MAX_NAME_LEN];

void cd_submit_fabric_host(const char *host)
{
	copy_name(fabric_host, host ? host : "");
}

/* The host of plugin's values and notifications: FabricHost for the fabric and SM plugins. */
static const char *host_of(const char *plugin)
{
	bool fabric = strcmp(plugin, CD_FABRIC_PLUGIN) == 0 || strcmp(plugin, CD_SM_PLUGIN) == 0;

	return fabric && fabric_host[0] ? fabric_host : hostname_g;
}

void cd_batch_begin_plugin(struct cd_batch *batch, const char *plugin, const char *plugin_instance,
			   cdtime_t time, cdtime_t interval)
{
	batch->vl = (value_list_t)VALUE_LIST_INIT;
	batch->vl.values = batch->values;
	batch->vl.time = time;
	batch->vl.interval = interval;
	copy_name(batch->vl.host, host_of(plugin));
	copy_name(batch->vl.plugin, plugin);
	copy_name(batch->vl.plugin_instance, plugin_instance);
}

void cd_batch_own_host(struct cd_batch *batch)
{
	copy_name(batch->vl.host, hostname_g);
}

void cd_batch_begin(struct cd_batch *batch, const char *plugin_instance, cdtime_t time)
{
	cd_batch_begin_plugin(batch, CD_VALUES_PLUGIN, plugin_instance, time, 0);
}

void cd_batch_submit(struct cd_batch *batch, const char *type, const char *type_instance, size_t n)
{
	batch->vl.values_len = n;
	copy_name(batch->vl.type, type);
	copy_name(batch->vl.type_instance, type_instance);
	plugin_dispatch_values(&batch->vl);
}

static void notify(int severity, const struct cd_about *about, const char *const *meta,
		   const char *fmt, va_list args) __attribute__((format(printf, 4, 0)));

static void notify(int severity, const struct cd_about *about, const char *const *meta,
		   const char *fmt, va_list args)
{
	notification_t n = {.severity = severity, .time = cdtime()};

	vsnprintf(n.message, sizeof(n.message), fmt, args);
	sstrncpy(n.host, host_of(about->plugin), sizeof(n.host));
	sstrncpy(n.plugin, about->plugin, sizeof(n.plugin));
	sstrncpy(n.plugin_instance, about->plugin_instance, sizeof(n.plugin_instance));
	sstrncpy(n.type, about->type, sizeof(n.type));
	sstrncpy(n.type_instance, about->type_instance, sizeof(n.type_instance));
	for (size_t i = 0; meta && meta[i] && meta[i + 1]; i += 2)
		plugin_notification_meta_add_string(&n, meta[i], meta[i + 1]);
	plugin_dispatch_notification(&n);
	if (n.meta)
		plugin_notification_meta_free(n.meta);
}

void cd_notify_about(int severity, const struct cd_about *about, const char *const *meta,
		     const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	notify(severity, about, meta, fmt, args);
	va_end(args);
}

void cd_notify(int severity, const char *plugin_instance, const char *type,
	       const char *type_instance, const char *fmt, ...)
{
	const struct cd_about about = {CD_VALUES_PLUGIN, plugin_instance, type, type_instance};
	va_list args;

	va_start(args, fmt);
	notify(severity, &about, NULL, fmt, args);
	va_end(args);
}

void cd_log(int level, const char *fmt, ...)
{
	char message[1024];
	va_list args;

	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	plugin_log(level, CD_PLUGIN_NAME " plugin: %s", message);
}

void cd_core_log(enum rk_log_level level, const char *message, void *ctx)
{
	static const int levels[] = {
	    [RK_LOG_ERR] = LOG_ERR,
	    [RK_LOG_WARNING] = LOG_WARNING,
	    [RK_LOG_INFO] = LOG_INFO,
	    [RK_LOG_DEBUG] = LOG_DEBUG,
	};

	(void)ctx;
	plugin_log(levels[level], CD_PLUGIN_NAME " plugin: %s", message);
}
