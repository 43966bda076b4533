/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* What the tune module's files share: the audit context and file access under the root. */
#ifndef RDMAKIT_TUNE_INTERNAL_H
#define RDMAKIT_TUNE_INTERNAL_H

#include "rdmakit/host.h"
#include "rdmakit/sysfs.h"
#include "rdmakit/tune.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A growing text buffer (drop-in contents). */
struct tune_text {
	char *data;
	size_t len, capacity;
};

/* One audit run: where, against what, and where its results go. */
struct tune_ctx {
	const char *root;
	const struct rk_tune_profile *profile;
	const char *partitions; /* partitions.conf for the fabric's IPoIB MTU, or NULL */
	struct rk_tune_audit *audit;
	struct rk_tune_plan *plan; /* NULL: audit only */
	struct rk_host *host;	   /* RDMA devices under root/sys; NULL when there are none */
	struct tune_text sysctl_dropin;
	struct tune_text udev_rules; /* settings of network devices, applied when they appear */
	int err;		     /* first -ENOMEM or similar; the checks go on */
};

/* Where the profile's persistent settings go (relative to the root). */
#define TUNE_SYSCTL_DROPIN	"etc/sysctl.d/90-rdmakit-tune.conf"
#define TUNE_UDEV_RULES		"etc/udev/rules.d/90-rdmakit-tune.rules"
#define TUNE_LIMITS_DROPIN	"etc/security/limits.d/90-rdmakit-memlock.conf"
#define TUNE_SYSTEMD_DROPIN_DIR "etc/systemd/system.conf.d"
#define TUNE_SYSTEMD_DROPIN	TUNE_SYSTEMD_DROPIN_DIR "/90-rdmakit-memlock.conf"

/* Largest file the tune module reads whole (configs, logs, config space). */
#define TUNE_MAX_FILE (16u << 20)

/** root joined with relpath into buf; -ENAMETOOLONG when it does not fit. */
int tune_path(const char *root, const char *relpath, char *buf, size_t size);

/** Write bytes to relpath under root atomically: a temporary file, fsync, rename, fsync of the
 * directory; a symlink there is refused (-ELOOP, logged), never followed nor replaced. */
int tune_write_atomic(const char *root, const char *relpath, const void *bytes, size_t len,
		      unsigned mode);

/** Write all of bytes to fd, again after EINTR; 0 or -errno. */
int tune_write_all(int fd, const void *bytes, size_t len);

/** fsync the directory that holds relpath under root; 0 or -errno. */
int tune_fsync_dir_of(const char *root, const char *relpath);

/** The temporary name tune_write_atomic uses for path. */
void tune_temp_path(const char *path, char *buf, size_t size);

/** Read a whole regular file under root (FIFOs and devices refused); -errno. */
int tune_slurp(const char *root, const char *relpath, char **data, size_t *len, mode_t *mode);

/** Read a file rdmakit may write: as tune_slurp, but a symlink at relpath is refused (-ELOOP). */
int tune_slurp_target(const char *root, const char *relpath, char **data, size_t *len,
		      mode_t *mode);

/** Log that the symlink at relpath under root is refused as a place to write. */
void tune_refuse_link(const char *root, const char *relpath);

/** Read a small file under root into buf without trailing whitespace; length or -errno. */
ssize_t tune_read_text(const char *root, const char *relpath, char *buf, size_t size);

/** Read a whole decimal number from a file under root; -errno. */
int tune_read_long(const char *root, const char *relpath, long *out);

/* Called with each line (newline removed, 1-based number). */
typedef void (*tune_line_fn)(char *line, unsigned lineno, void *arg);

/** Split data (modified in place) into lines and call fn on each. */
void tune_each_line(char *data, size_t len, tune_line_fn fn, void *arg);

/** Append formatted text; -ENOMEM. */
int tune_text_add(struct tune_text *text, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Free a text buffer. */
void tune_text_free(struct tune_text *text);

/** A live change when the value at relpath is not wanted (read again for the raw bytes). */
void tune_want_live(struct tune_ctx *ctx, const char *key, const char *relpath, const char *wanted);

/** A whole-file change when the file at relpath does not hold exactly text. */
void tune_want_file(struct tune_ctx *ctx, const char *key, const char *relpath, const char *text,
		    unsigned mode);

/** Record a -errno from a helper in ctx (the first one is kept). */
void tune_note_error(struct tune_ctx *ctx, int err);

/** Parse a CPU list ("0-3,8") into a bit mask of up to 1024 CPUs; -EINVAL. */
int tune_parse_cpulist(const char *text, unsigned long *mask, size_t words);

/** The bracketed choice of a sysfs selector ("always [madvise] never"), or the whole text. */
void tune_selected(const char *text, char *out, size_t size);

/* The checks, one per area. */
void tune_check_memory(struct tune_ctx *ctx);
void tune_check_cpu(struct tune_ctx *ctx);
void tune_check_irq(struct tune_ctx *ctx);
void tune_check_pcie(struct tune_ctx *ctx);
void tune_check_sriov(struct tune_ctx *ctx);
void tune_check_ipoib(struct tune_ctx *ctx);
void tune_check_arp(struct tune_ctx *ctx);
void tune_check_roce(struct tune_ctx *ctx);

#endif
