/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "rdmakit/fabric.h"

#include "rdmakit/array.h"
#include "rdmakit/clock.h"
#include "rdmakit/log.h"
#include "rdmakit/mad.h"
#include "rdmakit/text.h"

#include <errno.h>
#include <infiniband/ibnetdisc.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* PortInfo CapabilityMask bits (IBA 14.2.5.6). */
#define PHYS_LINK_UP	   5 /* PortInfo PortPhysicalState LinkUp */
#define CAP_IS_SM	   (1u << 1)
#define CAP_HAS_MCAST_TOP  (1u << 30) /* IsMulticastFDBTopSupported */
#define CAP_HAS_EXT_SPEEDS (1u << 14)
#define CAP_HAS_CAP_MASK2  (1u << 15)
/* PortInfo CapabilityMask2: the LinkSpeedExt*2 fields are there. */
#define CAP2_EXT_SPEEDS_2 (1u << 11)

void rk_format_guid(uint64_t guid, char *buf, size_t size)
{
	snprintf(buf, size, "0x%016" PRIx64, guid);
}

void rk_format_guid_groups(uint64_t guid, char *buf, size_t size)
{
	snprintf(buf, size, "%04x:%04x:%04x:%04x", (unsigned)(guid >> 48) & 0xffff,
		 (unsigned)(guid >> 32) & 0xffff, (unsigned)(guid >> 16) & 0xffff,
		 (unsigned)guid & 0xffff);
}

const char *rk_node_type_name(enum rk_node_type type)
{
	switch (type) {
	case RK_NODE_CA:
		return "ca";
	case RK_NODE_SWITCH:
		return "switch";
	case RK_NODE_ROUTER:
		return "router";
	default:
		return "unknown";
	}
}

static int highest_bit(uint32_t set)
{
	int bit = -1;

	for (int i = 0; i < 32; i++)
		if (set & (1u << i))
			bit = i;
	return bit;
}

static uint32_t field(const uint8_t *info, enum MAD_FIELDS f)
{
	return mad_get_field((void *)info, 0, f);
}

/* Where each kind of speed is in PortInfo and Mellanox's ExtendedPortInfo (LinkSpeedExt*2:
 * rk_portinfo_speed_ext2). */
static const struct {
	enum MAD_FIELDS speed, ext, mlnx;
} speed_fields[] = {
    [RK_SPEED_ACTIVE] = {IB_PORT_LINK_SPEED_ACTIVE_F, IB_PORT_LINK_SPEED_EXT_ACTIVE_F,
			 IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F},
    [RK_SPEED_ENABLED] = {IB_PORT_LINK_SPEED_ENABLED_F, IB_PORT_LINK_SPEED_EXT_ENABLED_F,
			  IB_MLNX_EXT_PORT_LINK_SPEED_ENABLED_F},
    [RK_SPEED_SUPPORTED] = {IB_PORT_LINK_SPEED_SUPPORTED_F, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F,
			    IB_MLNX_EXT_PORT_LINK_SPEED_SUPPORTED_F},
};

/* Which speed fields a port has, from CapabilityMask(2); a switch's external ports leave them
 * 0, and port 0 speaks for the switch. */
static void speed_fields_present(const ibnd_port_t *src, bool *ext, bool *ext2)
{
	const ibnd_node_t *node = src->node;
	const ibnd_port_t *cap_port =
	    node->type == IB_NODE_SWITCH && node->ports[0] ? node->ports[0] : src;
	uint32_t cap = field(cap_port->info, IB_PORT_CAPMASK_F);

	*ext = (cap & CAP_HAS_EXT_SPEEDS) != 0;
	*ext2 = *ext && (cap & CAP_HAS_CAP_MASK2) &&
		(field(cap_port->info, IB_PORT_CAPMASK2_F) & CAP2_EXT_SPEEDS_2);
}

static struct rk_portinfo_speeds read_speeds(const ibnd_port_t *src, bool ext, bool ext2,
					     enum rk_speed_kind kind)
{
	return (struct rk_portinfo_speeds){
	    .speed = field(src->info, speed_fields[kind].speed),
	    .ext = ext ? field(src->info, speed_fields[kind].ext) : 0,
	    .ext2 = ext2 ? rk_portinfo_speed_ext2(src->info, kind) : 0,
	    .mlnx = field(src->ext_info, speed_fields[kind].mlnx),
	};
}

