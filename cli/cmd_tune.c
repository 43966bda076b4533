/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit tune: audit, plan, apply, rollback, history, verify. */
#include "cli.h"
#include "json_out.h"
#include "tune_out.h"

#include "rdmakit/tune_journal.h"
#include "rdmakit/tune_opensm.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#define MAX_CONFS    8
#define MAX_SETTINGS 32

static const char tune_usage[] =
    "Usage: rdmakit tune audit [--profile NAME] [--root DIR] [--opensm-conf FILE]...\n"
    "                          [--partitions FILE] [--opensm-log FILE] [--json]\n"
    "       rdmakit tune plan|apply [--profile NAME] [--opensm-conf FILE --set KEY=VALUE...]\n"
    "                               [--root DIR] [--json]\n"
    "       rdmakit tune rollback [ID] [--root DIR] [--json]\n"
    "       rdmakit tune history [--root DIR] [--json]\n"
    "       rdmakit tune verify [ID] [--root DIR] [--json]\n"
    "\n"
    "audit checks the host (hugepages per NUMA node, THP, memlock for users and services,\n"
    "CPU governor and C-states, the HCA's IRQs against its NUMA node, irqbalance, PCIe\n"
    "MaxPayload/MaxReadReq, IPoIB mode and MTU, ARP of RDMA interfaces sharing a subnet,\n"
    "RoCE ToS/PFC/DSCP trust/ECN, SR-IOV) and, when given, opensm.conf (one per OpenSM\n"
    "instance) against the keys of the installed OpenSM, partitions.conf strictly, and an\n"
    "OpenSM log's ERR and WARN lines. plan prints what apply would change (file, key,\n"
    "current -> new); apply makes it (root only): drop-ins in /etc and live values in\n"
    "/proc and /sys, each journaled with a byte-for-byte backup under\n"
    "/var/lib/rdmakit/tune/ID; rollback restores them; verify compares the live system\n"
    "with the last apply.\n"
    "\n"
    "  --profile NAME       latency or throughput (audit without one: hazards only)\n"
    "  --root DIR           read and write /etc, /proc and /sys under DIR (default /)\n"
    "  --opensm-conf FILE   an opensm.conf (under --root); repeat for each instance\n"
    "  --set KEY=VALUE      with plan/apply: set a key of the --opensm-conf file\n"
    "  --partitions FILE    a partitions.conf to check strictly\n"
    "  --opensm-log FILE    an OpenSM log to summarize\n"
    "  --json               JSON on stdout\n"
    "  --help               this text\n"
    "\n"
    "Exit status: audit 0 ok, 1 warnings, 2 critical; apply and rollback 1 when a value was\n"
    "rejected; verify 1 on drift; 3 could not run.\n";

enum {
	OPT_ROOT = 512,
	OPT_PROFILE,
	OPT_OPENSM_CONF,
	OPT_SET,
	OPT_PARTITIONS,
	OPT_OPENSM_LOG,
};

