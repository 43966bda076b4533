#include "cli.h"
#include "json_out.h"
#include "text_out.h"

#include <getopt.h>
#include <stdio.h>

static const char doctor_usage[] =
    "Usage: rdmakit doctor [--interval S] [--expect-rate GBPS] [--sysfs-root DIR] [--json]\n"
    "\n"
    "Checks this host's RDMA devices and prints findings, most severe first, each\n"
    "with what to do: ports not ACTIVE (no SM, no cable, disabled), ACTIVE ports\n"
    "without an SM LID, links slower than their siblings or than expected, PCIe\n"
    "links below their maximum, saturated counters, mixed firmware; with\n"
    "--interval, also error counters rising and congestion (xmit_wait) between two\n"
    "samples.\n"
    "\n"
    "  --interval S        take a second sample after S seconds (default 0: one sample)\n"
    "  --expect-rate GBPS  flag ACTIVE ports below this rate (e.g. 200)\n"
    "  --sysfs-root DIR    read DIR instead of /sys\n"
    "  --json              {\"findings\": [{severity, code, subject, message, remedy}]}\n"
    "  --help              this text\n"
    "\n"
    "Exit status: 0 nothing above ok, 1 warnings, 2 critical, 3 could not check.\n";

static const struct option doctor_options[] = {
    {"interval", required_argument, NULL, OPT_INTERVAL},
    {"expect-rate", required_argument, NULL, OPT_EXPECT_RATE},
    {"sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

struct doctor_args {
	struct cli_common common;
	struct rk_health_options health;
	double interval;
};

static int parse_doctor_args(int argc, char **argv, struct doctor_args *args)
{
	int opt;

	while ((opt = getopt_long(argc, argv, "", doctor_options, NULL)) != -1) {
		if (opt == OPT_HELP) {
			fputs(doctor_usage, stdout);
			return 0;
		} else if (opt == OPT_INTERVAL) {
			if (!cli_parse_seconds("--interval", optarg, &args->interval))
				return EXIT_TROUBLE;
		} else if (opt == OPT_EXPECT_RATE) {
			if (!cli_parse_positive("--expect-rate", optarg,
						&args->health.expect_rate_gbps))
				return EXIT_TROUBLE;
		} else if (!cli_common_option(&args->common, opt, optarg)) {
			return cli_usage_error("doctor", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage_error("doctor", "unexpected argument \"%s\"", argv[optind]);
	return -1; /* go on */
}

static int exit_code_for(enum rk_severity worst)
{
	return worst == RK_SEVERITY_CRITICAL ? 2 : worst == RK_SEVERITY_WARNING ? 1 : 0;
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_args args = {0};
	struct rk_findings findings = {0};
	struct rk_host *host;
	int status = parse_doctor_args(argc, argv, &args);

	if (status >= 0)
		return status;
	host = cli_open_host(&args.common);
	if (!host)
		return EXIT_TROUBLE;
	if (args.interval > 0) {
		cli_sleep(args.interval);
		rk_host_refresh(host);
	}
	if (rk_health_check_host(host, &args.health, &findings) != 0) {
		fprintf(stderr, "rdmakit doctor: out of memory\n");
		status = EXIT_TROUBLE;
	} else {
		rk_findings_sort(&findings);
		status = exit_code_for(rk_findings_worst(&findings));
		if (args.common.json)
			json_print(json_findings(&findings), true);
		else
			text_findings(stdout, &findings);
	}
	rk_findings_free(&findings);
	rk_host_close(host);
	return status;
}