/* Speeds a port runs, enables and supports. */
static void decode_speeds(const ibnd_port_t *src, struct rk_fabric_port *port)
{
	bool ext, ext2;
	struct rk_portinfo_speeds f;

	speed_fields_present(src, &ext, &ext2);
	f = read_speeds(src, ext, ext2, RK_SPEED_ENABLED);
	port->enabled_speeds = rk_speed_set_of_portinfo(&f);
	f = read_speeds(src, ext, ext2, RK_SPEED_SUPPORTED);
	port->supported_speeds = rk_speed_set_of_portinfo(&f);
	f = read_speeds(src, ext, ext2, RK_SPEED_ACTIVE);
	port->active_speed = rk_speed_active_of_portinfo(&f);
}

static void decode_port(const ibnd_port_t *src, struct rk_fabric_port *port)
{
	port->present = true;
	port->num = src->portnum;
	port->guid = src->guid;
	port->lid = src->base_lid;
	port->lmc = src->lmc;
	port->state = (int)field(src->info, IB_PORT_STATE_F);
	port->phys_state = (int)field(src->info, IB_PORT_PHYS_STATE_F);
	port->cap_mask = field(src->info, IB_PORT_CAPMASK_F);
	port->oper_vls = (uint8_t)field(src->info, IB_PORT_OPER_VLS_F);
	port->pkey_enforcement =
	    (uint8_t)((field(src->info, IB_PORT_PART_EN_INB_F) ? RK_PKEY_ENFORCE_INBOUND : 0) |
		      (field(src->info, IB_PORT_PART_EN_OUTB_F) ? RK_PKEY_ENFORCE_OUTBOUND : 0));
	port->enabled_widths =
	    rk_width_set_of_bits(field(src->info, IB_PORT_LINK_WIDTH_ENABLED_F) & 0x1f);
	port->supported_widths =
	    rk_width_set_of_bits(field(src->info, IB_PORT_LINK_WIDTH_SUPPORTED_F));
	port->active_width =
	    port->state > 1
		? highest_bit(rk_width_set_of_bits(field(src->info, IB_PORT_LINK_WIDTH_ACTIVE_F)))
		: 0;
	if (port->active_width < 0)
		port->active_width = 0;
	decode_speeds(src, port);
	if (port->state <= 1)
		port->active_speed = RK_SPEED_NONE;
	port->remote_node = -1;
	port->remote_port = 0;
}

static int decode_node(const ibnd_node_t *src, struct rk_fabric_node *node)
{
	node->guid = src->guid;
	node->type = (enum rk_node_type)src->type;
	snprintf(node->description, sizeof(node->description), "%s", src->nodedesc);
	node->vendor_id = field(src->info, IB_NODE_VENDORID_F);
	node->device_id = field(src->info, IB_NODE_DEVID_F);
	node->partition_cap = (uint16_t)field(src->info, IB_NODE_PARTITION_CAP_F);
	if (node->type == RK_NODE_SWITCH)
		node->partition_enforce_cap =
		    (uint16_t)field(src->switchinfo, IB_SW_PARTITION_ENFORCE_CAP_F);
	node->nports = src->numports;
	node->ports = calloc((size_t)src->numports + 1, sizeof(*node->ports));
	if (!node->ports)
		return -ENOMEM;
	for (int p = 0; p <= src->numports; p++) {
		if (!src->ports[p])
			continue;
		decode_port(src->ports[p], &node->ports[p]);
		node->is_sm |= (node->ports[p].cap_mask & CAP_IS_SM) != 0;
		if (!node->lid && rk_lid_is_unicast(node->ports[p].lid) &&
		    (p == 0 || node->type != RK_NODE_SWITCH))
			node->lid = node->ports[p].lid;
	}
	if (node->type != RK_NODE_SWITCH)
		return 0;
	for (int p = 1; p <= node->nports; p++)
		node->ports[p].lid = node->lid; /* switch ports answer at port 0's LID */
	node->mcast_fdb_cap = (uint16_t)field(src->switchinfo, IB_SW_MCAST_FDB_CAP_F);
	if (node->ports[0].cap_mask & CAP_HAS_MCAST_TOP)
		node->mcast_fdb_top = (uint16_t)field(src->switchinfo, IB_SW_MCAST_FDB_TOP_F);
	return 0;
}

