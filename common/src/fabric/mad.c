/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The umad port: finding and opening it, its agents and its listeners of unsolicited MADs. */
#include "mad_port.h"

#include "rdmakit/log.h"
#include "rdmakit/rdma_stack.h"

#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <infiniband/umad_sa_mcm.h>
#include <limits.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CLASS_VERSION_1 1

static const int agent_class[AGENT_KINDS] = {IB_SMI_CLASS, IB_SMI_DIRECT_CLASS,
					     IB_PERFORMANCE_CLASS, IB_SA_CLASS};

/* One umad port per process: under ibsim's shim a second one steals the first's answers. */
static atomic_flag port_in_use = ATOMIC_FLAG_INIT;

/* ---- the port ---------------------------------------------------------------------------- */

/* The first send number: differs between processes only to make traces readable (the kernel
 * keeps agents apart with the TID's high 32 bits); never 0. */
static uint32_t first_send(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (((uint32_t)ts.tv_nsec ^ ((uint32_t)getpid() << 12)) & 0x3ffffU) | 1U;
}

static void unregister_agents(struct rk_mad_port *port)
{
	for (int k = 0; k < AGENT_KINDS; k++) {
		if (port->agent[k] >= 0)
			umad_unregister(port->fd, port->agent[k]);
		port->agent[k] = -1;
	}
	for (size_t i = 0; i < port->nlisteners; i++)
		umad_unregister(port->fd, port->listeners[i].agent);
	port->nlisteners = 0;
}

static int register_agents(struct rk_mad_port *port)
{
	for (int k = 0; k < AGENT_SA; k++) {
		int agent = umad_register(port->fd, agent_class[k], CLASS_VERSION_1, 0, NULL);

		if (agent < 0) {
			rk_log(RK_LOG_ERR,
			       "%s:%d: cannot register a MAD agent for class 0x%02x: %s", port->ca,
			       port->portnum, agent_class[k], strerror(-agent));
			unregister_agents(port);
			return agent;
		}
		port->agent[k] = agent;
	}
	return 0;
}

#define UMAD_SYSFS_DIR "/sys/class/infiniband_mad"

