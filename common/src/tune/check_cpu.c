/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* CPU: the frequency governor of every CPU, and C-states limited on the kernel command line. */
#include "rootfs.h"
#include "tune_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_cpu_dir(const char *name)
{
	return strncmp(name, "cpu", 3) == 0 && name[3] >= '0' && name[3] <= '9' &&
	       strspn(name + 3, "0123456789") == strlen(name + 3);
}

static void check_governor(struct tune_ctx *ctx)
{
	const struct rk_tune_setting *want = rk_tune_profile_setting(ctx->profile, "governor");
	char **cpus, path[128], governor[64], first[64] = "";
	size_t count, off = 0, total = 0;

	if (!want || rootfs_list(ctx->root, "sys/devices/system/cpu", &cpus, &count) != 0)
		return;
	for (size_t i = 0; i < count; i++) {
		if (!is_cpu_dir(cpus[i]))
			continue;
		snprintf(path, sizeof(path), "sys/devices/system/cpu/%s/cpufreq/scaling_governor",
			 cpus[i]);
		if (tune_read_text(ctx->root, path, governor, sizeof(governor)) < 0)
			continue; /* no cpufreq driver for this CPU */
		total++;
		if (strcmp(governor, want->value) == 0)
			continue;
		if (!off++)
			snprintf(first, sizeof(first), "%s", governor);
		tune_want_live(ctx, "governor", path, want->value);
	}
	rk_names_free(cpus, count);
	if (off)
		tune_note_error(
		    ctx,
		    rk_tune_report(
			ctx->audit, RK_SEVERITY_WARNING, "TUNE_GOVERNOR", "cpu", "cpufreq", first,
			want->value, "cpupower frequency-set -g performance (or tuned's profile)",
			"%zu of %zu CPUs use the %s governor, the %s profile wants %s: %s", off,
			total, first, ctx->profile->name, want->value, want->why));
}

/* The value of NAME=N on the kernel command line, or -1. */
static long cmdline_value(const char *cmdline, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = cmdline; (p = strstr(p, name)) != NULL; p += len)
		if ((p == cmdline || p[-1] == ' ') && p[len] == '=')
			return strtol(p + len + 1, NULL, 10);
	return -1;
}

static void check_cstates(struct tune_ctx *ctx)
{
	const struct rk_tune_setting *want = rk_tune_profile_setting(ctx->profile, "cstates");
	char cmdline[4096], current[96];
	long limit, intel, acpi;

	if (!want || tune_read_text(ctx->root, "proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return;
	limit = strtol(want->value, NULL, 10);
	intel = cmdline_value(cmdline, "intel_idle.max_cstate");
	acpi = cmdline_value(cmdline, "processor.max_cstate");
	if (intel >= 0 && intel <= limit && acpi >= 0 && acpi <= limit)
		return;
	snprintf(current, sizeof(current), "intel_idle.max_cstate=%ld processor.max_cstate=%ld",
		 intel, acpi);
	tune_note_error(
	    ctx, rk_tune_report(ctx->audit, RK_SEVERITY_WARNING, "TUNE_CSTATES", "cpu",
				"kernel command line", intel < 0 && acpi < 0 ? "no limit" : current,
				"intel_idle.max_cstate=1 processor.max_cstate=1",
				"add them to GRUB_CMDLINE_LINUX in /etc/default/grub, update-grub, "
				"reboot (rdmakit does not change the boot loader)",
				"C-states are not limited to C%ld on the kernel command line: %s",
				limit, want->why));
}

void tune_check_cpu(struct tune_ctx *ctx)
{
	check_governor(ctx);
	check_cstates(ctx);
}
