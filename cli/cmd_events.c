/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit events: the fabric's events as the subnet manager reports them, as they come. */
#include "cli.h"

#include "rdmakit/clock.h"
#include "rdmakit/follow.h"
#include "rdmakit/host.h"
#include "rdmakit/log.h"

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

/* What the loop keeps while it runs. */
struct events_run {
	const struct events_args *args;
	const struct rk_fabric *fabric;
	unsigned printed;
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

/* One event: a line for the notice, or for the port it changed (named, with its peer). */
static void print_event(const struct rk_fabric_event *event, void *ctx)
{
	struct events_run *run = ctx;
	const struct rk_port_change *c = event->change;
	char subject[RK_FINDING_SUBJECT_MAX], peer[RK_FINDING_SUBJECT_MAX];
	struct event_line line = {.notice = event->notice, .subject = subject, .change = c};

	if (!c) {
		rk_notice_subject(event->notice, run->fabric, subject, sizeof(subject));
		print_line(run, &line);
		return;
	}
	rk_fabric_port_label(run->fabric, (size_t)c->node, c->port, subject, sizeof(subject));
	if (c->peer_node >= 0) {
		rk_fabric_port_label(run->fabric, (size_t)c->peer_node, c->peer_port, peer,
				     sizeof(peer));
		line.peer = peer;
	}
	print_line(run, &line);
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
static bool done(const struct events_run *run, const struct rk_follower *follower, double start)
{
	const struct events_args *args = run->args;

	return stop_asked || (args->count && run->printed >= args->count) ||
	       (args->timeout > 0 && rk_monotonic_seconds() - start >= args->timeout) ||
	       rk_follower_unavailable(follower);
}

/* Subscribe, then take Reports half a second at a time until done. */
static int follow(struct rk_mad_port *port, const struct rk_fabric_cache_options *options,
		  struct rk_fabric *fabric, struct events_run *run)
{
	struct rk_follower *follower = NULL;
	double start = rk_monotonic_seconds();
	int err = rk_follower_open(port, &options->mad, fabric, print_event, run, &follower);

	if (err == -EBUSY)
		err = 0; /* said by the subscription; done() ends the loop */
	catch_stop();
	while (!err && !done(run, follower, start))
		err = rk_follower_turn(follower, 500);
	if (!err && rk_follower_unavailable(follower))
		err = -ENOTSUP; /* said by the subscription */
	rk_follower_close(follower);
	return err;
}

int cmd_events(int argc, char **argv)
{
	struct events_args args = {0};
	struct events_run run = {.args = &args};
	struct rk_fabric_cache_options options;
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
		err = follow(port, &options, fabric, &run);
	status = err ? cli_exit_for(err) : 0;
	rk_mad_port_close(port);
	rk_fabric_free(fabric);
	rk_name_map_free(names);
	return status;
}
