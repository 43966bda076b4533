/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Memory: hugepages per NUMA node, transparent hugepages, memlock for users and services. */
#include "rootfs.h"
#include "tune_internal.h"

#include "rdmakit/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_NODES	  64
#define MEMLOCK_UNLIMITED (-1L)
#define MEMLOCK_UNSET	  (-2L)
#define IBVERBS_WARN_KIB  32

static const char limits_dropin_text[] = "# Written by rdmakit tune: RDMA pins registered memory.\n"
					 "* soft memlock unlimited\n"
					 "* hard memlock unlimited\n";
static const char systemd_dropin_text[] =
    "# Written by rdmakit tune: PAM limits do not reach services.\n"
    "[Manager]\nDefaultLimitMEMLOCK=infinity\n";

static long node_hugepages(struct tune_ctx *ctx, const char *node)
{
	char dir[128], path[256];
	char **sizes;
	size_t count;
	long total = 0, pages;

	snprintf(dir, sizeof(dir), "sys/devices/system/node/%s/hugepages", node);
	if (rootfs_list(ctx->root, dir, &sizes, &count) != 0)
		return 0;
	for (size_t i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/%s/nr_hugepages", dir, sizes[i]);
		if (tune_read_long(ctx->root, path, &pages) == 0 && pages > 0)
			total += pages;
	}
	rk_names_free(sizes, count);
	return total;
}

static void report_hugepages_node(struct tune_ctx *ctx, const long *pages, int hca_node,
				  const char *device)
{
	char current[128] = "", recommended[64];
	size_t used = 0;

	for (int n = 0; n < MAX_NODES && used < sizeof(current) - 24; n++)
		if (pages[n] >= 0)
			used += (size_t)snprintf(current + used, sizeof(current) - used,
						 "%snode%d=%ld", used ? " " : "", n, pages[n]);
	snprintf(recommended, sizeof(recommended), "hugepages on node%d", hca_node);
	tune_note_error(
	    ctx, rk_tune_report(ctx->audit, RK_SEVERITY_WARNING, "TUNE_HUGEPAGES_NUMA", "memory",
				device, current, recommended,
				"echo N > /sys/devices/system/node/nodeX/hugepages/"
				"hugepages-2048kB/nr_hugepages, X the HCA's node",
				"hugepages are reserved (%s) but none on node%d, the NUMA node of "
				"%s: buffers there cross the inter-socket link",
				current, hca_node, device));
}

static void check_hugepages(struct tune_ctx *ctx)
{
	long pages[MAX_NODES], total = 0;
	char **nodes;
	size_t count;
	int n;

	for (n = 0; n < MAX_NODES; n++)
		pages[n] = -1;
	if (rootfs_list(ctx->root, "sys/devices/system/node", &nodes, &count) != 0)
		return;
	for (size_t i = 0; i < count; i++)
		if (sscanf(nodes[i], "node%d", &n) == 1 && n >= 0 && n < MAX_NODES) {
			pages[n] = node_hugepages(ctx, nodes[i]);
			total += pages[n];
		}
	rk_names_free(nodes, count);
	for (size_t d = 0; ctx->host && total > 0 && d < ctx->host->ndevices; d++) {
		const struct rk_device *dev = &ctx->host->devices[d];
		int node = dev->pci.numa_node;

		if (node >= 0 && node < MAX_NODES && pages[node] == 0)
			report_hugepages_node(ctx, pages, node, dev->name);
	}
}

static void sysctl_conf_line(char *line, unsigned lineno, void *arg)
{
	struct tune_ctx *ctx = arg;
	char key[128];

	if (sscanf(line, " %127[^= \t]", key) != 1 || key[0] == '#' || key[0] == ';')
		return;
	for (char *p = key; *p; p++)
		*p = *p == '/' ? '.' : *p;
	if (strcmp(key, "vm.nr_hugepages") != 0)
		return;
	tune_note_error(ctx,
			rk_tune_report(ctx->audit, RK_SEVERITY_WARNING, "TUNE_SYSCTL_CONF",
				       "memory", "/etc/sysctl.conf", key, "a file in /etc/sysctl.d",
				       "move the line to /etc/sysctl.d/90-hugepages.conf",
				       "%s is set in /etc/sysctl.conf (line %u): that file belongs "
				       "to the distribution; settings go in drop-ins in "
				       "/etc/sysctl.d",
				       key, lineno));
}

