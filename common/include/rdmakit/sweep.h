/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A sweep of PortCounters (and PortCountersExtended where supported) over a whole fabric. */
#ifndef RDMAKIT_SWEEP_H
#define RDMAKIT_SWEEP_H

#include "rdmakit/catalog.h"
#include "rdmakit/counters.h"
#include "rdmakit/fabric.h"
#include "rdmakit/mad.h"

#include <stdbool.h>
#include <stdint.h>

/* As many as rk_catalog_pma() lists. */
#define RK_SWEEP_COUNTERS RK_PMA_COUNT
/* PortVLXmitWaitCounters has a counter for each of VL 0 to 15. */
#define RK_SWEEP_VLS 16

/* The counters of one port, indexed like rk_catalog_pma(). */
struct rk_sweep_port {
	uint64_t node_guid;
	int node; /* index into the fabric's nodes */
	uint8_t port;
	uint16_t lid;
	bool lid_shared; /* another node of the view has this LID too: whose answers are whose
			  * is asked (NodeInfo) at every sweep */
	int status;	 /* 0 answered, -ETIMEDOUT, -EIO */
	bool extended;	 /* data counters came from PortCountersExtended (64-bit) */
	bool sampled;	 /* raw[] holds a sample */
	bool has_delta;
	uint32_t counted; /* bit c: counter c has read non-zero (kept over rediscoveries) */
	uint64_t raw[RK_SWEEP_COUNTERS];  /* this sample, as the PMA gives it */
	uint64_t prev[RK_SWEEP_COUNTERS]; /* the sample before */
	uint8_t state[RK_SWEEP_COUNTERS]; /* enum rk_value_state of raw[] */
	uint8_t prev_state[RK_SWEEP_COUNTERS];
	uint8_t congested;   /* intervals in a row over the congestion threshold (congestion.h) */
	uint8_t unanswered;  /* sweeps in a row it did not answer (PORT_NO_ANSWER) */
	bool no_answer_held; /* it answers again after PORT_NO_ANSWER, not yet for
			      * rk_sweep_no_answer_clear_sweeps() in a row: the finding stays */
	uint8_t answered_again;	 /* ... the sweeps in a row it has answered since */
	uint8_t no_answer_flaps; /* ... times it answered and then failed again (raises and
				  * clears later) */
	uint8_t probation;	 /* after PORT_NO_ANSWER cleared: answered sweeps in a row left
				  * before its flaps are forgotten (RK_NO_ANSWER_PROBATION_SWEEPS) */
	int last_failure;	 /* the status of its last sweep without an answer */
	uint8_t since_rise;  /* answered sweeps since an error counter last rose (ERRORS_RISING);
			      * UINT8_MAX when none has */
	uint8_t rise_flaps;  /* times its errors rose again after a quiet sweep while
			      * ERRORS_RISING was raised (it clears later) */
	double went_back_at; /* monotonic seconds when a counter last went back (the node
			      * rebooted, or they were cleared): a discontinuity; 0 never */
	double xmit_wait;    /* % of the last interval port_xmit_wait counted, -1 unknown (idem) */
	double lost_gbps;    /* Gb/s the link lost to that wait (congestion.h), -1 unknown */
	/* PortVLXmitWaitCounters where rk_sweep.vl_wait asks for them (rk_sweep_vl_waits) */
	uint16_t vl_raw[RK_SWEEP_VLS];	/* the last reading */
	uint16_t vl_rise[RK_SWEEP_VLS]; /* each VL's rise over the last interval */
	uint16_t vl_saturated; /* bit v: VL v's counter is at its maximum: it rose by vl_rise[v]
				* or more (0: by how much is not known) */
	bool vl_current; /* vl_raw is as of the last sweep (read then, or the port did not wait) */
	bool vl_known;	 /* vl_rise and vl_saturated are the last interval's */
};

/* The ports of a fabric and the last sweep over them. */
struct rk_sweep {
	struct rk_sweep_port *ports; /* sorted by node GUID and port */
	size_t count;
	size_t answered, failed;
	double seconds;	     /* wall time of the last sweep */
	double interval;     /* seconds between the last two sweeps, 0 before the second */
	double last_time;    /* monotonic time of the last sweep */
	bool topology_stale; /* the last sweep saw signs the fabric changed: rediscover */
	bool errors_only; /* set by the caller: each switch's sum first, ports with errors only */
	bool vl_wait; /* set by the caller: PortVLXmitWaitCounters of the ports whose wait rose (of
		       * every port at its first sweep: the reading the next rise starts from) */
	struct rk_mad_stats stats;
};

/* One port's last sample as a published snapshot keeps it: what the front ends read of an
 * rk_sweep_port, without the sample before it (which only the sweep and its rules use). */
