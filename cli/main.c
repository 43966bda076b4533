/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit: the subcommand table and the dispatch to each one. */
#include "cli.h"
#include "print.h"

#include "rdmakit/log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
    {"status", cmd_status, "devices, ports and PCI facts, ibstat-like"},
    {"counters", cmd_counters, "port and driver counters, with rates when sampled twice"},
    {"doctor", cmd_doctor, "health findings with remedies; exit 0/1/2 like a Nagios check"},
    {"fabric", cmd_fabric, "discover the InfiniBand fabric; flag degraded links"},
    {"sm", cmd_sm, "subnet managers: master, standbys, activity"},
    {"audit", cmd_audit, "fabric audit: shared descriptions, LIDs, half-up ports"},
    {"events", cmd_events, "the fabric's events from the subnet manager, as they come"},
    {"sweep", cmd_sweep, "counters of every port of the fabric, many MADs in flight"},
    {"route", cmd_route, "are the switches' routes sound and balanced; trace and dump them"},
    {"tune", cmd_tune, "audit host and OpenSM settings; apply a profile, roll it back"},
    {"probe", cmd_probe, "loopback RDMA write, read and send on one port; pass or fail"},
    {"bench", cmd_bench, "bandwidth and latency between two hosts over rdma_cm"},
};

static void print_usage(FILE *out)
{
	fprintf(out, "Usage: rdmakit COMMAND [OPTIONS]\n\nCommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\nEvery command takes --help and --json. status, counters and doctor read\n"
		"--sysfs-root DIR (default /sys); fabric, sm, sweep, route and doctor --fabric\n"
		"send MADs from -C CA -P PORT. rdmakit --version prints the version.\n");
}

/* Every write to stdout is checked once, here: what stdio could not write (a full disk, a closed
 * descriptor) is an error with a message, never a silent success. */
static int check_output(int status)
{
	int err = fflush(stdout) != 0 ? errno : 0;

	if (ferror(stdout) && !err)
		err = print_write_error() ? print_write_error() : EIO;
	if (fclose(stdout) != 0 && !err)
		err = errno;
	if (!err)
		return status;
	fprintf(stderr, "rdmakit: cannot write the output: %s\n", strerror(err));
	return EXIT_TROUBLE;
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		print_usage(stderr);
		return EXIT_TROUBLE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		print_usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("rdmakit %s\n", RDMAKIT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "rdmakit: unknown command \"%s\"\n\n", argv[1]);
	print_usage(stderr);
	return EXIT_TROUBLE;
}

int main(int argc, char **argv)
{
	return check_output(run(argc, argv));
}