/* vm.nr_hugepages in /etc/sysctl.conf instead of a drop-in. */
static void check_sysctl_conf(struct tune_ctx *ctx)
{
	char *data;
	size_t len;

	if (tune_slurp(ctx->root, "etc/sysctl.conf", &data, &len, NULL) != 0)
		return;
	tune_each_line(data, len, sysctl_conf_line, ctx);
	free(data);
}

static void check_thp(struct tune_ctx *ctx)
{
	static const char path[] = "sys/kernel/mm/transparent_hugepage/enabled";
	const struct rk_tune_setting *want = rk_tune_profile_setting(ctx->profile, "thp");
	char text[128], current[32];

	if (!want || tune_read_text(ctx->root, path, text, sizeof(text)) < 0)
		return;
	tune_selected(text, current, sizeof(current));
	if (strcmp(current, want->value) != 0)
		tune_note_error(
		    ctx, rk_tune_report(
			     ctx->audit, RK_SEVERITY_WARNING, "TUNE_THP", "memory",
			     "transparent_hugepage", current, want->value,
			     "echo VALUE > /sys/kernel/mm/transparent_hugepage/enabled, and "
			     "transparent_hugepage=VALUE on the kernel command line",
			     "transparent hugepages are \"%s\", the %s profile wants \"%s\": %s",
			     current, ctx->profile->name, want->value, want->why));
	tune_want_live(ctx, "transparent_hugepage", path, want->value);
}

/* A memlock value in KiB, MEMLOCK_UNLIMITED, or -EINVAL. */
static long parse_memlock(const char *text)
{
	char *end;
	long value;

	if (strcasecmp(text, "unlimited") == 0 || strcasecmp(text, "infinity") == 0 ||
	    strcmp(text, "-1") == 0)
		return MEMLOCK_UNLIMITED;
	errno = 0;
	value = strtol(text, &end, 10);
	return end == text || *end || errno || value < 0 ? -EINVAL : value;
}

#define MAX_DOMAINS 32

/* The soft memlock limit of one pam_limits domain ("*", "@rdma", a user), as last set. */
struct memlock_domain {
	char name[64];
	long soft;
	char where[160];
};

struct memlock_state {
	struct memlock_domain domains[MAX_DOMAINS]; /* domains[0] is "*" */
	size_t count;
};

static struct memlock_domain *find_domain(struct memlock_state *st, const char *name)
{
	for (size_t i = 0; i < st->count; i++)
		if (strcmp(st->domains[i].name, name) == 0)
			return &st->domains[i];
	if (st->count == MAX_DOMAINS)
		return NULL;
	snprintf(st->domains[st->count].name, sizeof(st->domains[0].name), "%s", name);
	st->domains[st->count].soft = MEMLOCK_UNSET;
	return &st->domains[st->count++];
}

static void limits_line(struct tune_ctx *ctx, const char *file, unsigned lineno, char *line,
			struct memlock_state *st)
{
	char domain[64], type[16], item[32], value[64], extra[8];
	struct memlock_domain *d;
	int fields;
	long kib;

	line[strcspn(line, "#")] = '\0';
	fields = sscanf(line, "%63s %15s %31s %63s %7s", domain, type, item, value, extra);
	if (fields <= 0 || (fields >= 3 && strcmp(item, "memlock") != 0))
		return;
	kib = fields == 4 ? parse_memlock(value) : -EINVAL;
	if (kib == -EINVAL) {
		tune_note_error(ctx,
				rk_tune_report(ctx->audit, RK_SEVERITY_WARNING,
					       "TUNE_LIMITS_SYNTAX", "memory", file, line,
					       "<domain> soft|hard|- memlock <KiB|unlimited>",
					       "fix the line; pam_limits skips it",
					       "%s line %u is not a valid memlock limit: \"%s\"",
					       file, lineno, line));
		return;
	}
	if (strcmp(type, "soft") != 0 && strcmp(type, "-") != 0)
		return; /* the soft limit is what a process starts with */
	d = find_domain(st, domain);
	if (!d)
		return;
	d->soft = kib;
	snprintf(d->where, sizeof(d->where), "%s line %u", file, lineno);
}