/* The first line of umadN/name under the directory dfd, into buf ("" when unreadable). */
static void read_umad_attr(int dfd, const char *umad, const char *name, char *buf, size_t size)
{
	char rel[300];
	ssize_t n;
	int fd;

	snprintf(rel, sizeof(rel), "%s/%s", umad, name);
	fd = openat(dfd, rel, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	n = fd >= 0 ? read(fd, buf, size - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* Whether umad device name (umadN) belongs to ca (NULL: any) and port (0: any). */
static bool umad_matches(int dfd, const char *name, const char *ca, int port)
{
	char ibdev[UMAD_CA_NAME_LEN], text[16];

	read_umad_attr(dfd, name, "ibdev", ibdev, sizeof(ibdev));
	read_umad_attr(dfd, name, "port", text, sizeof(text));
	return ibdev[0] && (!ca || strcmp(ca, ibdev) == 0) &&
	       (port == 0 || strtol(text, NULL, 10) == port);
}

/* The umad devices of ca (NULL: any) and port (0: any): how many, how many refuse this user,
 * the first refusing one's path. openat, fdopendir and faccessat, never open or opendir: ibsim's
 * umad shim wraps those, and the first call starts its connection to the simulator. */
struct umad_scan {
	size_t matching, refused;
	char first_refused[300];
};

static void scan_umad(const char *ca, int port, struct umad_scan *scan)
{
	char device[300];
	struct dirent *entry;
	int dfd = openat(AT_FDCWD, UMAD_SYSFS_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;

	memset(scan, 0, sizeof(*scan));
	if (!dir) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((entry = readdir(dir)) != NULL) {
		if (strncmp(entry->d_name, "umad", 4) != 0 ||
		    !umad_matches(dfd, entry->d_name, ca, port))
			continue;
		scan->matching++;
		snprintf(device, sizeof(device), "/dev/infiniband/%s", entry->d_name);
		if (faccessat(AT_FDCWD, device, R_OK | W_OK, AT_EACCESS) != 0 &&
		    (errno == EACCES || errno == EPERM) && scan->refused++ == 0)
			snprintf(scan->first_refused, sizeof(scan->first_refused), "%s", device);
	}
	closedir(dir);
}

/* Log why there is no umad port of ca and port, when sysfs tells (not under ibsim's shim, whose
 * devices sysfs does not have); whether it did. */
static bool explain_no_umad(const char *ca, int port)
{
	struct rk_rdma_stack stack;
	struct umad_scan scan;
	char which[24] = "any port";
	const char *why;

	if (rk_rdma_stack_simulated())
		return false;
	rk_rdma_stack_read("/sys", "/dev", &stack);
	why = rk_rdma_stack_no_umad(&stack);
	if (why) {
		rk_log(RK_LOG_ERR, "cannot send MADs: %s", why);
		return true;
	}
	scan_umad(ca, port, &scan);
	if (scan.matching)
		return false;
	if (port)
		snprintf(which, sizeof(which), "port %d", port);
	rk_log(RK_LOG_ERR,
	       "cannot send MADs: no umad device of %s, %s on this host: choose another CA or port "
	       "(ibstat -l lists the CAs)",
	       ca ? ca : "any CA", which);
	return true;
}

/* -EACCES, logged, when every umad device of ca and port refuses this user; else 0. */
static int check_permission(const char *ca, int port)
{
	struct umad_scan scan;

	scan_umad(ca, port, &scan);
	if (!scan.matching || scan.refused < scan.matching)
		return 0;
	rk_log(RK_LOG_ERR,
	       "cannot open %s%s: permission denied; MADs (fabric, sm, sweep) need root, or "
	       "read-write access to that device (membership of its group, or an ACL)",
	       scan.first_refused, scan.refused > 1 ? " (nor the other umad devices)" : "");
	return -EACCES;
}

int rk_mad_check_access(const char *ca, int port)
{
	if (explain_no_umad(ca, port))
		return -ENODEV;
	return check_permission(ca, port);
}

static int resolve_port(const char *ca, int portnum, struct rk_mad_port *port)
{
	umad_port_t info;
	int err;

	if (umad_init() < 0) {
		rk_log(RK_LOG_ERR, "cannot initialise libibumad");
		return -ENODEV;
	}
	err = umad_get_port(ca, portnum, &info);
	if (err < 0) {
		if (!explain_no_umad(ca, portnum))
			rk_log(RK_LOG_ERR, "%s:%d: no such umad port: %s", ca ? ca : "(first CA)",
			       portnum, strerror(-err));
		return err;
	}
	snprintf(port->ca, sizeof(port->ca), "%s", info.ca_name);
	port->portnum = info.portnum;
	umad_release_port(&info);
	return 0;
}

static int open_port(const char *ca, int portnum, struct rk_mad_port **out)
{
	struct rk_mad_port *port = calloc(1, sizeof(*port));
	int err;

	if (!port)
		return -ENOMEM;
	for (int k = 0; k < AGENT_KINDS; k++)
		port->agent[k] = -1;
	err = check_permission(ca, portnum);
	if (!err)
		err = resolve_port(ca, portnum, port);
	if (err)
		goto fail;
	port->fd = umad_open_port(port->ca, port->portnum);
	if (port->fd < 0) {
		err = port->fd;
		rk_log(RK_LOG_ERR, "%s:%d: cannot open the umad port: %s", port->ca, port->portnum,
		       strerror(-err));
		goto fail;
	}
	err = register_agents(port);
	if (err) {
		umad_close_port(port->fd);
		goto fail;
	}
	port->next_send = first_send();
	*out = port;
	return 0;
fail:
	free(port);
	return err;
}

int rk_mad_port_open(const char *ca, int port, struct rk_mad_port **out)
{
	int err;

	if (atomic_flag_test_and_set(&port_in_use)) {
		rk_log(RK_LOG_ERR, "a umad port is already open in this process (one per process)");
		return -EBUSY;
	}
	err = open_port(ca, port, out);
	if (err)
		atomic_flag_clear(&port_in_use);
	return err;
}

void rk_mad_port_close(struct rk_mad_port *port)
{
	if (!port)
		return;
	unregister_agents(port);
	umad_close_port(port->fd);
	free(port);
	atomic_flag_clear(&port_in_use);
}

int rk_mad_port_local(const struct rk_mad_port *port, struct rk_mad_local *local)
{
	umad_port_t info;
	int err = umad_get_port(port->ca, port->portnum, &info);

	if (err < 0) {
		rk_log(RK_LOG_ERR, "%s:%d: cannot read the port: %s", port->ca, port->portnum,
		       strerror(-err));
		return err;
	}
	memset(local, 0, sizeof(*local));
	snprintf(local->ca, sizeof(local->ca), "%s", info.ca_name);
	local->port = info.portnum;
	local->lid = (uint16_t)info.base_lid;
	local->sm_lid = (uint16_t)info.sm_lid;
	local->sm_sl = (uint8_t)info.sm_sl;
	local->port_guid = be64toh(info.port_guid);
	local->state = (int)info.state;
	umad_release_port(&info);
	return 0;
}

/* ---- listeners --------------------------------------------------------------------------- */

const struct mad_listener *mad_port_listener(const struct rk_mad_port *port, uint8_t mgmt_class,
					     uint8_t method)
{
	for (size_t i = 0; i < port->nlisteners; i++)
		if (port->listeners[i].mgmt_class == mgmt_class &&
		    port->listeners[i].method == method)
			return &port->listeners[i];
	return NULL;
}

int rk_mad_master_sm_request(const struct rk_mad_port *port, struct rk_mad_request *out)
{
	struct rk_mad_local local;
	int err = rk_mad_port_local(port, &local);

	if (err)
		return err;
	*out = (struct rk_mad_request){.route = RK_MAD_DIRECTED,
				       .hops = 0,
				       .method = RK_MAD_METHOD_GET,
				       .attr_id = RK_SMP_ATTR_PORT_INFO,
				       .attr_mod = (uint32_t)local.port};
	return 0;
}

uint16_t rk_mad_master_sm_lid(const struct rk_mad_request *answered)
{
	return (uint16_t)mad_get_field((void *)rk_mad_reply_data(answered), 0, IB_PORT_SMLID_F);
}

int rk_mad_listen(struct rk_mad_port *port, uint8_t mgmt_class, uint8_t class_version,
		  uint8_t method, rk_mad_unsolicited_fn fn, void *ctx)
{
	long mask[16 / sizeof(long)] = {0};
	const size_t bits = 8 * sizeof(long);
	struct mad_listener *listener;
	int agent;

	if (port->nlisteners == MAD_LISTENERS_MAX || mad_port_listener(port, mgmt_class, method))
		return -ENOSPC;
	mask[method / bits] |= 1L << (method % bits);
	agent = umad_register(port->fd, mgmt_class, class_version, 0, mask);
	if (agent < 0) {
		rk_log(RK_LOG_ERR,
		       "%s:%d: cannot receive MADs of class 0x%02x, method 0x%02x: %s (another "
		       "agent on this host may receive them already)",
		       port->ca, port->portnum, mgmt_class, method, strerror(-agent));
		return -EBUSY;
	}
	listener = &port->listeners[port->nlisteners++];
	*listener = (struct mad_listener){
	    .agent = agent, .mgmt_class = mgmt_class, .method = method, .fn = fn, .ctx = ctx};
	return 0;
}

int mad_port_agent(struct rk_mad_port *port, enum agent_kind kind)
{
	const struct mad_listener *listener;
	int agent;

	if (port->agent[kind] >= 0 || kind != AGENT_SA)
		return port->agent[kind];
	for (size_t i = 0; i < port->nlisteners; i++) {
		listener = &port->listeners[i];
		if (listener->mgmt_class == IB_SA_CLASS)
			return listener->agent; /* one agent of a class, as ibsim's shim has */
	}
	agent = umad_register(port->fd, IB_SA_CLASS, RK_SA_CLASS_VERSION, 0, NULL);
	if (agent < 0)
		rk_log(RK_LOG_ERR, "%s:%d: cannot register a MAD agent for the SA: %s", port->ca,
		       port->portnum, strerror(-agent));
	else
		port->agent[kind] = agent;
	return agent;
}

int rk_mad_respond(struct rk_mad_port *port, const struct rk_mad_received *mad, uint8_t method)
{
	uint8_t umad[sizeof(struct ib_user_mad) + IB_MAD_SIZE] = {0};
	const struct mad_listener *listener =
	    mad_port_listener(port, (uint8_t)mad_get_field((void *)mad->mad, 0, IB_MAD_MGMTCLASS_F),
			      (uint8_t)mad_get_field((void *)mad->mad, 0, IB_MAD_METHOD_F));
	uint8_t *out = umad_get_mad(umad);

	if (!listener || mad->length < IB_MAD_SIZE)
		return -EINVAL;
	memcpy(out, mad->mad, IB_MAD_SIZE);
	out[3] = method; /* the whole byte: the response bit is libibmad's IB_MAD_RESPONSE_F */
	mad_set_field(out, 0, IB_MAD_STATUS_F, 0);
	umad_set_addr(umad, mad->slid, (int)mad->qpn, mad->sl, IB_DEFAULT_QP1_QKEY);
	if (umad_send(port->fd, listener->agent, umad, IB_MAD_SIZE, 0, 0) < 0) {
		int err = errno ? errno : EIO;

		rk_log(RK_LOG_WARNING, "%s:%d: cannot answer LID %u: %s", port->ca, port->portnum,
		       (unsigned)mad->slid, strerror(err));
		return -err;
	}
	return 0;
}

void rk_sa_mcmember_request(struct rk_mad_request *request, uint16_t sa_lid, uint8_t method,
			    uint64_t port_guid)
{
	uint8_t gid[16];

	memset(request, 0, sizeof(*request));
	request->route = RK_MAD_LID;
	request->mgmt_class = RK_MAD_CLASS_SA;
	request->lid = sa_lid;
	request->method = method;
	request->attr_id = RK_SA_ATTR_MCMEMBER_RECORD;
	request->component_mask = UMAD_SA_MCM_COMP_MASK_PORT_GID;
	mad_encode_field(gid, IB_GID_PREFIX_F, &(uint64_t){RK_GID_LINK_LOCAL_PREFIX});
	mad_encode_field(gid, IB_GID_GUID_F, &port_guid);
	mad_set_array(request->data, 0, IB_SA_MCM_PORTGID_F, gid);
}
