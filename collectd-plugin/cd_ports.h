/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Port and IgnoreSelected: which ports to collect, with the meaning of collectd's ignorelist. */
#ifndef RDMAKIT_CD_PORTS_H
#define RDMAKIT_CD_PORTS_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

/* One Port entry: "DEVICE:PORT" compared as text, or "/regex/" matched against it. */
struct cd_port_pattern {
	char *text;
	regex_t *regex; /* NULL for plain text */
};

/* The Port entries and IgnoreSelected. */
struct cd_ports {
	struct cd_port_pattern *items;
	size_t count;
	bool ignore_selected; /* true: collect all but the listed ports */
};

/** Add a Port entry; -EINVAL (message in err) when it is neither "DEV:PORT" nor a valid /regex/. */
int cd_ports_add(struct cd_ports *ports, const char *entry, char *err, size_t err_size);

/** True when port num of device is collected: all when no entry, else listed xor ignore_selected.
 */
bool cd_ports_selected(const struct cd_ports *ports, const char *device, unsigned num);

/** True when the entry matches a port name "DEV:PORT". */
bool cd_ports_pattern_matches(const struct cd_port_pattern *pattern, const char *name);

/** Free every entry. */
void cd_ports_free(struct cd_ports *ports);

#endif
