/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit-discover: discovers the fabric for librdmakit's rk_fabric_discover_isolated and
 * writes the answer to stdout in the library's own format. Not meant to be run by hand.
 *
 * Usage: rdmakit-discover [-C CA] [-P PORT] [-t TIMEOUT_MS] [-s MAX_SMPS] */
#include "rdmakit/fabric.h"
#include "rdmakit/limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* 0 (the library's default) or a value within the setting's range. */
static int parse_setting(const char *text, enum rk_setting setting, unsigned *out)
{
	char msg[96];
	double value = 0;

	if (strcmp(text, "0") != 0 &&
	    rk_limit_parse(setting, text, &value, msg, sizeof(msg)) != 0) {
		fprintf(stderr, "rdmakit-discover: %s: %s\n", text, msg);
		return -1;
	}
	*out = (unsigned)value;
	return 0;
}

static int parse_option(int opt, const char *arg, struct rk_fabric_options *options)
{
	unsigned long value;
	unsigned port;

	switch (opt) {
	case 'C':
		options->ca = arg;
		return 0;
	case 'P':
		if (parse_setting(arg, RK_SETTING_CA_PORT, &port) != 0)
			return -1;
		options->port = (int)port;
		return 0;
	case 't':
		return parse_setting(arg, RK_SETTING_TIMEOUT_MS, &options->timeout_ms);
	case 's':
		if (parse_number(arg, 1024, &value) != 0)
			return -1;
		options->max_smps = (unsigned)value;
		return 0;
	default:
		return -1;
	}
}

static int parse_options(int argc, char **argv, struct rk_fabric_options *options)
{
	int opt;

	while ((opt = getopt(argc, argv, "C:P:t:s:")) != -1)
		if (parse_option(opt, optarg, options) != 0)
			return -1;
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
