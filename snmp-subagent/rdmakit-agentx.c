/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* rdmakit-agentx: an AgentX subagent serving RDMAKIT-MIB from the core's snapshots. */
#include "ak_agent.h"
#include "ak_config.h"
#include "ak_daemon.h"
#include "ak_log.h"
#include "ak_mainloop.h"
#include "ak_oid.h"
#include "ak_refresh.h"
#include "ak_tune.h"

#include "rdmakit/host.h"
#include "rdmakit/log.h"
#include "rdmakit/sysfs.h"

#include <net-snmp/net-snmp-config.h>

#include <net-snmp/net-snmp-includes.h>

#include <net-snmp/agent/net-snmp-agent-includes.h>

#include <errno.h>
#include <getopt.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>

#define APP_NAME "rdmakit-agentx"

/* Exit statuses: 2 for bad usage or configuration, 1 when it cannot run. */
#define EXIT_USAGE 2

static volatile sig_atomic_t stop_requested, reload_requested;
static struct ak_mailbox mailbox;
static struct ak_log_route log_route = {.mailbox = &mailbox, .prefix = ""};

struct ak_args {
	int argc;
	char **argv;
	const char *config_path;
	bool config_given, foreground, log_given;
};

static const struct option long_options[] = {
    {"sysfs-root", required_argument, NULL, 'S'},
    {"refresh", required_argument, NULL, 'R'},
    {"expect-rate", required_argument, NULL, 'E'},
    {"fabric", no_argument, NULL, 'F'},
    {"sm", no_argument, NULL, 'M'},
    {"node-name-map", required_argument, NULL, 'N'},
    {"window", required_argument, NULL, 'W'},
    {"timeout", required_argument, NULL, 'T'},
    {"fabric-interval", required_argument, NULL, 'I'},
    {"state-dir", required_argument, NULL, 'D'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};
static const char short_options[] = "fx:c:L:p:u:C:P:hV";

static void usage(FILE *out)
{
	fprintf(
	    out,
	    "Usage: " APP_NAME " [OPTIONS]\n"
	    "Serve RDMAKIT-MIB to the host's snmpd over AgentX.\n\n"
	    "  -f                 stay in the foreground\n"
	    "  -x ADDRESS         AgentX socket of the master (default: net-snmp's)\n"
	    "  -c FILE            config file (default " AK_DEFAULT_CONFIG ")\n"
	    "  -L TARGET          log target as snmpd's -L: e (stderr), o (stdout),\n"
	    "                     f FILE, s FACILITY (syslog); default syslog, or stderr with -f\n"
	    "  -p PIDFILE         write the process ID here\n"
	    "  -u USER            run as USER once sysfs is open\n"
	    "  --sysfs-root DIR   read DIR instead of /sys\n"
	    "  --refresh SECONDS  seconds between host refreshes (default 10)\n"
	    "  --expect-rate GBPS flag ports below this rate\n"
	    "  --state-dir DIR    keep the devices' and driver counters' indexes in DIR/index\n"
	    "The config file takes the same settings as \"key value\" lines: agentx-socket,\n"
	    "sysfs-root, refresh, expect-rate, pidfile, user, state-dir; and tune, tune-interval,\n"
	    "tune-root, tune-profile for the audit of the host's tuning. SIGHUP rereads it and\n"
	    "applies refresh, expect-rate, the intervals, probe and the tune settings at once.\n");
}

/* The setting a command-line option stands for, or NULL. */
static const char *setting_of(int option)
{
	switch (option) {
	case 'x':
		return "agentx-socket";
	case 'p':
		return "pidfile";
	case 'u':
		return "user";
	case 'S':
		return "sysfs-root";
	case 'R':
		return "refresh";
	case 'E':
		return "expect-rate";
	case 'F':
		return "fabric";
	case 'M':
		return "sm";
	case 'C':
		return "ca";
	case 'P':
		return "ca-port";
	case 'N':
		return "node-name-map";
	case 'W':
		return "window";
	case 'T':
		return "timeout";
	case 'I':
		return "fabric-interval";
	case 'D':
		return "state-dir";
	default:
		return NULL;
	}
}

/* How the user spelled an option that takes a setting. */
static const char *option_name(int option)
{
	static char shown[32];

	snprintf(shown, sizeof(shown), "-%c", option);
	for (const struct option *o = long_options; o->name; o++)
		if (o->val == option)
			snprintf(shown, sizeof(shown), "--%s", o->name);
	return shown;
}

/* First pass: -c, -f, -L, --help, --version and unknown options. 0, or an exit status + 1. */
static int scan_options(struct ak_args *args)
{
	int option;

	opterr = 0;
	optind = 0;
	while ((option = getopt_long(args->argc, args->argv, short_options, long_options, NULL)) !=
	       -1) {
		if (option == '?') {
			fprintf(stderr, APP_NAME ": unknown option or missing argument: %s\n",
				args->argv[optind - 1]);
			return EXIT_USAGE + 1;
		}
		if (option == 'h') {
			usage(stdout);
			return EXIT_SUCCESS + 1;
		}
		if (option == 'V') {
			printf(APP_NAME " " RDMAKIT_VERSION "\n");
			return EXIT_SUCCESS + 1;
		}
		if (option == 'c') {
			args->config_path = optarg;
			args->config_given = true;
		}
		args->foreground |= option == 'f';
		if (option == 'L') {
			args->log_given = true;
			if (snmp_log_options(optarg, args->argc, args->argv) < 0) {
				fprintf(stderr, APP_NAME ": bad log target -L %s\n", optarg);
				return EXIT_USAGE + 1;
			}
		}
	}
	if (optind < args->argc) {
		fprintf(stderr, APP_NAME ": unexpected argument: %s\n", args->argv[optind]);
		return EXIT_USAGE + 1;
	}
	return 0;
}

/* Second pass: the settings given as options override the config file's. */
static int apply_options(const struct ak_args *args, struct ak_config *config)
{
	char why[256];
	int option;

	optind = 0;
	while ((option = getopt_long(args->argc, args->argv, short_options, long_options, NULL)) !=
	       -1) {
		const char *key = setting_of(option);
		const char *value = option == 'F' || option == 'M' ? "yes" : optarg;

		if (key && ak_config_set(config, key, value, why, sizeof(why)) != 0) {
			fprintf(stderr, APP_NAME ": option %s: %s\n", option_name(option), why);
			return -EINVAL;
		}
	}
	return 0;
}

static int load_config(const struct ak_args *args, struct ak_config *config, FILE *err)
{
	ak_config_defaults(config);
	if (ak_config_read(args->config_path, !args->config_given, config, err) != 0 ||
	    apply_options(args, config) != 0) {
		ak_config_free(config);
		return -EINVAL;
	}
	if (config->plan && !config->fabric) {
		fprintf(err, "%s: expect: needs fabric yes\n", args->config_path);
		ak_config_free(config);
		return -EINVAL;
	}
	return 0;
}

static void on_signal(int signo)
{
	if (signo == SIGHUP)
		reload_requested = 1;
	else
		stop_requested = 1;
	ak_mailbox_wake(&mailbox);
}

static void catch_signals(void)
{
	struct sigaction action = {.sa_handler = on_signal};

	sigemptyset(&action.sa_mask);
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGHUP, &action, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* The config read again with the same checks as at the start, each error a line of the log
 * ("FILE:LINE: key: why"); -EINVAL when it has errors. */
static int reread_config(const struct ak_args *args, struct ak_config *fresh)
{
	char *errors = NULL;
	size_t size = 0;
	FILE *err = open_memstream(&errors, &size);
	int status;

	if (!err)
		return -ENOMEM;
	status = load_config(args, fresh, err);
	fclose(err);
	ak_log_error_lines("", errors);
	free(errors);
	return status;
}

/* The keys a reload applies at once, then (from AK_MODE_KEYS) the modes it leaves as they are:
 * every other key changes only at a restart too. */
static const char *const reload_keys[] = {"refresh",
					  "expect-rate",
					  "fabric-interval",
					  "probe-interval",
					  "probe",
					  "tune",
					  "tune-interval",
					  "tune-root",
					  "tune-profile",
					  "expect",
					  "fabric",
					  "sm",
					  NULL};
#define AK_MODE_KEYS (reload_keys + 10)

/* The keys that change only at a restart: the modes (on a line of their own, with why), then
 * the others (the socket, the paths, the local port, the engine's MAD settings). */
static void log_restart_keys(const char *path, const struct ak_config *fresh,
			     const struct ak_config *running)
{
	char keys[512];
	size_t used = 0;

	keys[0] = '\0';
	for (const char *const *key = AK_MODE_KEYS; *key; key++)
		if (ak_config_key_changed(fresh, running, *key) && used < sizeof(keys))
			used += (size_t)snprintf(keys + used, sizeof(keys) - used, "%s%s",
						 used ? ", " : "", *key);
	if (used)
		snmp_log(LOG_WARNING,
			 "%s: %s change only at a restart: the umad port is opened at the start, "
			 "before privileges drop\n",
			 path, keys);
	if (ak_config_changed_keys(fresh, running, reload_keys, keys, sizeof(keys)) > 0)
		snmp_log(LOG_WARNING, "%s: %s change only at a restart\n", path, keys);
}

/* A new plan (or none) from the next sweep on, the path moved over to running. */
static void replan(const char *path, struct ak_fabric_watch *fabric, struct ak_config *running,
		   struct ak_config *fresh)
{
	char *before = running->plan;
	int err = ak_fabric_replan(fabric, fresh);

	if (err) {
		snmp_log(LOG_ERR, "%s: expect is not reloaded: %s\n", path, strerror(-err));
		return;
	}
	snmp_log(LOG_INFO, "%s: expect %s from the next sweep on\n", path,
		 fresh->plan ? fresh->plan : "none");
	running->plan = fresh->plan;
	fresh->plan = before;
}

/* Probe on or off: the next round starts now; false when it could not. */
static bool reprobe(const char *path, struct ak_fabric_watch *fabric, const struct ak_config *fresh)
{
	int err = ak_fabric_reprobe(fabric, fresh);

	if (err) {
		snmp_log(LOG_ERR, "%s: probe is not reloaded: %s\n", path, strerror(-err));
		return false;
	}
	snmp_log(LOG_INFO, "%s: probe %s from now on\n", path, fresh->probe.enabled ? "yes" : "no");
	return true;
}

/* The tune mode, root and profile of fresh become the running ones (the root's string moves over).
 */
static void take_tune(struct ak_config *running, struct ak_config *fresh)
{
	char *root = running->tune_root;

	running->tune = fresh->tune;
	running->tune_root = fresh->tune_root;
	running->tune_profile = fresh->tune_profile;
	fresh->tune_root = root;
}

/* A new tune mode, root or profile: the next audit starts now; false when it could not. */
static bool retune(const char *path, struct ak_fabric_watch *fabric, const struct ak_config *fresh)
{
	int err = ak_fabric_retune(fabric, fresh);

	if (err) {
		snmp_log(LOG_ERR, "%s: the tune settings are not reloaded: %s\n", path,
			 strerror(-err));
		return false;
	}
	snmp_log(LOG_INFO, "%s: tune %s, root %s, profile %s from now on\n", path,
		 fresh->tune ? "yes" : "no", fresh->tune_root ? fresh->tune_root : "/",
		 fresh->tune_profile ? fresh->tune_profile->name : "none");
	return true;
}

/* SIGHUP: reread the config, checked as at the start (with errors, none of it applies); the
 * refresh settings, the intervals (from the start of each job's last pass), probe on or off,
 * the tune mode, root and profile (a round or an audit at once) and expect (from the next
 * sweep) apply now, the others at a restart. */
static void reload(const struct ak_args *args, struct ak_config *running,
		   struct ak_refresher *refresher)
{
	const char *path = args->config_path;
	struct ak_config fresh;
	struct rk_health_options health = {0};

	if (reread_config(args, &fresh) != 0) {
		snmp_log(LOG_ERR, "%s: not reloaded: the config has errors (see above)\n", path);
		return;
	}
	log_restart_keys(path, &fresh, running);
	health.expect_rate_gbps = fresh.expect_rate_gbps;
	ak_refresher_update(refresher, fresh.refresh, &health);
	ak_fabric_update(refresher->fabric, &fresh);
	if (fresh.fabric_interval != running->fabric_interval ||
	    fresh.probe.interval != running->probe.interval ||
	    fresh.tune_interval != running->tune_interval)
		snmp_log(
		    LOG_INFO,
		    "%s: fabric-interval %g s, probe-interval %g s, tune-interval %g s from now "
		    "on\n",
		    path, fresh.fabric_interval, fresh.probe.interval, fresh.tune_interval);
	if (ak_tune_same_audit(&fresh, running) || retune(path, refresher->fabric, &fresh))
		take_tune(running, &fresh);
	if (ak_config_key_changed(&fresh, running, "expect"))
		replan(path, refresher->fabric, running, &fresh);
	if (fresh.probe.enabled != running->probe.enabled &&
	    reprobe(path, refresher->fabric, &fresh))
		running->probe.enabled = fresh.probe.enabled;
	running->refresh = fresh.refresh;
	running->expect_rate_gbps = fresh.expect_rate_gbps;
	running->fabric_interval = fresh.fabric_interval;
	running->probe.interval = fresh.probe.interval;
	running->tune_interval = fresh.tune_interval;
	ak_config_free(&fresh);
	snmp_log(LOG_INFO, "%s: reloaded (refresh %g s)\n", path, running->refresh);
}

/* net-snmp's side: a subagent that pings its master every second. */
static int start_agentx(const struct ak_config *config, unsigned modes)
{
	int err;

	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_ROLE, 1);
	if (config->agentx_socket)
		netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_X_SOCKET,
				      config->agentx_socket);
	/* The subagent resolves no names: it reads none of the host's MIB files. */
	setenv("MIBS", "", 1);
	setenv("MIBDIRS", "", 1);
	init_agent(APP_NAME);
	/* After init_agent, which resets it: reconnect within about a second of snmpd. */
	netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID, NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL, 1);
	err = ak_agent_register(&mailbox, modes);
	if (err) {
		snmp_log(LOG_ERR, "registering RDMAKIT-MIB failed: %s\n", strerror(-err));
		return err;
	}
	init_snmp(APP_NAME);
	return 0;
}

