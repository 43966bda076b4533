/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/verbs.h"

#include "rdmakit/log.h"
#include "rdmakit/rdma_stack.h"

#include <endian.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned rk_mtu_bytes(int mtu_enum)
{
	return mtu_enum >= IBV_MTU_256 && mtu_enum <= IBV_MTU_4096 ? 128u << mtu_enum : 0;
}

double rk_pcie_data_gbps(double gts, int width)
{
	if (gts <= 0 || width <= 0)
		return -1;
	return gts * width * (gts < 8.0 ? 8.0 / 10.0 : 128.0 / 130.0);
}

/* libibverbs from rdma-core 49 reports XDR in active_speed_ex only (0 when it says nothing
 * more than active_speed). */
static uint32_t ibv_active_speed(const struct ibv_port_attr *attr)
{
#ifdef RDMAKIT_HAVE_ACTIVE_SPEED_EX
	if (attr->active_speed_ex)
		return attr->active_speed_ex;
#endif
	return attr->active_speed;
}

static void set_link_rate(struct rk_verbs_port *port, const struct ibv_port_attr *attr)
{
	const struct rk_speed_info *speed;

	port->width = rk_width_lanes(attr->active_width);
	port->speed = rk_speed_from_ibv(ibv_active_speed(attr));
	port->signal_gbps = port->data_gbps = -1;
	speed = rk_speed_info(port->speed);
	if (port->width > 0 && port->speed != RK_SPEED_NONE) {
		port->signal_gbps = speed->signal_gbps * port->width;
		port->data_gbps = speed->data_gbps * port->width;
	}
}

const char *rk_gid_type_name(enum rk_gid_type type)
{
	switch (type) {
	case RK_GID_IB:
		return "IB";
	case RK_GID_ROCE_V1:
		return "RoCE v1";
	case RK_GID_ROCE_V2:
		return "RoCE v2";
	}
	return "?";
}

void rk_format_gid(const uint8_t raw[16], char *buf, size_t size)
{
	const uint8_t *r = raw;

	snprintf(buf, size,
		 "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x", r[0],
		 r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13],
		 r[14], r[15]);
}

static bool gid_is_ipv4_mapped(const union ibv_gid *gid)
{
	static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	return memcmp(gid->raw, prefix, sizeof(prefix)) == 0;
}

static enum rk_gid_type gid_type_of(uint32_t ibv_type)
{
	if (ibv_type == IBV_GID_TYPE_ROCE_V2)
		return RK_GID_ROCE_V2;
	if (ibv_type == IBV_GID_TYPE_ROCE_V1)
		return RK_GID_ROCE_V1;
	return RK_GID_IB;
}

static void copy_gid_entry(struct rk_verbs_gid *out, const struct ibv_gid_entry *entry)
{
	char ifname[IF_NAMESIZE] = "";

	out->index = entry->gid_index;
	rk_format_gid(entry->gid.raw, out->gid, sizeof(out->gid));
	out->type = gid_type_of(entry->gid_type);
	out->ipv4_mapped = gid_is_ipv4_mapped(&entry->gid);
	if (entry->ndev_ifindex && !if_indextoname(entry->ndev_ifindex, ifname))
		ifname[0] = '\0';
	snprintf(out->netdev, sizeof(out->netdev), "%s", ifname);
}

/* The valid GID table entries of every port, sorted into their ports. */
static int query_gids(struct ibv_context *ctx, struct rk_verbs_device *dev, size_t table_len)
{
	struct ibv_gid_entry *entries = calloc(table_len ? table_len : 1, sizeof(*entries));
	ssize_t n;

	if (!entries)
		return -ENOMEM;
	n = ibv_query_gid_table(ctx, entries, table_len, 0);
	if (n < 0) {
		rk_log(RK_LOG_WARNING, "%s: cannot read the GID table: %s", dev->name,
		       strerror((int)-n));
		n = 0; /* the rest of the device is still worth reporting */
	}
	for (size_t p = 0; p < dev->nports; p++) {
		struct rk_verbs_port *port = &dev->ports[p];

		port->gids = calloc((size_t)n + 1, sizeof(*port->gids));
		if (!port->gids) {
			free(entries);
			return -ENOMEM;
		}
		for (ssize_t i = 0; i < n; i++)
			if (entries[i].port_num == port->num)
				copy_gid_entry(&port->gids[port->ngids++], &entries[i]);
	}
	free(entries);
	return 0;
}

