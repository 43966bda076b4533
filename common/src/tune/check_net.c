/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* IPoIB mode and MTU, ARP settings of RDMA interfaces sharing a subnet, RoCE netdev MTU. */
#include "rootfs.h"
#include "tune_internal.h"

#include "rdmakit/tune_opensm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARPHRD_INFINIBAND   32
#define IPOIB_DATAGRAM_MAX  4092 /* IB MTU 4096 - the 4-byte IPoIB header */
#define IPOIB_DATAGRAM_2K   2044 /* IB MTU 2048 - 4 */
#define IPOIB_CONNECTED_MAX 65520
#define MAX_RDMA_NETDEVS    64

static void report_ipoib_mtu(struct tune_ctx *ctx, const char *ifname, const char *mode, long mtu,
			     enum rk_severity severity, const char *recommended, const char *why)
{
	char current[32];

	snprintf(current, sizeof(current), "%ld", mtu);
	tune_note_error(ctx,
			rk_tune_report(ctx->audit, severity, "TUNE_IPOIB_MTU", "ipoib", ifname,
				       current, recommended,
				       "ip link set dev IFACE mtu N, and in the interface's "
				       "network configuration",
				       "%s (%s mode) has MTU %ld: %s", ifname, mode, mtu, why));
}

/* Connected mode: at most 65520; the throughput profile wants exactly that, also at boot. */
static void check_connected(struct tune_ctx *ctx, const char *ifname, const char *path, long mtu)
{
	bool wanted = rk_tune_profile_value(ctx->profile, "ipoib_connected_mtu") != NULL;

	if (mtu > IPOIB_CONNECTED_MAX)
		report_ipoib_mtu(ctx, ifname, "connected", mtu, RK_SEVERITY_CRITICAL, "65520",
				 "above the connected-mode maximum of 65520");
	else if (mtu < IPOIB_CONNECTED_MAX && wanted)
		report_ipoib_mtu(ctx, ifname, "connected", mtu, RK_SEVERITY_WARNING, "65520",
				 "connected mode carries up to 65520 bytes per packet");
	if (!wanted)
		return;
	tune_want_live(ctx, "ipoib mtu", path, "65520");
	tune_note_error(ctx, tune_text_add(&ctx->udev_rules,
					   "ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\"%s\", "
					   "ATTR{mtu}=\"65520\"\n",
					   ifname));
}

/* The datagram maximum on this fabric: the IB MTU of the interface's partition (from
 * partitions.conf, when given) minus the 4-byte IPoIB header. */
static bool fabric_mtu_known(struct tune_ctx *ctx, const char *ifname, long *max)
{
	char path[160], text[16];
	unsigned ib_mtu;

	snprintf(path, sizeof(path), "sys/class/net/%s/pkey", ifname);
	if (!ctx->partitions || tune_read_text(ctx->root, path, text, sizeof(text)) < 0 ||
	    rk_tune_partitions_ipoib_mtu(ctx->root, ctx->partitions,
					 (unsigned)strtoul(text, NULL, 16), &ib_mtu) != 0)
		return false;
	*max = (long)ib_mtu - 4;
	return true;
}

static void check_datagram_against_fabric(struct tune_ctx *ctx, const char *ifname, long mtu,
					  long max)
{
	char recommended[16], why[200];

	if (mtu == max)
		return;
	snprintf(recommended, sizeof(recommended), "%ld", max);
	snprintf(why, sizeof(why),
		 "the partition's IPoIB broadcast group has an IB MTU of %ld (partitions.conf), so "
		 "datagram mode carries %ld",
		 max + 4, max);
	report_ipoib_mtu(ctx, ifname, "datagram", mtu,
			 mtu > max ? RK_SEVERITY_CRITICAL : RK_SEVERITY_WARNING, recommended, why);
}

static void check_ipoib_iface(struct tune_ctx *ctx, const char *ifname)
{
	char path[160], mode[32] = "datagram";
	long mtu, fabric_max;

	snprintf(path, sizeof(path), "sys/class/net/%s/mode", ifname);
	tune_read_text(ctx->root, path, mode, sizeof(mode));
	snprintf(path, sizeof(path), "sys/class/net/%s/mtu", ifname);
	if (tune_read_long(ctx->root, path, &mtu) != 0)
		return;
	if (strcmp(mode, "connected") == 0) {
		check_connected(ctx, ifname, path, mtu);
	} else if (fabric_mtu_known(ctx, ifname, &fabric_max)) {
		check_datagram_against_fabric(ctx, ifname, mtu, fabric_max);
	} else if (mtu > IPOIB_DATAGRAM_MAX) {
		report_ipoib_mtu(ctx, ifname, mode, mtu, RK_SEVERITY_CRITICAL, "4092 or 2044",
				 "above the datagram maximum, the IB MTU minus 4 (4092 for a 4096 "
				 "IB MTU, 2044 for 2048)");
	} else if (mtu != IPOIB_DATAGRAM_MAX && mtu != IPOIB_DATAGRAM_2K) {
		report_ipoib_mtu(ctx, ifname, mode, mtu, RK_SEVERITY_WARNING, "4092 or 2044",
				 "datagram mode fits the IB MTU minus 4 (4092 on a fabric with a "
				 "4096 IB MTU, 2044 with 2048); a smaller MTU wastes every packet");
	}
}