static const struct option tune_options[] = {
    {"root", required_argument, NULL, OPT_ROOT},
    {"profile", required_argument, NULL, OPT_PROFILE},
    {"opensm-conf", required_argument, NULL, OPT_OPENSM_CONF},
    {"set", required_argument, NULL, OPT_SET},
    {"partitions", required_argument, NULL, OPT_PARTITIONS},
    {"opensm-log", required_argument, NULL, OPT_OPENSM_LOG},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

struct tune_args {
	const char *action;
	const char *root;
	const struct rk_tune_profile *profile;
	const char *confs[MAX_CONFS];
	size_t nconfs;
	const char *settings[MAX_SETTINGS];
	size_t nsettings;
	const char *partitions, *log, *id;
	bool json;
};

static int add_arg(const char **list, size_t *count, size_t max, const char *option,
		   const char *arg)
{
	if (*count == max)
		return cli_usage_error("tune", "%s given more than %zu times", option, max);
	list[(*count)++] = arg;
	return -1;
}

static int handle_option(struct tune_args *args, int opt, const char *arg)
{
	switch (opt) {
	case OPT_HELP:
		fputs(tune_usage, stdout);
		return 0;
	case OPT_ROOT:
		args->root = arg;
		return -1;
	case OPT_PROFILE:
		args->profile = rk_tune_profile_find(arg);
		return args->profile ? -1
				     : cli_usage_error("tune",
						       "unknown profile \"%s\" (latency or "
						       "throughput)",
						       arg);
	case OPT_OPENSM_CONF:
		return add_arg(args->confs, &args->nconfs, MAX_CONFS, "--opensm-conf", arg);
	case OPT_SET:
		return add_arg(args->settings, &args->nsettings, MAX_SETTINGS, "--set", arg);
	case OPT_PARTITIONS:
		args->partitions = arg;
		return -1;
	case OPT_OPENSM_LOG:
		args->log = arg;
		return -1;
	case OPT_JSON:
		args->json = true;
		return -1;
	default:
		return cli_usage_error("tune", "unknown option");
	}
}

static bool takes_id(const char *action)
{
	return strcmp(action, "rollback") == 0 || strcmp(action, "verify") == 0;
}

static int check_positional(struct tune_args *args, int argc, char **argv)
{
	if (optind < argc && takes_id(args->action)) {
		args->id = argv[optind++];
		if (!args->id[0] || strspn(args->id, "0123456789") != strlen(args->id))
			return cli_usage_error("tune", "\"%s\" is not a journal ID (see history)",
					       args->id);
	}
	if (optind < argc)
		return cli_usage_error("tune", "unexpected argument \"%s\"", argv[optind]);
	if (args->nsettings && args->nconfs != 1)
		return cli_usage_error("tune", "--set needs exactly one --opensm-conf");
	if (args->nsettings && strcmp(args->action, "plan") != 0 &&
	    strcmp(args->action, "apply") != 0)
		return cli_usage_error("tune", "--set is for plan and apply");
	return -1;
}

static int parse_tune_args(int argc, char **argv, struct tune_args *args)
{
	int opt, status;

	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
			fputs(tune_usage, stdout);
			return 0;
		}
		return cli_usage_error("tune", "expected audit, plan, apply, rollback, history or "
					       "verify");
	}
	args->action = argv[1];
	args->root = "/";
	optind = 2;
	while ((opt = getopt_long(argc, argv, "", tune_options, NULL)) != -1)
		if ((status = handle_option(args, opt, optarg)) >= 0)
			return status;
	return check_positional(args, argc, argv);
}

static int exit_for(enum rk_severity worst)
{
	return worst == RK_SEVERITY_CRITICAL ? 2 : worst == RK_SEVERITY_WARNING ? 1 : 0;
}

static int failed(const char *what, int err)
{
	fprintf(stderr, "rdmakit tune %s: %s\n", what, strerror(-err));
	return EXIT_TROUBLE;
}

static int audit_opensm(const struct tune_args *args, struct rk_tune_audit *audit)
{
	const struct rk_opensm_keys *keys;
	int err = 0;

	if (args->nconfs) {
		err = rk_opensm_keys_load(NULL, &keys);
		if (!err)
			err = rk_tune_audit_opensm(args->root, args->confs, args->nconfs, keys,
						   audit);
	}
	if (!err && args->partitions)
		err = rk_tune_audit_partitions(args->root, args->partitions, audit);
	if (!err && args->log)
		err = rk_tune_audit_opensm_log(args->root, args->log, audit);
	return err;
}

static int run_audit(const struct tune_args *args)
{
	struct rk_tune_options options = {
	    .root = args->root, .profile = args->profile, .partitions = args->partitions};
	struct rk_tune_audit audit = {0};
	int err = rk_tune_audit_host(&options, &audit, NULL), status;

	if (!err)
		err = audit_opensm(args, &audit);
	if (err) {
		rk_tune_audit_free(&audit);
		return failed("audit", err);
	}
	if (args->json)
		json_print(
		    json_tune_audit(args->root, args->profile ? args->profile->name : NULL, &audit),
		    true);
	else
		text_tune_audit(stdout, &audit);
	status = exit_for(rk_findings_worst(&audit.findings));
	rk_tune_audit_free(&audit);
	return status;
}

