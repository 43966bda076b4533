/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit events: the fabric's events as the subnet manager reports them, as they come. */
#include "cli.h"

#include "rdmakit/clock.h"
#include "rdmakit/host.h"
#include "rdmakit/log.h"
#include "rdmakit/notice.h"

#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char events_usage[] =
    "Usage: rdmakit events [--json] [--count N] [--timeout S]\n"
    "                      [-C CA] [-P PORT] [--node-name-map FILE] [--window N]\n"
    "\n"
    "Subscribes with the master SM's subnet administrator (InformInfo) to every trap\n"
    "of the subnet and prints each Report as it comes, as a journal is followed: the time,\n"
    "the trap, the port it is about by name, and what it means. Subscribes again when\n"
    "the master SM changes. The fabric is discovered once at the start, for names.\n"
    "With --json, one JSON object a line.\n"
    "\n";

static const char events_epilogue[] =
    "\n"
    "Exit status: 0 after --count events or --timeout; 3 when events cannot be had\n"
    "(the SA refused the subscription, or another agent on this host takes Reports).\n";

struct events_args {
	struct cli_common common;
	struct cli_mad mad;
	unsigned count;
	double timeout;
};

#define FIELD(name) offsetof(struct events_args, name)

static const struct cli_option events_options[] = {
    CLI_OPTION("count", "N", cli_store_count, FIELD(count), 0,
	       "stop after N events (default: never)"),
    CLI_OPTION("timeout", "S", cli_store_setting, FIELD(timeout), RK_SETTING_INTERVAL_S,
	       "stop after S seconds (default: never)"),
    CLI_FLAG("json", FIELD(common.json),
	     "one {\"time\", \"trap\", \"name\", \"subject\", ...} a line"),
    {0},
};

static const struct cli_command events_command = {
    .name = "events",
    .usage = events_usage,
    .epilogue = events_epilogue,
    .options = events_options,
    .mad = true,
    .mad_replaced = "timeout", /* the MADs keep their default timeout */
    .column = 25,
};

#define RETRIES_MAX  32	 /* switches whose read after a trap 128 waits for another try */
#define READ_TRIES   6	 /* reads of a switch after its trap 128 */
#define READ_RETRY_S 0.2 /* seconds between two */

/* What the loop keeps while it runs. */
struct events_run {
	const struct events_args *args;
	struct rk_fabric *fabric;
	struct rk_mad_queue *queue;
	int local_port; /* this port's number, for directed routes from it */
	unsigned printed;
	/* switches no answer came from after their trap 128: the routes to them may go through
	 * the cable that just went down, until the SM routes around it; read again */
	struct retry {
		struct rk_notice notice;
		unsigned tries;
		double at; /* monotonic: not before */
	} retry[RETRIES_MAX];
	size_t nretry;
};

/* One read of a switch after its trap 128: the context of its completion. */
struct switch_read {
	struct events_run *run;
	unsigned tries; /* reads of it before this one */
};

/* One line of an event: a notice, or (after a targeted read) one port it changed. */
struct event_line {
	const struct rk_notice *notice;
	const char *subject;
	const struct rk_port_change *change; /* NULL: the notice alone */
	const char *peer;
};

static void now_text(char *when, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;

	strftime(when, size, "%Y-%m-%dT%H:%M:%S%z", localtime_r(&now, &tm));
}

static void add_change_json(json_object *o, const struct event_line *line)
{
	json_object_object_add(o, "port", json_object_new_int(line->change->port));
	json_object_object_add(o, "state",
			       json_object_new_string(rk_port_state_name(line->change->now)));
	json_object_object_add(o, "was",
			       json_object_new_string(rk_port_state_name(line->change->was)));
	if (line->peer)
		json_object_object_add(o, "peer", json_object_new_string(line->peer));
}

