/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Text that came from the fabric (a NodeDescription is set by whoever runs the node), made
 * safe for every output: terminals, JSON, SNMP DisplayStrings, collectd and Zabbix. */
#ifndef RDMAKIT_TEXT_H
#define RDMAKIT_TEXT_H

#include <stddef.h>

/* Room for a cleaned 64-octet NodeDescription: every octet escaped, and the terminator. */
#define RK_TEXT_CLEAN_MAX (64 * 4 + 1)

/** Copy untrusted text into out (size > 0) as printable 7-bit ASCII: bytes 0x20-0x7e stay,
 * every other byte is written "\xHH" (as infiniband-diags' own cleaning, but kept readable);
 * stops at src's end or at
 * src_len octets, never cuts an escape short. Returns the length written. */
size_t rk_text_clean(const char *src, size_t src_len, char *out, size_t size);

#endif