static int build_plan(const struct tune_args *args, struct rk_tune_plan *plan)
{
	struct rk_tune_options options = {.root = args->root, .profile = args->profile};
	struct rk_tune_audit audit = {0};
	const struct rk_opensm_keys *keys;
	int err = 0;

	if (!args->profile && !args->nsettings) {
		fprintf(stderr,
			"rdmakit tune %s: give --profile NAME or --opensm-conf FILE --set "
			"KEY=VALUE\n",
			args->action);
		return -EINVAL;
	}
	if (args->profile)
		err = rk_tune_audit_host(&options, &audit, plan);
	rk_tune_audit_free(&audit);
	if (!err && args->nsettings)
		err = rk_opensm_keys_load(NULL, &keys);
	if (!err && args->nsettings)
		err = rk_tune_plan_opensm_set(args->root, args->confs[0], args->settings,
					      args->nsettings, keys, plan);
	return err;
}

static void plan_label(const struct tune_args *args, char *label, size_t size)
{
	snprintf(label, size, "%s%s%s", args->profile ? args->profile->name : "",
		 args->profile && args->nsettings ? "+" : "", args->nsettings ? "opensm.conf" : "");
}

static int run_plan_or_apply(const struct tune_args *args, bool apply)
{
	struct rk_tune_plan plan = {0};
	struct rk_tune_result result;
	char label[96];
	int err = build_plan(args, &plan);

	if (!err && !apply) {
		if (args->json)
			json_print(json_tune_plan(args->root, &plan), true);
		else
			text_tune_plan(stdout, &plan);
	}
	if (!err && apply) {
		plan_label(args, label, sizeof(label));
		err = rk_tune_apply(args->root, label, &plan, &result);
	}
	rk_tune_plan_free(&plan);
	if (err)
		return failed(args->action, err);
	if (!apply)
		return 0;
	if (args->json)
		json_print(json_tune_result(&result), true);
	else if (!result.id[0])
		printf("nothing to change: the system already has these settings\n");
	else
		printf("applied %s: %zu changes, %zu rejected (rdmakit tune rollback %s undoes "
		       "them)\n",
		       result.id, result.done, result.failed, result.id);
	return result.failed ? 1 : 0;
}

static int run_rollback(const struct tune_args *args)
{
	struct rk_tune_result result;
	int err = rk_tune_rollback(args->root, args->id, &result);

	if (err)
		return failed("rollback", err);
	if (args->json)
		json_print(json_tune_result(&result), true);
	else
		printf("rolled back %s: %zu restored, %zu failed\n", result.id, result.done,
		       result.failed);
	return result.failed ? 1 : 0;
}

static int run_history(const struct tune_args *args)
{
	struct rk_tune_history_entry *entries;
	size_t count;
	int err = rk_tune_history(args->root, &entries, &count);

	if (err)
		return failed("history", err);
	if (args->json)
		json_print(json_tune_history(entries, count), true);
	else
		text_tune_history(stdout, entries, count);
	free(entries);
	return 0;
}

static int run_verify(const struct tune_args *args)
{
	struct rk_tune_audit audit = {0};
	int err = rk_tune_verify(args->root, args->id, &audit), status;

	if (err) {
		rk_tune_audit_free(&audit);
		return failed("verify", err);
	}
	if (args->json)
		json_print(json_tune_audit(args->root, NULL, &audit), true);
	else
		text_tune_audit(stdout, &audit);
	status = audit.findings.count ? 1 : 0;
	rk_tune_audit_free(&audit);
	return status;
}

int cmd_tune(int argc, char **argv)
{
	struct tune_args args = {0};
	int status = parse_tune_args(argc, argv, &args);

	if (status >= 0)
		return status;
	if (strcmp(args.action, "audit") == 0)
		return run_audit(&args);
	if (strcmp(args.action, "plan") == 0 || strcmp(args.action, "apply") == 0)
		return run_plan_or_apply(&args, strcmp(args.action, "apply") == 0);
	if (strcmp(args.action, "rollback") == 0)
		return run_rollback(&args);
	if (strcmp(args.action, "history") == 0)
		return run_history(&args);
	if (strcmp(args.action, "verify") == 0)
		return run_verify(&args);
	return cli_usage_error("tune", "unknown action \"%s\"", args.action);
}
