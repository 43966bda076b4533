/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* libFuzzer target: the core's parsers of single sysfs attribute values. The first byte picks
 * the parser, the rest is the attribute's text (as rk_attr_read hands it over: no NUL inside,
 * trailing whitespace trimmed). Every parser must refuse or accept without reading past the
 * text, and what it accepts must be in range. */
#include "fuzz_util.h"
#include "rdmakit/catalog.h"
#include "rdmakit/counters.h"
#include "rdmakit/host.h"
#include "rdmakit/sysfs.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum parser { U64, NUMBERED, RATE, PCIE, PORT_NUMBER, COUNTER, PARSERS };

static void check_rate(const char *text)
{
	enum rk_speed speed;
	double gbps;
	int width;

	if (rk_parse_rate(text, &gbps, &width, &speed) != 0)
		return;
	if (!(gbps >= 0 && gbps <= RK_RATE_MAX_GBPS) || width == 0 || width > RK_WIDTH_MAX ||
	    (unsigned)speed >= RK_SPEED_COUNT || (width < 0 && speed != RK_SPEED_NONE))
		abort();
}

static void check_numbered(const char *text)
{
	char name[32];
	int number;

	if (rk_parse_numbered(text, &number, name, sizeof(name)) == 0 &&
	    (number < 0 || number > 255 || !name[0] || strlen(name) >= sizeof(name)))
		abort();
}

static void check_counter(const char *text, const char *name)
{
	struct rk_counter counter = {.name = (char *)name, .attr = {.fd = -1, .path = "fuzz"}};

	counter.metric = rk_catalog_find(RK_SRC_PORT_COUNTERS, name);
	if (!counter.metric)
		abort();
	rk_counter_update(&counter, text); /* twice: the second has a previous value */
	rk_counter_update(&counter, text);
	if (counter.state == RK_VALUE_OK && counter.has_delta && counter.delta != 0)
		abort(); /* the same text twice changed nothing */
}

static void parse(enum parser which, const char *text)
{
	uint64_t value;
	unsigned num;
	double gts;

	switch (which) {
	case U64:
		rk_parse_u64(text, &value);
		break;
	case NUMBERED:
		check_numbered(text);
		break;
	case RATE:
		check_rate(text);
		break;
	case PCIE:
		if (rk_parse_pcie_speed(text, &gts) == 0 &&
		    !(gts > 0 && gts <= RK_PCIE_SPEED_MAX_GTS))
			abort();
		break;
	case PORT_NUMBER:
		if (rk_parse_port_number(text, &num) == 0 && num > RK_PORT_NUM_MAX)
			abort();
		break;
	default:
		check_counter(text, which == COUNTER ? "symbol_error" : "port_xmit_data");
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	fuzz_quiet_log();
	if (size < 1 || memchr(data + 1, '\0', size - 1))
		return 0; /* a read attribute never has a NUL inside */
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	parse((enum parser)(data[0] % (PARSERS + 1)), text);
	free(text);
	return 0;
}
