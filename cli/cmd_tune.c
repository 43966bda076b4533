/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit tune: audit, plan, apply, rollback, history, verify. */
#include "cli.h"
#include "tune_out.h"

#include "rdmakit/tune_journal.h"
#include "rdmakit/tune_opensm.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
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
    "\n";

static const char tune_epilogue[] =
    "\n"
    "Exit status: audit 0 ok, 1 warnings, 2 critical; apply and rollback 1 when a value was\n"
    "rejected; verify 1 on drift; 3 could not run.\n";

/* Arguments of an option given more than once. */
struct text_list {
	const char *items[MAX_SETTINGS];
	size_t count;
};

struct tune_args {
	const char *action;
	const char *root;
	const struct rk_tune_profile *profile;
	struct text_list confs, settings;
	const char *partitions, *log, *id;
	bool json;
};

/* Append to a struct text_list, which takes option->value of them. */
static bool store_listed(const struct cli_option *option, const char *arg, void *field)
{
	struct text_list *list = field;

	if (list->count == (size_t)option->value) {
		cli_usage_error("tune", "--%s given more than %d times", option->name,
				option->value);
		return false;
	}
	list->items[list->count++] = arg;
	return true;
}

static bool store_profile(const struct cli_option *option, const char *arg, void *field)
{
	const struct rk_tune_profile **profile = field;

	(void)option;
	*profile = rk_tune_profile_find(arg);
	if (!*profile)
		cli_usage_error("tune", "unknown profile \"%s\" (latency or throughput)", arg);
	return *profile != NULL;
}

#define FIELD(name) offsetof(struct tune_args, name)

static const struct cli_option tune_options[] = {
    CLI_OPTION("profile", "NAME", store_profile, FIELD(profile), 0,
	       "latency or throughput (audit without one: hazards only)"),
    CLI_OPTION("root", "DIR", cli_store_text, FIELD(root), 0,
	       "read and write /etc, /proc and /sys under DIR (default /)"),
    CLI_OPTION("opensm-conf", "FILE", store_listed, FIELD(confs), MAX_CONFS,
	       "an opensm.conf (under --root); repeat for each instance"),
    CLI_OPTION("set", "KEY=VALUE", store_listed, FIELD(settings), MAX_SETTINGS,
	       "with plan/apply: set a key of the --opensm-conf file"),
    CLI_OPTION("partitions", "FILE", cli_store_text, FIELD(partitions), 0,
	       "a partitions.conf to check strictly"),
    CLI_OPTION("opensm-log", "FILE", cli_store_text, FIELD(log), 0, "an OpenSM log to summarize"),
    CLI_FLAG("json", FIELD(json), "JSON on stdout"),
    {0},
};

static const struct cli_option tune_operand =
    CLI_OPTION(NULL, "ID", cli_store_text, FIELD(id), 0, NULL);

static const struct cli_command tune_command = {
    .name = "tune",
    .usage = tune_usage,
    .options = tune_options,
    .operand = &tune_operand,
    .column = 23,
    .epilogue = tune_epilogue,
};

static bool takes_id(const char *action)
{
	return strcmp(action, "rollback") == 0 || strcmp(action, "verify") == 0;
}

/* What the table cannot say: which action takes an ID, and where --set goes. */
static bool check_combination(const struct tune_args *args)
{
	if (args->id && !takes_id(args->action))
		cli_usage_error("tune", "unexpected argument \"%s\"", args->id);
	else if (args->id && (!args->id[0] || strspn(args->id, "0123456789") != strlen(args->id)))
		cli_usage_error("tune", "\"%s\" is not a journal ID (see history)", args->id);
	else if (args->settings.count && args->confs.count != 1)
		cli_usage_error("tune", "--set needs exactly one --opensm-conf");
	else if (args->settings.count && strcmp(args->action, "plan") != 0 &&
		 strcmp(args->action, "apply") != 0)
		cli_usage_error("tune", "--set is for plan and apply");
	else
		return true;
	return false;
}

/* The action word, then the options after it; false: exit with *status. */
static bool parse_tune_args(int argc, char **argv, struct tune_args *args, int *status)
{
	args->root = "/";
	if (argc >= 2 && strcmp(argv[1], "--help") == 0)
		return cli_parse(&tune_command, argc, argv, args, NULL, status);
	*status = EXIT_TROUBLE;
	if (argc < 2 || argv[1][0] == '-') {
		cli_usage_error("tune", "expected audit, plan, apply, rollback, history or verify");
		return false;
	}
	args->action = argv[1];
	optind = 2; /* the options come after the action */
	if (!cli_parse(&tune_command, argc, argv, args, NULL, status))
		return false;
	*status = EXIT_TROUBLE;
	return check_combination(args);
}

static int exit_for(enum rk_severity worst)
{
	return worst == RK_SEVERITY_CRITICAL ? 2 : worst == RK_SEVERITY_WARNING ? 1 : 0;
}

