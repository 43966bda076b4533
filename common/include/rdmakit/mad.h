/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A umad port and an engine that keeps many MADs in flight (window, timeout, retries). */
#ifndef RDMAKIT_MAD_H
#define RDMAKIT_MAD_H

#include "rdmakit/cancel.h"
#include "rdmakit/limits.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RK_MAD_SIZE	     256
#define RK_MAD_DATA_OFFSET   64 /* SMP and PMA attribute data start here */
#define RK_MAD_SMP_DATA_SIZE 64 /* bytes of data[] sent in an SMP */
#define RK_MAD_PMA_DATA_SIZE (RK_MAD_SIZE - RK_MAD_DATA_OFFSET) /* ... in a PMA MAD */
#define RK_MAD_MAX_HOPS	     63
/* LIDs above are multicast, and 0xffff the permissive LID a port has before the SM gives it
 * one (IBA 4.1.3, 14.2.5.6) */
#define RK_UNICAST_LID_MAX 0xbfff

/** Whether a LID addresses one port: a MAD may be sent to it and an answer credited by it. */
static inline bool rk_lid_is_unicast(unsigned lid)
{
	return lid != 0 && lid <= RK_UNICAST_LID_MAX;
}

/* Methods (IBA 13.4.5) and the attributes rdmakit asks for (SMP: 14.2.5, PerfMgt: 16.1.3):
 * every file that builds or reads a MAD names them from here. */
#define RK_MAD_METHOD_GET	  0x01
#define RK_MAD_METHOD_SET	  0x02
#define RK_MAD_METHOD_REPORT	  0x06
#define RK_MAD_METHOD_DELETE	  0x15 /* SubnAdmDelete */
#define RK_MAD_METHOD_REPORT_RESP 0x86

#define RK_SMP_ATTR_NODE_INFO	0x0011
#define RK_SMP_ATTR_SWITCH_INFO 0x0012
#define RK_SMP_ATTR_PORT_INFO	0x0015
#define RK_SMP_ATTR_PKEY_TABLE	0x0016 /* P_KeyTable, one block of 32 P_Keys */
#define RK_SMP_ATTR_SL_TO_VL	0x0017 /* SLtoVLMappingTable */
#define RK_SMP_ATTR_LFT		0x0019 /* LinearForwardingTable, one block of 64 LIDs */
#define RK_SMP_ATTR_MFT		0x001b /* MulticastForwardingTable: 32 MLIDs, 16 ports */
#define RK_SMP_ATTR_SM_INFO	0x0020

#define RK_SA_ATTR_NOTICE	   0x0002
#define RK_SA_ATTR_INFORM_INFO	   0x0003
#define RK_SA_ATTR_MCMEMBER_RECORD 0x0038

#define RK_PMA_ATTR_CLASS_PORT_INFO	   0x0001
#define RK_PMA_ATTR_PORT_SAMPLES_CONTROL   0x0010
#define RK_PMA_ATTR_PORT_COUNTERS	   0x0012
#define RK_PMA_ATTR_PORT_VL_XMIT_WAIT	   0x001c /* PortVLXmitWaitCounters (optional) */
#define RK_PMA_ATTR_PORT_COUNTERS_EXTENDED 0x001d

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
	RK_MAD_CLASS_SA = 0x03, /* to the SA (the master SM's LID), class version 2 */
	RK_MAD_CLASS_PERF = 0x04,
};

#define RK_SA_CLASS_VERSION 2
#define RK_SA_DATA_OFFSET   56 /* an SA MAD's attribute data start here */
/* The default (link-local) subnet prefix of a port GID (IBA 4.1.1). */
#define RK_GID_LINK_LOCAL_PREFIX 0xfe80000000000000ULL

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
	uint64_t mkey;		 /* SMP M_Key (0 unless the SM protects ports with one) */
	uint64_t component_mask; /* SA: which fields of the record count */
	/* attribute data to send (Set, PMA port select): the first RK_MAD_SMP_DATA_SIZE bytes
	 * for an SMP, all for a PMA or SA MAD (an SA MAD's from RK_SA_DATA_OFFSET) */
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
	unsigned window;     /* GMPs (PMA) in flight at once (0: the default); SMPs: at most
			      * RK_MAD_SMP_WINDOW, and never more than this */
	unsigned timeout_ms; /* per attempt (0: the default) */
	unsigned retries;    /* extra attempts after a timeout (0: none) */
	const struct rk_cancel
	    *cancel; /* raised: the run ends at once with -ECANCELED (NULL: never) */
};

/* Totals of a queue's life: answered + timeouts + errors == requests completed. */
struct rk_mad_stats {
	size_t sent;	       /* MADs sent, retries included */
	size_t answered;       /* requests answered with MAD status 0 */
	size_t timeouts;       /* requests with no answer after all attempts */
	size_t retried;	       /* resends after an attempt timed out */
	size_t errors;	       /* requests failed otherwise (MAD status, send error, bad request) */
	size_t ignored;	       /* received MADs that matched no attempt in flight (late, stray) */
	size_t unsolicited;    /* received MADs nobody asked for, handed to a listener */
	size_t most_in_flight; /* the most MADs in flight at once */
	size_t most_to_one_agent; /* the most in flight at once to one destination's agent */
};

/* MADs the engine keeps in flight to one destination's agent (a LID's SMA or PMA, or one
 * directed-route path): a node's agent has little queue room, so a larger window spreads
 * over more nodes instead of queueing on one. GMPs (a PMA answers in its HCA's or switch's
 * firmware queue); SMPs, see RK_MAD_SMP_WINDOW. */