struct limits_file {
	struct tune_ctx *ctx;
	const char *file;
	struct memlock_state *st;
};

static void limits_each_line(char *line, unsigned lineno, void *arg)
{
	struct limits_file *lf = arg;

	limits_line(lf->ctx, lf->file, lineno, line, lf->st);
}

/* One limits file, by its absolute path (as the findings name it) under the audit's root. */
static void read_limits_file(struct tune_ctx *ctx, const char *file, struct memlock_state *st)
{
	char *data;
	size_t len;
	int err = tune_slurp(ctx->root, file + 1, &data, &len, NULL);
	struct limits_file lf = {ctx, file, st};

	if (err)
		return; /* logged */
	tune_each_line(data, len, limits_each_line, &lf);
	free(data);
}

static void format_memlock(long kib, char *buf, size_t size)
{
	if (kib == MEMLOCK_UNLIMITED)
		snprintf(buf, size, "unlimited");
	else if (kib == MEMLOCK_UNSET)
		snprintf(buf, size, "not set (the kernel's default, 8 MiB or 64 KiB)");
	else
		snprintf(buf, size, "%ld KiB", kib);
}

/* One domain's limit: critical below what libibverbs needs, a warning against the profile. */
static void judge_domain(struct tune_ctx *ctx, const struct memlock_domain *d, bool want_unlimited)
{
	bool everyone = strcmp(d->name, "*") == 0;
	char current[96];

	format_memlock(d->soft, current, sizeof(current));
	if (d->soft >= 0 && d->soft < IBVERBS_WARN_KIB)
		tune_note_error(
		    ctx,
		    rk_tune_report(ctx->audit, RK_SEVERITY_CRITICAL, "TUNE_MEMLOCK", "memory",
				   d->name, current, "unlimited",
				   everyone ? "\"* - memlock unlimited\" in a drop-in"
					    : "set it to unlimited where it is set",
				   "the memlock limit of %s is %s (%s): below the 32 KiB at which "
				   "libibverbs warns, so registrations fail",
				   everyone ? "every user" : d->name, current, d->where));
	else if (want_unlimited && d->soft != MEMLOCK_UNLIMITED && (everyone || d->soft >= 0))
		tune_note_error(
		    ctx,
		    rk_tune_report(ctx->audit, RK_SEVERITY_WARNING, "TUNE_MEMLOCK", "memory",
				   d->name, current, "unlimited",
				   everyone ? "/" TUNE_LIMITS_DROPIN
					    : "set it to unlimited where it is set: a * line does "
					      "not override it",
				   "the memlock limit of %s is %s, the %s profile wants unlimited: "
				   "RDMA pins every registered buffer",
				   everyone ? "users" : d->name, current, ctx->profile->name));
}

static void check_limits(struct tune_ctx *ctx)
{
	struct memlock_state *st = calloc(1, sizeof(*st));
	bool want_unlimited = rk_tune_profile_value(ctx->profile, "memlock") != NULL;
	char **names, path[300];
	size_t count;

	if (!st) {
		tune_note_error(ctx, -ENOMEM);
		return;
	}
	find_domain(st, "*");
	read_limits_file(ctx, "/etc/security/limits.conf", st);
	if (rootfs_list(ctx->root, "etc/security/limits.d", &names, &count) == 0) {
		for (size_t i = 0; i < count; i++) {
			size_t n = strlen(names[i]);

			if (n < 5 || strcmp(names[i] + n - 5, ".conf") != 0)
				continue;
			snprintf(path, sizeof(path), "/etc/security/limits.d/%s", names[i]);
			read_limits_file(ctx, path, st);
		}
		rk_names_free(names, count);
	}
	for (size_t i = 0; i < st->count; i++)
		judge_domain(ctx, &st->domains[i], want_unlimited);
	free(st);
	if (want_unlimited)
		tune_want_file(ctx, "memlock limits drop-in", TUNE_LIMITS_DROPIN,
			       limits_dropin_text, 0644);
}