static int become_daemon(const struct ak_args *args, const struct ak_config *config)
{
	int err;

	if (!args->foreground && netsnmp_daemonize(1, !args->log_given) != 0)
		return -errno;
	if (config->pidfile) {
		err = ak_write_pidfile(config->pidfile);
		if (err) {
			snmp_log(LOG_ERR, "%s: %s\n", config->pidfile, strerror(-err));
			return err;
		}
	}
	if (config->user) {
		err = ak_drop_privileges(config->user);
		if (err) {
			snmp_log(LOG_ERR, "cannot run as %s: %s\n", config->user,
				 err == -ENOENT ? "no such user" : strerror(-err));
			return err;
		}
	}
	return 0;
}

static void serve_requests(const struct ak_args *args, struct ak_config *config,
			   struct ak_refresher *refresher)
{
	ak_agent_drain(&mailbox);
	snmp_log(LOG_INFO, APP_NAME " " RDMAKIT_VERSION " serving %s\n", config->sysfs_root);
	while (!stop_requested) {
		ak_mainloop_pass();
		if (reload_requested) {
			reload_requested = 0;
			reload(args, config, refresher);
		}
	}
}

/* The first read runs with the privileges that open sysfs and the umad port; then the process
 * becomes a daemon, drops them, connects to snmpd and refreshes in the background. */
