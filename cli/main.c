/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
#include "cli.h"

#include "rdmakit/log.h"

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
    {"sweep", cmd_sweep, "counters of every port of the fabric, many MADs in flight"},
    {"tune", cmd_tune, "audit host and OpenSM settings; apply a profile, roll it back"},
};

static void print_usage(FILE *out)
{
	fprintf(out, "Usage: rdmakit COMMAND [OPTIONS]\n\nCommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nEvery command takes --help and --json. status, counters and doctor read\n"
		     "--sysfs-root DIR (default /sys); fabric, sm, sweep and doctor --fabric send\n"
		     "MADs from -C CA -P PORT. rdmakit --version prints the version.\n");
}

int main(int argc, char **argv)
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
