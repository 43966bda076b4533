/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the health rules: each one fires on its fixture and stays quiet on a healthy host.
 */
#include "fixture_util.h"
#include "rdmakit/health.h"

#include <grp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define DEV0 "class/infiniband/mlx5_0"
#define DEV1 "class/infiniband/mlx5_1"

static struct rk_findings check_root(const char *root, double expect_rate)
{
	struct rk_health_options options = {.expect_rate_gbps = expect_rate};
	struct rk_findings findings = {0};
	struct rk_host *host;

	assert_int_equal(rk_host_open(root, &host), 0);
	rk_host_refresh(host);
	assert_int_equal(rk_health_check_host(host, &options, &findings), 0);
	rk_host_close(host);
	rk_findings_sort(&findings);
	return findings;
}

static struct rk_findings check_fixture(const char *name, double expect_rate)
{
	return check_root(fixture_path(name), expect_rate);
}

static const struct rk_finding *find(const struct rk_findings *f, const char *code,
				     const char *subject)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->items[i].code, code) == 0 &&
		    strcmp(f->items[i].subject, subject) == 0)
			return &f->items[i];
	return NULL;
}

/* The fixture's one finding, its message starting with message and its remedy remedy. */
static void expect_only(const char *fixture, const char *code, const char *subject,
			enum rk_severity severity, const char *message, const char *remedy)
{
	struct rk_findings f = check_fixture(fixture, 0);
	const struct rk_finding *hit = find(&f, code, subject);

	assert_int_equal(f.count, 1);
	assert_non_null(hit);
	assert_int_equal(hit->severity, severity);
	assert_int_equal(strncmp(hit->message, message, strlen(message)), 0);
	assert_string_equal(hit->remedy, remedy);
	rk_findings_free(&f);
}

/* A host finding names its device and port as fields: no front end parses its subject. */
static void host_findings_carry_their_device_and_port(void **state)
{
	struct rk_findings f = check_fixture("no-sm", 0);

	(void)state;
	assert_int_equal(f.count, 1);
	assert_string_equal(f.items[0].device, "mlx5_0");
	assert_int_equal(f.items[0].port, 1);
	assert_int_equal(f.items[0].node_guid, 0);
	rk_findings_free(&f);
	f = check_fixture("pcie-x8", 0);
	assert_int_equal(f.count, 1);
	assert_string_equal(f.items[0].subject, "mlx5_0 (0000:3b:00.0)");
	assert_string_equal(f.items[0].device, "mlx5_0");
	assert_int_equal(f.items[0].port, 0); /* the device itself */
	rk_findings_free(&f);
}

static void healthy_host_has_no_findings(void **state)
{
	struct rk_findings f = check_fixture("ib-hdr", 200);

	(void)state;
	assert_int_equal(f.count, 0);
	assert_int_equal(rk_findings_worst(&f), RK_SEVERITY_OK);
	rk_findings_free(&f);
}

static void port_in_init_means_no_sm(void **state)
{
	(void)state;
	expect_only("no-sm", "PORT_NO_SM", "mlx5_0:1", RK_SEVERITY_CRITICAL,
		    "port is INIT with the physical link up: no subnet manager has configured it",
		    "check that opensm (or the switch's SM) is running and reachable: sminfo, "
		    "systemctl status opensm");
}

static void each_inactive_state_has_its_code(void **state)
{
	struct rk_findings f = check_fixture("port-states", 0);

	(void)state;
	assert_int_equal(f.count, 4);
	assert_int_equal(find(&f, "PORT_POLLING", "mlx5_0:1")->severity, RK_SEVERITY_WARNING);
	assert_int_equal(find(&f, "PORT_DISABLED", "mlx5_1:1")->severity, RK_SEVERITY_WARNING);
	assert_non_null(strstr(find(&f, "PORT_NO_SM", "mlx5_2:1")->message, "ARMED"));
	assert_int_equal(find(&f, "PORT_SM_LID_ZERO", "mlx5_3:1")->severity, RK_SEVERITY_CRITICAL);
	/* most severe first */
	assert_int_equal(f.items[0].severity, RK_SEVERITY_CRITICAL);
	assert_int_equal(f.items[3].severity, RK_SEVERITY_WARNING);
	assert_int_equal(rk_findings_worst(&f), RK_SEVERITY_CRITICAL);
	rk_findings_free(&f);
}

