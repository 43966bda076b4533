/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The core's facts (rdmakit/facts.h) through the one writer: each one's JSON key is its
 * cli_name and its value what its reader reads; the CLI says only where it goes and its text. */
#ifndef RDMAKIT_CLI_FACTS_OUT_H
#define RDMAKIT_CLI_FACTS_OUT_H

#include "print.h"
#include "rdmakit/facts.h"

/** The port's facts, in status --json's order. */
void print_port_facts(struct printer *p, const struct rk_device *dev, const struct rk_port *port);

/** The device's facts from node_type to num_ports. */
void print_device_facts(struct printer *p, const struct rk_device *dev);

/** The members of the device's "pci" object. */
void print_pci_facts(struct printer *p, const struct rk_device *dev);

/** "vanished": true or false (" (vanished)" in text when true). */
void print_vanished(struct printer *p, const struct rk_device *dev);

/** The SM's facts, a loop over the table (its order is sm --json's); one that did not answer
 * has only its LID and that. */
void print_sm_facts(struct printer *p, const struct rk_sm *sm);

/** "4X" for 4 lanes, or null when the width is unknown (0 or less). */
void print_width(struct printer *p, const char *key, const char *fmt, int lanes);

#endif