void rk_fabric_port_label(const struct rk_fabric *fabric, size_t n, int p, char *out, size_t size)
{
	snprintf(out, size, "%s[%d]", fabric->nodes[n].name, p);
}

static int compare_nodes(const void *a, const void *b)
{
	const struct rk_fabric_node *x = a, *y = b;

	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* Nodes ordered by name, for finding the names that several nodes share. */
struct named_node {
	const char *name;
	size_t index;
};

static int compare_named(const void *a, const void *b)
{
	return strcmp(((const struct named_node *)a)->name, ((const struct named_node *)b)->name);
}

/* "name (0xGUID)", or the GUID alone for a node without a name. */
static void add_guid_to_name(struct rk_fabric_node *node)
{
	char guid[24];
	size_t len = strlen(node->name);

	rk_format_guid(node->guid, guid, sizeof(guid));
	if (len == 0)
		snprintf(node->name, sizeof(node->name), "%s", guid);
	else
		snprintf(node->name + len, sizeof(node->name) - len, " (%s)", guid);
}

/* Every name from a description that is empty or that another node has too gets the GUID. */
static void make_names_unique(struct rk_fabric *fabric, const bool *mapped)
{
	struct named_node *order = malloc((fabric->nnodes ? fabric->nnodes : 1) * sizeof(*order));
	size_t count = 0;

	if (!order)
		return;
	for (size_t i = 0; i < fabric->nnodes; i++)
		order[count++] = (struct named_node){fabric->nodes[i].name, i};
	qsort(order, count, sizeof(*order), compare_named);
	for (size_t i = 0, run; i < count; i = run) {
		for (run = i + 1; run < count && strcmp(order[run].name, order[i].name) == 0; run++)
			;
		for (size_t k = i; k < run; k++)
			order[k].name = run - i > 1 || !order[k].name[0] ? NULL : order[k].name;
	}
	for (size_t k = 0; k < count; k++)
		if (!order[k].name && !(mapped && mapped[order[k].index]))
			add_guid_to_name(&fabric->nodes[order[k].index]);
	free(order);
}

void rk_fabric_name_nodes(struct rk_fabric *fabric, const struct rk_name_map *names)
{
	bool *mapped = calloc(fabric->nnodes ? fabric->nnodes : 1, sizeof(*mapped));

	for (size_t i = 0; i < fabric->nnodes; i++) {
		struct rk_fabric_node *node = &fabric->nodes[i];
		const char *map_name = names ? rk_name_map_lookup(names, node->guid) : NULL;
		const char *raw = map_name ? map_name : node->description;

		rk_text_clean(raw, map_name ? strlen(raw) : sizeof(node->description), node->name,
			      sizeof(node->name));
		if (mapped)
			mapped[i] = map_name != NULL;
	}
	make_names_unique(fabric, mapped);
	free(mapped);
}

bool rk_fabric_port_unreached(const struct rk_fabric_node *node, int p)
{
	const struct rk_fabric_port *port = p > 0 && p <= node->nports ? &node->ports[p] : NULL;

	return port && port->present && port->phys_state == PHYS_LINK_UP && port->remote_node < 0;
}

double rk_fabric_port_data_gbps(const struct rk_fabric_node *node, int p)
{
	const struct rk_fabric_port *port = p >= 0 && p <= node->nports ? &node->ports[p] : NULL;

	return port ? port->active_width * rk_speed_info(port->active_speed)->data_gbps : 0;
}

int rk_fabric_find_node(const struct rk_fabric *fabric, uint64_t guid)
{
	struct rk_fabric_node key = {.guid = guid};
	const struct rk_fabric_node *hit =
	    bsearch(&key, fabric->nodes, fabric->nnodes, sizeof(key), compare_nodes);

	return hit ? (int)(hit - fabric->nodes) : -1;
}

static void connect_ports(struct rk_fabric *fabric, ibnd_fabric_t *src)
{
	for (ibnd_node_t *n = src->nodes; n; n = n->next) {
		struct rk_fabric_node *node = &fabric->nodes[rk_fabric_find_node(fabric, n->guid)];

		for (int p = 1; p <= n->numports; p++) {
			const ibnd_port_t *port = n->ports[p];

			if (!port || !port->remoteport)
				continue;
			node->ports[p].remote_node =
			    rk_fabric_find_node(fabric, port->remoteport->node->guid);
			node->ports[p].remote_port = port->remoteport->portnum;
		}
	}
}

static int add_link(struct rk_fabric *fabric, size_t *capacity, int node, int port)
{
	const struct rk_fabric_port *a = &fabric->nodes[node].ports[port];
	const struct rk_fabric_port *b = &fabric->nodes[a->remote_node].ports[a->remote_port];
	struct rk_fabric_link *link;

	if (fabric->nlinks == *capacity) {
		size_t grown = *capacity ? *capacity * 2 : 256;
		struct rk_fabric_link *bigger = realloc(fabric->links, grown * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		fabric->links = bigger;
		*capacity = grown;
	}
	link = &fabric->links[fabric->nlinks++];
	memset(link, 0, sizeof(*link));
	link->node_a = node;
	link->port_a = port;
	link->node_b = a->remote_node;
	link->port_b = a->remote_port;
	/* An end whose PortInfo discovery could not read (its MADs lost: state 0, which no
	 * PortInfo GetResp has) tells nothing of the link; the other end speaks for it. */
	if (a->state == 0)
		a = b;
	link->width = a->active_width;
	link->speed = a->active_speed;
	link->ends_disagree =
	    a->state != 0 && b->state != 0 &&
	    (a->active_width != b->active_width || a->active_speed != b->active_speed);
	return 0;
}

/* One link per cable: listed from the end with the lower node index (or port number). */
static int collect_links(struct rk_fabric *fabric)
{
	size_t capacity = 0;
	int err = 0;

	for (size_t n = 0; n < fabric->nnodes && !err; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];

		for (int p = 1; p <= node->nports && !err; p++) {
			const struct rk_fabric_port *port = &node->ports[p];

			if (!port->present || port->remote_node < 0 ||
			    (size_t)port->remote_node < n ||
			    ((size_t)port->remote_node == n && port->remote_port < p))
				continue;
			err = add_link(fabric, &capacity, (int)n, p);
		}
	}
	return err;
}

static double link_gbps(const struct rk_fabric_link *link)
{
	return link->width * rk_speed_lane_gbps(link->speed);
}

static void classify_by_capability(const struct rk_fabric *fabric, struct rk_fabric_link *link)
{
	const struct rk_fabric_port *a = &fabric->nodes[link->node_a].ports[link->port_a];
	const struct rk_fabric_port *b = &fabric->nodes[link->node_b].ports[link->port_b];
	int best_speed = highest_bit(a->enabled_speeds & b->enabled_speeds);
	int best_width = highest_bit(a->enabled_widths & b->enabled_widths);
	int best_supported_speed = highest_bit(a->supported_speeds & b->supported_speeds);
	int best_supported_width = highest_bit(a->supported_widths & b->supported_widths);

	link->below_enabled = (int)link->speed < best_speed || link->width < best_width;
	link->unused_supported =
	    best_supported_speed > best_speed || best_supported_width > best_width;
}

/* Links between the same pair of models (device ids at both ends) form a group. */
struct link_key {
	uint64_t models;
	double gbps;
	size_t link;
};

static uint64_t model_pair(const struct rk_fabric *fabric, const struct rk_fabric_link *link)
{
	const struct rk_fabric_node *a = &fabric->nodes[link->node_a];
	const struct rk_fabric_node *b = &fabric->nodes[link->node_b];
	uint64_t x = (uint64_t)a->type << 24 | (a->device_id & 0xffffff);
	uint64_t y = (uint64_t)b->type << 24 | (b->device_id & 0xffffff);

	return x < y ? x << 32 | y : y << 32 | x;
}

static int compare_keys(const void *a, const void *b)
{
	const struct link_key *x = a, *y = b;

	if (x->models != y->models)
		return x->models < y->models ? -1 : 1;
	return x->gbps < y->gbps ? -1 : x->gbps > y->gbps;
}

/* In keys[begin, end) (one group, sorted by rate), mark links below a majority's rate. */
static void mark_group(struct rk_fabric *fabric, const struct link_key *keys, size_t begin,
		       size_t end)
{
	size_t best_run = 0, best_start = begin;

	for (size_t i = begin; i < end;) {
		size_t j = i;

		while (j < end && keys[j].gbps == keys[i].gbps)
			j++;
		if (j - i > best_run) {
			best_run = j - i;
			best_start = i;
		}
		i = j;
	}
	if (best_run * 2 <= end - begin)
		return; /* no majority: nothing to compare against */
	for (size_t i = begin; i < best_start; i++)
		fabric->links[keys[i].link].below_peers = true;
}

static void classify_by_peers(struct rk_fabric *fabric)
{
	struct link_key *keys = calloc(fabric->nlinks ? fabric->nlinks : 1, sizeof(*keys));
	size_t n = 0;

	if (!keys)
		return;
	for (size_t i = 0; i < fabric->nlinks; i++)
		if (fabric->links[i].width > 0)
			keys[n++] = (struct link_key){model_pair(fabric, &fabric->links[i]),
						      link_gbps(&fabric->links[i]), i};
	qsort(keys, n, sizeof(*keys), compare_keys);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && keys[j].models == keys[i].models)
			j++;
		mark_group(fabric, keys, i, j);
		i = j;
	}
	free(keys);
}