static void other_down_states(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_findings f;

	(void)state;
	write_file(root, "class/infiniband/mlx5_1/ports/1/state", "1: DOWN\n");
	write_file(root, "class/infiniband/mlx5_1/ports/1/phys_state", "6: LinkErrorRecovery\n");
	f = check_root(root, 0);
	assert_int_equal(f.count, 1);
	assert_non_null(strstr(find(&f, "PORT_DOWN", "mlx5_1:1")->message, "LinkErrorRecovery"));
	rk_findings_free(&f);
	fixture_discard(root);
}

static void roce_port_without_sm_lid_is_fine(void **state)
{
	struct rk_findings f = check_fixture("roce", 0);

	(void)state;
	assert_int_equal(f.count, 0);
	rk_findings_free(&f);
}

static void slower_sibling_is_flagged(void **state)
{
	(void)state;
	expect_only("degraded-rate", "RATE_BELOW_PEERS", "mlx5_1:1", RK_SEVERITY_WARNING,
		    "link runs at 100 Gb/s (100 Gb/sec (4X EDR)) while other MT4123 ports on this "
		    "host run at 200 Gb/s",
		    "check the cable, the switch port's speed/width and the link's error counters");
}

static void rate_below_expectation(void **state)
{
	struct rk_findings f = check_fixture("roce", 200);
	struct rk_findings quiet = check_fixture("roce", 100);

	(void)state;
	assert_int_equal(f.count, 1);
	assert_non_null(strstr(find(&f, "RATE_BELOW_EXPECTED", "mlx5_2:1")->message, "100 Gb/s"));
	assert_int_equal(quiet.count, 0);
	rk_findings_free(&f);
	rk_findings_free(&quiet);
}

static void pcie_below_maximum(void **state)
{
	(void)state;
	expect_only("pcie-x8", "PCIE_WIDTH_DEGRADED", "mlx5_0 (0000:3b:00.0)", RK_SEVERITY_WARNING,
		    "PCIe link runs x8 of x16: host bandwidth is cut to 50%",
		    "move the card to a full-width slot or reseat it");
	expect_only("pcie-slow", "PCIE_SPEED_DEGRADED", "mlx5_0 (0000:3b:00.0)",
		    RK_SEVERITY_WARNING,
		    "PCIe link runs at 8.0 GT/s PCIe, below the device's maximum 16.0 GT/s PCIe",
		    "check the slot's generation and BIOS PCIe settings; reseat the card");
}

static void saturated_and_unavailable_counters(void **state)
{
	struct rk_findings f = check_fixture("saturated", 0);

	(void)state;
	assert_int_equal(f.count, 1);
	assert_string_equal(find(&f, "COUNTER_SATURATED", "mlx5_0:1")->message,
			    "counters stuck at their maximum: link_downed, port_xmit_wait, "
			    "symbol_error");
	rk_findings_free(&f);
	expect_only(
	    "no-pma", "COUNTERS_UNAVAILABLE", "mlx5_0:1", RK_SEVERITY_OK,
	    "counters the driver cannot report: VL15_dropped, excessive_buffer_overrun_errors, ",
	    "nothing to do unless you need these counters");
}

static void mixed_firmware(void **state)
{
	struct rk_findings f = check_fixture("fw-mismatch", 0);

	(void)state;
	assert_int_equal(f.count, 1);
	assert_non_null(strstr(find(&f, "FW_MISMATCH", "MT4123")->message,
			       "mlx5_0 20.31.1014, mlx5_1 20.28.2006"));
	rk_findings_free(&f);
}

