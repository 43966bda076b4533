/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* One active fabric watcher per subnet: the lease record in the SA, read and written. */
#include "rdmakit/election.h"

#include "rdmakit/clock.h"
#include "rdmakit/log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ServiceRecord fields (IBA 15.2.5.14), from the start of the SA data. */
#define SR_ID	     0
#define SR_GID	     8
#define SR_PKEY	     24
#define SR_LEASE     28
#define SR_NAME	     48
#define SR_DATA32    144 /* [0]: the holder's priority, [1]: its role setting */
#define SR_DATA64    160 /* [0]: the holder's port GUID */
#define SR_NAME_SIZE 64

#define CM_ID	  (1ULL << 0)
#define CM_GID	  (1ULL << 1)
#define CM_LEASE  (1ULL << 4)
#define CM_NAME	  (1ULL << 6)
#define CM_DATA32 (1ULL << 31) /* ServiceData32.0: the first of four */
#define CM_DATA64 (1ULL << 35)

#define DEFAULT_PKEY   0xffff
#define WATCHER_GID_ID 0x00726d6b69740000ULL /* a fixed GID every watcher shares */
#define RANK_STEP_S    0.01		     /* claim delay per priority step below 255 */
#define CONFIRM_S      1.0		     /* a claim is read back this long after it was taken */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

void rk_election_init(struct rk_election *election, enum rk_role_setting setting, unsigned priority,
		      double lease_s, const char *name)
{
	memset(election, 0, sizeof(*election));
	election->setting = setting;
	election->priority = priority > 255 ? 255 : priority;
	election->lease_s = lease_s;
	election->active = setting == RK_ROLE_ACTIVE;
	election->started_at = rk_monotonic_seconds();
	snprintf(election->name, sizeof(election->name), "%s", name ? name : "");
}

/* The record's key (ServiceID, ServiceGID, ServiceP_Key) in a request to the SA. The P_Key
 * stays out of the component mask: with it, OpenSM wants the ServiceGID to be a port's. */
static void record_request(struct rk_mad_request *r, const struct rk_election *e, uint8_t method)
{
	*r = (struct rk_mad_request){.route = RK_MAD_LID,
				     .mgmt_class = RK_MAD_CLASS_SA,
				     .lid = e->sa_lid,
				     .method = method,
				     .attr_id = RK_SA_ATTR_SERVICE_RECORD,
				     .component_mask = CM_ID | CM_GID};
	put64(r->data + SR_ID, RK_WATCHER_SERVICE_ID);
	put64(r->data + SR_GID, RK_GID_LINK_LOCAL_PREFIX);
	put64(r->data + SR_GID + 8, WATCHER_GID_ID);
	put16(r->data + SR_PKEY, DEFAULT_PKEY);
}

static void written(struct rk_mad_request *request, void *ctx);

/* Write our record: take the lease, or refresh it. */
static void write_record(struct rk_election *e)
{
	struct rk_mad_request r;

	record_request(&r, e, RK_MAD_METHOD_SET);
	r.component_mask |= CM_LEASE | CM_NAME | CM_DATA32 | CM_DATA32 << 1 | CM_DATA64;
	put32(r.data + SR_LEASE, (uint32_t)e->lease_s);
	snprintf((char *)r.data + SR_NAME, SR_NAME_SIZE, "%s", e->name);
	put32(r.data + SR_DATA32, e->priority);
	put32(r.data + SR_DATA32 + 4, (uint32_t)e->setting);
	put64(r.data + SR_DATA64, e->guid);
	if (rk_mad_queue_add(e->queue, &r, written, e) != 0)
		e->in_flight = false;
}

/* Become active or standby, saying so when it changes. */
static void set_role(struct rk_election *e, bool active)
{
	if (active == e->active && e->announced)
		return;
	e->active = active;
	e->announced = true;
	if (active)
		rk_log(RK_LOG_INFO, "fabric watcher: active (the SA's record at LID %u is ours)",
		       (unsigned)e->sa_lid);
	else
		rk_log(RK_LOG_INFO, "fabric watcher: standby; %s%s is active", e->holder,
		       e->holder[0] ? "" : "no watcher");
}

