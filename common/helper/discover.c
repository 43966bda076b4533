/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit-discover: discovers the fabric for librdmakit's rk_fabric_discover_isolated and
 * writes the answer to stdout in the library's own format. Not meant to be run by hand.
 *
 * Usage: rdmakit-discover [-C CA] [-P PORT] [-t TIMEOUT_MS] [-s MAX_SMPS] */
#include "rdmakit/fabric.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int parse_number(const char *text, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long value = strtoul(text, &end, 10);

	if (end == text || *end != '\0' || value > max)
		return -1;
	*out = value;
	return 0;
}

static int parse_options(int argc, char **argv, struct rk_fabric_options *options)
{
	unsigned long value;
	int opt;

	while ((opt = getopt(argc, argv, "C:P:t:s:")) != -1) {
		if (opt == 'C')
			options->ca = optarg;
		else if (opt == 'P' && parse_number(optarg, 254, &value) == 0)
			options->port = (int)value;
		else if (opt == 't' && parse_number(optarg, 600000, &value) == 0)
			options->timeout_ms = (unsigned)value;
		else if (opt == 's' && parse_number(optarg, 1024, &value) == 0)
			options->max_smps = (unsigned)value;
		else
			return -1;
	}
	return optind == argc ? 0 : -1;
}

/** Discover once and write the answer to stdout; 0 when the fabric was sent. */
int main(int argc, char **argv)
{
	struct rk_fabric_options options = {0};
	int answer_fd;

	if (parse_options(argc, argv, &options) != 0) {
		fprintf(stderr, "usage: %s [-C CA] [-P PORT] [-t TIMEOUT_MS] [-s MAX_SMPS]\n",
			argv[0]);
		return 2;
	}
	/* the answer keeps stdout's pipe; anything a library prints goes to stderr instead */
	answer_fd = dup(STDOUT_FILENO);
	if (answer_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		perror("rdmakit-discover: stdout");
		return 1;
	}
	return rk_fabric_discover_serve(&options, answer_fd) == 0 ? 0 : 1;
}