/* Two samples of a copied fixture, with changes written between them. */
static struct rk_findings check_two_samples(const char *fixture, const char *const *files,
					    const char *const *values, size_t n)
{
	struct rk_health_options options = {0};
	struct rk_findings findings = {0};
	char *root = fixture_copy(fixture);
	struct rk_host *host;

	assert_int_equal(rk_host_open(root, &host), 0);
	rk_host_refresh(host);
	for (size_t i = 0; i < n; i++)
		write_file(root, files[i], values[i]);
	rk_host_refresh(host);
	assert_int_equal(rk_health_check_host(host, &options, &findings), 0);
	rk_host_close(host);
	fixture_discard(root);
	return findings;
}

#define PORT0 "class/infiniband/mlx5_0/ports/1/counters/"

static void rising_error_counters(void **state)
{
	static const char *const files[] = {PORT0 "symbol_error", PORT0 "port_xmit_discards",
					    PORT0 "VL15_dropped"};
	static const char *const values[] = {"4\n", "2\n", "9\n"};
	struct rk_findings f = check_two_samples("ib-hdr", files, values, 3);
	struct rk_findings quiet = check_two_samples("ib-hdr", NULL, NULL, 0);

	(void)state;
	assert_int_equal(f.count, 1);
	assert_string_equal(find(&f, "ERRORS_RISING", "mlx5_0:1")->message,
			    "error counters rose between samples: port_xmit_discards +2, "
			    "symbol_error +4");
	assert_int_equal(quiet.count, 0);
	rk_findings_free(&f);
	rk_findings_free(&quiet);
}

static void congestion_relative_to_data(void **state)
{
	static const char *const files[] = {PORT0 "port_xmit_wait", PORT0 "port_xmit_data"};
	/* 20000 ticks for 100000 words: 0.2 per word */
	static const char *const warn[] = {"2857461\n", "1234567990123\n"};
	/* 20000 ticks for 10 million words: normal waiting under load */
	static const char *const busy[] = {"2857461\n", "1234577890123\n"};
	/* waiting with nothing sent */
	static const char *const stuck[] = {"2857461\n", "1234567890123\n"};
	struct rk_findings f;

	(void)state;
	f = check_two_samples("ib-hdr", files, warn, 2);
	assert_int_equal(f.count, 1);
	assert_int_equal(find(&f, "CONGESTION", "mlx5_0:1")->severity, RK_SEVERITY_WARNING);
	rk_findings_free(&f);
	f = check_two_samples("ib-hdr", files, busy, 2);
	assert_int_equal(f.count, 0);
	rk_findings_free(&f);
	f = check_two_samples("ib-hdr", files, stuck, 2);
	assert_int_equal(find(&f, "CONGESTION", "mlx5_0:1")->severity, RK_SEVERITY_CRITICAL);
	rk_findings_free(&f);
}

/* doctor must never call a port healthy whose state it did not see: missing, malformed or
 * not a file, the port gets PORT_STATE_UNKNOWN (warning) and the other port stays quiet. */
static void unreadable_port_state_is_a_finding(void **state)
{
	static const char *const port_state = "class/infiniband/mlx5_0/ports/1/state";
	char *root = fixture_copy("ib-hdr");
	struct rk_findings f;
	const struct rk_finding *hit;

	(void)state;
	for (int kind = 0; kind < 3; kind++) {
		if (kind == 0)
			write_file(root, port_state, "ACTIVE\n"); /* no number */
		else
			assert_int_equal(
			    replace_with(root, port_state, kind == 1 ? HOSTILE_FIFO : HOSTILE_DIR),
			    0);
		f = check_root(root, 0);
		hit = find(&f, "PORT_STATE_UNKNOWN", "mlx5_0:1");
		assert_non_null(hit);
		assert_int_equal(hit->severity, RK_SEVERITY_WARNING);
		assert_non_null(strstr(hit->message, "could not be read"));
		assert_int_equal(f.count, 1);
		assert_int_equal(rk_findings_worst(&f), RK_SEVERITY_WARNING);
		rk_findings_free(&f);
	}
	fixture_discard(root);
}

