/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: whole sysfs trees. Each input starts from a small healthy tree (one mlx5
 * device, one InfiniBand port, a PCI function) written into tmpfs, then changes it record by
 * record: [operation][path index][length][length bytes]. An operation writes a file's text,
 * or puts a directory, a FIFO, a symlink loop, a link to another path of the tree or a link to
 * a device node where the path is. rk_host_open, two refreshes and the health rules must then
 * return (a FIFO must never block them) without a memory error. */
#include "fuzz_util.h"
#include "rdmakit/health.h"
#include "rdmakit/host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEV	    "class/infiniband/mlx5_0"
#define PORT	    DEV "/ports/1"
#define PCI	    "devices/pci0000:00/0000:00:01.0"
#define MAX_RECORDS 32

/* The healthy tree every input starts from: path and text ("/" at the end: a directory). */
static const char *const base[][2] = {
    {DEV "/node_type", "1: CA"},
    {DEV "/node_guid", "b859:9f03:00d4:6f2a"},
    {DEV "/sys_image_guid", "b859:9f03:00d4:6f2a"},
    {DEV "/fw_ver", "20.31.1014"},
    {DEV "/hca_type", "MT4123"},
    {DEV "/board_id", "MT_0000000010"},
    {DEV "/node_desc", "host1 mlx5_0"},
    {PORT "/state", "4: ACTIVE"},
    {PORT "/phys_state", "5: LinkUp"},
    {PORT "/rate", "200 Gb/sec (4X HDR)"},
    {PORT "/lid", "0x5"},
    {PORT "/sm_lid", "0x1"},
    {PORT "/sm_sl", "0"},
    {PORT "/lid_mask_count", "0"},
    {PORT "/cap_mask", "0xa651e848"},
    {PORT "/link_layer", "InfiniBand"},
    {PORT "/gids/0", "fe80:0000:0000:0000:b859:9f03:00d4:6f2a"},
    {PORT "/counters/symbol_error", "0"},
    {PORT "/counters/port_xmit_data", "1122334455667"},
    {PORT "/counters/port_rcv_data", "987654321098"},
    {PORT "/counters/port_xmit_wait", "2837461"},
    {PORT "/counters/link_downed", "1"},
    {PORT "/hw_counters/out_of_buffer", "0"},
    {DEV "/hw_counters/lifespan", "10"},
    {PCI "/vendor", "0x15b3"},
    {PCI "/device", "0x101b"},
    {PCI "/numa_node", "0"},
    {PCI "/current_link_speed", "16.0 GT/s PCIe"},
    {PCI "/max_link_speed", "16.0 GT/s PCIe"},
    {PCI "/current_link_width", "16"},
    {PCI "/max_link_width", "16"},
    {PCI "/sriov_numvfs", "0"},
    {PCI "/sriov_totalvfs", "8"},
};

/* Paths the records may change: every file of the base tree and the directories above. */
static const char *const extra[] = {
    DEV "/ports/2",
    DEV "/ports/0",
    DEV "/ports/300",
    DEV "/ports/x",
    DEV "/ports",
    PORT,
    PORT "/counters",
    PORT "/hw_counters",
    DEV "/device",
    "class/infiniband/mlx5_1",
    "class/infiniband",
    DEV,
    PORT "/gid_attrs/ndevs/0",
    DEV "/hw_rev",
    DEV "/device/net/ib0",
};

#define NBASE  (sizeof(base) / sizeof(base[0]))
#define NEXTRA (sizeof(extra) / sizeof(extra[0]))

enum operation { TEXT, DIRECTORY, FIFO, LOOP, LINK, DEVICE_NODE, OPERATIONS };

static const char *path_at(unsigned index)
{
	index %= NBASE + NEXTRA;
	return index < NBASE ? base[index][0] : extra[index - NBASE];
}

/* mkdir -p of path's parents under root. */
static void make_parents(const char *root, const char *relpath)
{
	char path[512];
	char *slash;

	snprintf(path, sizeof(path), "%s/%s", root, relpath);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
}

static void write_base(const char *root)
{
	char path[512], target[512];

	for (size_t i = 0; i < NBASE; i++) {
		make_parents(root, base[i][0]);
		snprintf(path, sizeof(path), "%s/%s", root, base[i][0]);
		fuzz_write_file(path, (const uint8_t *)base[i][1], strlen(base[i][1]));
	}
	snprintf(path, sizeof(path), "%s/" DEV "/device", root);
	snprintf(target, sizeof(target), "../../../" PCI);
	if (symlink(target, path) != 0)
		abort();
}

/* Remove what is at path, whatever it is. */
static void clear(const char *path)
{
	if (unlink(path) != 0 && errno == EISDIR) {
		empty_tree(path);
		rmdir(path);
	}
}

/* Put what op says at relpath; 0, or -1 when it cannot be made (a parent is a file). */
static int apply(const char *root, enum operation op, const char *relpath, const uint8_t *text,
		 size_t len, const char *other)
{
	char path[512], target[512];

	make_parents(root, relpath);
	snprintf(path, sizeof(path), "%s/%s", root, relpath);
	clear(path);
	snprintf(target, sizeof(target), "%s/%s", root, other);
	switch (op) {
	case TEXT:
		return fuzz_write_file(path, text, len);
	case DIRECTORY:
		return mkdir(path, 0755);
	case FIFO:
		return mkfifo(path, 0644);
	case LOOP:
		return symlink(strrchr(path, '/') + 1, path);
	case LINK:
		return symlink(target, path);
	default:
		return symlink(len % 2 ? "/dev/zero" : "/dev/null", path);
	}
}

/* Apply the input's records to the tree at root. */
static void apply_records(const char *root, const uint8_t *data, size_t size)
{
	size_t at = 0;

	for (int n = 0; n < MAX_RECORDS && at + 3 <= size; n++) {
		enum operation op = (enum operation)(data[at] % OPERATIONS);
		const char *relpath = path_at(data[at + 1]);
		size_t len = data[at + 2];

		at += 3;
		if (len > size - at)
			len = size - at;
		(void)apply(root, op, relpath, data + at, len,
			    path_at(data[at - 1] ^ data[at - 3]));
		at += op == TEXT ? len : 0;
	}
}

static void read_host(const char *root)
{
	struct rk_health_options options = {.expect_rate_gbps = 100};
	struct rk_findings findings = {0};
	struct rk_host *host;

	if (rk_host_open(root, &host) != 0)
		return;
	rk_host_refresh(host);
	rk_host_refresh(host);
	if (rk_health_check_host(host, &options, &findings) != 0)
		abort(); /* only out of memory may fail */
	rk_findings_sort(&findings);
	rk_findings_free(&findings);
	rk_host_rescan(host);
	rk_host_close(host);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *root = fuzz_scratch_dir();

	fuzz_quiet_log();
	empty_tree(root);
	write_base(root);
	apply_records(root, data, size);
	read_host(root);
	return 0;
}
