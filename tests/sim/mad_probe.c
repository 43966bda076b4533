/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_probe: drives librdmakit's MAD engine against a real (or simulated) fabric.
 *
 *   mad_probe [--ca NAME] [--port N] [--window N] [--timeout MS] [--retries N]
 *             [--targets FILE] [--sminfo LID]... [--dr P1,P2,...]... [--runs N]
 *             [--gap-ms MS] [--quiet] [--check-busy] [--cancel-after N]
 *             [LID:PORT[/SELECT] ...]
 *
 * Opens the port, prints its local facts, then queries PortCounters (attribute 0x12, port
 * select in the data: PORT, or SELECT when given) of every target, SMInfo of every --sminfo
 * LID and NodeInfo along every --dr path, in one rk_mad_run per --runs (--gap-ms between
 * runs; --cancel-after N raises the run's cancel token from the Nth done call). Prints one
 * line per request in input order and a stats line per run:
 *
 *   second_open rc=..    (--check-busy: a second rk_mad_port_open in the process)
 *   local ca=.. port=.. lid=.. sm_lid=.. sm_sl=.. port_guid=0x.. state=..
 *   pc lid=.. port=.. status=.. attempts=.. mad_status=0x.. done_ms=.. SymbolErrorCounter=..
 *   sminfo lid=.. status=.. attempts=.. mad_status=0x.. done_ms=.. guid=0x.. priority=..
 *   dr path=0,1,.. status=.. ... node_type=.. num_ports=.. node_guid=0x..
 *   stats run=.. requests=.. sent=.. answered=.. timeouts=.. retried=.. errors=.. ignored=..
 *         elapsed_ms=.. rc=.. done_calls=.. done_dups=.. most_in_flight=.. most_to_one_agent=..
 *
 * Exit status: 0 when every run returned 0 and done() came exactly once per request, 1
 * otherwise, 2 for bad usage.
 */
#include "rdmakit/cancel.h"
#include "rdmakit/log.h"
#include "rdmakit/mad.h"

#include <errno.h>
#include <getopt.h>
#include <infiniband/mad.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum kind { PC, SMINFO, DR };

/* What a request's user pointer points at. */
struct probe {
	enum kind kind;
	unsigned port; /* PC: the target's port */
	unsigned done_calls;
	double done_ms;
};

struct config {
	const char *ca;
	int port;
	struct rk_mad_options options;
	unsigned runs, gap_ms;
	bool quiet, check_busy;
};

struct batch {
	struct rk_mad_request *requests;
	struct probe *probes;
	size_t count, capacity;
	struct timespec start;
	struct rk_cancel *cancel; /* --cancel-after: raised by the done call of that number */
	unsigned long cancel_after;
	size_t completed;
};

static double ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) * 1e3 + (double)(now.tv_nsec - t0->tv_nsec) / 1e6;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: mad_probe [--ca NAME] [--port N] [--window N] [--timeout MS] "
		   "[--retries N]\n"
		   "                 [--targets FILE] [--sminfo LID]... [--dr P1,P2,...]... "
		   "[--runs N]\n"
		   "                 [--gap-ms MS] [--quiet] [--check-busy] [--cancel-after N]\n"
		   "                 [LID:PORT[/SELECT] ...]\n");
}

static int parse_uint(const char *text, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(text, &end, 0);
	if (errno || end == text || *end || *out > max || text[0] == '-')
		return -EINVAL;
	return 0;
}

static struct rk_mad_request *add_request(struct batch *b, enum kind kind)
{
	if (b->count == b->capacity) {
		size_t cap = b->capacity ? 2 * b->capacity : 64;
		struct rk_mad_request *r = realloc(b->requests, cap * sizeof(*r));
		struct probe *p;

		if (!r)
			return NULL;
		b->requests = r;
		p = realloc(b->probes, cap * sizeof(*p));
		if (!p)
			return NULL;
		b->probes = p;
		b->capacity = cap;
	}
	memset(&b->requests[b->count], 0, sizeof(b->requests[0]));
	memset(&b->probes[b->count], 0, sizeof(b->probes[0]));
	b->probes[b->count].kind = kind;
	b->requests[b->count].method = RK_MAD_METHOD_GET;
	return &b->requests[b->count++];
}

