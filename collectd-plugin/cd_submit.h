/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Handing values, notifications and log lines to collectd; shared by every mode. */
#ifndef RDMAKIT_CD_SUBMIT_H
#define RDMAKIT_CD_SUBMIT_H

#include "cd_collectd.h"

#include "rdmakit/log.h"

/* Values of one plugin instance, sharing the time of one read. */
struct cd_batch {
	value_list_t vl;
	value_t values[2];
};

/* What a notification is about: plugin, plugin instance, type, type instance. */
struct cd_about {
	const char *plugin, *plugin_instance, *type, *type_instance;
};

/** Start a batch for plugin instance (e.g. "mlx5_0-1") of plugin "rdma" at time. */
void cd_batch_begin(struct cd_batch *batch, const char *plugin_instance, cdtime_t time);

/** The host of the fabric's and the SMs' values and notifications from now on (FabricHost; NULL
 * or "": collectd's Hostname). */
void cd_submit_fabric_host(const char *host);

/** Start a batch for plugin (e.g. "rdma_fabric") and plugin instance at time, under the
 * plugin's host, sent every interval (0: the read callback's interval, as collectd fills in). */
void cd_batch_begin_plugin(struct cd_batch *batch, const char *plugin, const char *plugin_instance,
			   cdtime_t time, cdtime_t interval);

/** Send the batch's values under collectd's Hostname whatever FabricHost says: what they tell
 * is about this node (its role as a watcher), not about the fabric. */
void cd_batch_own_host(struct cd_batch *batch);

/** Dispatch the batch's first n values as type and type_instance. */
void cd_batch_submit(struct cd_batch *batch, const char *type, const char *type_instance, size_t n);

/** Dispatch a notification with string meta data (key, value, ..., NULL; meta may be NULL). */
void cd_notify_about(int severity, const struct cd_about *about, const char *const *meta,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/** Dispatch a notification of plugin "rdma" (printf-style message). */
void cd_notify(int severity, const char *plugin_instance, const char *type,
	       const char *type_instance, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/** Log through collectd's logger as "rdmakit plugin: ..." (LOG_ERR, LOG_WARNING, ...). */
void cd_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** The core's rk_log handler: hands core messages to cd_log. */
void cd_core_log(enum rk_log_level level, const char *message, void *ctx);

#endif
