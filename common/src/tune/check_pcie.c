/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* PCIe MaxPayload and MaxReadReq from the config space, and SR-IOV VFs against the total. */
#include "tune_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCI_STATUS	    0x06
#define PCI_STATUS_CAP_LIST 0x10
#define PCI_CAPABILITY_LIST 0x34
#define PCI_HEADER_SIZE	    0x40
#define PCI_CONFIG_SIZE	    0x100 /* the capability list lives in the first 256 bytes */
#define PCI_CAP_ID_EXP	    0x10
#define PCI_EXP_DEVCAP	    4
#define PCI_EXP_DEVCTL	    8
#define PCI_MAX_CAPS	    48 /* (256 - 64) / 4: more means the list loops */

static unsigned read16(const unsigned char *config, size_t off)
{
	return config[off] | (unsigned)config[off + 1] << 8;
}

static void fill_caps(const unsigned char *config, size_t cap, struct rk_tune_pcie_caps *caps)
{
	unsigned devcap = read16(config, cap + PCI_EXP_DEVCAP);
	unsigned devctl = read16(config, cap + PCI_EXP_DEVCTL);

	caps->max_payload_supported = 128u << (devcap & 0x7);
	caps->max_payload = 128u << ((devctl >> 5) & 0x7);
	caps->max_read_request = 128u << ((devctl >> 12) & 0x7);
}

int rk_tune_parse_pcie_config(const unsigned char *config, size_t len,
			      struct rk_tune_pcie_caps *caps)
{
	size_t ptr;