/* "LID:PORT[/SELECT]" -> a PortCounters Get with the port select set. */
static int add_pc(struct batch *b, const char *text)
{
	char copy[64], *port_text, *select_text;
	unsigned long lid, port, select;
	struct rk_mad_request *req;

	snprintf(copy, sizeof(copy), "%s", text);
	port_text = strchr(copy, ':');
	if (!port_text)
		return -EINVAL;
	*port_text++ = '\0';
	select_text = strchr(port_text, '/');
	if (select_text)
		*select_text++ = '\0';
	if (parse_uint(copy, 0xffff, &lid) || parse_uint(port_text, 255, &port))
		return -EINVAL;
	select = port;
	if (select_text && parse_uint(select_text, 255, &select))
		return -EINVAL;
	req = add_request(b, PC);
	if (!req)
		return -ENOMEM;
	req->route = RK_MAD_LID;
	req->mgmt_class = RK_MAD_CLASS_PERF;
	req->lid = (uint16_t)lid;
	req->attr_id = IB_GSI_PORT_COUNTERS;
	mad_set_field(req->data, 0, IB_PC_PORT_SELECT_F, (unsigned)select);
	b->probes[b->count - 1].port = (unsigned)port;
	return 0;
}

static int add_sminfo(struct batch *b, const char *text)
{
	unsigned long lid;
	struct rk_mad_request *req;

	if (parse_uint(text, 0xffff, &lid))
		return -EINVAL;
	req = add_request(b, SMINFO);
	if (!req)
		return -ENOMEM;
	req->route = RK_MAD_LID;
	req->mgmt_class = RK_MAD_CLASS_SMP;
	req->lid = (uint16_t)lid;
	req->attr_id = IB_ATTR_SMINFO;
	return 0;
}

/* "1,3" -> NodeInfo by directed route out of local port 1, then switch port 3. */
static int add_dr(struct batch *b, const char *text)
{
	char copy[256], *save = NULL;
	struct rk_mad_request *req = add_request(b, DR);

	if (!req)
		return -ENOMEM;
	req->route = RK_MAD_DIRECTED;
	req->attr_id = IB_ATTR_NODE_INFO;
	snprintf(copy, sizeof(copy), "%s", text);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long port;

		if (parse_uint(tok, 255, &port) || req->hops >= RK_MAD_MAX_HOPS)
			return -EINVAL;
		req->path[++req->hops] = (uint8_t)port;
	}
	return 0;
}

static int add_targets_file(struct batch *b, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char line[128];
	int err = 0;

	if (!f) {
		fprintf(stderr, "mad_probe: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	while (!err && fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \t\r\n#")] = '\0';
		if (line[0] && (err = add_pc(b, line)))
			fprintf(stderr, "mad_probe: %s: bad target '%s'\n", path, line);
	}
	if (f != stdin)
		fclose(f);
	return err;
}

static void on_done(struct rk_mad_request *req, void *ctx)
{
	struct batch *b = ctx;
	struct probe *p = req->user;

	p->done_calls++;
	p->done_ms = ms_since(&b->start);
	if (b->cancel && ++b->completed == b->cancel_after)
		rk_cancel_raise(b->cancel);
}

static void print_head(const char *what, const struct rk_mad_request *req, const struct probe *p)
{
	printf("%s status=%d attempts=%u mad_status=0x%04x done_ms=%.3f", what, req->status,
	       req->attempts, req->mad_status, p->done_ms);
}

static void print_pc(const struct rk_mad_request *req, const struct probe *p)
{
	char what[64];
	uint8_t *data = (uint8_t *)rk_mad_reply_data(req);

	snprintf(what, sizeof(what), "pc lid=%u port=%u", req->lid, p->port);
	print_head(what, req, p);
	if (req->status == 0)
		for (int f = IB_PC_ERR_SYM_F; f <= IB_PC_XMT_WAIT_F; f++)
			if (f != IB_PC_COUNTER_SELECT2_F)
				printf(" %s=%u", mad_field_name(f), mad_get_field(data, 0, f));
	printf("\n");
}