/* What a refusal of the journal code means, for the last line (its message said why). */
static const char *failure_text(int err)
{
	switch (err) {
	case -EBUSY:
		return "refused (see the message above)";
	case -EALREADY:
		return "nothing to do (see the message above)";
	case -EBADMSG:
		return "refused: the journal cannot be trusted (see the message above)";
	default:
		return strerror(-err);
	}
}

static int failed(const char *what, int err)
{
	fprintf(stderr, "rdmakit tune %s: %s\n", what, failure_text(err));
	return cli_exit_for(err);
}

static int audit_opensm(const struct tune_args *args, struct rk_tune_audit *audit)
{
	const struct rk_opensm_keys *keys;
	int err = 0;

	if (args->confs.count) {
		err = rk_opensm_keys_load(NULL, &keys);
		if (!err)
			err = rk_tune_audit_opensm(args->root, args->confs.items, args->confs.count,
						   keys, audit);
	}
	if (!err && args->partitions)
		err = rk_tune_audit_partitions(args->root, args->partitions, audit);
	if (!err && args->log)
		err = rk_tune_audit_opensm_log(args->root, args->log, audit);
	return err;
}

/* The writer for this command's --json (and done by print_end). */
static struct printer *start_printing(const struct tune_args *args, struct printer *printer)
{
	print_start(printer, stdout, print_json_format(args->json, false));
	return printer;
}

static int run_audit(const struct tune_args *args)
{
	struct rk_tune_options options = {
	    .root = args->root, .profile = args->profile, .partitions = args->partitions};
	struct rk_tune_audit audit = {0};
	struct printer printer;
	int err = rk_tune_audit_host(&options, &audit, NULL), status;

	if (!err)
		err = audit_opensm(args, &audit);
	if (err) {
		rk_tune_audit_free(&audit);
		return failed("audit", err);
	}
	print_tune_audit(start_printing(args, &printer), args->root,
			 args->profile ? args->profile->name : NULL, &audit);
	print_end(&printer);
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

	if (!args->profile && !args->settings.count) {
		fprintf(stderr,
			"rdmakit tune %s: give --profile NAME or --opensm-conf FILE --set "
			"KEY=VALUE\n",
			args->action);
		return -EINVAL;
	}
	if (args->profile)
		err = rk_tune_audit_host(&options, &audit, plan);
	rk_tune_audit_free(&audit);
	if (!err && args->settings.count)
		err = rk_opensm_keys_load(NULL, &keys);
	if (!err && args->settings.count)
		err =
		    rk_tune_plan_opensm_set(args->root, args->confs.items[0], args->settings.items,
					    args->settings.count, keys, plan);
	return err;
}

static void plan_label(const struct tune_args *args, char *label, size_t size)
{
	snprintf(label, size, "%s%s%s", args->profile ? args->profile->name : "",
		 args->profile && args->settings.count ? "+" : "",
		 args->settings.count ? "opensm.conf" : "");
}

static int run_plan_or_apply(const struct tune_args *args, bool apply)
{
	struct rk_tune_plan plan = {0};
	struct rk_tune_result result;
	struct printer printer;
	char label[96];
	int err = build_plan(args, &plan);

	if (!err && !apply) {
		print_tune_plan(start_printing(args, &printer), args->root, &plan);
		print_end(&printer);
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
	print_tune_result(start_printing(args, &printer), &result, false);
	print_end(&printer);
	return result.failed ? 1 : 0;
}

static int run_rollback(const struct tune_args *args)
{
	struct rk_tune_result result;
	struct printer printer;
	int err = rk_tune_rollback(args->root, args->id, &result);

	if (err)
		return failed("rollback", err);
	print_tune_result(start_printing(args, &printer), &result, true);
	print_end(&printer);
	return result.failed ? 1 : 0;
}

static int run_history(const struct tune_args *args)
{
	struct rk_tune_history_entry *entries;
	size_t count;
	struct printer printer;
	int err = rk_tune_history(args->root, &entries, &count);

	if (err)
		return failed("history", err);
	print_tune_history(start_printing(args, &printer), entries, count);
	print_end(&printer);
	free(entries);
	return 0;
}

static int run_verify(const struct tune_args *args)
{
	struct rk_tune_audit audit = {0};
	struct printer printer;
	int err = rk_tune_verify(args->root, args->id, &audit), status;

	if (err) {
		rk_tune_audit_free(&audit);
		return failed("verify", err);
	}
	print_tune_audit(start_printing(args, &printer), args->root, NULL, &audit);
	print_end(&printer);
	status = audit.findings.count ? 1 : 0;
	rk_tune_audit_free(&audit);
	return status;
}

int cmd_tune(int argc, char **argv)
{
	struct tune_args args = {0};
	int status;

	if (!parse_tune_args(argc, argv, &args, &status))
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
