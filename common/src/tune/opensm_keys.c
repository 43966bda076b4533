/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* The keys of the installed OpenSM, from the template `opensm -c` writes. */
#include "rdmakit/tune_opensm.h"

#include "rdmakit/log.h"
#include "tune_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OPENSM_TIMEOUT_S 20

static enum rk_opensm_type type_of(const char *value)
{
	size_t skip = value[0] == '-' ? 1 : 0;

	if (strcmp(value, "TRUE") == 0 || strcmp(value, "FALSE") == 0)
		return RK_OPENSM_BOOL;
	if (strncmp(value, "0x", 2) == 0 && value[2] &&
	    strspn(value + 2, "0123456789abcdefABCDEF") == strlen(value + 2))
		return RK_OPENSM_NUMBER;
	if (value[skip] && strspn(value + skip, "0123456789") == strlen(value + skip))
		return RK_OPENSM_NUMBER;
	return RK_OPENSM_STRING;
}

static int add_key(struct rk_opensm_keys *keys, const char *name, const char *value,
		   size_t *capacity)
{
	struct rk_opensm_key *key;

	if (keys->count == *capacity) {
		size_t grown = *capacity ? *capacity * 2 : 128;
		struct rk_opensm_key *bigger = realloc(keys->items, grown * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		keys->items = bigger;
		*capacity = grown;
	}
	key = &keys->items[keys->count++];
	snprintf(key->name, sizeof(key->name), "%s", name);
	snprintf(key->default_value, sizeof(key->default_value), "%s", value);
	key->type = type_of(value);
	return 0;
}

/* Names separated by commas and blanks, e.g. "minhop, updn, dnup," */
static void add_engines(struct rk_opensm_keys *keys, const char *list)
{
	char copy[512], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", list);
	for (char *t = strtok_r(copy, ", \t#", &save); t && keys->nengines < 32;
	     t = strtok_r(NULL, ", \t#", &save))
		snprintf(keys->engines[keys->nengines++], sizeof(keys->engines[0]), "%s", t);
}

static void add_consoles(struct rk_opensm_keys *keys, const char *list)
{
	char copy[128], *save = NULL;

	snprintf(copy, sizeof(copy), "%.*s", (int)strcspn(list, "]"), list);
	for (char *t = strtok_r(copy, "|", &save); t && keys->nconsoles < 8;
	     t = strtok_r(NULL, "|", &save))
		snprintf(keys->consoles[keys->nconsoles++], sizeof(keys->consoles[0]), "%s", t);
}

struct template_scan {
	struct rk_opensm_keys *keys;
	size_t capacity;
	bool in_engines;
	int err;
};

static void template_line(char *line, unsigned lineno, void *arg)
{
	struct template_scan *scan = arg;
	char name[64], *value, *p;

	(void)lineno;
	if (line[0] == '#') {
		if ((p = strstr(line, "Supported engines:")) != NULL) {
			scan->in_engines = true;
			add_engines(scan->keys, p + strlen("Supported engines:"));
		} else if (scan->in_engines && line[1] == ' ' && strchr(line, ',')) {
			add_engines(scan->keys, line + 1);
		} else if (strncmp(line, "# console [", 11) == 0) {
			add_consoles(scan->keys, line + 11);
		} else {
			scan->in_engines = false;
		}
		return;
	}
	scan->in_engines = false;
	if (sscanf(line, "%63s", name) != 1)
		return;
	value = line + strlen(name);
	value += strspn(value, " \t");
	if (!scan->err)
		scan->err = add_key(scan->keys, name, value, &scan->capacity);
}

int rk_opensm_keys_parse(const char *text, struct rk_opensm_keys *keys)
{
	struct template_scan scan = {.keys = keys};
	char *copy = strdup(text);

	*keys = (struct rk_opensm_keys){0};
	if (!copy)
		return -ENOMEM;
	tune_each_line(copy, strlen(copy), template_line, &scan);
	free(copy);
	if (!scan.err && keys->count == 0)
		scan.err = -EINVAL;
	if (scan.err)
		rk_opensm_keys_free(keys);
	return scan.err;
}

const struct rk_opensm_key *rk_opensm_key_find(const struct rk_opensm_keys *keys, const char *name)
{
	for (size_t i = 0; i < keys->count; i++)
		if (strcmp(keys->items[i].name, name) == 0)
			return &keys->items[i];
	return NULL;
}

void rk_opensm_keys_free(struct rk_opensm_keys *keys)
{
	free(keys->items);
	*keys = (struct rk_opensm_keys){0};
}

static void exec_opensm(const char *opensm, const char *dir, const char *conf)
{
	char *argv[] = {(char *)opensm, "-c", (char *)conf, NULL};
	int devnull = open("/dev/null", O_RDWR);

	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		dup2(devnull, STDERR_FILENO);
	}
	if (chdir(dir) != 0)
		_exit(126);
	setenv("OSM_TMP_DIR", dir, 1);
	setenv("OSM_CACHE_DIR", dir, 1);
	execvp(argv[0], argv);
	if (!strchr(opensm, '/')) {
		argv[0] = "/usr/sbin/opensm"; /* not on a non-root user's PATH */
		execv(argv[0], argv);
	}
	_exit(127);
}

static int wait_with_deadline(pid_t pid)
{
	time_t deadline = time(NULL) + OPENSM_TIMEOUT_S;
	int status;

	for (;;) {
		pid_t done = waitpid(pid, &status, WNOHANG);

		if (done == pid)
			return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
		if (done < 0)
			return -errno;
		if (time(NULL) > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -ETIMEDOUT;
		}
		usleep(20000);
	}
}

/* Run `opensm -c DIR/opensm.conf` and read what it wrote. */
static int run_template(const char *opensm, char **text)
{
	char dir[] = "/tmp/rdmakit-opensm-XXXXXX", conf[64];
	size_t len;
	pid_t pid;
	int err;

	if (!mkdtemp(dir))
		return -errno;
	snprintf(conf, sizeof(conf), "%s/opensm.conf", dir);
	pid = fork();
	if (pid == 0)
		exec_opensm(opensm, dir, conf);
	err = pid < 0 ? -errno : wait_with_deadline(pid);
	if (!err)
		err = tune_slurp("/", conf, text, &len, NULL);
	unlink(conf);
	rmdir(dir);
	return err;
}

int rk_opensm_keys_load(const char *opensm, const struct rk_opensm_keys **keys)
{
	static struct rk_opensm_keys cache;
	static bool loaded;
	char *text = NULL;
	int err;

	if (loaded) {
		*keys = &cache;
		return 0;
	}
	if (!opensm)
		opensm = getenv("RDMAKIT_OPENSM") ? getenv("RDMAKIT_OPENSM") : "opensm";
	err = run_template(opensm, &text);
	if (!err)
		err = rk_opensm_keys_parse(text, &cache);
	free(text);
	if (err) {
		rk_log(RK_LOG_ERR, "tune: cannot learn OpenSM's keys from `%s -c`: %s", opensm,
		       strerror(-err));
		return err;
	}
	loaded = true;
	*keys = &cache;
	return 0;
}