struct rk_sweep_reading {
	uint64_t node_guid;
	int node;	  /* index into the fabric's nodes */
	int status;	  /* 0 answered, -ETIMEDOUT, -EIO */
	uint32_t counted; /* bit c: counter c has read non-zero */
	uint8_t port;
	bool sampled;			   /* value[] holds a sample */
	uint8_t state[RK_SWEEP_COUNTERS];  /* enum rk_value_state of value[] */
	uint64_t value[RK_SWEEP_COUNTERS]; /* rk_sweep_value: in the catalog's unit */
	double xmit_wait;    /* rk_sweep_port.xmit_wait: % of the last interval, -1 unknown */
	double lost_gbps;    /* rk_sweep_port.lost_gbps: Gb/s, -1 unknown */
	double went_back_at; /* rk_sweep_port.went_back_at */
};

/* What a published snapshot keeps of a sweep: its counts, its time, each port's last sample. */
struct rk_sweep_readings {
	struct rk_sweep_reading *ports; /* as the sweep's: sorted by node GUID and port */
	size_t count, answered, failed;
	double seconds; /* the sweep's own time (rk_sweep.seconds) */
};

/* One VL's wait over the last interval (PortVLXmitWaitCounters). */
struct rk_vl_wait {
	uint8_t vl;
	uint16_t ticks; /* its rise */
	bool saturated; /* its counter is at its maximum: ticks is a lower bound (0: unknown) */
};

/* Called as MADs complete, for progress on a terminal. */
typedef void (*rk_sweep_progress_fn)(size_t done, size_t total, void *ctx);

/** (Re)build the port list from fabric, keeping the samples of ports already known. */
int rk_sweep_prepare(struct rk_sweep *sweep, const struct rk_fabric *fabric);

/** Query every port's counters; fills values, saturation states and deltas. */
int rk_sweep_run(struct rk_mad_port *port, struct rk_fabric *fabric, struct rk_sweep *sweep,
		 const struct rk_mad_options *options, rk_sweep_progress_fn progress, void *ctx);

/** Why a port was not read, from its status: "timeout", "error status", "no LID: ...". */
const char *rk_sweep_status_text(int status);

/** Clear the error counters whose CounterSelect bits are in select_mask, on every port. */
int rk_sweep_reset(struct rk_mad_port *port, const struct rk_sweep *sweep, uint32_t select_mask,
		   const struct rk_mad_options *options, size_t *failed);

/** CounterSelect bit mask for a comma-separated list of error counter names; -EINVAL. */
int rk_sweep_reset_mask(const char *names, uint32_t *mask);

/** Sweeps in a row without an answer that raise the port's PORT_NO_ANSWER (more when it
 * flapped). */
unsigned rk_sweep_no_answer_raise_sweeps(const struct rk_sweep_port *port);

/** Answered sweeps in a row that clear the port's PORT_NO_ANSWER (more when it flapped). */
unsigned rk_sweep_no_answer_clear_sweeps(const struct rk_sweep_port *port);

/** Quiet sweeps in a row that clear the port's ERRORS_RISING (more when it flapped). */
unsigned rk_sweep_errors_quiet_sweeps(const struct rk_sweep_port *port);

/** Whether an error counter of the port's last sample is non-zero (what --errors-only shows). */
bool rk_sweep_port_has_errors(const struct rk_sweep_port *port);

/** Value of counter c in the catalog's unit (raw times scale: data counters in bytes). */
uint64_t rk_sweep_value(const struct rk_sweep_port *port, size_t c);

/** Whether the change of counter c between the port's last two samples is known (both
 * samples have it, from MADs of the same width). */
bool rk_sweep_delta_known(const struct rk_sweep_port *port, size_t c);

/** Change of counter c between the port's last two samples, in the catalog's unit; 0 if unknown. */
uint64_t rk_sweep_delta(const struct rk_sweep_port *port, size_t c);

/** out: the VLs of the port that waited over the last interval (risen or saturated), in VL
 * order; how many, or -1 when not known (not asked, not answered, no such attribute). */
int rk_sweep_vl_waits(const struct rk_sweep_port *port, struct rk_vl_wait out[RK_SWEEP_VLS]);

/** Free the port list. */
void rk_sweep_free(struct rk_sweep *sweep);

/** out: the last sample of every port of sweep, with storage of its own; 0 or -ENOMEM (out then
 * empty). */
int rk_sweep_readings_make(const struct rk_sweep *sweep, struct rk_sweep_readings *out);

/** Free the readings' ports. */
void rk_sweep_readings_free(struct rk_sweep_readings *readings);

#endif
