/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The audit: context, findings with their facts, the plan, and the profile's sysctls. */
#include "tune_internal.h"

#include "rdmakit/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int rk_tune_report(struct rk_tune_audit *audit, enum rk_severity severity, const char *code,
		   const char *area, const char *subject, const char *current,
		   const char *recommended, const char *remedy, const char *fmt, ...)
{
	struct rk_findings *findings = &audit->findings;
	struct rk_tune_fact *fact;
	char message[320];
	va_list args;
	int err;

	if (findings->count + 1 > audit->facts_capacity) {
		size_t grown = audit->facts_capacity ? audit->facts_capacity * 2 : 16;
		struct rk_tune_fact *bigger = realloc(audit->facts, grown * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		audit->facts = bigger;
		audit->facts_capacity = grown;
	}
	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	err = rk_findings_add(findings, severity, code, subject, remedy, "%s", message);
	if (err)
		return err;
	fact = &audit->facts[findings->count - 1];
	snprintf(fact->area, sizeof(fact->area), "%s", area);
	snprintf(fact->current, sizeof(fact->current), "%s", current ? current : "");
	snprintf(fact->recommended, sizeof(fact->recommended), "%s",
		 recommended ? recommended : "");
	return 0;
}

void rk_tune_audit_free(struct rk_tune_audit *audit)
{
	rk_findings_free(&audit->findings);
	free(audit->facts);
	*audit = (struct rk_tune_audit){0};
}

static char *copy_bytes(const char *bytes, size_t len)
{
	char *copy = malloc(len + 1);

	if (copy) {
		if (len)
			memcpy(copy, bytes, len);
		copy[len] = '\0';
	}
	return copy;
}

int rk_tune_plan_add(struct rk_tune_plan *plan, enum rk_tune_change_kind kind, const char *key,
		     const char *path, const char *current, size_t current_len,
		     unsigned current_mode, const char *wanted, size_t wanted_len,
		     unsigned wanted_mode)
{
	struct rk_tune_change *change;

	if (plan->count == plan->capacity) {
		size_t grown = plan->capacity ? plan->capacity * 2 : 16;
		struct rk_tune_change *bigger = realloc(plan->items, grown * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		plan->items = bigger;
		plan->capacity = grown;
	}
	change = &plan->items[plan->count];
	*change = (struct rk_tune_change){.kind = kind,
					  .existed = current != NULL,
					  .current_len = current ? current_len : 0,
					  .current_mode = current_mode,
					  .wanted_len = wanted_len,
					  .wanted_mode = wanted_mode};
	snprintf(change->key, sizeof(change->key), "%s", key);
	snprintf(change->path, sizeof(change->path), "%s", path + strspn(path, "/"));
	change->current = current ? copy_bytes(current, current_len) : NULL;
	change->wanted = copy_bytes(wanted, wanted_len);
	if ((current && !change->current) || !change->wanted) {
		free(change->current);
		free(change->wanted);
		return -ENOMEM;
	}
	plan->count++;
	return 0;
}

void rk_tune_plan_free(struct rk_tune_plan *plan)
{
	for (size_t i = 0; i < plan->count; i++) {
		free(plan->items[i].current);
		free(plan->items[i].wanted);
	}
	free(plan->items);
	*plan = (struct rk_tune_plan){0};
}

void tune_want_live(struct tune_ctx *ctx, const char *key, const char *relpath, const char *wanted)
{
	char value[256] = "", line[272];
	char *raw = NULL;
	size_t len = 0;
	int err;

	if (!ctx->plan)
		return;
	err = tune_slurp_target(ctx->root, relpath, &raw, &len, NULL);
	if (err && err != -ELOOP)
		return; /* logged; a link is planned, and refused by apply */
	if (raw) {
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(raw, "\n"), raw);
		tune_selected(line, value, sizeof(value));
	}
	if (!raw || strcmp(value, wanted) != 0) {
		snprintf(line, sizeof(line), "%s\n", wanted);
		tune_note_error(ctx, rk_tune_plan_add(ctx->plan, RK_TUNE_LIVE, key, relpath, raw,
						      len, 0, line, strlen(line), 0));
	}
	free(raw);
}

void tune_want_file(struct tune_ctx *ctx, const char *key, const char *relpath, const char *text,
		    unsigned mode)
{
	char *raw = NULL;
	size_t len = 0;
	mode_t current_mode = 0;
	int err;

	if (!ctx->plan)
		return;
	err = tune_slurp_target(ctx->root, relpath, &raw, &len, &current_mode);
	if (err && err != -ENOENT && err != -ELOOP)
		return; /* logged; a link is planned, and refused by apply */
	if (!err && len == strlen(text) && memcmp(raw, text, len) == 0 && current_mode == mode) {
		free(raw);
		return;
	}
	tune_note_error(ctx, rk_tune_plan_add(ctx->plan, RK_TUNE_FILE, key, relpath, raw, len,
					      current_mode, text, strlen(text), mode));
	free(raw);
}

int rk_tune_check_root(const char *root)
{
	struct stat st;

	if (stat(root, &st) != 0) {
		int err = -errno;

		rk_log(RK_LOG_ERR, "tune: root %s: %s", root, strerror(errno));
		return err;
	}
	if (!S_ISDIR(st.st_mode)) {
		rk_log(RK_LOG_ERR, "tune: root %s is not a directory", root);
		return -ENOTDIR;
	}
	return 0;
}

/* sysctl:KEY settings of the profile: a live write and a line of the drop-in each. */
static void check_sysctls(struct tune_ctx *ctx)
{
	for (size_t i = 0; ctx->profile && i < ctx->profile->count; i++) {
		const struct rk_tune_setting *s = &ctx->profile->settings[i];
		char relpath[256], value[128];
		const char *key;

		if (strncmp(s->key, "sysctl:", 7) != 0)
			continue;
		key = s->key + 7;
		snprintf(relpath, sizeof(relpath), "proc/sys/%s", key);
		for (char *p = relpath + 9; *p; p++)
			*p = *p == '.' ? '/' : *p;
		tune_note_error(ctx,
				tune_text_add(&ctx->sysctl_dropin, "%s = %s\n", key, s->value));
		if (tune_read_text(ctx->root, relpath, value, sizeof(value)) < 0)
			continue; /* a kernel without it */
		if (strcmp(value, s->value) != 0)
			tune_note_error(ctx,
					rk_tune_report(ctx->audit, RK_SEVERITY_WARNING,
						       "TUNE_SYSCTL", "sysctl", key, value,
						       s->value, "sysctl drop-in in /etc/sysctl.d",
						       "%s is %s, %s wants %s: %s", key, value,
						       ctx->profile->name, s->value, s->why));
		tune_want_live(ctx, key, relpath, s->value);
	}
}

static void write_sysctl_dropin(struct tune_ctx *ctx)
{
	struct tune_text text = {0};

	if (!ctx->sysctl_dropin.len || !ctx->profile)
		return;
	tune_note_error(ctx, tune_text_add(&text, "# Written by rdmakit tune (profile %s).\n%s",
					   ctx->profile->name, ctx->sysctl_dropin.data));
	if (text.data)
		tune_want_file(ctx, "sysctl drop-in", TUNE_SYSCTL_DROPIN, text.data, 0644);
	tune_text_free(&text);
}

static void write_udev_rules(struct tune_ctx *ctx)
{
	struct tune_text text = {0};

	if (!ctx->udev_rules.len || !ctx->profile)
		return;
	tune_note_error(ctx, tune_text_add(&text, "# Written by rdmakit tune (profile %s).\n%s",
					   ctx->profile->name, ctx->udev_rules.data));
	if (text.data)
		tune_want_file(ctx, "udev rules", TUNE_UDEV_RULES, text.data, 0644);
	tune_text_free(&text);
}

/* The RDMA devices under R/sys, every path resolved inside the root R. */
static void open_devices(struct tune_ctx *ctx)
{
	if (rk_host_open_in_root(ctx->root, "sys", &ctx->host) != 0)
		ctx->host = NULL; /* no RDMA devices: host-wide checks still run */
	else
		rk_host_refresh(ctx->host);
}

int rk_tune_audit_host(const struct rk_tune_options *options, struct rk_tune_audit *audit,
		       struct rk_tune_plan *plan)
{
	struct tune_ctx ctx = {.root = options->root ? options->root : "/",
			       .profile = options->profile,
			       .partitions = options->partitions,
			       .audit = audit,
			       .plan = plan};
	int err = rk_tune_check_root(ctx.root);

	if (err)
		return err;
	open_devices(&ctx);
	tune_check_memory(&ctx);
	tune_check_cpu(&ctx);
	tune_check_irq(&ctx);
	tune_check_pcie(&ctx);
	tune_check_sriov(&ctx);
	tune_check_ipoib(&ctx);
	tune_check_arp(&ctx);
	tune_check_roce(&ctx);
	check_sysctls(&ctx);
	write_sysctl_dropin(&ctx);
	write_udev_rules(&ctx);
	tune_text_free(&ctx.sysctl_dropin);
	tune_text_free(&ctx.udev_rules);
	if (ctx.host)
		rk_host_close(ctx.host);
	return ctx.err;
}
