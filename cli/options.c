/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The subcommands' one option parser: each declares a table of its options. */
#include "options.h"

#include "cli.h"
#include "rdmakit/limits.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTIONS 32
#define MAX_COUNT   1000000

/* The options of one command line, flattened: its own, the MAD ones, then --help. */
struct option_set {
	const struct cli_option *entries[MAX_OPTIONS];
	char *bases[MAX_OPTIONS]; /* the struct each entry's field is in */
	size_t count;
	struct option longs[MAX_OPTIONS + 1]; /* and the zero entry that ends them */
	char shorts[2 * MAX_OPTIONS + 1];
};

/* Every subcommand's last option; the parser handles it itself. */
static const struct cli_option help_table[] = {
    {.name = "help", .store = cli_store_flag, .help = "this text"},
    {0},
};

/* How a message names the option: "-P" when it has a letter, else "--timeout". */
static void option_shown(const struct cli_option *option, char *buf, size_t size)
{
	if (option->letter)
		snprintf(buf, size, "-%c", option->letter);
	else
		snprintf(buf, size, "--%s", option->name);
}

/* false when the tables hold more than MAX_OPTIONS options; an option named skip is left out */
static bool add_table(struct option_set *set, const struct cli_option *table, void *base,
		      const char *skip)
{
	for (; table && table->store; table++) {
		if (skip && strcmp(table->name, skip) == 0)
			continue;
		if (set->count == MAX_OPTIONS)
			return false;
		struct option *o = &set->longs[set->count];
		size_t used = strlen(set->shorts);

		*o = (struct option){table->name, table->arg ? required_argument : no_argument,
				     NULL, (int)(256 + set->count)};
		if (table->letter)
			snprintf(set->shorts + used, sizeof(set->shorts) - used, "%c%s",
				 table->letter, table->arg ? ":" : "");
		set->entries[set->count] = table;
		set->bases[set->count++] = base;
	}
	return true;
}

static bool build_set(const struct cli_command *command, void *args, struct cli_mad *mad,
		      struct option_set *set)
{
	memset(set, 0, sizeof(*set));
	if (add_table(set, command->options, args, NULL) &&
	    (!command->mad || add_table(set, cli_mad_options, mad, command->mad_replaced)) &&
	    add_table(set, help_table, NULL, NULL))
		return true;
	fprintf(stderr, "rdmakit %s: more than %d options (raise MAX_OPTIONS in %s)\n",
		command->name, MAX_OPTIONS, __FILE__);
	return false;
}

/* Map getopt's answer (a short letter or 256 + index) to the entry. */
static int entry_index(const struct option_set *set, int opt)
{
	if (opt >= 256 && (size_t)(opt - 256) < set->count)
		return opt - 256;
	for (size_t i = 0; i < set->count && opt > 0 && opt < 256; i++)
		if (set->entries[i]->letter == opt)
			return (int)i;
	return -1;
}

static void print_option_help(const struct cli_option *option, int column)
{
	char label[64];
	const char *line = option->help;

	if (!line)
		return;
	if (option->label)
		snprintf(label, sizeof(label), "%s", option->label);
	else
		snprintf(label, sizeof(label), "--%s%s%s", option->name, option->arg ? " " : "",
			 option->arg ? option->arg : "");
	printf("  %-*s", column - 2, label);
	for (const char *next; (next = strchr(line, '\n')); line = next + 1)
		printf("%.*s\n%*s", (int)(next - line), line, column, "");
	printf("%s\n", line);
}

static void print_help(const struct cli_command *command, const struct option_set *set)
{
	fputs(command->usage, stdout);
	for (size_t i = 0; i < set->count; i++)
		print_option_help(set->entries[i], command->column);
	if (command->epilogue)
		fputs(command->epilogue, stdout);
}