void rk_fabric_classify_links(struct rk_fabric *fabric)
{
	for (size_t i = 0; i < fabric->nlinks; i++)
		classify_by_capability(fabric, &fabric->links[i]);
	classify_by_peers(fabric);
}

bool rk_link_degraded(const struct rk_fabric_link *link)
{
	return link->below_enabled || link->below_peers;
}

void rk_fabric_summarize(const struct rk_fabric *fabric, struct rk_fabric_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->nodes = fabric->nnodes;
	out->links = fabric->nlinks;
	for (size_t i = 0; i < fabric->nnodes; i++) {
		out->switches += fabric->nodes[i].type == RK_NODE_SWITCH;
		out->cas += fabric->nodes[i].type == RK_NODE_CA;
		out->routers += fabric->nodes[i].type == RK_NODE_ROUTER;
	}
	for (size_t i = 0; i < fabric->nlinks; i++)
		out->degraded_links += rk_link_degraded(&fabric->links[i]);
}

static int convert_fabric(ibnd_fabric_t *src, const struct rk_name_map *names,
			  struct rk_fabric *fabric)
{
	size_t count = 0;
	int err = 0;

	for (ibnd_node_t *n = src->nodes; n; n = n->next)
		count++;
	fabric->nodes = calloc(count ? count : 1, sizeof(*fabric->nodes));
	if (!fabric->nodes)
		return -ENOMEM;
	for (ibnd_node_t *n = src->nodes; n && !err; n = n->next)
		err = decode_node(n, &fabric->nodes[fabric->nnodes++]);
	if (err)
		return err;
	rk_fabric_name_nodes(fabric, names);
	qsort(fabric->nodes, fabric->nnodes, sizeof(*fabric->nodes), compare_nodes);
	connect_ports(fabric, src);
	fabric->local_node =
	    src->from_node ? rk_fabric_find_node(fabric, src->from_node->guid) : -1;
	err = collect_links(fabric);
	if (!err)
		rk_fabric_classify_links(fabric);
	return err;
}