static int serve(const struct ak_args *args, struct ak_config *config, struct rk_host *host,
		 struct ak_fabric_watch *fabric)
{
	struct rk_health_options health = {.expect_rate_gbps = config->expect_rate_gbps};
	struct ak_refresher refresher;
	int err = ak_refresher_init(&refresher, &mailbox, host, fabric, config->refresh, &health,
				    config->state_dir);

	if (err) {
		snmp_log(LOG_ERR, "starting the refresh failed: %s\n", strerror(-err));
		return err;
	}
	err = become_daemon(args, config);
	if (!err)
		err = start_agentx(config, ak_fabric_modes(fabric));
	if (!err) {
		err = ak_refresher_start(&refresher);
		if (err)
			snmp_log(LOG_ERR, "starting the refresh thread failed: %s\n",
				 strerror(-err));
		else
			serve_requests(args, config, &refresher);
		snmp_shutdown(APP_NAME);
	}
	ak_refresher_stop(&refresher);
	ak_agent_drain(&mailbox);
	ak_agent_release(&mailbox);
	return err;
}

static int run(const struct ak_args *args, struct ak_config *config)
{
	struct ak_fabric_watch fabric;
	struct rk_host *host;
	int err;

	/* net-snmp's sockets below FD_SETSIZE: agent_check_and_process() then selects on a
	 * plain fd_set instead of regrowing a large one bit by bit on every call. */
	rk_sysfs_set_fd_floor(FD_SETSIZE);
	err = rk_host_open(config->sysfs_root, &host);
	if (err) {
		snmp_log(LOG_ERR, "cannot read %s: %s\n", config->sysfs_root, strerror(-err));
		return err;
	}
	err = ak_fabric_open(&fabric, config);
	if (err) {
		snmp_log(LOG_ERR, "fabric, SM or tune mode: %s\n", strerror(-err));
		rk_host_close(host);
		return err;
	}
	err = serve(args, config, host, &fabric);
	ak_fabric_close(&fabric);
	rk_host_close(host);
	if (config->pidfile && !err)
		unlink(config->pidfile);
	return err;
}