static bool is_ipoib(struct tune_ctx *ctx, const char *ifname)
{
	char path[160];
	long type;

	snprintf(path, sizeof(path), "sys/class/net/%s/type", ifname);
	return tune_read_long(ctx->root, path, &type) == 0 && type == ARPHRD_INFINIBAND;
}

void tune_check_ipoib(struct tune_ctx *ctx)
{
	char **names;
	size_t count;

	if (rootfs_list(ctx->root, "sys/class/net", &names, &count) != 0)
		return;
	for (size_t i = 0; i < count; i++)
		if (is_ipoib(ctx, names[i]))
			check_ipoib_iface(ctx, names[i]);
	rk_names_free(names, count);
}

/* The interfaces RDMA traffic uses: IPoIB interfaces and the netdevs of RoCE ports. */
static size_t rdma_netdevs(struct tune_ctx *ctx, char names[][32], size_t max)
{
	char **ifaces;
	size_t count, n = 0;

	if (rootfs_list(ctx->root, "sys/class/net", &ifaces, &count) == 0) {
		for (size_t i = 0; i < count && n < max; i++)
			if (is_ipoib(ctx, ifaces[i]))
				snprintf(names[n++], 32, "%s", ifaces[i]);
		rk_names_free(ifaces, count);
	}
	for (size_t d = 0; ctx->host && d < ctx->host->ndevices; d++)
		for (unsigned p = 0; p < ctx->host->devices[d].nports && n < max; p++) {
			const char *netdev = ctx->host->devices[d].ports[p].netdev;
			bool known = false;

			for (size_t k = 0; k < n; k++)
				known |= strcmp(names[k], netdev) == 0;
			if (netdev[0] && !known)
				snprintf(names[n++], 32, "%s", netdev);
		}
	return n;
}

struct route {
	char iface[32];
	unsigned long dest, mask;
};

struct route_scan {
	struct route routes[256];
	size_t count;
};

static void route_line(char *line, unsigned lineno, void *arg)
{
	struct route_scan *scan = arg;
	struct route r;
	unsigned long gateway;
	unsigned flags;

	if (lineno == 1 || scan->count >= sizeof(scan->routes) / sizeof(scan->routes[0]))
		return;
	if (sscanf(line, "%31s %lx %lx %x %*d %*d %*d %lx", r.iface, &r.dest, &gateway, &flags,
		   &r.mask) == 5 &&
	    gateway == 0 && r.mask != 0)
		scan->routes[scan->count++] = r;
}

/* True when another RDMA interface has a directly connected route to the same subnet. */
static bool shares_subnet(const struct route_scan *scan, const char *ifname, char names[][32],
			  size_t n)
{
	for (size_t i = 0; i < scan->count; i++) {
		if (strcmp(scan->routes[i].iface, ifname) != 0)
			continue;
		for (size_t j = 0; j < scan->count; j++) {
			bool rdma = false;

			for (size_t k = 0; k < n; k++)
				rdma |= strcmp(names[k], scan->routes[j].iface) == 0;
			if (j != i && rdma && strcmp(scan->routes[j].iface, ifname) != 0 &&
			    scan->routes[j].dest == scan->routes[i].dest &&
			    scan->routes[j].mask == scan->routes[i].mask)
				return true;
		}
	}
	return false;
}

static void check_arp_value(struct tune_ctx *ctx, const char *ifname, const char *key,
			    const char *wanted)
{
	char path[160], value[32];

	snprintf(path, sizeof(path), "proc/sys/net/ipv4/conf/%s/%s", ifname, key);
	if (tune_read_text(ctx->root, path, value, sizeof(value)) < 0)
		return;
	if (ctx->profile)
		tune_note_error(ctx,
				tune_text_add(&ctx->sysctl_dropin, "net/ipv4/conf/%s/%s = %s\n",
					      ifname, key, wanted));
	if (strcmp(value, wanted) == 0)
		return;
	tune_note_error(ctx,
			rk_tune_report(ctx->audit, RK_SEVERITY_WARNING, "TUNE_ARP", "ipoib", ifname,
				       value, wanted,
				       "sysctl net.ipv4.conf.IFACE.arp_ignore=1 and "
				       "arp_announce=2, in a drop-in in /etc/sysctl.d",
				       "%s is %s on %s, which shares its subnet with another RDMA "
				       "interface: with several RDMA interfaces in one subnet, "
				       "each answers ARP for the others' addresses",
				       key, value, ifname));
	if (ctx->profile)
		tune_want_live(ctx, key, path, wanted);
}

void tune_check_arp(struct tune_ctx *ctx)
{
	struct route_scan *scan;
	char names[MAX_RDMA_NETDEVS][32], *data;
	size_t n = rdma_netdevs(ctx, names, MAX_RDMA_NETDEVS), len;
	const char *ignore = rk_tune_profile_value(ctx->profile, "arp_ignore");
	const char *announce = rk_tune_profile_value(ctx->profile, "arp_announce");

	if (n < 2 || tune_slurp(ctx->root, "proc/net/route", &data, &len, NULL) != 0)
		return;
	scan = calloc(1, sizeof(*scan));
	if (!scan) {
		free(data);
		tune_note_error(ctx, -ENOMEM);
		return;
	}
	tune_each_line(data, len, route_line, scan);
	free(data);
	for (size_t i = 0; i < n; i++) {
		if (!shares_subnet(scan, names[i], names, n))
			continue;
		check_arp_value(ctx, names[i], "arp_ignore", ignore ? ignore : "1");
		check_arp_value(ctx, names[i], "arp_announce", announce ? announce : "2");
	}
	free(scan);
}