static bool take_operands(const struct cli_command *command, int argc, char **argv, void *args,
			  int *status)
{
	const struct cli_option *operand = command->operand;
	int max = command->max_operands ? command->max_operands : 1;

	*status = EXIT_TROUBLE;
	if (!operand && optind < argc) {
		cli_usage_error(command->name, "unexpected argument \"%s\"", argv[optind]);
		return false;
	}
	if (operand && argc - optind > max) {
		cli_usage_error(command->name, "too many arguments");
		return false;
	}
	for (int i = optind; operand && i < argc; i++)
		if (!operand->store(operand, argv[i], (char *)args + operand->field))
			return false;
	return true;
}

bool cli_parse(const struct cli_command *command, int argc, char **argv, void *args,
	       struct cli_mad *mad, int *status)
{
	struct option_set set;
	int opt;

	*status = EXIT_TROUBLE;
	if (!build_set(command, args, mad, &set))
		return false;
	while ((opt = getopt_long(argc, argv, set.shorts, set.longs, NULL)) != -1) {
		int i = entry_index(&set, opt);

		if (i < 0) {
			cli_usage_error(command->name, "unknown option");
			return false;
		}
		if (set.entries[i] == help_table) {
			print_help(command, &set);
			*status = 0;
			return false;
		}
		if (!set.entries[i]->store(set.entries[i], optarg,
					   set.bases[i] + set.entries[i]->field))
			return false;
	}
	return take_operands(command, argc, argv, args, status);
}

bool cli_store_flag(const struct cli_option *option, const char *arg, void *field)
{
	(void)option;
	(void)arg;
	*(bool *)field = true;
	return true;
}

bool cli_store_text(const struct cli_option *option, const char *arg, void *field)
{
	(void)option;
	*(const char **)field = arg;
	return true;
}

bool cli_store_choice(const struct cli_option *option, const char *arg, void *field)
{
	(void)arg;
	*(int *)field = option->value;
	return true;
}

bool cli_store_setting(const struct cli_option *option, const char *arg, void *field)
{
	char shown[32], msg[128];

	if (rk_limit_parse((enum rk_setting)option->value, arg, field, msg, sizeof(msg)) == 0)
		return true;
	option_shown(option, shown, sizeof(shown));
	fprintf(stderr, "rdmakit: %s %s: %s\n", shown, arg, msg);
	return false;
}

bool cli_store_unsigned_setting(const struct cli_option *option, const char *arg, void *field)
{
	double value;

	if (!cli_store_setting(option, arg, &value))
		return false;
	*(unsigned *)field = (unsigned)value;
	return true;
}

bool cli_store_bounded(const struct cli_option *option, const char *arg, unsigned long min,
		       unsigned long max, void *field)
{
	char shown[32], *end;
	unsigned long value;

	errno = 0;
	value = strtoul(arg, &end, 10);
	if (end == arg || *end != '\0' || errno != 0 || arg[0] == '-' || value < min ||
	    value > max) {
		option_shown(option, shown, sizeof(shown));
		fprintf(stderr,
			"rdmakit: %s: expected a whole number from %lu to %lu, got \"%s\"\n", shown,
			min, max, arg);
		return false;
	}
	*(unsigned long *)field = value;
	return true;
}

bool cli_store_count(const struct cli_option *option, const char *arg, void *field)
{
	return cli_store_bounded(option, arg, 1, MAX_COUNT, field);
}

bool cli_store_positive(const struct cli_option *option, const char *arg, void *field)
{
	char shown[32], *end;
	double value;

	errno = 0;
	value = strtod(arg, &end);
	option_shown(option, shown, sizeof(shown));
	if (end == arg || *end != '\0' || errno != 0 || !isfinite(value)) {
		fprintf(stderr, "rdmakit: %s: not a number: \"%s\"\n", shown, arg);
		return false;
	}
	if (value <= 0) {
		fprintf(stderr, "rdmakit: %s: must be above 0, got %s\n", shown, arg);
		return false;
	}
	*(double *)field = value;
	return true;
}