static void print_sminfo(const struct rk_mad_request *req, const struct probe *p)
{
	char what[64];
	uint8_t *data = (uint8_t *)rk_mad_reply_data(req);

	snprintf(what, sizeof(what), "sminfo lid=%u", req->lid);
	print_head(what, req, p);
	if (req->status == 0)
		printf(" guid=0x%016" PRIx64 " priority=%u state=%u activity=%u",
		       mad_get_field64(data, 0, IB_SMINFO_GUID_F),
		       mad_get_field(data, 0, IB_SMINFO_PRIO_F),
		       mad_get_field(data, 0, IB_SMINFO_STATE_F),
		       mad_get_field(data, 0, IB_SMINFO_ACT_F));
	printf("\n");
}

static void print_dr(const struct rk_mad_request *req, const struct probe *p)
{
	char what[300];
	int n = snprintf(what, sizeof(what), "dr path=0");
	uint8_t *data = (uint8_t *)rk_mad_reply_data(req);

	for (unsigned h = 1; h <= req->hops && n < (int)sizeof(what) - 5; h++)
		n += snprintf(what + n, sizeof(what) - (size_t)n, ",%u", req->path[h]);
	print_head(what, req, p);
	if (req->status == 0)
		printf(" node_type=%u num_ports=%u node_guid=0x%016" PRIx64,
		       mad_get_field(data, 0, IB_NODE_TYPE_F),
		       mad_get_field(data, 0, IB_NODE_NPORTS_F),
		       mad_get_field64(data, 0, IB_NODE_GUID_F));
	printf("\n");
}

static void print_local(struct rk_mad_port *port)
{
	struct rk_mad_local local;

	if (rk_mad_port_local(port, &local) == 0)
		printf("local ca=%s port=%d lid=%u sm_lid=%u sm_sl=%u port_guid=0x%016" PRIx64
		       " state=%d\n",
		       local.ca, local.port, local.lid, local.sm_lid, local.sm_sl, local.port_guid,
		       local.state);
	else
		printf("local error\n");
	fflush(stdout);
}

/* One rk_mad_run over the batch; true when it went right. */
static bool run_once(struct rk_mad_port *port, struct batch *b, const struct config *cfg,
		     unsigned run)
{
	struct rk_mad_stats st;
	size_t calls = 0, dups = 0;
	double elapsed;
	int rc;

	for (size_t i = 0; i < b->count; i++) {
		b->probes[i].done_calls = 0;
		b->probes[i].done_ms = -1;
		b->requests[i].user = &b->probes[i];
	}
	b->completed = 0;
	clock_gettime(CLOCK_MONOTONIC, &b->start);
	rc = rk_mad_run(port, b->requests, b->count, &cfg->options, on_done, b, &st);
	elapsed = ms_since(&b->start);
	for (size_t i = 0; i < b->count; i++) {
		calls += b->probes[i].done_calls;
		dups += b->probes[i].done_calls > 1;
		if (cfg->quiet)
			continue;
		if (b->probes[i].kind == PC)
			print_pc(&b->requests[i], &b->probes[i]);
		else if (b->probes[i].kind == SMINFO)
			print_sminfo(&b->requests[i], &b->probes[i]);
		else
			print_dr(&b->requests[i], &b->probes[i]);
	}
	printf("stats run=%u requests=%zu sent=%zu answered=%zu timeouts=%zu retried=%zu "
	       "errors=%zu ignored=%zu elapsed_ms=%.3f rc=%d done_calls=%zu done_dups=%zu "
	       "most_in_flight=%zu most_to_one_agent=%zu\n",
	       run, b->count, st.sent, st.answered, st.timeouts, st.retried, st.errors, st.ignored,
	       elapsed, rc, calls, dups, st.most_in_flight, st.most_to_one_agent);
	fflush(stdout);
	return rc == 0 && calls == b->count && dups == 0;
}

