/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* madcount.so - preloaded before the umad2sim shim by tests/perf/sweep.sh: counts the MADs a
 * process sends through umad_send, by kind, and appends one line at exit to the file named by
 * RK_MADCOUNT_OUT: "smp N pc N ext N cpi N other N" (SMPs of either routing; PerfMgt
 * PortCounters, PortCountersExtended, ClassPortInfo; anything else). Retries count: a resend
 * is a MAD the simulator handles again. Built by the script with cc -shared -fPIC. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { SMP, PC, EXT, CPI, OTHER, KINDS };

static unsigned long counts[KINDS];

typedef int (*send_fn)(int, int, void *, int, int, int);
typedef void *(*get_mad_fn)(void *);

/* The kind of one MAD: management class at byte 1, attribute id at bytes 16-17. */
static int kind_of(const uint8_t *mad)
{
	unsigned attr = (unsigned)mad[16] << 8 | mad[17];

	if (mad[1] == 0x01 || mad[1] == 0x81)
		return SMP;
	if (mad[1] != 0x04)
		return OTHER;
	return attr == 0x12 ? PC : attr == 0x1d ? EXT : attr == 0x01 ? CPI : OTHER;
}

/* libibumad's umad_send (the shim's, next in line), counted. */
int umad_send(int fd, int agentid, void *umad, int length, int timeout_ms, int retries)
{
	static send_fn next;
	static get_mad_fn get_mad;

	if (!next) {
		next = (send_fn)dlsym(RTLD_NEXT, "umad_send");
		get_mad = (get_mad_fn)dlsym(RTLD_DEFAULT, "umad_get_mad");
	}
	if (get_mad)
		counts[kind_of(get_mad(umad))]++;
	return next ? next(fd, agentid, umad, length, timeout_ms, retries) : -1;
}

/* One line of this process's counts, appended (a helper process writes its own). */
__attribute__((destructor)) static void write_counts(void)
{
	const char *path = getenv("RK_MADCOUNT_OUT");
	FILE *out = path ? fopen(path, "a") : NULL;

	if (!out)
		return;
	fprintf(out, "smp %lu pc %lu ext %lu cpi %lu other %lu\n", counts[SMP], counts[PC],
		counts[EXT], counts[CPI], counts[OTHER]);
	fclose(out);
}
