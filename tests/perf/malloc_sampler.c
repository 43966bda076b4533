/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* malloc_sampler.so, preloaded into the daemons by tests/perf/soak.py: when
 * RDMAKIT_MALLOC_INFO_DIR is set, a thread writes glibc's malloc_info(3) of the process to
 * DIR/PID.xml (written whole, then renamed) every RDMAKIT_MALLOC_INFO_SECONDS (default 10),
 * so the soak can tell heap in use from what the kernel counts as resident. A forked child
 * (a daemon detaching) samples too, under its own PID. */
#define _GNU_SOURCE
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *sample_dir;
static unsigned sample_seconds = 10;

static void write_malloc_info(void)
{
	char path[PATH_MAX], partial[PATH_MAX];
	long pid = (long)getpid();
	if (snprintf(path, sizeof path, "%s/%ld.xml", sample_dir, pid) >= (int)sizeof path ||
	    snprintf(partial, sizeof partial, "%s/%ld.part", sample_dir, pid) >=
		(int)sizeof partial)
		return;
	FILE *out = fopen(partial, "w");
	if (!out)
		return;
	int written = malloc_info(0, out) == 0;
	if (fclose(out) == 0 && written)
		rename(partial, path);
	else
		unlink(partial);
}

static void *sample_forever(void *unused)
{
	(void)unused;
	for (;;) {
		write_malloc_info();
		sleep(sample_seconds);
	}
	return NULL;
}

static void start_thread(void)
{
	pthread_t thread;
	if (pthread_create(&thread, NULL, sample_forever, NULL) == 0)
		pthread_detach(thread);
}

__attribute__((constructor)) static void start_sampling(void)
{
	sample_dir = getenv("RDMAKIT_MALLOC_INFO_DIR");
	if (!sample_dir)
		return;
	const char *seconds = getenv("RDMAKIT_MALLOC_INFO_SECONDS");
	if (seconds && atoi(seconds) > 0)
		sample_seconds = (unsigned)atoi(seconds);
	pthread_atfork(NULL, NULL, start_thread);
	start_thread();
}