	if (len < PCI_HEADER_SIZE)
		return -EINVAL;
	if (!(read16(config, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return -ENOENT;
	ptr = config[PCI_CAPABILITY_LIST] & 0xfc;
	for (int hops = 0; ptr != 0; hops++) {
		if (hops >= PCI_MAX_CAPS)
			return -ELOOP;
		if (ptr < PCI_HEADER_SIZE || ptr + 2 > PCI_CONFIG_SIZE)
			return -EINVAL;
		if (ptr + 2 > len)
			return -ENODATA;
		if (config[ptr] == PCI_CAP_ID_EXP) {
			if (ptr + PCI_EXP_DEVCTL + 2 > PCI_CONFIG_SIZE)
				return -EINVAL;
			if (ptr + PCI_EXP_DEVCTL + 2 > len)
				return -ENODATA;
			fill_caps(config, ptr, caps);
			return 0;
		}
		ptr = config[ptr + 1] & 0xfc;
	}
	return -ENOENT;
}

static void report_config_problem(struct tune_ctx *ctx, const struct rk_device *dev, int err)
{
	const char *why = err == -ENODATA  ? "the config space is cut short (read it as root)"
			  : err == -ENOENT ? "the device has no PCI Express capability"
					   : "the capability list is broken";

	tune_note_error(ctx, rk_tune_report(ctx->audit,
					    err == -ENODATA || err == -ENOENT ? RK_SEVERITY_OK
									      : RK_SEVERITY_WARNING,
					    "TUNE_PCIE_CONFIG", "pcie", dev->name, NULL, NULL,
					    "run the audit as root; lspci -vv -s ADDRESS",
					    "MaxPayload and MaxReadReq of %s (%s) not checked: %s",
					    dev->name, dev->pci.address, why));
}

static void check_sizes(struct tune_ctx *ctx, const struct rk_device *dev,
			const struct rk_tune_pcie_caps *caps)
{
	const char *mrrs = rk_tune_profile_value(ctx->profile, "pcie_mrrs");
	char current[32], recommended[32];

	if (caps->max_payload < caps->max_payload_supported && caps->max_payload < 256) {
		snprintf(current, sizeof(current), "%u", caps->max_payload);
		snprintf(recommended, sizeof(recommended), "%u", caps->max_payload_supported);
		tune_note_error(
		    ctx, rk_tune_report(
			     ctx->audit, RK_SEVERITY_WARNING, "TUNE_PCIE_MAX_PAYLOAD", "pcie",
			     dev->name, current, recommended,
			     "the BIOS sets it to the smallest along the path: check the slot "
			     "and the BIOS's PCIe settings",
			     "%s (%s) sends PCIe payloads of %u bytes though it supports %u: "
			     "every 4 KiB costs %u TLP headers",
			     dev->name, dev->pci.address, caps->max_payload,
			     caps->max_payload_supported, 4096 / caps->max_payload));
	}
	if (mrrs && caps->max_read_request < strtoul(mrrs, NULL, 10)) {
		snprintf(current, sizeof(current), "%u", caps->max_read_request);
		tune_note_error(
		    ctx,
		    rk_tune_report(ctx->audit, RK_SEVERITY_WARNING, "TUNE_PCIE_MAX_READ_REQ",
				   "pcie", dev->name, current, mrrs,
				   "setpci -s ADDRESS CAP_EXP+8.w=5000:7000 (4096 bytes); not "
				   "persistent, rdmakit does not write config space",
				   "%s (%s) reads with PCIe requests of %u bytes, the %s profile "
				   "wants %s: %s",
				   dev->name, dev->pci.address, caps->max_read_request,
				   ctx->profile->name, mrrs,
				   rk_tune_profile_setting(ctx->profile, "pcie_mrrs")->why));
	}
}

static void check_device(struct tune_ctx *ctx, const struct rk_device *dev)
{
	struct rk_tune_pcie_caps caps;
	char path[192], *config;
	size_t len;
	int err;

	snprintf(path, sizeof(path), "sys/%s/device/config", dev->dir);
	if (tune_slurp(ctx->root, path, &config, &len, NULL) != 0)
		return;
	err = rk_tune_parse_pcie_config((const unsigned char *)config, len, &caps);
	free(config);
	if (err)
		report_config_problem(ctx, dev, err);
	else
		check_sizes(ctx, dev, &caps);
}

void tune_check_pcie(struct tune_ctx *ctx)
{
	for (size_t d = 0; ctx->host && d < ctx->host->ndevices; d++)
		if (ctx->host->devices[d].pci.address[0])
			check_device(ctx, &ctx->host->devices[d]);
}

/* VFs against the total the firmware offers: reported, never changed. */
void tune_check_sriov(struct tune_ctx *ctx)
{
	for (size_t d = 0; ctx->host && d < ctx->host->ndevices; d++) {
		const struct rk_device *dev = &ctx->host->devices[d];
		char current[32], total[32];

		if (dev->pci.sriov_totalvfs < 0 || dev->pci.sriov_numvfs < 0)
			continue;
		snprintf(current, sizeof(current), "%d VFs", dev->pci.sriov_numvfs);
		snprintf(total, sizeof(total), "up to %d VFs", dev->pci.sriov_totalvfs);
		if (dev->pci.sriov_totalvfs == 0)
			tune_note_error(
			    ctx,
			    rk_tune_report(ctx->audit, RK_SEVERITY_OK, "TUNE_SRIOV", "sriov",
					   dev->name, current, total,
					   "mlxconfig -d ADDRESS set SRIOV_EN=1 NUM_OF_VFS=N, then "
					   "a reboot (firmware: reported, not changed)",
					   "SR-IOV is off in the firmware of %s", dev->name));
		else
			tune_note_error(
			    ctx, rk_tune_report(
				     ctx->audit,
				     dev->pci.sriov_numvfs > dev->pci.sriov_totalvfs
					 ? RK_SEVERITY_CRITICAL
					 : RK_SEVERITY_OK,
				     "TUNE_SRIOV", "sriov", dev->name, current, total,
				     "echo N > /sys/bus/pci/devices/ADDRESS/sriov_numvfs",
				     "%s has %d of the %d VFs its firmware offers enabled",
				     dev->name, dev->pci.sriov_numvfs, dev->pci.sriov_totalvfs));
	}
}
