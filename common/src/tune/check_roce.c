/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* RoCE: rdma_cm's default ToS, the netdev MTU, PFC on the RDMA priority, DSCP trust, ECN. */
#include "tune_internal.h"

#include "rdmakit/log.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_RDMA_PRIO 3
#define DCB_TIMEOUT_MS	  5000
#define DCB_MAX_OUTPUT	  (1u << 20)

static bool is_roce(const struct rk_port *port)
{
	return strcmp(port->link_layer, "Ethernet") == 0 && port->netdev[0];
}

/* rdma_cm's default ToS for the port; -1 when configfs has no directory for the device. */
static long check_tos(struct tune_ctx *ctx, const struct rk_device *dev, const struct rk_port *p)
{
	const struct rk_tune_setting *want = rk_tune_profile_setting(ctx->profile, "roce_tos");
	char path[192], subject[96], current[24];
	long tos;

	snprintf(path, sizeof(path), "sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos",
		 dev->name, p->num);
	if (tune_read_long(ctx->root, path, &tos) != 0)
		return -1;
	snprintf(subject, sizeof(subject), "%s:%u", dev->name, p->num);
	snprintf(current, sizeof(current), "%ld", tos);
	if (want && strtol(want->value, NULL, 10) != tos) {
		tune_note_error(
		    ctx, rk_tune_report(
			     ctx->audit, RK_SEVERITY_WARNING, "TUNE_ROCE_TOS", "roce", subject,
			     current, want->value,
			     "echo 106 > /sys/kernel/config/rdma_cm/DEV/ports/N/"
			     "default_roce_tos (mkdir the DEV directory first)",
			     "rdma_cm's default ToS on %s is %ld, the %s profile wants %s: %s",
			     subject, tos, ctx->profile->name, want->value, want->why));
		tune_want_live(ctx, "rdma_cm default ToS", path, want->value);
	}
	return tos;
}

static void check_netdev_mtu(struct tune_ctx *ctx, const char *netdev)
{
	const char *want = rk_tune_profile_value(ctx->profile, "roce_mtu");
	char path[160], current[24];
	long mtu;

	snprintf(path, sizeof(path), "sys/class/net/%s/mtu", netdev);
	if (!want || tune_read_long(ctx->root, path, &mtu) != 0)
		return;
	tune_note_error(ctx, tune_text_add(&ctx->udev_rules,
					   "ACTION==\"add\", SUBSYSTEM==\"net\", KERNEL==\"%s\", "
					   "ATTR{mtu}=\"%s\"\n",
					   netdev, want));
	if (mtu >= strtol(want, NULL, 10))
		return;
	snprintf(current, sizeof(current), "%ld", mtu);
	tune_note_error(
	    ctx,
	    rk_tune_report(
		ctx->audit, RK_SEVERITY_WARNING, "TUNE_ROCE_MTU", "roce", netdev, current, want,
		"ip link set dev IFACE mtu 9000 on every host and switch port of the "
		"path; persist it in the network configuration",
		"the RoCE interface %s has MTU %ld, the %s profile wants %s: %s", netdev, mtu,
		ctx->profile->name, want, rk_tune_profile_setting(ctx->profile, "roce_mtu")->why));
	tune_want_live(ctx, "roce netdev mtu", path, want);
}

/* Read what a child writes on fd, up to a deadline and a size limit. */
static int read_child(int fd, char **out)
{
	size_t used = 0;
	char *buf = malloc(DCB_MAX_OUTPUT + 1);
	struct pollfd pfd = {.fd = fd, .events = POLLIN};

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (poll(&pfd, 1, DCB_TIMEOUT_MS) <= 0) {
			free(buf);
			return -ETIMEDOUT;
		}
		n = read(fd, buf + used, DCB_MAX_OUTPUT - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || (used += (size_t)n) == DCB_MAX_OUTPUT)
			break;
	}
	buf[used] = '\0';
	*out = buf;
	return 0;
}

/* Run "dcb -j WHAT show dev NETDEV" (a fixed argument list, no shell); its stdout. */
static int run_dcb(const char *what, const char *netdev, char **out)
{
	char *argv[] = {"dcb", "-j", (char *)what, "show", "dev", (char *)netdev, NULL};
	int pipefd[2], status, err;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR);

		dup2(pipefd[1], STDOUT_FILENO);
		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	err = read_child(pipefd[0], out);
	close(pipefd[0]);
	if (err)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	if (!err && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		free(*out);
		err = -EIO;
	}
	return err;
}

/* DCB state as JSON: `dcb -j` on the live system, the captured dcb/NETDEV/WHAT.json in a tree. */
static json_object *read_dcb(struct tune_ctx *ctx, const char *what, const char *netdev)
{
	char relpath[160], *text = NULL;
	size_t len;
	json_object *doc;
	int err;

	if (strcmp(ctx->root, "/") == 0) {
		err = run_dcb(what, netdev, &text);
	} else {
		snprintf(relpath, sizeof(relpath), "dcb/%s/%s.json", netdev, what);
		err = tune_slurp(ctx->root, relpath, &text, &len, NULL);
	}
	if (err)
		return NULL;
	doc = json_tokener_parse(text);
	if (!doc)
		rk_log(RK_LOG_WARNING, "tune: dcb %s of %s is not JSON", what, netdev);
	free(text);
	return doc;
}