/* The value of KEY= in a systemd file (last one wins), into value; false when absent. */
static bool systemd_value(struct tune_ctx *ctx, const char *relpath, const char *key, char *value,
			  size_t size)
{
	char *data, *line, *save = NULL;
	size_t len, keylen = strlen(key);
	bool found = false;

	if (tune_slurp(ctx->root, relpath, &data, &len, NULL) != 0)
		return false;
	for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (strncmp(line, key, keylen) == 0 && line[keylen] == '=') {
			snprintf(value, size, "%s", line + keylen + 1);
			found = true;
		}
	}
	free(data);
	return found;
}

static void check_systemd_default(struct tune_ctx *ctx)
{
	char value[64] = "", **names, path[300];
	size_t count;
	bool set = systemd_value(ctx, "etc/systemd/system.conf", "DefaultLimitMEMLOCK", value,
				 sizeof(value));

	if (!rk_tune_profile_value(ctx->profile, "memlock"))
		return;
	if (rootfs_list(ctx->root, TUNE_SYSTEMD_DROPIN_DIR, &names, &count) == 0) {
		for (size_t i = 0; i < count; i++) {
			snprintf(path, sizeof(path), TUNE_SYSTEMD_DROPIN_DIR "/%s", names[i]);
			set |=
			    systemd_value(ctx, path, "DefaultLimitMEMLOCK", value, sizeof(value));
		}
		rk_names_free(names, count);
	}
	if (!set || strcmp(value, "infinity") != 0)
		tune_note_error(
		    ctx, rk_tune_report(
			     ctx->audit, RK_SEVERITY_WARNING, "TUNE_SERVICE_MEMLOCK", "memory",
			     "systemd services", set ? value : "not set", "infinity",
			     "DefaultLimitMEMLOCK=infinity in /" TUNE_SYSTEMD_DROPIN,
			     "services get DefaultLimitMEMLOCK=%s: PAM limits do not reach "
			     "them, so an RDMA daemon is limited to systemd's default",
			     set ? value : "(unset)"));
	tune_want_file(ctx, "systemd memlock drop-in", TUNE_SYSTEMD_DROPIN, systemd_dropin_text,
		       0644);
}

/* A unit that sets LimitMEMLOCK to a finite value: PAM limits do not reach services. */
static void check_units(struct tune_ctx *ctx)
{
	char **names, path[300], value[64];
	size_t count;

	if (rootfs_list(ctx->root, "etc/systemd/system", &names, &count) != 0)
		return;
	for (size_t i = 0; i < count; i++) {
		long kib;

		snprintf(path, sizeof(path), "etc/systemd/system/%s", names[i]);
		if (!strstr(names[i], ".service") ||
		    !systemd_value(ctx, path, "LimitMEMLOCK", value, sizeof(value)))
			continue;
		kib = parse_memlock(value);
		if (kib == MEMLOCK_UNLIMITED)
			continue;
		tune_note_error(
		    ctx,
		    rk_tune_report(ctx->audit, RK_SEVERITY_WARNING, "TUNE_UNIT_MEMLOCK", "memory",
				   names[i], value, "infinity",
				   "LimitMEMLOCK=infinity in the unit's [Service] section",
				   "%s sets LimitMEMLOCK=%s (bytes): an RDMA service needs its "
				   "buffers pinned without a limit",
				   names[i], value));
	}
	rk_names_free(names, count);
}

void tune_check_memory(struct tune_ctx *ctx)
{
	check_hugepages(ctx);
	check_sysctl_conf(ctx);
	check_thp(ctx);
	check_limits(ctx);
	check_systemd_default(ctx);
	check_units(ctx);
}
