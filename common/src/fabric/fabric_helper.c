/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Fabric discovery in a helper process, for long-running front ends.
 *
 * libibnetdisc before rdma-core 49.1 leaks one small block per switch port and discovery
 * (add_to_portlid_hash; fixed upstream by commit 5814d784). A daemon that rediscovers every few
 * minutes would grow without bound, so it runs rdmakit-discover, which discovers, forwards its
 * log lines and writes the result to a pipe: the leak ends with that process. The helper is a
 * fresh exec, not a bare fork: a forked copy of a multithreaded daemon (or of the simulator's
 * umad shim, whose receiver thread a fork leaves behind) cannot be trusted to send MADs. */
#include "rdmakit/fabric.h"

#include "rdmakit/array.h"
#include "rdmakit/cancel.h"
#include "rdmakit/clock.h"
#include "rdmakit/limits.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Where the helper is installed; RDMAKIT_DISCOVER_HELPER in the environment overrides it. */
#ifndef RDMAKIT_DISCOVER_HELPER_PATH
#define RDMAKIT_DISCOVER_HELPER_PATH "/usr/libexec/rdmakit/rdmakit-discover"
#endif

extern char **environ;

/* What the helper sends: log lines, then its result, then (on success) the fabric. */
enum record_type {
	RECORD_LOG = 1,
	RECORD_RESULT = 2,
};

struct record_header {
	uint32_t type;
	int32_t value;	 /* log level, or the discovery's result (0 or -errno) */
	uint32_t length; /* bytes of text after a log record */
};

struct fabric_header { /* no padding: every byte written is set */
	uint64_t nnodes, nlinks;
	double discovery_seconds;
	int32_t local_node, unused;
};

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The reading end of a helper's pipe, with the time by which its answer must be whole. */
struct reader {
	int fd;
	double deadline;		/* rk_monotonic_seconds(); 0: none */
	const struct rk_cancel *cancel; /* raised: stop waiting (NULL: never) */
};