static void written(struct rk_mad_request *request, void *ctx)
{
	struct rk_election *e = ctx;
	double now = rk_monotonic_seconds();

	e->in_flight = false;
	e->status = request->status;
	if (request->status == -EIO && !e->active) {
		/* an SA without ServiceRecords: no election to be had, watch as if alone */
		rk_log(RK_LOG_WARNING,
		       "fabric watcher: the SA at LID %u refuses ServiceRecords (MAD status "
		       "0x%04x): active as if alone; other watchers of this subnet sweep too",
		       (unsigned)e->sa_lid, (unsigned)request->mad_status);
		set_role(e, true);
		return;
	}
	if (request->status) {
		rk_log(RK_LOG_DEBUG, "fabric watcher: the SA at LID %u did not take our record",
		       (unsigned)e->sa_lid);
		return;
	}
	e->written_at = now;
	if (!e->active || e->setting == RK_ROLE_ACTIVE)
		e->next_at = now + CONFIRM_S; /* a claim: read back before it counts */
}

/* How long a candidate waits, once the record is gone, before it claims: the one that was
 * active at once, the others by priority (then GUID), so that the first claim is the best. */
static double claim_delay(const struct rk_election *e)
{
	if (e->active)
		return 0;
	return (255 - e->priority) * RANK_STEP_S + (double)(e->guid % 97) / 1000;
}

/* No live record: claim it when our delay has passed (standby: never). */
static void no_record(struct rk_election *e, double now)
{
	if (!e->missing_since)
		e->missing_since = now;
	e->holder[0] = '\0';
	e->holder_guid = 0;
	if (e->setting == RK_ROLE_STANDBY) {
		e->in_flight = false;
		return;
	}
	if (!e->active && now < e->grace_until) {
		e->in_flight = false; /* a new master: the active watcher's turn to claim first */
		e->next_at = e->grace_until;
		return;
	}
	if (now - e->missing_since >= claim_delay(e)) {
		write_record(e);
		return;
	}
	e->in_flight = false;
	e->next_at = e->missing_since + claim_delay(e);
}

/* A live record: ours (refresh it, and we are active) or another's (standby, unless forced). */
static void record_read(struct rk_election *e, const uint8_t *sr, double now)
{
	uint64_t holder = get64(sr + SR_DATA64);

	e->missing_since = 0;
	e->seen_at = now;
	e->holder_guid = holder;
	snprintf(e->holder, sizeof(e->holder), "%.*s", RK_WATCHER_NAME_MAX - 1,
		 (const char *)sr + SR_NAME);
	e->several = e->setting == RK_ROLE_ACTIVE && holder != e->guid;
	if (holder == e->guid) {
		set_role(e, true);
		write_record(e); /* refresh the lease */
		return;
	}
	set_role(e, e->setting == RK_ROLE_ACTIVE);
	e->in_flight = false;
}

static void read_done(struct rk_mad_request *request, void *ctx)
{
	struct rk_election *e = ctx;
	double now = rk_monotonic_seconds();
	bool none = rk_sa_no_records(request);

	e->status = none ? 0 : request->status;
	if (request->status == 0)
		record_read(e, request->reply + RK_SA_DATA_OFFSET, now);
	else if (none)
		no_record(e, now);
	else
		e->in_flight = false;
	/* an active watcher that could not refresh for a lease has lost its record */
	if (e->active && e->setting == RK_ROLE_AUTO && now - e->written_at > e->lease_s) {
		e->holder[0] = '\0';
		set_role(e, false);
	}
}

static void read_record(struct rk_election *e)
{
	struct rk_mad_request r;

	record_request(&r, e, RK_MAD_METHOD_GET);
	if (rk_mad_queue_add(e->queue, &r, read_done, e) != 0)
		e->in_flight = false;
}

