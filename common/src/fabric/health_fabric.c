/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Health rules over the fabric, its subnet managers and its counter sweeps. */
#include "rdmakit/health.h"

#include "rdmakit/limits.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int check_master_hung(const struct rk_sm_status *prev, const struct rk_sm *master,
			     struct rk_findings *out)
{
	const struct rk_sm *before = prev ? rk_sm_master(prev) : NULL;
	char subject[32];

	if (!before || before->guid != master->guid ||
	    before->activity_count != master->activity_count)
		return 0;
	snprintf(subject, sizeof(subject), "SM lid %u", master->lid);
	return rk_findings_add(out, RK_SEVERITY_CRITICAL, "SM_HUNG", subject,
			       "check the opensm process and its log (/var/log/opensm.log); "
			       "restart it or let a standby take over",
			       "master SM's activity count stayed at %u between two samples",
			       master->activity_count);
}

/* Whether the local port points at an SM other than the master of status. */
static bool local_sm_lid_differs(const struct rk_sm_status *status)
{
	const struct rk_sm *master = rk_sm_master(status);

	return master && status->local_sm_lid != master->lid;
}

/* The local port's SM LID is not the master's, now and (when there was a query before) then
 * too: a new master sets it with its first sweep, which one query may come before. */
static int check_local_sm_lid(const struct rk_sm_status *prev, const struct rk_sm_status *sm,
			      const struct rk_sm *master, struct rk_findings *out)
{
	if (!local_sm_lid_differs(sm) || (prev && !local_sm_lid_differs(prev)))
		return 0;
	return rk_findings_add(out, RK_SEVERITY_WARNING, "SM_LID_MISMATCH", "local port",
			       "wait for the SM's next sweep; if it persists, check the SM log "
			       "for errors configuring this port",
			       "local port's SM LID is %u but the master SM is at LID %u",
			       sm->local_sm_lid, master->lid);
}

int rk_health_check_sm(const struct rk_sm_status *prev, const struct rk_sm_status *sm,
		       struct rk_findings *out)
{
	struct rk_sm_summary summary;
	const struct rk_sm *master;
	size_t masters;
	int err;

	rk_sm_summarize(sm, &summary);
	master = summary.master;
	masters = summary.in_state[RK_SM_MASTER];
	if (!master)
		return rk_findings_add(out, RK_SEVERITY_CRITICAL, "SM_NO_MASTER", "subnet",
				       "start opensm on a management node (systemctl start opensm) "
				       "or enable the switch's SM",
				       "no subnet manager answered as MASTER (%zu queried)",
				       sm->count);
	if (masters > 1)
		return rk_findings_add(
		    out, RK_SEVERITY_CRITICAL, "SM_MULTIPLE_MASTERS", "subnet",
		    "keep one master: give the SMs distinct priorities and check "
		    "for a split subnet",
		    "%zu subnet managers claim MASTER", masters);
	err = check_master_hung(prev, master, out);
	if (!err && summary.in_state[RK_SM_STANDBY] == 0)
		err = rk_findings_add(out, RK_SEVERITY_WARNING, "SM_NO_STANDBY", "subnet",
				      "run a standby opensm on another node, at a lower priority",
				      "master SM at LID %u has no standby behind it", master->lid);
	if (!err)
		err = check_local_sm_lid(prev, sm, master, out);
	return err;
}

static void link_subject(const struct rk_fabric *fabric, const struct rk_fabric_link *link,
			 char *buf, size_t size)
{
	snprintf(buf, size, "%s[%d]-%s[%d]", fabric->nodes[link->node_a].name, link->port_a,
		 fabric->nodes[link->node_b].name, link->port_b);
}

/* Locate the finding just added (when there was one) at a node's port. */
static int located(int err, struct rk_findings *out, uint64_t node_guid, int port)
{
	if (!err)
		rk_findings_locate(out, node_guid, port);
	return err;
}

static int check_link(const struct rk_fabric *fabric, const struct rk_fabric_link *link,
		      struct rk_findings *out)
{
	uint64_t guid = fabric->nodes[link->node_a].guid;
	char subject[RK_FINDING_SUBJECT_MAX];
	int err = 0;