/* Wait until r->fd is readable; -ETIMEDOUT past the deadline, -ECANCELED once cancelled. */
static int wait_readable(const struct reader *r)
{
	for (;;) {
		double left = r->deadline - rk_monotonic_seconds();
		struct pollfd pfd[2] = {{.fd = r->fd, .events = POLLIN},
					{.fd = rk_cancel_fd(r->cancel), .events = POLLIN}};
		int n;

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(pfd, 2, (int)(left * 1000) + 1);
		if (rk_cancel_raised(r->cancel))
			return -ECANCELED;
		if (n > 0 && pfd[0].revents)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

static int read_all(const struct reader *r, void *buf, size_t len)
{
	char *p = buf;

	while (len > 0) {
		int err = r->deadline > 0 ? wait_readable(r) : 0;
		ssize_t n;

		if (err)
			return err;
		n = read(r->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0 ? -ENODATA : -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The helper's log handler: each line goes to the library that started it, which logs it. */
static void forward_log(enum rk_log_level level, const char *message, void *ctx)
{
	int fd = *(const int *)ctx;
	struct record_header header = {RECORD_LOG, (int32_t)level, (uint32_t)strlen(message)};

	if (write_all(fd, &header, sizeof(header)) == 0)
		write_all(fd, message, header.length);
}

int rk_fabric_write(int fd, const struct rk_fabric *fabric)
{
	struct fabric_header header = {fabric->nnodes, fabric->nlinks, fabric->discovery_seconds,
				       fabric->local_node, 0};
	int err = write_all(fd, &header, sizeof(header));

	for (size_t i = 0; i < fabric->nnodes && !err; i++) {
		const struct rk_fabric_node *node = &fabric->nodes[i];

		err = write_all(fd, node, sizeof(*node));
		if (!err)
			err = write_all(fd, node->ports,
					(size_t)(node->nports + 1) * sizeof(*node->ports));
	}
	if (!err)
		err = write_all(fd, fabric->links, fabric->nlinks * sizeof(*fabric->links));
	return err;
}

/* No subnet has more nodes than LIDs (48K unicast), and no node more ports than a NodeInfo
 * can count: a header claiming more is not a fabric. Arrays grow as records arrive, so a
 * header alone never makes the reader allocate what the stream does not hold. */
#define MAX_NODES      65536
#define MAX_PORTS      255
#define FIRST_CAPACITY 64

_Static_assert(sizeof(bool) == 1, "bool fields are checked as single bytes");

/* A bool written by another process is a byte: only 0 and 1 are bools (anything else read as a
 * bool is undefined behaviour), so each is checked as a byte before the field is used. */
static bool byte_is_bool(const void *record, size_t offset)
{
	return ((const unsigned char *)record)[offset] <= 1;
}

static bool node_is_valid(const struct rk_fabric_node *node)
{
	return byte_is_bool(node, offsetof(struct rk_fabric_node, is_sm)) &&
	       byte_is_bool(node, offsetof(struct rk_fabric_node, pm_known)) &&
	       node->type >= RK_NODE_CA && node->type <= RK_NODE_ROUTER && node->nports >= 0 &&
	       node->nports <= MAX_PORTS;
}

static bool port_is_valid(const struct rk_fabric_port *port)
{
	return byte_is_bool(port, offsetof(struct rk_fabric_port, present)) &&
	       port->active_speed < RK_SPEED_COUNT;
}

static bool link_is_valid(const struct rk_fabric_link *link)
{
	return byte_is_bool(link, offsetof(struct rk_fabric_link, ends_disagree)) &&
	       byte_is_bool(link, offsetof(struct rk_fabric_link, below_enabled)) &&
	       byte_is_bool(link, offsetof(struct rk_fabric_link, below_peers)) &&
	       byte_is_bool(link, offsetof(struct rk_fabric_link, unused_supported)) &&
	       link->speed < RK_SPEED_COUNT;
}

static int receive_ports(const struct reader *r, struct rk_fabric_node *node)
{
	int err;

	node->ports = calloc((size_t)node->nports + 1, sizeof(*node->ports));
	if (!node->ports)
		return -ENOMEM;
	err = read_all(r, node->ports, ((size_t)node->nports + 1) * sizeof(*node->ports));
	for (int p = 0; !err && p <= node->nports; p++)
		if (!port_is_valid(&node->ports[p]))
			err = -EPROTO;
	return err;
}

static int receive_node(const struct reader *r, struct rk_fabric_node *node)
{
	int err = read_all(r, node, sizeof(*node));

	node->ports = NULL; /* the helper's pointer; ours follows */
	if (err)
		return err;
	node->description[sizeof(node->description) - 1] = '\0';
	node->name[sizeof(node->name) - 1] = '\0';
	return node_is_valid(node) ? receive_ports(r, node) : -EPROTO;
}

static int receive_nodes(const struct reader *r, struct rk_fabric *fabric, uint64_t count)
{
	size_t capacity = 0;

	if (count > MAX_NODES)
		return -EPROTO;
	while (fabric->nnodes < count) {
		struct rk_fabric_node *nodes = rk_array_room(
		    fabric->nodes, &capacity, fabric->nnodes, sizeof(*nodes), FIRST_CAPACITY);
		int err;

		if (!nodes)
			return -ENOMEM;
		fabric->nodes = nodes;
		err = receive_node(r, &fabric->nodes[fabric->nnodes]);
		fabric->nnodes++; /* counted even when half read: rk_fabric_free frees its ports */
		if (err)
			return err;
	}
	return 0;
}

/* A link joins two ports and a port is in one link at most. */
static uint64_t max_links(const struct rk_fabric *fabric)
{
	uint64_t ports = 0;

	for (size_t n = 0; n < fabric->nnodes; n++)
		ports += (uint64_t)fabric->nodes[n].nports + 1;
	return ports / 2;
}

static int receive_links(const struct reader *r, struct rk_fabric *fabric, uint64_t count)
{
	size_t capacity = 0;

	if (count > max_links(fabric))
		return -EPROTO;
	while (fabric->nlinks < count) {
		struct rk_fabric_link *links = rk_array_room(
		    fabric->links, &capacity, fabric->nlinks, sizeof(*links), FIRST_CAPACITY);
		struct rk_fabric_link *link;
		int err;

		if (!links)
			return -ENOMEM;
		fabric->links = links;
		link = &fabric->links[fabric->nlinks];
		err = read_all(r, link, sizeof(*link));
		if (err)
			return err;
		if (!link_is_valid(link))
			return -EPROTO;
		fabric->nlinks++;
	}
	return 0;
}

static bool end_is_valid(const struct rk_fabric *fabric, int node, int port)
{
	return node >= 0 && (size_t)node < fabric->nnodes && port >= 0 &&
	       port <= fabric->nodes[node].nports;
}

/* Every index a front end will follow (a port's peer, a link's ends) points into the fabric. */
static bool indexes_are_valid(const struct rk_fabric *fabric)
{
	for (size_t n = 0; n < fabric->nnodes; n++)
		for (int p = 0; p <= fabric->nodes[n].nports; p++) {
			const struct rk_fabric_port *port = &fabric->nodes[n].ports[p];

			if (port->remote_node != -1 &&
			    !end_is_valid(fabric, port->remote_node, port->remote_port))
				return false;
		}
	for (size_t i = 0; i < fabric->nlinks; i++) {
		const struct rk_fabric_link *link = &fabric->links[i];

		if (!end_is_valid(fabric, link->node_a, link->port_a) ||
		    !end_is_valid(fabric, link->node_b, link->port_b))
			return false;
	}
	return fabric->local_node >= -1 && fabric->local_node < (int)fabric->nnodes;
}

static int read_fabric(const struct reader *r, struct rk_fabric **out)
{
	struct fabric_header header;
	struct rk_fabric *fabric;
	int err = read_all(r, &header, sizeof(header));

	if (err)
		return err;
	fabric = calloc(1, sizeof(*fabric));
	if (!fabric)
		return -ENOMEM;
	err = receive_nodes(r, fabric, header.nnodes);
	if (!err)
		err = receive_links(r, fabric, header.nlinks);
	fabric->local_node = header.local_node;
	fabric->discovery_seconds = header.discovery_seconds;
	if (!err && (!indexes_are_valid(fabric) || !isfinite(header.discovery_seconds)))
		err = -EPROTO;
	if (err) {
		rk_fabric_free(fabric);
		return err;
	}
	*out = fabric;
	return 0;
}

int rk_fabric_read(int fd, struct rk_fabric **out)
{
	return read_fabric(&(struct reader){.fd = fd}, out);
}

int rk_fabric_discover_serve(const struct rk_fabric_options *options, int fd)
{
	struct rk_fabric *fabric = NULL;
	struct record_header result = {RECORD_RESULT, 0, 0};
	int err;

	rk_log_set_handler(forward_log, &fd);
	result.value = rk_fabric_discover(options, &fabric);
	err = write_all(fd, &result, sizeof(result));
	if (!err && result.value == 0)
		err = rk_fabric_write(fd, fabric);
	rk_fabric_free(fabric);
	rk_log_set_handler(NULL, NULL);
	return err ? err : result.value;
}

/* Log what the helper forwards until its result (into *result); the fabric follows a
 * successful one. 0, or why no whole answer came. */
static int receive_result(const struct reader *r, int *result, struct rk_fabric **out)
{
	for (;;) {
		struct record_header header;
		char message[512];
		int err = read_all(r, &header, sizeof(header));

		if (err)
			return err;
		if (header.type == RECORD_RESULT) {
			*result = header.value;
			return header.value ? 0 : read_fabric(r, out);
		}
		if (header.type != RECORD_LOG || header.length >= sizeof(message) ||
		    header.value < RK_LOG_ERR || header.value > RK_LOG_DEBUG)
			return -EPROTO;
		err = read_all(r, message, header.length);
		if (err)
			return err;
		message[header.length] = '\0';
		rk_log((enum rk_log_level)header.value, "%s", message);
	}
}

static void reap(pid_t pid)
{
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* Seconds a helper has to exit after its answer. */
#define HELPER_EXIT_GRACE_S 1.0

/* Reap the helper once it exits. One that lingers (its exit handlers waiting on a fabric that
 * stopped answering), or any once cancelled, is killed first. */
static void reap_helper(pid_t pid, const struct rk_cancel *cancel)
{
	double until = rk_monotonic_seconds() + HELPER_EXIT_GRACE_S;

	while (waitpid(pid, NULL, WNOHANG) == 0) {
		struct pollfd pfd = {.fd = rk_cancel_fd(cancel), .events = POLLIN};

		poll(&pfd, 1, 10);
		if (rk_monotonic_seconds() >= until || rk_cancel_raised(cancel)) {
			kill(pid, SIGKILL);
			reap(pid);
			return;
		}
	}
}

static const char *helper_path(void)
{
	const char *path = getenv("RDMAKIT_DISCOVER_HELPER");

	return path && path[0] ? path : RDMAKIT_DISCOVER_HELPER_PATH;
}

/* argv for the helper: only numbers and the CA's name, each its own argument (no shell). */
struct helper_args {
	char port[16], timeout[16], smps[16];
	char *argv[12];
};

static void build_args(const struct rk_fabric_options *options, const char *path,
		       struct helper_args *args)
{
	size_t n = 0;

	snprintf(args->port, sizeof(args->port), "%d", options->port);
	snprintf(args->timeout, sizeof(args->timeout), "%u", options->timeout_ms);
	snprintf(args->smps, sizeof(args->smps), "%u", options->max_smps);
	args->argv[n++] = (char *)path;
	if (options->ca) {
		args->argv[n++] = "-C";
		args->argv[n++] = (char *)options->ca;
	}
	args->argv[n++] = "-P";
	args->argv[n++] = args->port;
	args->argv[n++] = "-t";
	args->argv[n++] = args->timeout;
	args->argv[n++] = "-s";
	args->argv[n++] = args->smps;
	args->argv[n] = NULL;
}

/* Start the helper with its stdout on fd; its pid, or -errno. */
static pid_t spawn_helper(const struct rk_fabric_options *options, const char *path, int fd)
{
	posix_spawn_file_actions_t actions;
	struct helper_args args;
	pid_t pid;
	int err;

	build_args(options, path, &args);
	err = posix_spawn_file_actions_init(&actions);
	if (err)
		return -err;
	err = posix_spawn_file_actions_adddup2(&actions, fd, STDOUT_FILENO);
	if (!err)
		err = posix_spawn(&pid, path, &actions, NULL, args.argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	return err ? -err : pid;
}

/* A pipe whose write end is not one of stdin, stdout or stderr (those may have been closed,
 * and the write end becomes the helper's stdout). */
static int open_answer_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -errno;
	if (fds[1] <= STDERR_FILENO) {
		int moved = fcntl(fds[1], F_DUPFD_CLOEXEC, STDERR_FILENO + 1);

		close(fds[1]);
		fds[1] = moved;
		if (moved < 0) {
			close(fds[0]);
			return -errno;
		}
	}
	return 0;
}

/* Read the helper's answer from fd, then reap it; a helper that hangs past the deadline or
 * answers nonsense is killed, not waited for. */
static int collect_answer(const struct rk_fabric_options *options, const char *path, pid_t pid,
			  int fd, struct rk_fabric **out)
{
	unsigned seconds =
	    options->helper_deadline_s ? options->helper_deadline_s : RK_HELPER_DEADLINE_DEFAULT_S;
	struct reader r = {
	    .fd = fd, .deadline = rk_monotonic_seconds() + seconds, .cancel = options->cancel};
	int result = 0;
	int err = receive_result(&r, &result, out);

	if (err)
		kill(pid, SIGKILL);
	close(fd);
	reap_helper(pid, options->cancel);
	if (err == -ECANCELED)
		rk_log(RK_LOG_INFO, "fabric discovery: cancelled; %s stopped", path);
	else if (err == -ETIMEDOUT)
		rk_log(RK_LOG_ERR, "fabric discovery: %s gave no whole answer in %u s; stopped it",
		       path, seconds);
	else if (err)
		rk_log(RK_LOG_ERR, "fabric discovery: %s ended without a whole answer (%s)", path,
		       strerror(-err));
	return err ? err : result;
}

static int discover_in_helper(const struct rk_fabric_options *options, const char *path,
			      struct rk_fabric **out)
{
	int fds[2];
	pid_t pid;
	int err = open_answer_pipe(fds);

	if (err)
		return err;
	pid = spawn_helper(options, path, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		rk_log(RK_LOG_ERR, "fabric discovery: cannot run %s: %s", path,
		       strerror((int)-pid));
		return (int)pid;
	}
	err = collect_answer(options, path, pid, fds[0], out);
	if (!err)
		rk_fabric_name_nodes(*out, options->names);
	return err;
}

/* 0 is the default; anything else must be within the setting's range. */
static int check_deadline(unsigned seconds)
{
	char msg[96];

	if (seconds == 0 ||
	    rk_limit_check(RK_SETTING_HELPER_DEADLINE, seconds, msg, sizeof(msg)) == 0)
		return 0;
	rk_log(RK_LOG_ERR, "fabric discovery: helper deadline %u s: %s", seconds, msg);
	return -EINVAL;
}

int rk_fabric_discover_isolated(const struct rk_fabric_options *options, struct rk_fabric **out)
{
	static bool warned;
	const char *path = helper_path();

	if (check_deadline(options->helper_deadline_s) != 0)
		return -EINVAL;
	if (rk_cancel_raised(options->cancel))
		return -ECANCELED;
	if (access(path, X_OK) == 0)
		return discover_in_helper(options, path, out);
	if (!warned) {
		rk_log(RK_LOG_WARNING,
		       "%s: %s; discovering in this process (with rdma-core before 49.1, "
		       "libibnetdisc leaks memory at every discovery)",
		       path, strerror(errno));
		warned = true;
	}
	return rk_fabric_discover(options, out);
}