static int parse_option(int opt, const char *arg, struct config *cfg, struct batch *b)
{
	unsigned long v;

	switch (opt) {
	case 'c':
		cfg->ca = arg;
		return 0;
	case 'p':
		return parse_uint(arg, 255, &v) ? -EINVAL : (cfg->port = (int)v, 0);
	case 'w':
		return parse_uint(arg, 100000, &v) ? -EINVAL
						   : (cfg->options.window = (unsigned)v, 0);
	case 't':
		return parse_uint(arg, 10000000, &v) ? -EINVAL
						     : (cfg->options.timeout_ms = (unsigned)v, 0);
	case 'r':
		return parse_uint(arg, 1000, &v) ? -EINVAL
						 : (cfg->options.retries = (unsigned)v, 0);
	case 'n':
		return parse_uint(arg, 1000, &v) || !v ? -EINVAL : (cfg->runs = (unsigned)v, 0);
	case 'g':
		return parse_uint(arg, 600000, &v) ? -EINVAL : (cfg->gap_ms = (unsigned)v, 0);
	case 'q':
		cfg->quiet = true;
		return 0;
	case 'b':
		cfg->check_busy = true;
		return 0;
	case 'x':
		return parse_uint(arg, 100000, &b->cancel_after) || !b->cancel_after ? -EINVAL : 0;
	case 'f':
		return add_targets_file(b, arg);
	case 's':
		return add_sminfo(b, arg);
	case 'd':
		return add_dr(b, arg);
	default:
		return -EINVAL;
	}
}

static int parse_args(int argc, char **argv, struct config *cfg, struct batch *b)
{
	static const struct option longopts[] = {
	    {"ca", required_argument, NULL, 'c'},
	    {"port", required_argument, NULL, 'p'},
	    {"window", required_argument, NULL, 'w'},
	    {"timeout", required_argument, NULL, 't'},
	    {"retries", required_argument, NULL, 'r'},
	    {"runs", required_argument, NULL, 'n'},
	    {"gap-ms", required_argument, NULL, 'g'},
	    {"targets", required_argument, NULL, 'f'},
	    {"sminfo", required_argument, NULL, 's'},
	    {"dr", required_argument, NULL, 'd'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"check-busy", no_argument, NULL, 'b'},
	    {"cancel-after", required_argument, NULL, 'x'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			exit(0);
		}
		if (parse_option(opt, optarg, cfg, b)) {
			fprintf(stderr, "mad_probe: bad option or value: %s\n", argv[optind - 1]);
			return -EINVAL;
		}
	}
	for (int i = optind; i < argc; i++)
		if (add_pc(b, argv[i])) {
			fprintf(stderr, "mad_probe: bad target '%s' (want LID:PORT)\n", argv[i]);
			return -EINVAL;
		}
	return 0;
}

int main(int argc, char **argv)
{
	struct config cfg = {.runs = 1};
	struct batch b = {0};
	struct rk_mad_port *port;
	struct rk_cancel token;
	bool ok = true;

	rk_mad_options_defaults(&cfg.options);
	if (parse_args(argc, argv, &cfg, &b)) {
		usage(stderr);
		return 2;
	}
	if (b.cancel_after) {
		if (rk_cancel_init(&token)) {
			fprintf(stderr, "mad_probe: cannot make a cancel token\n");
			return 1;
		}
		b.cancel = &token;
		cfg.options.cancel = &token;
	}
	if (rk_mad_port_open(cfg.ca, cfg.port, &port)) {
		fprintf(stderr, "mad_probe: cannot open the umad port\n");
		return 1;
	}
	if (cfg.check_busy) {
		struct rk_mad_port *second = NULL;
		int rc = rk_mad_port_open(cfg.ca, cfg.port, &second);

		printf("second_open rc=%d\n", rc);
		if (rc == 0)
			rk_mad_port_close(second);
	}
	print_local(port);
	for (unsigned run = 1; run <= cfg.runs; run++) {
		if (run > 1 && cfg.gap_ms) {
			struct timespec gap = {cfg.gap_ms / 1000,
					       (long)(cfg.gap_ms % 1000) * 1000000};

			nanosleep(&gap, NULL);
		}
		ok = run_once(port, &b, &cfg, run) && ok;
	}
	rk_mad_port_close(port);
	if (b.cancel)
		rk_cancel_destroy(b.cancel);
	free(b.requests);
	free(b.probes);
	return ok ? 0 : 1;
}
