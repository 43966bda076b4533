/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: the collectd plugin's <Plugin rdmakit> block (cd_config.c and
 * cd_config_fabric.c) on an oconfig tree built from the input, as collectd's parser would hand
 * it over. Records: [key][values and a child flag] then each value as [type] and its payload
 * (string: length and bytes; number: 8 bytes of a double; boolean: a byte). The string "FIFO"
 * stands for a named pipe in the scratch directory, so paths that would block are tried. */
#include "cd_config.h"
#include "cd_submit.h"
#include "fuzz_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_ITEMS  24
#define MAX_VALUES 3

static const char *const keys[] = {
    "SysfsRoot",     "Port",	      "IgnoreSelected", "HwCounters",	  "HwCounter",
    "Notifications", "Fabric",	      "SubnetManager",	"FabricInterval", "FabricWindow",
    "FabricTimeout", "FabricPackets", "NodeNameMap",	"Rediscover",	  "CA",
    "CAPort",	     "Unknown",	      "port",		"Probe",	  "ProbeInterval",
    "ProbeDevice",   "Rescan",	      "Expect",
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* The plugin's log function (cd_submit.c hands it to collectd): messages are dropped. */
void cd_log(int level, const char *format, ...)
{
	char message[1024];
	va_list args;

	(void)level;
	va_start(args, format);
	vsnprintf(message, sizeof(message), format, args);
	va_end(args);
}

/* The input, read from the front. */
struct input {
	const uint8_t *data;
	size_t size, at;
};

static uint8_t take_byte(struct input *in)
{
	return in->at < in->size ? in->data[in->at++] : 0;
}

static char *take_string(struct input *in)
{
	size_t len = take_byte(in);
	char *text;

	if (len > in->size - in->at)
		len = in->size - in->at;
	text = calloc(1, len + 1);
	if (text && len)
		memcpy(text, in->data + in->at, len);
	in->at += len;
	if (text && strcmp(text, "FIFO") == 0) {
		free(text);
		text = calloc(1, 96);
		if (text)
			snprintf(text, 96, "%s/fifo", fuzz_scratch_dir());
	}
	return text;
}

static void take_value(struct input *in, oconfig_value_t *value)
{
	value->type = take_byte(in) % 3;
	if (value->type == OCONFIG_TYPE_STRING) {
		value->value.string = take_string(in);
		if (!value->value.string)
			abort();
	} else if (value->type == OCONFIG_TYPE_NUMBER) {
		uint8_t bytes[8] = {0};

		for (size_t i = 0; i < sizeof(bytes); i++)
			bytes[i] = take_byte(in);
		memcpy(&value->value.number, bytes, sizeof(bytes));
	} else {
		value->value.boolean = take_byte(in) & 1;
	}
}

static void take_item(struct input *in, oconfig_item_t *parent, oconfig_item_t *item)
{
	uint8_t shape;

	item->key = strdup(keys[take_byte(in) % NKEYS]);
	shape = take_byte(in);
	item->values_num = shape % (MAX_VALUES + 1);
	item->values = calloc((size_t)item->values_num + 1, sizeof(*item->values));
	item->parent = parent;
	if (!item->key || !item->values)
		abort();
	for (int i = 0; i < item->values_num; i++)
		take_value(in, &item->values[i]);
	if (shape & 0x80) { /* a block where an option should be */
		item->children = calloc(1, sizeof(*item->children));
		if (!item->children)
			abort();
		item->children_num = 1;
		take_item(in, item, item->children);
	}
}

static void free_item(oconfig_item_t *item)
{
	for (int i = 0; i < item->values_num; i++)
		if (item->values[i].type == OCONFIG_TYPE_STRING)
			free(item->values[i].value.string);
	free(item->values);
	for (int i = 0; i < item->children_num; i++)
		free_item(&item->children[i]);
	free(item->children);
	free(item->key);
}

static void make_fifo(void)
{
	static int made;
	char path[96];

	if (made++)
		return;
	snprintf(path, sizeof(path), "%s/fifo", fuzz_scratch_dir());
	if (mkfifo(path, 0600) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	oconfig_item_t block = {.key = "Plugin"};
	struct input in = {.data = data, .size = size};
	struct cd_config config;

	fuzz_quiet_log();
	make_fifo();
	block.children = calloc(MAX_ITEMS, sizeof(*block.children));
	if (!block.children)
		abort();
	while (in.at < in.size && block.children_num < MAX_ITEMS)
		take_item(&in, &block, &block.children[block.children_num++]);
	if (cd_config_init(&config) != 0)
		abort();
	if (cd_config_apply(&config, &block) == 0 && config.sysfs_root[0] != '/')
		abort(); /* an accepted SysfsRoot is an absolute path */
	for (size_t i = 0; i < config.hw_count; i++)
		cd_config_wants_hw(&config, config.hw_names[i]);
	cd_config_free(&config);
	for (int i = 0; i < block.children_num; i++)
		free_item(&block.children[i]);
	free(block.children);
	return 0;
}
