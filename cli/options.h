/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The subcommands' one option parser: each declares a table of its options, cli_parse runs
 * getopt_long over it and prints --help from it. */
#ifndef RDMAKIT_CLI_OPTIONS_H
#define RDMAKIT_CLI_OPTIONS_H

#include "rdmakit/limits.h"

#include <stdbool.h>
#include <stddef.h>

struct cli_option;
struct cli_mad;

/* Store an option's argument (NULL for a flag) in field; false once it printed why not. */
typedef bool (*cli_store_fn)(const struct cli_option *option, const char *arg, void *field);

/* One option. A table ends with an entry whose store is NULL. */
struct cli_option {
	const char *name;   /* long name, without "--" */
	char letter;	    /* short option, or 0 */
	const char *arg;    /* the argument's name in --help ("S"); NULL: takes none */
	cli_store_fn store; /* a cli_store_* below, or the subcommand's own */
	size_t field;	    /* offsetof the field it stores, in the table's struct */
	int value;	    /* cli_store_choice: what it stores; setting stores: the rk_setting */
	const char *help;   /* --help text, '\n' between lines; NULL: told by the entry before */
	const char *label;  /* --help's left column when not "--name ARG" */
};

/* A table entry: long name, argument name (NULL: none), store, field, value, help. */
#define CLI_OPTION(long_name, arg_name, store_fn, field_offset, store_value, help_text)            \
	{                                                                                          \
		.name = (long_name), .arg = (arg_name), .store = (store_fn),                       \
		.field = (field_offset), .value = (store_value), .help = (help_text)               \
	}

/* A flag: the bool at field_offset becomes true. */
#define CLI_FLAG(long_name, field_offset, help_text)                                               \
	CLI_OPTION(long_name, NULL, cli_store_flag, field_offset, 0, help_text)

/* A subcommand's command line. */
struct cli_command {
	const char *name;		  /* "sweep" */
	const char *usage;		  /* --help before the options: synopsis, description */
	const struct cli_option *options; /* fields in the subcommand's own args */
	bool mad;			  /* also the MAD options, into a struct cli_mad */
	const char *mad_replaced;	  /* a MAD option an own option of that name replaces */
	const struct cli_option *operand; /* the one optional operand, or NULL: none */
	int max_operands;		  /* how many times the operand may be given (0: once) */
	int column;			  /* where --help starts the options' descriptions */
	const char *epilogue;		  /* --help after the options, or NULL */
};

/** Parse argv into args (and mad); true: go on; false: exit with *status, 0 after --help or
 * EXIT_TROUBLE after a usage error (the message printed). */
bool cli_parse(const struct cli_command *command, int argc, char **argv, void *args,
	       struct cli_mad *mad, int *status);

/** A flag: the bool field becomes true. */
bool cli_store_flag(const struct cli_option *option, const char *arg, void *field);

/** The const char * field points at the argument. */
bool cli_store_text(const struct cli_option *option, const char *arg, void *field);

/** The int field becomes option->value (one of several flags that choose one thing). */
bool cli_store_choice(const struct cli_option *option, const char *arg, void *field);

/** A double field within the range of the rk_setting in option->value (rdmakit/limits.h). */
bool cli_store_setting(const struct cli_option *option, const char *arg, void *field);

/** An unsigned field within the range of the rk_setting in option->value. */
bool cli_store_unsigned_setting(const struct cli_option *option, const char *arg, void *field);

/** An unsigned long field: a whole number from min to max (a store function's helper). */
bool cli_store_bounded(const struct cli_option *option, const char *arg, unsigned long min,
		       unsigned long max, void *field);

/** An unsigned long field: a count from 1 to 1000000. */
bool cli_store_count(const struct cli_option *option, const char *arg, void *field);

/** A double field above 0. */
bool cli_store_positive(const struct cli_option *option, const char *arg, void *field);

#endif