static void print_json(const struct event_line *line, const char *when)
{
	const struct rk_notice *notice = line->notice;
	json_object *o = json_object_new_object();
	const char *meaning = rk_trap_meaning(notice->trap);
	const char *subject = line->subject;

	json_object_object_add(o, "time", json_object_new_string(when));
	json_object_object_add(o, "trap", json_object_new_int(notice->trap));
	json_object_object_add(o, "name", json_object_new_string(rk_trap_name(notice->trap)));
	json_object_object_add(o, "subject", json_object_new_string(subject));
	json_object_object_add(o, "lid", json_object_new_int(notice->lid));
	if (line->change)
		add_change_json(o, line);
	else if (notice->port)
		json_object_object_add(o, "port", json_object_new_int(notice->port));
	json_object_object_add(o, "issuer_lid", json_object_new_int(notice->issuer_lid));
	json_object_object_add(o, "type", json_object_new_int(notice->type));
	if (meaning)
		json_object_object_add(o, "meaning", json_object_new_string(meaning));
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static void print_line(struct events_run *run, const struct event_line *line)
{
	const struct rk_notice *notice = line->notice;
	const char *meaning = rk_trap_meaning(notice->trap);
	char when[32], change[160] = "";

	now_text(when, sizeof(when));
	if (run->args->common.json) {
		print_json(line, when);
	} else {
		if (line->change)
			snprintf(change, sizeof(change), " %s (was %s)%s%s",
				 rk_port_state_name(line->change->now),
				 rk_port_state_name(line->change->was), line->peer ? ", peer " : "",
				 line->peer ? line->peer : "");
		printf("%s  trap %u %s: %s%s%s%s\n", when, (unsigned)notice->trap,
		       rk_trap_name(notice->trap), line->subject, change, meaning ? ": " : "",
		       meaning ? meaning : "");
	}
	fflush(stdout);
	run->printed++;
}

/* A switch's ports read after its trap 128: a line per port that changed (or the notice's own
 * line when the switch could not be read; nothing when no port changed). */
static void print_changes(const struct rk_notice *notice, const struct rk_port_change *changes,
			  size_t count, int status, void *ctx)
{
	struct switch_read *read = ctx;
	struct events_run *run = read->run;
	unsigned tries = read->tries;
	char subject[RK_FINDING_SUBJECT_MAX], peer[RK_FINDING_SUBJECT_MAX];
	struct event_line line = {.notice = notice, .subject = subject};

	free(read);
	rk_notice_subject(notice, run->fabric, subject, sizeof(subject));
	if (status == 0 && count == 0) {
		/* told already (the other end's read found it), or changed back before the read */
		rk_log(RK_LOG_DEBUG, "trap 128 from %s: no port changed state", subject);
		return;
	}
	if (status == -ETIMEDOUT && tries + 1 < READ_TRIES && run->nretry < RETRIES_MAX) {
		run->retry[run->nretry++] =
		    (struct retry){.notice = *notice,
				   .tries = tries + 1,
				   .at = rk_monotonic_seconds() + READ_RETRY_S};
		return;
	}
	if (status) {
		print_line(run, &line);
		return;
	}
	for (size_t i = 0; i < count; i++) {
		const struct rk_port_change *c = &changes[i];

		snprintf(subject, sizeof(subject), "%s[%d]", run->fabric->nodes[c->node].name,
			 c->port);
		if (c->peer_node >= 0)
			snprintf(peer, sizeof(peer), "%s[%d]",
				 run->fabric->nodes[c->peer_node].name, c->peer_port);
		line.change = c;
		line.peer = c->peer_node >= 0 ? peer : NULL;
		print_line(run, &line);
	}
}

/* Read the ports of the switch of a trap 128; -ENOMEM (nothing asked). */
static int read_switch(struct events_run *run, const struct rk_notice *notice, unsigned tries)
{
	struct switch_read *read = malloc(sizeof(*read));
	int err;

	if (!read)
		return -ENOMEM;
	*read = (struct switch_read){.run = run, .tries = tries};
	/* first by LID; then by directed routes, each try another of the shortest */
	err = rk_reread_switch(run->queue, run->fabric, notice, tries ? run->local_port : 0,
			       print_changes, read);
	if (err)
		free(read);
	return err;
}

static void print_notice_alone(struct events_run *run, const struct rk_notice *notice)
{
	char subject[RK_FINDING_SUBJECT_MAX];
	struct event_line line = {.notice = notice, .subject = subject};

	rk_notice_subject(notice, run->fabric, subject, sizeof(subject));
	print_line(run, &line);
}

static void print_notice(const struct rk_notice *notice, void *ctx)
{
	struct events_run *run = ctx;

	if (notice->trap == RK_TRAP_LINK_STATE && run->fabric && read_switch(run, notice, 0) == 0)
		return;
	print_notice_alone(run, notice);
}

/* Read again the switches whose read timed out, once their time has come (the last failure
 * prints the trap alone). */
static void retry_reads(struct events_run *run)
{
	struct retry due[RETRIES_MAX];
	size_t ndue = 0, kept = 0;
	double now = rk_monotonic_seconds();

	for (size_t i = 0; i < run->nretry; i++) {
		if (run->retry[i].at <= now)
			due[ndue++] = run->retry[i];
		else
			run->retry[kept++] = run->retry[i];
	}
	run->nretry = kept;
	for (size_t i = 0; i < ndue; i++)
		if (read_switch(run, &due[i].notice, due[i].tries) != 0)
			print_notice_alone(run, &due[i].notice);
}

/* Raised by SIGINT or SIGTERM: the loop ends at its next turn, unsubscribing first. */
static volatile sig_atomic_t stop_asked;

static void ask_stop(int signum)
{
	(void)signum;
	stop_asked = 1;
}

/* SIGINT and SIGTERM end the loop (not the process): the SA is told before it ends. */
static void catch_stop(void)
{
	struct sigaction sa = {.sa_handler = ask_stop}; /* no SA_RESTART: the poll returns */

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Whether to stop: --count events printed, --timeout passed, or events cannot be had. */
static bool done(const struct events_run *run, const struct rk_subscription *s, double start)
{
	const struct events_args *args = run->args;

	return stop_asked || (args->count && run->printed >= args->count) ||
	       (args->timeout > 0 && rk_monotonic_seconds() - start >= args->timeout) ||
	       s->status == -EBUSY || (!s->active && !s->in_flight && s->sa_lid);
}

/* Subscribe, then take Reports half a second at a time until done. */
static int follow(struct rk_mad_port *port, const struct rk_monitor_options *options,
		  struct events_run *run)
{
	struct rk_subscription subscription;
	struct rk_mad_local local;
	struct rk_mad_queue *queue;
	double start = rk_monotonic_seconds();
	int err = rk_mad_queue_open(port, &options->mad, &queue);

	if (err)
		return err;
	run->queue = queue;
	run->local_port = rk_mad_port_local(port, &local) == 0 ? local.port : 0;
	catch_stop();
	rk_subscription_start(&subscription, port, print_notice, run);
	while (!err && !done(run, &subscription, start)) {
		err = rk_subscription_refresh(&subscription, queue);
		if (!err)
			err = rk_mad_queue_run(queue, 500);
		if (!err && run->nretry)
			retry_reads(run);
	}
	if (!err && (subscription.status == -EBUSY || !subscription.active))
		err = -ENOTSUP; /* said by the subscription */
	rk_subscription_stop(&subscription, queue);
	rk_mad_queue_close(queue);
	return err;
}

int cmd_events(int argc, char **argv)
{
	struct events_args args = {0};
	struct events_run run = {.args = &args};
	struct rk_monitor_options options;
	struct rk_fabric *fabric = NULL;
	struct rk_mad_port *port = NULL;
	struct rk_name_map *names;
	int status, err;

	if (!cli_parse(&events_command, argc, argv, &args, &args.mad, &status))
		return status;
	if (!cli_load_name_map(&args.mad, &names))
		return EXIT_TROUBLE;
	cli_monitor_options(&args.mad, names, true, &options);
	err =
	    rk_mad_check_access(args.mad.ca, (int)args.mad.port); /* said once, before discovery */
	if (err) {
		rk_name_map_free(names);
		return cli_exit_for(err);
	}
	if (rk_fabric_discover_isolated(&options.fabric, &fabric) != 0)
		rk_log(RK_LOG_WARNING, "the fabric could not be discovered: events name LIDs");
	run.fabric = fabric;
	err = rk_mad_port_open(args.mad.ca, (int)args.mad.port, &port);
	if (!err)
		err = follow(port, &options, &run);
	status = err ? cli_exit_for(err) : 0;
	rk_mad_port_close(port);
	rk_fabric_free(fabric);
	rk_name_map_free(names);
	return status;
}
