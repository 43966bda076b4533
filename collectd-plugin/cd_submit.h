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

/** Start a batch for plugin instance (e.g. "mlx5_0-1") at time. */
void cd_batch_begin(struct cd_batch *batch, const char *plugin_instance, cdtime_t time);

/** Dispatch the batch's first n values as type and type_instance. */
void cd_batch_submit(struct cd_batch *batch, const char *type, const char *type_instance, size_t n);

/** Dispatch a notification of the plugin (printf-style message). */
void cd_notify(int severity, const char *plugin_instance, const char *type,
	       const char *type_instance, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/** Log through collectd's logger as "rdmakit plugin: ..." (LOG_ERR, LOG_WARNING, ...). */
void cd_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** The core's rk_log handler: hands core messages to cd_log. */
void cd_core_log(enum rk_log_level level, const char *message, void *ctx);

#endif