static int query_pkeys(struct ibv_context *ctx, struct rk_verbs_port *port, int table_len)
{
	uint16_t pkey;

	port->pkeys = calloc(table_len > 0 ? (size_t)table_len : 1, sizeof(*port->pkeys));
	if (!port->pkeys)
		return -ENOMEM;
	for (int i = 0; i < table_len; i++)
		if (ibv_query_pkey(ctx, (uint8_t)port->num, i, &pkey) == 0 && be16toh(pkey) != 0)
			port->pkeys[port->npkeys++] = be16toh(pkey);
	return 0;
}

static int query_port(struct ibv_context *ctx, const char *name, struct rk_verbs_port *port,
		      size_t *gid_table_len)
{
	struct ibv_port_attr attr;
	int err = ibv_query_port(ctx, (uint8_t)port->num, &attr);

	if (err) {
		rk_log(RK_LOG_ERR, "%s port %u: ibv_query_port: %s", name, port->num,
		       strerror(err));
		return -err;
	}
	port->state = attr.state;
	port->active_mtu = rk_mtu_bytes(attr.active_mtu);
	port->max_mtu = rk_mtu_bytes(attr.max_mtu);
	snprintf(port->link_layer, sizeof(port->link_layer), "%s",
		 attr.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand");
	port->lid = attr.lid;
	port->sm_lid = attr.sm_lid;
	set_link_rate(port, &attr);
	*gid_table_len += (size_t)attr.gid_tbl_len;
	return query_pkeys(ctx, port, attr.pkey_tbl_len);
}

static const char *atomics_name(enum ibv_atomic_cap cap)
{
	return cap == IBV_ATOMIC_HCA ? "hca" : cap == IBV_ATOMIC_GLOB ? "global" : "none";
}

static int query_attributes(struct ibv_context *ctx, struct rk_verbs_device *dev)
{
	struct ibv_device_attr_ex ex = {0};
	const struct ibv_device_attr *a = &ex.orig_attr;
	int err = ibv_query_device_ex(ctx, NULL, &ex);

	if (err) {
		rk_log(RK_LOG_ERR, "%s: ibv_query_device_ex: %s", dev->name, strerror(err));
		return -err;
	}
	snprintf(dev->fw_ver, sizeof(dev->fw_ver), "%s", a->fw_ver);
	dev->node_guid = be64toh(a->node_guid);
	dev->max_mr_size = a->max_mr_size;
	dev->max_qp = a->max_qp;
	dev->max_qp_wr = a->max_qp_wr;
	dev->max_mr = a->max_mr;
	dev->max_sge = a->max_sge;
	dev->max_cq = a->max_cq;
	dev->max_cqe = a->max_cqe;
	dev->max_qp_rd_atom = a->max_qp_rd_atom;
	dev->max_pd = a->max_pd;
	snprintf(dev->atomics, sizeof(dev->atomics), "%s", atomics_name(a->atomic_cap));
	dev->odp = (ex.odp_caps.general_caps & IBV_ODP_SUPPORT) != 0;
	dev->nports = a->phys_port_cnt;
	return 0;
}

int rk_verbs_query_context(struct ibv_context *ctx, struct rk_verbs_device *dev)
{
	size_t gid_table_len = 0;
	int err;

	memset(dev, 0, sizeof(*dev));
	snprintf(dev->name, sizeof(dev->name), "%s", ibv_get_device_name(ctx->device));
	err = query_attributes(ctx, dev);
	if (err)
		return err;
	dev->ports = calloc(dev->nports ? dev->nports : 1, sizeof(*dev->ports));
	if (!dev->ports)
		return -ENOMEM;
	for (size_t p = 0; p < dev->nports && !err; p++) {
		dev->ports[p].num = (unsigned)p + 1;
		err = query_port(ctx, dev->name, &dev->ports[p], &gid_table_len);
	}
	if (!err)
		err = query_gids(ctx, dev, gid_table_len);
	if (err)
		rk_verbs_device_free(dev);
	return err;
}

/* Why libibverbs finds no device, read from sysfs and /dev; NULL when they do not tell. */
static const char *missing_verbs(void)
{
	struct rk_rdma_stack stack;

	rk_rdma_stack_read("/sys", "/dev", &stack);
	return rk_rdma_stack_no_verbs(&stack);
}

/* Why an empty device list is empty. */
static const char *no_device_reason(void)
{
	const char *why = missing_verbs();

	return why ? why
		   : "no RDMA device on this host that libibverbs can open (is its verbs "
		     "provider installed? ibv_devices lists what it sees)";
}

int rk_verbs_open(const char *name, struct ibv_context **ctx)
{
	int count = 0;
	struct ibv_device **list = ibv_get_device_list(&count);
	struct ibv_device *found = NULL;

	*ctx = NULL;
	if (!list) {
		int err = errno;
		const char *why = missing_verbs();

		if (why)
			rk_log(RK_LOG_ERR, "cannot list RDMA devices: %s; %s", strerror(err), why);
		else
			rk_log(RK_LOG_ERR, "cannot list RDMA devices: %s", strerror(err));
		return -err;
	}
	for (int i = 0; i < count && !found; i++)
		if (!name || strcmp(ibv_get_device_name(list[i]), name) == 0)
			found = list[i];
	if (found)
		*ctx = ibv_open_device(found);
	ibv_free_device_list(list);
	if (!found) {
		if (name)
			rk_log(RK_LOG_ERR, "no RDMA device named \"%s\"", name);
		else
			rk_log(RK_LOG_ERR, "%s", no_device_reason());
		return -ENODEV;
	}
	if (!*ctx) {
		rk_log(RK_LOG_ERR, "%s: ibv_open_device: %s", name ? name : "device",
		       strerror(errno));
		return errno ? -errno : -EIO;
	}
	return 0;
}

int rk_verbs_query(const char *name, struct rk_verbs_device *out)
{
	struct ibv_context *ctx;
	int err = rk_verbs_open(name, &ctx);

	memset(out, 0, sizeof(*out));
	if (err)
		return err;
	err = rk_verbs_query_context(ctx, out);
	ibv_close_device(ctx);
	return err;
}

void rk_verbs_device_free(struct rk_verbs_device *dev)
{
	for (size_t p = 0; dev->ports && p < dev->nports; p++) {
		free(dev->ports[p].gids);
		free(dev->ports[p].pkeys);
	}
	free(dev->ports);
	dev->ports = NULL;
	dev->nports = 0;
}

const struct rk_verbs_port *rk_verbs_find_port(const struct rk_verbs_device *dev, unsigned num)
{
	for (size_t p = 0; p < dev->nports; p++)
		if (dev->ports[p].num == num)
			return &dev->ports[p];
	return NULL;
}

/* Higher is better: the wanted type (or v2 > v1 > IB), then an IPv4-mapped address. */
static int gid_score(const struct rk_verbs_gid *gid, bool any_type, enum rk_gid_type wanted)
{
	int score;

	if (!any_type && gid->type != wanted)
		return -1;
	score = gid->type == RK_GID_ROCE_V2 ? 4 : gid->type == RK_GID_ROCE_V1 ? 2 : 0;
	return score + (gid->ipv4_mapped ? 1 : 0);
}

int rk_verbs_pick_gid(const struct rk_verbs_port *port, bool any_type, enum rk_gid_type wanted)
{
	int best = -1, best_score = -1;

	for (size_t i = 0; i < port->ngids; i++) {
		int score = gid_score(&port->gids[i], any_type, wanted);

		if (score > best_score) {
			best_score = score;
			best = (int)port->gids[i].index;
		}
	}
	return best;
}