/* An infinite rate on one port made every other port "below peers"; a rate that is not a
 * number is a finding of its own (issue 18: it used to pass as ok). */
static void infinite_rate_is_unknown_not_a_peer(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_findings f;

	(void)state;
	write_file(root, "class/infiniband/mlx5_0/ports/1/rate", "1e999 Gb/sec (4X HDR)\n");
	f = check_root(root, 0);
	assert_null(find(&f, "RATE_BELOW_PEERS", "mlx5_1:1"));
	assert_non_null(find(&f, "PORT_RATE_UNKNOWN", "mlx5_0:1"));
	assert_int_equal(f.count, 1);
	rk_findings_free(&f);
	write_file(root, "class/infiniband/mlx5_0/ports/1/rate", "nan Gb/sec (4X HDR)\n");
	f = check_root(root, 200);
	assert_non_null(find(&f, "PORT_RATE_UNKNOWN", "mlx5_0:1"));
	assert_int_equal(f.count, 1);
	rk_findings_free(&f);
	fixture_discard(root);
}

/* Issue 18: a device that cannot be read was dropped silently ("ok: 0 findings"), and as the
 * only device it read as NO_DEVICES. Each way of being unreadable is a DEVICE_UNREADABLE
 * warning naming the path and the reason; the readable device stays quiet. */
static void unreadable_device_is_a_finding(void **state)
{
	static const char long_name[] = "mlx5_0123456789012345678901234567890123456789012345678"
					"90123456789";
	static const struct {
		const char *how, *path, *why;
	} cases[] = {
	    {"no ports", "mlx5_1/ports", "No such file or directory"},
	    {"ports a file", "mlx5_1/ports", "Not a directory"},
	    {"name too long", long_name, "File name too long"},
	    {"gone mid-read", "mlx5_1/ports", "No such file or directory"},
	};
	const struct rk_finding *hit;
	char path[4096], long_path[256];

	(void)state;
	snprintf(long_path, sizeof(long_path), "class/infiniband/%s", long_name);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *root = fixture_copy("ib-hdr");
		struct rk_findings f;

		snprintf(path, sizeof(path), "%s/" DEV1 "/ports", root);
		if (i == 0 || i == 1)
			remove_tree(path);
		if (i == 1)
			write_file(root, DEV1 "/ports", "1\n");
		if (i == 2)
			assert_int_equal(move_path(root, DEV1, long_path), 0);
		if (i == 3) { /* listed, but its directory is a link to where it was */
			snprintf(path, sizeof(path), "%s/" DEV1, root);
			remove_tree(path);
			assert_int_equal(symlink("../../devices/gone/infiniband/mlx5_1", path), 0);
		}
		f = check_root(root, 0);
		hit = find(&f, "DEVICE_UNREADABLE", i == 2 ? long_name : "mlx5_1");
		assert_non_null(hit);
		assert_int_equal(hit->severity, RK_SEVERITY_WARNING);
		snprintf(path, sizeof(path), "%s/class/infiniband/%s: %s", root, cases[i].path,
			 cases[i].why);
		assert_non_null(strstr(hit->message, path));
		assert_int_equal(f.count, 1); /* mlx5_0 is read and healthy */
		assert_null(find(&f, "NO_DEVICES", "host"));
		rk_findings_free(&f);
		fixture_discard(root);
	}
}

/* With the unreadable device the only one, the host has a device: not NO_DEVICES. */
static void only_device_unreadable_is_not_no_devices(void **state)
{
	char *root = fixture_copy("ib-hdr");
	char path[4096];
	struct rk_findings f;

	(void)state;
	snprintf(path, sizeof(path), "%s/" DEV0, root);
	remove_tree(path);
	snprintf(path, sizeof(path), "%s/" DEV1 "/ports", root);
	remove_tree(path);
	f = check_root(root, 0);
	assert_int_equal(f.count, 1);
	assert_non_null(find(&f, "DEVICE_UNREADABLE", "mlx5_1"));
	assert_int_equal(rk_findings_worst(&f), RK_SEVERITY_WARNING);
	rk_findings_free(&f);
	fixture_discard(root);
}

