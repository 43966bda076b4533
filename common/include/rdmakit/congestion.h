/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Where the fabric is congested: each swept port's PortXmitWait over the last interval, as a
 * share of the interval where the tick is known (and the bandwidth its link lost to it), else
 * per data sent; ranked, and the PORT_CONGESTED rule (over a threshold for two intervals in a
 * row). */
#ifndef RDMAKIT_CONGESTION_H
#define RDMAKIT_CONGESTION_H

#include "rdmakit/fabric.h"
#include "rdmakit/findings.h"
#include "rdmakit/sweep.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PORT_CONGESTED when a port waited at least this share of the interval (percent), see
 * docs/congestion.md for why 10. */
#define RK_CONGESTION_THRESHOLD_DEFAULT 10.0
/* Intervals in a row over the threshold before PORT_CONGESTED is raised. */
#define RK_CONGESTION_SUSTAIN 2
/* Where the tick is unknown: PortXmitWait ticks per 4-byte word sent that count as congested
 * (the host rule's warning level, RK_CONGESTION_WARNING_RATIO), and the rise below which the
 * wait is noise (RK_CONGESTION_MIN_TICKS). */
#define RK_CONGESTION_PER_WORD	  0.1
#define RK_CONGESTION_NOISE_TICKS 1000

/* The JSON keys of a ranked port's wait (sweep --top) beside its share of the interval, whose key
 * is the fact's (RK_FACT_FABRIC_COUNTER_XMIT_WAIT in facts.h, with its help, unit, collectd
 * type and MIB column). */
#define RK_XMIT_WAIT_PER_WORD_KEY "xmit_wait_per_word"
#define RK_XMIT_WAIT_TICKS_KEY	  "xmit_wait_ticks"
#define RK_XMIT_WAIT_TICK_NS_KEY  "tick_ns"
#define RK_XMIT_WAIT_BASIS_KEY	  "basis"
#define RK_XMIT_DATA_RATE_KEY	  "xmit_data_rate"

struct rk_congestion_options {
	double threshold; /* PORT_CONGESTED at this % of the interval and over (0: the default) */
	double tick_ns;	  /* one PortXmitWait tick on every port, in ns (0: PortSamplesControl) */
};

/* What a port's wait over the last interval is measured against. */
enum rk_wait_basis {
	RK_WAIT_NONE,	   /* no change known (first sweep, no answer, a counter unavailable) */
	RK_WAIT_SATURATED, /* port_xmit_wait stuck at its maximum (0xFFFFFFFF): nothing known */
	RK_WAIT_TIME,	   /* the tick is known: a share of the interval */
	RK_WAIT_PER_DATA,  /* the tick is unknown: ticks per 4-byte word sent */
};

/* One port's transmit wait over the last interval. */
struct rk_port_wait {
	size_t index; /* into the sweep's ports */
	enum rk_wait_basis basis;
	uint64_t ticks;	  /* port_xmit_wait's rise */
	double tick_ns;	  /* one tick (RK_WAIT_TIME), else 0 */
	double percent;	  /* of the interval spent waiting (RK_WAIT_TIME), else -1 */
	double lost_gbps; /* of the link's data rate lost to the wait (RK_WAIT_TIME), else -1 */
	double per_word;  /* ticks per 4-byte word sent (a word when none was), -1 unknown */
	double data_rate; /* port_xmit_data in bytes per second, -1 unknown */
	double score;	  /* the wait over its threshold (>= 1: congested); -1 not ranked */
};

/** "time", "per_data", "saturated" or "none". */
const char *rk_wait_basis_name(enum rk_wait_basis basis);

/** One PortXmitWait tick in ns as the IBTA defines it: symbols (PortSamplesControl Tick + 1)
 * symbol times, a symbol time being one byte on one lane at the speed (4 ns at SDR); 0 when
 * either is unknown. (A port's tick divides this by its width on NVIDIA Quantum switches.) */
double rk_xmit_wait_tick_ns(unsigned symbols, enum rk_speed speed);

/** Gb/s a link lost to waiting over an interval of seconds: the share of it that ticks of
 * tick_ns add up to (all of it at most) times the link's data rate (its lanes times a lane's
 * data rate after line encoding); -1 when the tick, the interval or the rate is not known. */
double rk_lost_bandwidth_gbps(uint64_t ticks, double tick_ns, double seconds, double link_gbps);

/** The wait of the sweep's port index over the sweep's last interval. */
void rk_port_wait_of(const struct rk_fabric *fabric, const struct rk_sweep *sweep, size_t index,
		     const struct rk_congestion_options *options, struct rk_port_wait *out);

/** After a sweep: each port's xmit_wait and lost_gbps, and its count of congested intervals in
 * a row (kept when its wait is unknown this time, reset when it is saturated or under the
 * threshold). */
void rk_congestion_update(struct rk_sweep *sweep, const struct rk_fabric *fabric,
			  const struct rk_congestion_options *options);

/** *out: every port with a wait (basis time or per data), most congested first (highest
 * score, then most ticks); saturated ones last. 0 or -ENOMEM. */
int rk_congestion_rank(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
		       const struct rk_congestion_options *options, struct rk_port_wait **out,
		       size_t *count);

/** PORT_CONGESTED for each port congested RK_CONGESTION_SUSTAIN intervals in a row. */
int rk_health_check_congestion(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
			       const struct rk_congestion_options *options,
			       struct rk_findings *findings);

#endif