/* The local PortInfo: its MasterSMLID is the SA to ask (a new master has no records). */
static void master_read(struct rk_mad_request *request, void *ctx)
{
	struct rk_election *e = ctx;
	uint16_t master;

	if (request->status) {
		e->status = request->status;
		e->in_flight = false;
		return;
	}
	master = rk_mad_master_sm_lid(request);
	if (master != e->sa_lid && e->sa_lid) {
		rk_log(RK_LOG_INFO, "fabric watcher: the master SM moved from LID %u to %u",
		       (unsigned)e->sa_lid, (unsigned)master);
		/* it has no records: the active watcher claims first, within its next turn */
		e->grace_until = rk_monotonic_seconds() + e->lease_s / 3 + CONFIRM_S;
	}
	e->sa_lid = master;
	if (!master) {
		e->in_flight = false;
		return;
	}
	read_record(e);
}

int rk_election_turn(struct rk_election *election, struct rk_mad_queue *queue,
		     struct rk_mad_port *port)
{
	struct rk_election *e = election;
	struct rk_mad_request request;
	struct rk_mad_local local;
	double now = rk_monotonic_seconds();
	int err;

	if (e->in_flight || now < e->next_at)
		return 0;
	err = rk_mad_port_local(port, &local);
	if (!err)
		err = rk_mad_master_sm_request(port, &request);
	if (err)
		return err;
	e->guid = local.port_guid;
	e->queue = queue;
	e->next_at = now + e->lease_s / 3;
	err = rk_mad_queue_add(queue, &request, master_read, e);
	e->in_flight = err == 0;
	return err;
}

int rk_election_resign(struct rk_election *election, struct rk_mad_queue *queue)
{
	struct rk_mad_request r;

	if (!election->active || !election->sa_lid || !election->written_at)
		return 0;
	record_request(&r, election, RK_MAD_METHOD_DELETE);
	election->active = false;
	rk_log(RK_LOG_INFO, "fabric watcher: stopping: our record in the SA is deleted");
	return rk_mad_queue_add(queue, &r, NULL, NULL);
}

void rk_election_alone(struct rk_election *election)
{
	if (!election->active)
		rk_log(RK_LOG_INFO, "fabric watcher: no election without a umad port: active as if "
				    "alone");
	election->active = election->announced = true;
	election->in_flight = false;
	election->next_at = rk_monotonic_seconds() + election->lease_s / 3;
}

double rk_election_wait(const struct rk_election *election)
{
	double left = election->next_at - rk_monotonic_seconds();

	return election->in_flight || left < 0 ? 0 : left;
}

int rk_election_findings(const struct rk_election *election, struct rk_findings *findings)
{
	const struct rk_election *e = election;
	double since = e->seen_at > e->started_at ? e->seen_at : e->started_at;

	if (e->several)
		return rk_findings_add(
		    findings, RK_SEVERITY_WARNING, "SEVERAL_ACTIVE_WATCHERS", "fabric",
		    "set FabricRole auto (fabric-role auto) on every watcher of the subnet, or "
		    "stop one: each active watcher sweeps every port",
		    "this watcher is set active and so is %s (port GUID 0x%016llx)", e->holder,
		    (unsigned long long)e->holder_guid);
	if (e->active || rk_monotonic_seconds() - since <= e->lease_s)
		return 0;
	return rk_findings_add(
	    findings, RK_SEVERITY_WARNING, "NO_ACTIVE_WATCHER", "fabric",
	    e->setting == RK_ROLE_STANDBY
		? "start a watcher with FabricRole auto or active: this one "
		  "is set standby"
		: "check that the SA takes ServiceRecords from this port (the "
		  "SM's log) and that the master SM answers",
	    "no fabric watcher has been active for over %.0f s: the fabric is not "
	    "swept (the last SA exchange: %s)",
	    e->lease_s,
	    e->status == -ETIMEDOUT ? "no answer"
	    : e->status		    ? "refused"
				    : "no record");
}

int rk_role_setting_parse(const char *text, enum rk_role_setting *out)
{
	static const char *const names[] = {
	    [RK_ROLE_AUTO] = "auto", [RK_ROLE_ACTIVE] = "active", [RK_ROLE_STANDBY] = "standby"};

	for (size_t i = 0; text && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(text, names[i]) == 0) {
			*out = (enum rk_role_setting)i;
			return 0;
		}
	return -EINVAL;
}

const char *rk_election_role_name(const struct rk_election *election)
{
	return election->active ? "active" : "standby";
}