	link_subject(fabric, link, subject, sizeof(subject));
	if (rk_link_degraded(link))
		err = located(rk_findings_add(
				  out, RK_SEVERITY_WARNING, "LINK_DEGRADED", subject,
				  "reseat or replace the cable; check both ports' "
				  "error counters",
				  "link runs %dX %s, %s", link->width, rk_speed_name(link->speed),
				  link->below_enabled ? "below what both ends have enabled"
						      : "below most links between the same models"),
			      out, guid, link->port_a);
	if (!err && link->ends_disagree)
		err =
		    located(rk_findings_add(out, RK_SEVERITY_WARNING, "LINK_ENDS_DISAGREE", subject,
					    "rediscover; if it persists, check both ports' "
					    "PortInfo",
					    "the two ends report different width or speed"),
			    out, guid, link->port_a);
	return err;
}

static int check_went_down(const struct rk_fabric *prev, const struct rk_fabric *fabric,
			   struct rk_findings *out)
{
	int err = 0;

	for (size_t n = 0; prev && n < fabric->nnodes && !err; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];
		int before = rk_fabric_find_node(prev, node->guid);

		for (int p = 1; before >= 0 && p <= node->nports && !err; p++) {
			const struct rk_fabric_node *old = &prev->nodes[before];
			char subject[RK_FINDING_SUBJECT_MAX];

			if (p > old->nports || old->ports[p].state != 4 ||
			    node->ports[p].state != 1)
				continue;
			rk_fabric_port_label(fabric, n, p, subject, sizeof(subject));
			err = located(
			    rk_findings_add(out, RK_SEVERITY_WARNING, "PORT_WENT_DOWN", subject,
					    "check the cable and the node at the other end",
					    "port was ACTIVE at the previous discovery and "
					    "is now DOWN (physical state %d)",
					    node->ports[p].phys_state),
			    out, node->guid, p);
		}
	}
	return err;
}

/* Ports whose link is up but whose peer discovery did not reach: that part is not read. */
static int check_unreached(const struct rk_fabric *fabric, struct rk_findings *out)
{
	int err = 0;

	for (size_t n = 0; n < fabric->nnodes && !err; n++) {
		const struct rk_fabric_node *node = &fabric->nodes[n];

		for (int p = 1; p <= node->nports && !err; p++) {
			char subject[RK_FINDING_SUBJECT_MAX];

			if (!rk_fabric_port_unreached(node, p))
				continue;
			rk_fabric_port_label(fabric, n, p, subject, sizeof(subject));
			err = located(
			    rk_findings_add(out, RK_SEVERITY_WARNING, "NODE_UNREACHED", subject,
					    "check the node behind this port (powered, its SMA "
					    "answering: smpquery nodeinfo through this port), "
					    "lost MADs on the path, and a GUID used twice",
					    "the link is up, but discovery did not reach the node "
					    "behind it: its ports are not read"),
			    out, node->guid, p);
		}
	}
	return err;
}

int rk_health_check_fabric(const struct rk_fabric *prev, const struct rk_fabric *fabric,
			   struct rk_findings *out)
{
	size_t unused = 0;
	int err = 0;

	for (size_t i = 0; i < fabric->nlinks && !err; i++) {
		err = check_link(fabric, &fabric->links[i], out);
		unused += fabric->links[i].unused_supported;
	}
	if (!err)
		err = check_went_down(prev, fabric, out);
	if (!err)
		err = check_unreached(fabric, out);
	if (!err && unused)
		err = rk_findings_add(out, RK_SEVERITY_OK, "LINK_SPEED_NOT_ENABLED", "fabric",
				      "nothing to do unless the faster speed is wanted (enable it "
				      "in the SM or switch configuration)",
				      "%zu links support a faster speed or width than both ends "
				      "enable",
				      unused);
	return err;
}

static void sweep_subject(const struct rk_fabric *fabric, const struct rk_sweep_port *p, char *buf,
			  size_t size)
{
	rk_fabric_port_label(fabric, (size_t)p->node, p->port, buf, size);
}

/* "symbol_error +3, link_downed +1" and the saturated counters of one swept port. */
static void list_sweep_counters(const struct rk_sweep_port *p, char *rising, char *saturated,
				size_t size)
{
	size_t count, r = 0, s = 0;
	const struct rk_metric *pma = rk_catalog_pma(&count);

	rising[0] = saturated[0] = '\0';
	for (size_t c = 0; c < count; c++) {
		if (pma[c].is_error && rk_sweep_delta(p, c) && r < size)
			r +=
			    (size_t)snprintf(rising + r, size - r, "%s%s +%llu", r ? ", " : "",
					     pma[c].name, (unsigned long long)rk_sweep_delta(p, c));
		if (p->state[c] == RK_VALUE_SATURATED && s < size)
			s += (size_t)snprintf(saturated + s, size - s, "%s%s", s ? ", " : "",
					      pma[c].name);
	}
}