/* A table's cell chunks (and the engine's sweeps) are allocated large so that malloc maps them
 * on their own and a freed generation goes back to the system at once; glibc raises its mmap
 * threshold to the size of each mapped block freed, after which they come from an arena and
 * stay there. A threshold set once stays where it is. */
static void keep_large_blocks_mapped(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

int main(int argc, char **argv)
{
	struct ak_args args = {.argc = argc, .argv = argv, .config_path = AK_DEFAULT_CONFIG};
	struct ak_config config;
	int status = scan_options(&args);

	if (status)
		return status - 1;
	if (load_config(&args, &config, stderr) != 0)
		return EXIT_USAGE;
	if (!args.log_given) {
		if (args.foreground)
			snmp_enable_stderrlog();
		else
			snmp_enable_syslog_ident(APP_NAME, LOG_DAEMON);
	}
	log_route.snmp_thread = pthread_self();
	keep_large_blocks_mapped();
	ak_table_defs_init();
	if (ak_mailbox_init(&mailbox) != 0) {
		snmp_log(LOG_ERR, "cannot create the wake-up descriptor\n");
		return EXIT_FAILURE;
	}
	rk_log_set_handler(ak_log_to_snmp, &log_route);
	catch_signals();
	status = run(&args, &config) ? EXIT_FAILURE : EXIT_SUCCESS;
	rk_log_set_handler(NULL, NULL);
	ak_mailbox_destroy(&mailbox);
	ak_config_free(&config);
	return status;
}