/* The priority DSCP maps to in an app table ({"dscp_prio": [[dscp, prio], ...]}); -1. */
static int dscp_priority(json_object *app, int dscp, bool *trusted)
{
	json_object *map;

	*trusted = false;
	if (!app || !json_object_object_get_ex(app, "dscp_prio", &map) ||
	    !json_object_is_type(map, json_type_array))
		return -1;
	*trusted = json_object_array_length(map) > 0;
	for (size_t i = 0; i < json_object_array_length(map); i++) {
		json_object *pair = json_object_array_get_idx(map, i);

		if (json_object_is_type(pair, json_type_array) &&
		    json_object_array_length(pair) == 2 &&
		    json_object_get_int(json_object_array_get_idx(pair, 0)) == dscp)
			return json_object_get_int(json_object_array_get_idx(pair, 1));
	}
	return -1;
}

/* PFC of prio in {"prio_pfc": {"0": false, ...}}: 1 on, 0 off, -1 unknown. */
static int pfc_enabled(json_object *pfc, int prio)
{
	json_object *map, *value;
	char key[12];

	snprintf(key, sizeof(key), "%d", prio);
	if (!pfc || !json_object_object_get_ex(pfc, "prio_pfc", &map) ||
	    !json_object_object_get_ex(map, key, &value))
		return -1;
	return json_object_get_boolean(value) ? 1 : 0;
}

static void report_dcb(struct tune_ctx *ctx, const char *netdev, const char *code,
		       const char *current, const char *recommended, const char *remedy,
		       const char *message)
{
	tune_note_error(ctx,
			rk_tune_report(ctx->audit, RK_SEVERITY_WARNING, code, "roce", netdev,
				       current, recommended, remedy, "%s: %s", netdev, message));
}

static int check_dcb(struct tune_ctx *ctx, const char *netdev, long tos)
{
	json_object *app = read_dcb(ctx, "app", netdev), *pfc = read_dcb(ctx, "pfc", netdev);
	int dscp = tos >= 0 ? (int)(tos >> 2) : 26, prio, pfc_on;
	char text[64];
	bool trusted;

	prio = dscp_priority(app, dscp, &trusted);
	if (app && !trusted)
		report_dcb(ctx, netdev, "TUNE_ROCE_TRUST", "pcp", "dscp",
			   "dcb app add dev IFACE dscp-prio 26:3 (or mlnx_qos --trust dscp)",
			   "the port does not trust DSCP (no dscp-prio map): routed RoCE loses its "
			   "priority");
	if (prio < 0)
		prio = DEFAULT_RDMA_PRIO;
	pfc_on = pfc_enabled(pfc, prio);
	snprintf(text, sizeof(text), "priority %d", prio);
	if (pfc_on == 0)
		report_dcb(
		    ctx, netdev, "TUNE_ROCE_PFC", "PFC off", text,
		    "dcb pfc set dev IFACE prio-pfc 3:on, and the same on the switch",
		    "PFC is off on the priority RoCE uses: a dropped packet costs a go-back-N "
		    "retransmission");
	json_object_put(app);
	json_object_put(pfc);
	return prio;
}

static void check_ecn(struct tune_ctx *ctx, const char *netdev, int prio)
{
	static const char *const sides[] = {"roce_np", "roce_rp"};

	for (size_t i = 0; i < 2; i++) {
		char path[192], value[8], message[160];

		snprintf(path, sizeof(path), "sys/class/net/%s/ecn/%s/enable/%d", netdev, sides[i],
			 prio);
		if (tune_read_text(ctx->root, path, value, sizeof(value)) < 0 ||
		    strcmp(value, "0") != 0)
			continue;
		snprintf(message, sizeof(message),
			 "ECN (%s) is off on priority %d: DCQCN cannot slow senders before PFC "
			 "pauses the link",
			 sides[i], prio);
		report_dcb(ctx, netdev, "TUNE_ROCE_ECN", "0", "1",
			   "echo 1 > /sys/class/net/IFACE/ecn/roce_np/enable/PRIO (and roce_rp)",
			   message);
	}
}

void tune_check_roce(struct tune_ctx *ctx)
{
	for (size_t d = 0; ctx->host && d < ctx->host->ndevices; d++) {
		const struct rk_device *dev = &ctx->host->devices[d];

		for (unsigned p = 0; p < dev->nports; p++) {
			const struct rk_port *port = &dev->ports[p];
			long tos;
			int prio;

			if (!is_roce(port))
				continue;
			tos = check_tos(ctx, dev, port);
			check_netdev_mtu(ctx, port->netdev);
			prio = check_dcb(ctx, port->netdev, tos);
			check_ecn(ctx, port->netdev, prio);
		}
	}
}
