/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A umad port and an engine that keeps many MADs in flight (window, timeout, retries). */
#ifndef RDMAKIT_MAD_H
#define RDMAKIT_MAD_H

#include "rdmakit/cancel.h"
#include "rdmakit/limits.h"

#include <stddef.h>
#include <stdint.h>

#define RK_MAD_SIZE	     256
#define RK_MAD_DATA_OFFSET   64 /* SMP and PMA attribute data start here */
#define RK_MAD_SMP_DATA_SIZE 64 /* bytes of data[] sent in an SMP */
#define RK_MAD_PMA_DATA_SIZE (RK_MAD_SIZE - RK_MAD_DATA_OFFSET) /* ... in a PMA MAD */
#define RK_MAD_MAX_HOPS	     63

#define RK_MAD_METHOD_GET 0x01
#define RK_MAD_METHOD_SET 0x02

/* The local end: one umad port per process (a second one breaks the first under ibsim). */
struct rk_mad_port;

/* What the local port knows of itself. */
struct rk_mad_local {
	char ca[64];
	int port;
	uint16_t lid;
	uint16_t sm_lid;
	uint8_t sm_sl;
	uint64_t port_guid; /* host byte order */
	int state;	    /* 1 DOWN .. 4 ACTIVE */
};

enum rk_mad_route {
	RK_MAD_LID,	 /* LID-routed: SMP (class 0x01) or PMA (class 0x04) */
	RK_MAD_DIRECTED, /* directed-route SMP (class 0x81) along path[] */
};

enum rk_mad_class {
	RK_MAD_CLASS_SMP = 0x01,
	RK_MAD_CLASS_PERF = 0x04,
};

/* One query. The caller fills the target and attribute; the engine fills the result. */
struct rk_mad_request {
	enum rk_mad_route route;
	enum rk_mad_class mgmt_class;	   /* ignored for RK_MAD_DIRECTED (always SMP) */
	uint16_t lid;			   /* RK_MAD_LID target: a unicast LID */
	uint8_t path[RK_MAD_MAX_HOPS + 1]; /* RK_MAD_DIRECTED: path[1..hops] are port numbers */
	uint8_t hops;			   /* RK_MAD_DIRECTED: 0 is the local port */
	uint8_t method;			   /* RK_MAD_METHOD_GET or RK_MAD_METHOD_SET */
	uint16_t attr_id;
	uint32_t attr_mod;
	uint64_t mkey; /* SMP M_Key (0 unless the SM protects ports with one) */
	/* attribute data to send (Set, PMA port select): the first RK_MAD_SMP_DATA_SIZE bytes
	 * for an SMP, all RK_MAD_PMA_DATA_SIZE for a PMA MAD */
	uint8_t data[RK_MAD_SIZE - RK_MAD_DATA_OFFSET];
	void *user; /* the caller's context */
	/* results. status: 0 answered; -ETIMEDOUT no answer after all attempts; -EIO an answer
	 * with a nonzero MAD status, or a failed send; -EINVAL a malformed request (not sent) */
	int status;
	uint16_t mad_status;	    /* status field of the answer (DR SMP: without the D bit) */
	unsigned attempts;	    /* sends, retries included */
	uint8_t reply[RK_MAD_SIZE]; /* the whole answer MAD (zero when there was none) */
};

/* How the engine sends. */
struct rk_mad_options {
	/* defaults and ranges in rdmakit/limits.h (RK_SETTING_WINDOW, _TIMEOUT_MS, _RETRIES) */
	unsigned window;     /* MADs in flight at once (0: the default) */
	unsigned timeout_ms; /* per attempt (0: the default) */
	unsigned retries;    /* extra attempts after a timeout (0: none) */
	const struct rk_cancel
	    *cancel; /* raised: the run ends at once with -ECANCELED (NULL: never) */
};

/* Totals of one run: answered + timeouts + errors == requests. */
struct rk_mad_stats {
	size_t sent;	       /* MADs sent, retries included */
	size_t answered;       /* requests answered with MAD status 0 */
	size_t timeouts;       /* requests with no answer after all attempts */
	size_t retried;	       /* resends after an attempt timed out */
	size_t errors;	       /* requests failed otherwise (MAD status, send error, bad request) */
	size_t ignored;	       /* received MADs that matched no attempt in flight (late, stray) */
	size_t most_in_flight; /* the most MADs in flight at once */
	size_t most_to_one_agent; /* the most in flight at once to one destination's agent */
};

/* MADs the engine keeps in flight to one destination's agent (a LID's SMA or PMA, or one
 * directed-route path): a node's agent has little queue room, so a larger window spreads
 * over more nodes instead of queueing on one. */
#define RK_MAD_MAX_PER_AGENT 16

/* Called as each request completes (answered, failed or timed out), in completion order.
 * It must not start another run on the same port. */
typedef void (*rk_mad_done_fn)(struct rk_mad_request *request, void *ctx);

/** Whether a umad device of ca (NULL: any) and port (0: any) exists and this user may open it,
 * checked before libibumad or libibnetdisc print their own warnings: -ENODEV, logged with what
 * is missing and what to do, when there is none (not checked under ibsim's umad2sim shim);
 * -EACCES, logged with the device's name, when every such device refuses it; 0 otherwise. */
int rk_mad_check_access(const char *ca, int port);

/** Open the umad port of ca (NULL: first) and port (0: first active); -EBUSY if one is open. */
int rk_mad_port_open(const char *ca, int port, struct rk_mad_port **out);

/** Close the port and unregister its agents. */
void rk_mad_port_close(struct rk_mad_port *port);

/** The local port's CA name, port number, LIDs, GUID and state (read afresh each call). */
int rk_mad_port_local(const struct rk_mad_port *port, struct rk_mad_local *local);

/** Set every option to its default (then change what you need). */
void rk_mad_options_defaults(struct rk_mad_options *options);

/* A run returns 0 when every request completed (each has its own status). It returns -EINVAL
 * (bad options), -E2BIG, -ENOMEM or -ECANCELED (cancelled before it began) without touching any
 * request; or the -errno of a port that broke mid-run, or -ECANCELED when cancelled mid-run,
 * after completing every request still open with that status (done() is called for each). options
 * NULL means defaults; done and stats may be NULL. One run at a time per port; requests must stay
 * put until it returns. */

/** Send every request, at most options->window in flight, calling done once for each. */
int rk_mad_run(struct rk_mad_port *port, struct rk_mad_request *requests, size_t count,
	       const struct rk_mad_options *options, rk_mad_done_fn done, void *ctx,
	       struct rk_mad_stats *stats);

/** Add one run's totals to a sum of runs (counts summed, the "most" figures the larger). */
void rk_mad_stats_add(struct rk_mad_stats *total, const struct rk_mad_stats *part);

/** The attribute data of an answered request. */
static inline const uint8_t *rk_mad_reply_data(const struct rk_mad_request *request)
{
	return request->reply + RK_MAD_DATA_OFFSET;
}

#endif