/* Where libibnetdisc's stderr goes during a discovery: an in-memory file, summed after. */
struct chatter {
	int saved; /* the real stderr, or -1 when nothing is captured */
	int memfd;
};

static void capture_chatter(struct chatter *c)
{
	c->saved = -1;
	c->memfd = memfd_create("rdmakit-ibnd", MFD_CLOEXEC);
	if (c->memfd < 0)
		return;
	fflush(stderr);
	c->saved = dup(STDERR_FILENO);
	if (c->saved < 0 || dup2(c->memfd, STDERR_FILENO) < 0) {
		if (c->saved >= 0)
			close(c->saved);
		close(c->memfd);
		c->saved = c->memfd = -1;
	}
}

/* A line of libibnetdisc's own ("./libibnetdisc/query_smp.c:186; umad (...) bad status 110"). */
static bool ibnd_line(const char *line)
{
	const char *mark = strstr(line, ".c:");

	return mark && mark[3] >= '0' && mark[3] <= '9' && strchr(mark + 3, ';');
}

/* Count libibnetdisc's lines (the first kept in first) and write every other line (the
 * umad shim's, say) to stderr as it came. */
static size_t sum_chatter(int fd, char *first, size_t size)
{
	FILE *in = lseek(fd, 0, SEEK_SET) == 0 ? fdopen(dup(fd), "r") : NULL;
	char *line = NULL;
	size_t cap = 0, lines = 0;

	first[0] = '\0';
	while (in && getline(&line, &cap, in) > 0) {
		if (!ibnd_line(line)) {
			fputs(line, stderr);
			continue;
		}
		if (lines++ == 0)
			snprintf(first, size, "%.*s", (int)strcspn(line, "\n"), line);
	}
	free(line);
	if (in)
		fclose(in);
	return lines;
}

