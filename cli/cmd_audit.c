/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit audit: the fabric's identities and half-up ports, as ibdiagnet checks them. */
#include "cli.h"
#include "fabric_session.h"
#include "host_out.h"
#include "rdmakit/audit.h"
#include "rdmakit/health.h"

#include <stddef.h>
#include <stdio.h>

static const char audit_usage[] =
    "Usage: rdmakit audit [--partitions FILE] [--json] [-C CA] [-P PORT]\n"
    "                     [--node-name-map FILE] [--timeout MS] [--window N]\n"
    "\n"
    "Discovers the fabric and audits it, as ibdiagnet does after a change window:\n"
    "node descriptions shared by several nodes, GUIDs that answer behind two ports,\n"
    "ports without a LID, LIDs used twice or not aligned to their LMC, ports whose\n"
    "link is up but that the SM left in INIT or ARMED (with the directed route to\n"
    "their node), SLs mapped to VL15 or past the VLs a port runs, links slower or\n"
    "narrower than their ends allow (the fabric link findings doctor gives), and with\n"
    "--partitions every CA port's P_Key table against that partitions.conf, and each\n"
    "switch port's to a CA against the CA's; and the switches' multicast tables against\n"
    "the SA's groups (every full member reached from the others, no entry leading out\n"
    "of a group's tree). Each finding names the port by name and GUID; one broken\n"
    "switch is one finding.\n"
    "\n";

struct audit_args {
	struct cli_common common;
	struct cli_mad mad;
	const char *partitions;
	struct rk_partitions loaded; /* from partitions, when given */
};

#define FIELD(name) offsetof(struct audit_args, name)

static const struct cli_option audit_options[] = {
    CLI_OPTION("partitions", "FILE", cli_store_text, FIELD(partitions), 0,
	       "the master SM's partitions.conf: check every CA port's P_Key table"),
    CLI_FLAG("json", FIELD(common.json),
	     "{\"findings\": [...], \"worst\": ..., \"multicast\": {...}}"),
    {0},
};

static const struct cli_command audit_command = {
    .name = "audit",
    .usage = audit_usage,
    .options = audit_options,
    .mad = true,
    .column = 25,
};

/* What the multicast check covered: an operator must see when it did not run. */
static void print_multicast(struct printer *printer, const struct rk_audit_summary *summary)
{
	print_open_object(printer, "multicast");
	print_bool(printer, PRINT_JSON, "checked", NULL, summary->mcast_checked);
	print_uint(printer, PRINT_JSON, "groups", NULL, summary->mcast_groups);
	print_uint(printer, PRINT_JSON, "groups_not_checked", NULL, summary->mcast_unchecked);
	print_uint(printer, PRINT_JSON, "full_members", NULL, summary->mcast_members);
	print_uint(printer, PRINT_JSON, "tables", NULL, summary->mcast_tables);
	print_uint(printer, PRINT_JSON, "tables_not_read", NULL, summary->mcast_unread);
	if (!summary->mcast_checked && summary->mcast_unread)
		print_text(printer, "multicast: not checked: %zu of %zu switch tables not read\n",
			   summary->mcast_unread, summary->mcast_tables);
	else if (!summary->mcast_checked)
		print_text(printer, "multicast: not checked: the SA did not answer every "
				    "membership query\n");
	else
		print_text(printer,
			   "multicast: %zu group%s forwarded, %zu full members, %zu switch tables "
			   "read\n",
			   summary->mcast_groups, summary->mcast_groups == 1 ? "" : "s",
			   summary->mcast_members, summary->mcast_tables);
	if (summary->mcast_checked && summary->mcast_unchecked)
		print_text(printer,
			   "multicast: %zu groups not checked (past %d membership queries: check "
			   "them with saquery -m and ibroute -M)\n",
			   summary->mcast_unchecked, RK_AUDIT_MCAST_QUERIES_MAX);
	print_close(printer);
}

/* Discover, audit and print; the exit status of the findings, or of the discovery's error. */
static int audit(struct cli_fabric *fabric, const void *ctx)
{
	const struct audit_args *args = ctx;
	const struct rk_fabric_cache *monitor = &fabric->monitor;
	struct rk_findings findings = {0};
	struct rk_audit_summary summary;
	struct printer printer;
	int err = cli_fabric_sample(fabric, CLI_SAMPLE_DISCOVER);

	if (!err)
		err = rk_audit_run(monitor->port, monitor->fabric, &monitor->options.mad,
				   args->partitions ? &args->loaded : NULL, &findings, &summary);
	if (!err) /* speeds and widths: the fabric's own link rule, as doctor --fabric has it */
		err = rk_health_check_fabric(NULL, monitor->fabric, &findings);
	if (err) {
		rk_findings_free(&findings);
		return cli_exit_for(err);
	}
	rk_findings_sort(&findings);
	print_start(&printer, stdout, print_json_format(args->common.json, false));
	print_open_object(&printer, NULL);
	print_findings_array(&printer, &findings);
	print_findings_summary(&printer, &findings);
	print_multicast(&printer, &summary);
	print_close(&printer);
	print_end(&printer);
	err = cli_exit_for_findings(&findings);
	rk_findings_free(&findings);
	return err;
}

int cmd_audit(int argc, char **argv)
{
	struct audit_args args = {0};
	int status;

	if (!cli_parse(&audit_command, argc, argv, &args, &args.mad, &status))
		return status;
	if (args.partitions && rk_partitions_load(args.partitions, &args.loaded, NULL) != 0)
		return EXIT_TROUBLE;
	status =
	    cli_with_fabric(&(struct cli_fabric_run){.mad = &args.mad, .run = audit, .ctx = &args});
	rk_partitions_free(&args.loaded);
	return status;
}
