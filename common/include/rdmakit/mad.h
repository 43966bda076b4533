/* A umad port and an engine that keeps many MADs in flight (window, timeout, retries). */
#ifndef RDMAKIT_MAD_H
#define RDMAKIT_MAD_H

#include <stddef.h>
#include <stdint.h>

#define RK_MAD_SIZE	   256
#define RK_MAD_DATA_OFFSET 64 /* SMP and PMA attribute data start here */
#define RK_MAD_MAX_HOPS	   63

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
	uint16_t lid;			   /* RK_MAD_LID target */
	uint8_t path[RK_MAD_MAX_HOPS + 1]; /* RK_MAD_DIRECTED: path[1..hops] are port numbers */
	uint8_t hops;
	uint8_t method; /* 0x01 Get, 0x02 Set */
	uint16_t attr_id;
	uint32_t attr_mod;
	uint8_t
	    data[RK_MAD_SIZE - RK_MAD_DATA_OFFSET]; /* attribute data to send (Set, PMA select) */
	void *user;				    /* the caller's context */
	/* results */
	int status;	     /* 0 answered; -ETIMEDOUT after all retries; -EIO bad MAD status */
	uint16_t mad_status; /* status field of the answer */
	unsigned attempts;   /* sends, retries included */
	uint8_t reply[RK_MAD_SIZE];
};

/* How the engine sends. */
struct rk_mad_options {
	unsigned window;     /* MADs in flight at once (default 32) */
	unsigned timeout_ms; /* per attempt (default 200) */
	unsigned retries;    /* extra attempts after a timeout (default 2) */
};

/* Totals of one run. */
struct rk_mad_stats {
	size_t sent, answered, timeouts, retried, errors;
};

/* Called as each request completes (answered, failed or timed out), in completion order. */
typedef void (*rk_mad_done_fn)(struct rk_mad_request *request, void *ctx);

/** Open the umad port of ca (NULL: the first) and port (0: the first active one). */
int rk_mad_port_open(const char *ca, int port, struct rk_mad_port **out);

/** Close the port and unregister its agents. */
void rk_mad_port_close(struct rk_mad_port *port);

/** The local port's CA name, port number, LIDs, GUID and state. */
int rk_mad_port_local(const struct rk_mad_port *port, struct rk_mad_local *local);

/** Fill in defaults for zero fields of options. */
void rk_mad_options_defaults(struct rk_mad_options *options);

/** Send every request, at most options->window in flight, calling done for each. */
int rk_mad_run(struct rk_mad_port *port, struct rk_mad_request *requests, size_t count,
	       const struct rk_mad_options *options, rk_mad_done_fn done, void *ctx,
	       struct rk_mad_stats *stats);

/** The attribute data of an answered request. */
static inline const uint8_t *rk_mad_reply_data(const struct rk_mad_request *request)
{
	return request->reply + RK_MAD_DATA_OFFSET;
}

#endif