/* Restore stderr and log what libibnetdisc said as one line. */
static void release_chatter(struct chatter *c)
{
	char first[160], clean[sizeof(first) * 4];
	size_t lines;

	if (c->saved < 0)
		return;
	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	lines = sum_chatter(c->memfd, first, sizeof(first));
	close(c->memfd);
	if (lines == 0)
		return;
	rk_text_clean(first, sizeof(first), clean, sizeof(clean));
	rk_log(RK_LOG_WARNING,
	       "discovery: libibnetdisc reported %zu problem%s (the first: \"%s\"): nodes "
	       "behind them may be missing from this view",
	       lines, lines == 1 ? "" : "s", clean);
}

int rk_fabric_discover(const struct rk_fabric_options *options, struct rk_fabric **out)
{
	struct chatter chatter;
	struct ibnd_config config = {0};
	struct rk_fabric *fabric;
	ibnd_fabric_t *src;
	double start = rk_monotonic_seconds();
	int err;

	config.max_smps = options->max_smps ? options->max_smps : 16;
	config.timeout_ms = options->timeout_ms;
	config.flags = IBND_CONFIG_MLX_EPI;
	err = rk_mad_check_access(options->ca, options->port);
	if (err)
		return err;
	capture_chatter(&chatter);
	src = ibnd_discover_fabric((char *)options->ca, options->port, NULL, &config);
	release_chatter(&chatter);
	if (!src) {
		rk_log(RK_LOG_ERR,
		       "fabric discovery through %s, port %d, failed (is ib_umad loaded and the "
		       "port ACTIVE? -C/-P choose another)",
		       options->ca ? options->ca : "the default CA", options->port);
		return -EIO;
	}
	fabric = calloc(1, sizeof(*fabric));
	err = fabric ? convert_fabric(src, options->names, fabric) : -ENOMEM;
	ibnd_destroy_fabric(src);
	if (err) {
		rk_fabric_free(fabric);
		return err;
	}
	fabric->discovery_seconds = rk_monotonic_seconds() - start;
	*out = fabric;
	return 0;
}

void rk_fabric_free(struct rk_fabric *fabric)
{
	if (!fabric)
		return;
	for (size_t i = 0; i < fabric->nnodes; i++)
		free(fabric->nodes[i].ports);
	free(fabric->nodes);
	free(fabric->links);
	free(fabric);
}

static int copy_ports(struct rk_fabric *copy, const struct rk_fabric *fabric)
{
	int err = 0;

	for (size_t i = 0; i < copy->nnodes; i++)
		copy->nodes[i].ports = NULL; /* each its own below: rk_fabric_free frees them */
	for (size_t i = 0; !err && i < copy->nnodes; i++)
		err = rk_array_dup(fabric->nodes[i].ports, (size_t)fabric->nodes[i].nports + 1,
				   sizeof(*fabric->nodes[i].ports), (void **)&copy->nodes[i].ports);
	return err;
}

int rk_fabric_copy(const struct rk_fabric *fabric, struct rk_fabric **out)
{
	struct rk_fabric *copy = malloc(sizeof(*copy));
	int err = copy ? 0 : -ENOMEM;

	if (copy) {
		*copy = *fabric;
		copy->links = NULL;
		err = rk_array_dup(fabric->nodes, fabric->nnodes, sizeof(*fabric->nodes),
				   (void **)&copy->nodes);
		copy->nnodes = err ? 0 : fabric->nnodes;
	}
	if (!err)
		err = copy_ports(copy, fabric);
	if (!err)
		err = rk_array_dup(fabric->links, fabric->nlinks, sizeof(*fabric->links),
				   (void **)&copy->links);
	if (err) {
		rk_fabric_free(copy);
		return err;
	}
	*out = copy;
	return 0;
}