/* In a child as nobody (tests run as root, and root reads a mode-000 directory): 0 when the
 * device is a DEVICE_UNREADABLE with "Permission denied" and a remedy about access. */
static int check_mode_000_as_nobody(const char *root)
{
	const struct rk_finding *hit;
	struct rk_findings f;

	if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
		return 10;
	f = check_root(root, 0);
	hit = find(&f, "DEVICE_UNREADABLE", "mlx5_1");
	if (!hit)
		return 11;
	if (!strstr(hit->message, "/" DEV1 "/ports: Permission denied") ||
	    !strstr(hit->remedy, "read access"))
		return 12;
	return f.count == 1 ? 0 : 13;
}

static void device_directory_mode_000(void **state)
{
	char *root = fixture_copy("ib-hdr");
	char path[4096];
	int status;
	pid_t child;

	(void)state;
	snprintf(path, sizeof(path), "%s/..", root);
	assert_int_equal(chmod(path, 0755), 0); /* mkdtemp's 0700 would stop nobody above it */
	snprintf(path, sizeof(path), "%s/" DEV1, root);
	assert_int_equal(chmod(path, 0), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(check_mode_000_as_nobody(root));
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(chmod(path, 0755), 0);
	fixture_discard(root);
}

static void vanished_device_and_empty_host(void **state)
{
	char *root = fixture_copy("ib-hdr");
	struct rk_health_options options = {0};
	struct rk_findings f = {0};
	char dir[4096];
	struct rk_host *host;

	(void)state;
	assert_int_equal(rk_host_open(root, &host), 0);
	rk_host_refresh(host);
	snprintf(dir, sizeof(dir), "%s/class/infiniband/mlx5_1", root);
	remove_tree(dir);
	rk_host_refresh(host);
	assert_int_equal(rk_health_check_host(host, &options, &f), 0);
	assert_int_equal(f.count, 1);
	assert_int_equal(find(&f, "DEVICE_VANISHED", "mlx5_1")->severity, RK_SEVERITY_CRITICAL);
	rk_findings_free(&f);
	rk_host_close(host);
	snprintf(dir, sizeof(dir), "%s/class", root);
	remove_tree(dir);
	f = check_root(root, 0);
	assert_non_null(find(&f, "NO_DEVICES", "host"));
	rk_findings_free(&f);
	fixture_discard(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(healthy_host_has_no_findings),
	    cmocka_unit_test(host_findings_carry_their_device_and_port),
	    cmocka_unit_test(unreadable_device_is_a_finding),
	    cmocka_unit_test(only_device_unreadable_is_not_no_devices),
	    cmocka_unit_test(device_directory_mode_000),
	    cmocka_unit_test(port_in_init_means_no_sm),
	    cmocka_unit_test(each_inactive_state_has_its_code),
	    cmocka_unit_test(other_down_states),
	    cmocka_unit_test(roce_port_without_sm_lid_is_fine),
	    cmocka_unit_test(slower_sibling_is_flagged),
	    cmocka_unit_test(rate_below_expectation),
	    cmocka_unit_test(pcie_below_maximum),
	    cmocka_unit_test(saturated_and_unavailable_counters),
	    cmocka_unit_test(mixed_firmware),
	    cmocka_unit_test(rising_error_counters),
	    cmocka_unit_test(congestion_relative_to_data),
	    cmocka_unit_test(vanished_device_and_empty_host),
	    cmocka_unit_test(unreadable_port_state_is_a_finding),
	    cmocka_unit_test(infinite_rate_is_unknown_not_a_peer),
	};

	return cmocka_run_group_tests_name("health", tests, NULL, NULL);
}
