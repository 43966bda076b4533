/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Interrupts: the HCA's MSI-X IRQs on CPUs of its NUMA node, and irqbalance against that. */
#include "rootfs.h"
#include "tune_internal.h"

#include "rdmakit/log.h"

#include <stdio.h>
#include <string.h>

#define CPU_WORDS 16 /* 1024 CPUs */

static bool subset(const unsigned long *a, const unsigned long *b)
{
	for (size_t i = 0; i < CPU_WORDS; i++)
		if (a[i] & ~b[i])
			return false;
	return true;
}

static bool cpulist_or_warn(struct tune_ctx *ctx, const char *path, const char *text,
			    unsigned long *mask)
{
	if (tune_parse_cpulist(text, mask, CPU_WORDS) == 0)
		return true;
	rk_log(RK_LOG_WARNING, "tune: %s under %s: not a CPU list: \"%s\"", path, ctx->root, text);
	return false;
}

struct irq_tally {
	size_t total, outside;
	char first[16];
};

static void check_one_irq(struct tune_ctx *ctx, const char *irq, const unsigned long *local,
			  const char *local_text, struct irq_tally *tally)
{
	char path[128], text[256];
	unsigned long mask[CPU_WORDS];

	snprintf(path, sizeof(path), "proc/irq/%s/smp_affinity_list", irq);
	if (tune_read_text(ctx->root, path, text, sizeof(text)) < 0 ||
	    !cpulist_or_warn(ctx, path, text, mask))
		return;
	tally->total++;
	if (subset(mask, local))
		return;
	if (!tally->outside++)
		snprintf(tally->first, sizeof(tally->first), "%s", irq);
	if (rk_tune_profile_value(ctx->profile, "irq_affinity"))
		tune_want_live(ctx, "irq affinity", path, local_text);
}

static void check_device_irqs(struct tune_ctx *ctx, const struct rk_device *dev)
{
	char dir[160], path[192], local_text[256], current[64];
	unsigned long local[CPU_WORDS];
	struct irq_tally tally = {0};
	char **irqs;
	size_t count;

	snprintf(path, sizeof(path), "sys/%s/device/local_cpulist", dev->dir);
	if (tune_read_text(ctx->root, path, local_text, sizeof(local_text)) < 0 ||
	    !cpulist_or_warn(ctx, path, local_text, local))
		return;
	snprintf(dir, sizeof(dir), "sys/%s/device/msi_irqs", dev->dir);
	if (rootfs_list(ctx->root, dir, &irqs, &count) != 0)
		return;
	for (size_t i = 0; i < count; i++)
		check_one_irq(ctx, irqs[i], local, local_text, &tally);
	rk_names_free(irqs, count);
	if (!tally.outside)
		return;
	snprintf(current, sizeof(current), "%zu of %zu IRQs off-node", tally.outside, tally.total);
	tune_note_error(
	    ctx,
	    rk_tune_report(ctx->audit, RK_SEVERITY_WARNING, "TUNE_IRQ_AFFINITY", "irq", dev->name,
			   current, local_text,
			   "echo CPULIST > /proc/irq/N/smp_affinity_list for each of "
			   "device/msi_irqs (or set_irq_affinity_cpulist.sh)",
			   "%zu of the %zu MSI-X IRQs of %s (first: %s) may run on CPUs outside "
			   "its NUMA node's %s: completions cross the inter-socket link",
			   tally.outside, tally.total, dev->name, tally.first, local_text));
}

/* Room for any /proc/PID/comm: a workqueue worker's is up to 63 bytes
 * ("kworker/u8:3-ext4-rsv-conversion"), not the 15 of a task's name. */
#define PROC_COMM_SIZE 128

static bool irqbalance_running(struct tune_ctx *ctx)
{
	char **entries, path[64], comm[PROC_COMM_SIZE];
	size_t count;
	bool found = false;

	if (rootfs_list(ctx->root, "proc", &entries, &count) != 0)
		return false;
	for (size_t i = 0; i < count && !found; i++) {
		if (strspn(entries[i], "0123456789") != strlen(entries[i]))
			continue;
		snprintf(path, sizeof(path), "proc/%s/comm", entries[i]);
		found = tune_read_text(ctx->root, path, comm, sizeof(comm)) > 0 &&
			strcmp(comm, "irqbalance") == 0;
	}
	rk_names_free(entries, count);
	return found;
}

static void check_irqbalance(struct tune_ctx *ctx)
{
	const struct rk_tune_setting *want = rk_tune_profile_setting(ctx->profile, "irqbalance");

	if (!want || strcmp(want->value, "off") != 0 || !ctx->host || !irqbalance_running(ctx))
		return;
	tune_note_error(
	    ctx, rk_tune_report(ctx->audit, RK_SEVERITY_WARNING, "TUNE_IRQBALANCE", "irq",
				"irqbalance", "running", "stopped",
				"systemctl disable --now irqbalance, or ban the HCA's IRQs "
				"(IRQBALANCE_BANNED_CPULIST)",
				"irqbalance is running and the %s profile pins the HCA's IRQs: %s",
				ctx->profile->name, want->why));
}

void tune_check_irq(struct tune_ctx *ctx)
{
	for (size_t d = 0; ctx->host && d < ctx->host->ndevices; d++)
		check_device_irqs(ctx, &ctx->host->devices[d]);
	check_irqbalance(ctx);
}