/* A port that answered before is silent after rk_sweep_no_answer_raise_sweeps() sweeps without
 * an answer, until it has answered rk_sweep_no_answer_clear_sweeps() in a row; one that never
 * answered, or any when no port answered (no MAD got through), at once. */
static bool port_silent(const struct rk_sweep *sweep, const struct rk_sweep_port *p)
{
	if (p->no_answer_held)
		return true;
	return p->status != 0 &&
	       (!p->sampled || p->unanswered >= rk_sweep_no_answer_raise_sweeps(p) ||
		sweep->answered == 0);
}

static int check_silent_port(const char *subject, const struct rk_sweep_port *p,
			     struct rk_findings *out)
{
	static const char remedy[] = "check the node is up and reachable (its LID, the path, the "
				     "SM); retry with a longer --timeout";

	if (p->status == 0)
		return located(
		    rk_findings_add(out, RK_SEVERITY_WARNING, "PORT_NO_ANSWER", subject, remedy,
				    "PortCounters query to LID %u got no answer (%s); it "
				    "answered %u sweep%s in a row since, %u clear this",
				    p->lid, rk_sweep_status_text(p->last_failure),
				    (unsigned)p->answered_again, p->answered_again == 1 ? "" : "s",
				    rk_sweep_no_answer_clear_sweeps(p)),
		    out, p->node_guid, p->port);
	return located(rk_findings_add(out, RK_SEVERITY_WARNING, "PORT_NO_ANSWER", subject, remedy,
				       "PortCounters query to LID %u got no answer (%s)", p->lid,
				       rk_sweep_status_text(p->status)),
		       out, p->node_guid, p->port);
}

/* Errors that rose at this sweep, or within the last rk_sweep_errors_quiet_sweeps(). */
static int check_rising_errors(const char *subject, const struct rk_sweep_port *p,
			       const char *rising, struct rk_findings *out)
{
	static const char remedy[] = "check or replace the cable and transceiver; look at the "
				     "peer port's counters too";

	if (rising[0])
		return located(rk_findings_add(out, RK_SEVERITY_WARNING, "ERRORS_RISING", subject,
					       remedy, "error counters rose between sweeps: %s",
					       rising),
			       out, p->node_guid, p->port);
	if (p->since_rise >= rk_sweep_errors_quiet_sweeps(p))
		return 0;
	return located(rk_findings_add(out, RK_SEVERITY_WARNING, "ERRORS_RISING", subject, remedy,
				       "error counters rose %u sweep%s ago; clears after %u quiet "
				       "sweeps",
				       (unsigned)p->since_rise, p->since_rise == 1 ? "" : "s",
				       rk_sweep_errors_quiet_sweeps(p)),
		       out, p->node_guid, p->port);
}

static int check_swept_port(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
			    const struct rk_sweep_port *p, struct rk_findings *out)
{
	char subject[RK_FINDING_SUBJECT_MAX], rising[256], saturated[256];
	int err = 0;

	sweep_subject(fabric, p, subject, sizeof(subject));
	if (port_silent(sweep, p))
		err = check_silent_port(subject, p, out);
	if (err || !p->sampled)
		return err;
	/* a port that did not answer keeps its last sample: a saturated counter stays so, and
	 * errors that rose lately stay rising */
	list_sweep_counters(p, rising, saturated, sizeof(rising));
	err = check_rising_errors(subject, p, rising, out);
	if (!err && saturated[0])
		err =
		    located(rk_findings_add(out, RK_SEVERITY_WARNING, "COUNTER_SATURATED", subject,
					    "record the values, then clear them (rdmakit sweep "
					    "--reset NAMES) so they count again",
					    "counters stuck at their maximum: %s", saturated),
			    out, p->node_guid, p->port);
	return err;
}

int rk_health_check_monitor(const struct rk_fabric_cache *m, struct rk_findings *findings)
{
	int err = rk_health_check_fabric(m->prev_fabric, m->fabric, findings);

	if (!err)
		err = rk_health_check_congestion(m->fabric, &m->sweep, &m->options.congestion,
						 findings);
	return err ? err : rk_health_check_sweep(m->fabric, &m->sweep, findings);
}

int rk_health_check_sweep(const struct rk_fabric *fabric, const struct rk_sweep *sweep,
			  struct rk_findings *out)
{
	int err = 0;

	for (size_t i = 0; i < sweep->count && !err; i++)
		err = check_swept_port(fabric, sweep, &sweep->ports[i], out);
	return err;
}