#define RK_MAD_MAX_PER_AGENT	 16
#define RK_MAD_SMP_MAX_PER_AGENT 4

/* Called as each request completes (answered, failed or timed out), in completion order, with
 * the engine's copy of the request (valid during the call). It may add requests to the queue;
 * it must not run the queue or close it. */
typedef void (*rk_mad_done_fn)(struct rk_mad_request *request, void *ctx);

/* A feed's next request: fill *request and return true, or return false when none is left. */
typedef bool (*rk_mad_next_fn)(struct rk_mad_request *request, void *ctx);

/* A MAD nobody asked for (an SA Report, a Trap), as received. */
struct rk_mad_received {
	const uint8_t *mad; /* the whole MAD */
	size_t length;
	uint16_t slid; /* who sent it */
	uint8_t sl;
	uint32_t qpn, qkey;
};

/* Called for each unsolicited MAD of a class and method a listener asked for. */
typedef void (*rk_mad_unsolicited_fn)(const struct rk_mad_received *mad, void *ctx);

/* A queue of requests on a port: the engine sends them (at most the window in flight, and
 * RK_MAD_MAX_PER_AGENT to one agent), retries, completes each, and hands unsolicited MADs to
 * the port's listeners while it runs. */
struct rk_mad_queue;

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

/** A Get(PortInfo) of the local port by a directed route of no hop into out: its MasterSMLID
 * is the master SM's (and the SA's) LID now, where sysfs sm_lid may lag. 0 or -errno. */
int rk_mad_master_sm_request(const struct rk_mad_port *port, struct rk_mad_request *out);

/** The MasterSMLID of an answered rk_mad_master_sm_request (0: none). */
uint16_t rk_mad_master_sm_lid(const struct rk_mad_request *answered);

/** Set every option to its default (then change what you need). */
void rk_mad_options_defaults(struct rk_mad_options *options);

/** A queue on the port; -EINVAL (logged) for bad options (NULL: defaults). */
int rk_mad_queue_open(struct rk_mad_port *port, const struct rk_mad_options *options,
		      struct rk_mad_queue **out);

/** Add a copy of request; done (may be NULL) is called with ctx when it completes. */
int rk_mad_queue_add(struct rk_mad_queue *queue, const struct rk_mad_request *request,
		     rk_mad_done_fn done, void *ctx);

/** Take requests from next as the window has room (the feed ends when next returns false):
 * memory stays bounded however many it yields. One feed at a time: -EBUSY otherwise. */
int rk_mad_queue_feed(struct rk_mad_queue *queue, rk_mad_next_fn next, rk_mad_done_fn done,
		      void *ctx);

/**
 * Run until every request added or fed is complete and listen_ms have passed, handing
 * unsolicited MADs to the port's listeners meanwhile. 0, or the -errno of a port that broke,
 * or -ECANCELED once the cancel token is raised: every open request is then completed with
 * that status (done called for each, a feed's remaining requests included). -EBUSY from a
 * done or listener callback.
 */
int rk_mad_queue_run(struct rk_mad_queue *queue, unsigned listen_ms);

/** The queue's totals so far. */
void rk_mad_queue_stats(const struct rk_mad_queue *queue, struct rk_mad_stats *stats);

/** Complete what is still open with -ECANCELED and free the queue (NULL: nothing). */
void rk_mad_queue_close(struct rk_mad_queue *queue);

/** Hand unsolicited MADs of mgmt_class (that class_version) and method to fn while a queue of
 * the port runs: registers an agent that asks the kernel for them. -EBUSY (logged) when another
 * agent on the host already receives them, -ENOSPC when the port has no room for a listener. */
int rk_mad_listen(struct rk_mad_port *port, uint8_t mgmt_class, uint8_t class_version,
		  uint8_t method, rk_mad_unsolicited_fn fn, void *ctx);

/** Answer an unsolicited MAD (a Report with RK_MAD_METHOD_REPORT_RESP): a copy of it with
 * that method, sent back to where it came from on its listener's agent. 0 or -errno (logged). */
int rk_mad_respond(struct rk_mad_port *port, const struct rk_mad_received *mad, uint8_t method);

/** Send every request of an array through a queue, calling done for each with the array's
 * element (its results filled in). Returns as rk_mad_queue_run; -EINVAL (bad options) or
 * -ECANCELED (cancelled before it began) without touching any request. */
int rk_mad_run(struct rk_mad_port *port, struct rk_mad_request *requests, size_t count,
	       const struct rk_mad_options *options, rk_mad_done_fn done, void *ctx,
	       struct rk_mad_stats *stats);

/** An SA request (Get or Set, method) to sa_lid for an MCMemberRecord of the port port_guid:
 * its PortGID (the default subnet prefix, which the SA does not match, and the GUID) in the
 * data and the component mask; the caller adds the other fields. */
void rk_sa_mcmember_request(struct rk_mad_request *request, uint16_t sa_lid, uint8_t method,
			    uint64_t port_guid);

/** Whether an SA request failed only because no record matches (ERR_NO_RECORDS, MAD status
 * bits 14-8 = 3: IBA 15.2.1.1). */
static inline bool rk_sa_no_records(const struct rk_mad_request *request)
{
	return request->status == -EIO && ((request->mad_status >> 8) & 0x7f) == 3;
}

/** The attribute data of an answered request. */
static inline const uint8_t *rk_mad_reply_data(const struct rk_mad_request *request)
{
	return request->reply + RK_MAD_DATA_OFFSET;
}

#endif
