/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Unit tests of the tune checks: each fires on the untuned host tree and is quiet once fixed. */
#include "fixture_util.h"
#include "rdmakit/tune.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#define HOST_TREE "../tune/host" /* relative to tests/fixtures/sysfs */

static struct rk_tune_audit audit_tree(const char *root, const char *profile)
{
	struct rk_tune_options options = {
	    .root = root, .profile = profile ? rk_tune_profile_find(profile) : NULL};
	struct rk_tune_audit audit = {0};

	assert_int_equal(rk_tune_audit_host(&options, &audit, NULL), 0);
	return audit;
}

static const struct rk_finding *find(const struct rk_tune_audit *a, const char *code,
				     const char *subject, const struct rk_tune_fact **fact)
{
	for (size_t i = 0; i < a->findings.count; i++)
		if (strcmp(a->findings.items[i].code, code) == 0 &&
		    (!subject || strcmp(a->findings.items[i].subject, subject) == 0)) {
			if (fact)
				*fact = &a->facts[i];
			return &a->findings.items[i];
		}
	return NULL;
}

static size_t count_code(const struct rk_tune_audit *a, const char *code)
{
	size_t n = 0;

	for (size_t i = 0; i < a->findings.count; i++)
		n += strcmp(a->findings.items[i].code, code) == 0;
	return n;
}

static void expect_fact(const struct rk_tune_audit *a, const char *code, const char *subject,
			enum rk_severity severity, const char *current, const char *recommended)
{
	const struct rk_tune_fact *fact = NULL;
	const struct rk_finding *f = find(a, code, subject, &fact);

	if (!f)
		fail_msg("no %s finding for %s", code, subject ? subject : "(any)");
	assert_int_equal(f->severity, severity);
	if (current)
		assert_string_equal(fact->current, current);
	if (recommended)
		assert_string_equal(fact->recommended, recommended);
	assert_true(f->message[0] && f->remedy[0]);
}

static void test_latency_profile_fires_every_check(void **state)
{
	struct rk_tune_audit a = audit_tree(fixture_path(HOST_TREE), "latency");

	(void)state;
	expect_fact(&a, "TUNE_HUGEPAGES_NUMA", "mlx5_0", RK_SEVERITY_WARNING, "node0=0 node1=512",
		    "hugepages on node0");
	expect_fact(&a, "TUNE_SYSCTL_CONF", "/etc/sysctl.conf", RK_SEVERITY_WARNING,
		    "vm.nr_hugepages", NULL);
	assert_non_null(strstr(find(&a, "TUNE_SYSCTL_CONF", NULL, NULL)->message, "line 3"));
	expect_fact(&a, "TUNE_THP", NULL, RK_SEVERITY_WARNING, "always", "never");
	expect_fact(&a, "TUNE_MEMLOCK", "*", RK_SEVERITY_WARNING, "64 KiB", "unlimited");
	expect_fact(&a, "TUNE_SERVICE_MEMLOCK", NULL, RK_SEVERITY_WARNING, "not set", "infinity");
	expect_fact(&a, "TUNE_UNIT_MEMLOCK", "mpi-daemon.service", RK_SEVERITY_WARNING, "65536",
		    NULL);
	expect_fact(&a, "TUNE_GOVERNOR", NULL, RK_SEVERITY_WARNING, "powersave", "performance");
	assert_non_null(strstr(find(&a, "TUNE_GOVERNOR", NULL, NULL)->message, "3 of 3 CPUs"));
	expect_fact(&a, "TUNE_CSTATES", NULL, RK_SEVERITY_WARNING, "no limit", NULL);
	expect_fact(&a, "TUNE_IRQ_AFFINITY", "mlx5_0", RK_SEVERITY_WARNING, "1 of 2 IRQs off-node",
		    "0-1");
	assert_null(find(&a, "TUNE_IRQ_AFFINITY", "mlx5_1", NULL));
	expect_fact(&a, "TUNE_IRQBALANCE", NULL, RK_SEVERITY_WARNING, "running", "stopped");
	expect_fact(&a, "TUNE_PCIE_MAX_PAYLOAD", "mlx5_0", RK_SEVERITY_WARNING, "128", "512");
	expect_fact(&a, "TUNE_PCIE_CONFIG", "mlx5_1", RK_SEVERITY_OK, NULL, NULL);
	assert_null(find(&a, "TUNE_PCIE_MAX_PAYLOAD", "mlx5_2", NULL));
	assert_null(find(&a, "TUNE_PCIE_MAX_READ_REQ", NULL, NULL)); /* not a latency setting */
	expect_fact(&a, "TUNE_SRIOV", "mlx5_2", RK_SEVERITY_OK, "0 VFs", "up to 8 VFs");
	expect_fact(&a, "TUNE_IPOIB_MTU", "ib0", RK_SEVERITY_CRITICAL, "4096", "4092 or 2044");
	assert_null(find(&a, "TUNE_IPOIB_MTU", "ib1", NULL)); /* connected, 65520 */
	expect_fact(&a, "TUNE_ARP", "ib0", RK_SEVERITY_WARNING, "0", NULL);
	expect_fact(&a, "TUNE_ARP", "ib1", RK_SEVERITY_WARNING, "0", NULL);
	assert_null(find(&a, "TUNE_ARP", "ens1f0", NULL)); /* alone in its subnet */
	assert_int_equal(count_code(&a, "TUNE_ARP"), 4);   /* arp_ignore and arp_announce */
	expect_fact(&a, "TUNE_ROCE_TOS", "mlx5_2:1", RK_SEVERITY_WARNING, "0", "106");
	expect_fact(&a, "TUNE_ROCE_TRUST", "ens1f0", RK_SEVERITY_WARNING, "pcp", "dscp");
	expect_fact(&a, "TUNE_ROCE_PFC", "ens1f0", RK_SEVERITY_WARNING, "PFC off", "priority 3");
	expect_fact(&a, "TUNE_ROCE_ECN", "ens1f0", RK_SEVERITY_WARNING, "0", "1");
	assert_int_equal(count_code(&a, "TUNE_ROCE_ECN"), 1); /* roce_rp is on */
	assert_null(find(&a, "TUNE_ROCE_MTU", NULL, NULL));   /* a throughput setting */
	expect_fact(&a, "TUNE_SYSCTL", "kernel.numa_balancing", RK_SEVERITY_WARNING, "1", "0");
	assert_null(find(&a, "TUNE_SYSCTL", "net.core.rmem_max", NULL));
	rk_tune_audit_free(&a);
}

static void test_throughput_profile_settings(void **state)
{
	struct rk_tune_audit a = audit_tree(fixture_path(HOST_TREE), "throughput");

	(void)state;
	expect_fact(&a, "TUNE_THP", NULL, RK_SEVERITY_WARNING, "always", "madvise");
	expect_fact(&a, "TUNE_PCIE_MAX_READ_REQ", "mlx5_0", RK_SEVERITY_WARNING, "512", "4096");
	assert_null(find(&a, "TUNE_PCIE_MAX_READ_REQ", "mlx5_2", NULL)); /* 4096 already */
	expect_fact(&a, "TUNE_ROCE_MTU", "ens1f0", RK_SEVERITY_WARNING, "1500", "9000");
	expect_fact(&a, "TUNE_SYSCTL", "net.core.rmem_max", RK_SEVERITY_WARNING, "212992",
		    "16777216");
	expect_fact(&a, "TUNE_SYSCTL", "vm.zone_reclaim_mode", RK_SEVERITY_WARNING, "1", "0");
	assert_null(find(&a, "TUNE_CSTATES", NULL, NULL));
	assert_null(find(&a, "TUNE_IRQBALANCE", NULL, NULL));
	rk_tune_audit_free(&a);
}

static void test_no_profile_reports_hazards_only(void **state)
{
	struct rk_tune_audit a = audit_tree(fixture_path(HOST_TREE), NULL);

	(void)state;
	assert_non_null(find(&a, "TUNE_SYSCTL_CONF", NULL, NULL));
	assert_non_null(find(&a, "TUNE_IPOIB_MTU", "ib0", NULL));
	assert_non_null(find(&a, "TUNE_ARP", "ib0", NULL));
	assert_non_null(find(&a, "TUNE_UNIT_MEMLOCK", NULL, NULL));
	assert_non_null(find(&a, "TUNE_ROCE_PFC", NULL, NULL));
	assert_null(find(&a, "TUNE_THP", NULL, NULL));
	assert_null(find(&a, "TUNE_GOVERNOR", NULL, NULL));
	assert_null(find(&a, "TUNE_MEMLOCK", NULL, NULL)); /* 64 KiB is above 32 KiB */
	assert_null(find(&a, "TUNE_ROCE_TOS", NULL, NULL));
	assert_null(find(&a, "TUNE_SYSCTL", NULL, NULL));
	rk_tune_audit_free(&a);
}

/* Every check quiet on a tree where its setting is right. */
static void test_quiet_when_settings_are_right(void **state)
{
	char *root = fixture_copy(HOST_TREE);
	char path[256];
	struct rk_tune_audit a;

	(void)state;
	write_file(root, "sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages",
		   "256\n");
	write_file(root, "etc/sysctl.conf", "kernel.printk = 3 4 1 3\n");
	write_file(root, "sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
	write_file(root, "etc/security/limits.conf", "* - memlock unlimited\n");
	write_file(root, "etc/systemd/system.conf", "[Manager]\nDefaultLimitMEMLOCK=infinity\n");
	write_file(root, "etc/systemd/system/mpi-daemon.service",
		   "[Service]\nLimitMEMLOCK=infinity\n");
	for (int cpu = 0; cpu < 3; cpu++) {
		snprintf(path, sizeof(path),
			 "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
		write_file(root, path, "performance\n");
	}
	write_file(root, "proc/cmdline",
		   "ro quiet intel_idle.max_cstate=1 processor.max_cstate=0\n");
	write_file(root, "proc/irq/40/smp_affinity_list", "0-1\n");
	write_file(root, "proc/4242/comm", "bash\n");
	write_file(root, "sys/class/net/ib0/mtu", "4092\n");
	for (const char *const *i = (const char *const[]){"ib0", "ib1", NULL}; *i; i++) {
		snprintf(path, sizeof(path), "proc/sys/net/ipv4/conf/%s/arp_ignore", *i);
		write_file(root, path, "1\n");
		snprintf(path, sizeof(path), "proc/sys/net/ipv4/conf/%s/arp_announce", *i);
		write_file(root, path, "2\n");
	}
	write_file(root, "sys/kernel/config/rdma_cm/mlx5_2/ports/1/default_roce_tos", "106\n");
	write_file(root, "dcb/ens1f0/app.json", "{\"dscp_prio\": [[26, 3]]}\n");
	write_file(root, "dcb/ens1f0/pfc.json", "{\"prio_pfc\": {\"3\": true}}\n");
	write_file(
	    root,
	    "sys/devices/pci0000:5d/0000:5d:00.0/0000:5e:00.0/net/ens1f0/ecn/roce_np/enable/3",
	    "1\n");
	write_file(root, "proc/sys/kernel/numa_balancing", "0\n");
	a = audit_tree(root, "latency");
	for (size_t i = 0; i < a.findings.count; i++)
		if (a.findings.items[i].severity != RK_SEVERITY_OK &&
		    strcmp(a.findings.items[i].code, "TUNE_PCIE_MAX_PAYLOAD") != 0) /* firmware's */
			fail_msg("unexpected %s %s: %s", a.findings.items[i].code,
				 a.findings.items[i].subject, a.findings.items[i].message);
	rk_tune_audit_free(&a);
	fixture_discard(root);
}

static void test_memlock_below_ibverbs_minimum_is_critical(void **state)
{
	char *root = fixture_copy(HOST_TREE);
	struct rk_tune_audit a;

	(void)state;
	write_file(root, "etc/security/limits.d/20-rdma.conf",
		   "* soft memlock 16\n@rdma hard memlock lots\n@mpi soft memlock 8\n"
		   "@hpc - memlock 1024\n");
	a = audit_tree(root, NULL);
	expect_fact(&a, "TUNE_MEMLOCK", "*", RK_SEVERITY_CRITICAL, "16 KiB", "unlimited");
	expect_fact(&a, "TUNE_MEMLOCK", "@mpi", RK_SEVERITY_CRITICAL, "8 KiB", "unlimited");
	assert_null(find(&a, "TUNE_MEMLOCK", "@hpc", NULL));  /* no profile: 1 MiB is not wrong */
	assert_null(find(&a, "TUNE_MEMLOCK", "@rdma", NULL)); /* unlimited in limits.conf */
	rk_tune_audit_free(&a);
	a = audit_tree(root, "throughput");
	expect_fact(&a, "TUNE_MEMLOCK", "@hpc", RK_SEVERITY_WARNING, "1024 KiB", "unlimited");
	expect_fact(&a, "TUNE_LIMITS_SYNTAX", "/etc/security/limits.d/20-rdma.conf",
		    RK_SEVERITY_WARNING, NULL, NULL);
	assert_non_null(strstr(find(&a, "TUNE_LIMITS_SYNTAX", NULL, NULL)->message, "line 2"));
	assert_int_equal(count_code(&a, "TUNE_LIMITS_SYNTAX"), 1);
	rk_tune_audit_free(&a);
	fixture_discard(root);
}

static void test_ipoib_datagram_mtu_rules(void **state)
{
	char *root = fixture_copy(HOST_TREE);
	struct rk_tune_audit a;

	(void)state;
	write_file(root, "sys/class/net/ib0/mtu", "1500\n");
	write_file(root, "sys/class/net/ib1/mtu", "65521\n");
	a = audit_tree(root, NULL);
	expect_fact(&a, "TUNE_IPOIB_MTU", "ib0", RK_SEVERITY_WARNING, "1500", "4092 or 2044");
	expect_fact(&a, "TUNE_IPOIB_MTU", "ib1", RK_SEVERITY_CRITICAL, "65521", "65520");
	rk_tune_audit_free(&a);
	write_file(root, "sys/class/net/ib0/mtu", "2044\n");
	write_file(root, "sys/class/net/ib1/mtu", "9000\n");
	a = audit_tree(root, "throughput");
	assert_null(find(&a, "TUNE_IPOIB_MTU", "ib0", NULL));
	expect_fact(&a, "TUNE_IPOIB_MTU", "ib1", RK_SEVERITY_WARNING, "9000", "65520");
	rk_tune_audit_free(&a);
	fixture_discard(root);
}

static struct rk_tune_audit audit_with_partitions(const char *root, const char *partitions)
{
	struct rk_tune_options options = {.root = root,
					  .partitions = "/etc/opensm/partitions.conf"};
	struct rk_tune_audit audit = {0};
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/etc/opensm", root);
	mkdir(dir, 0755);
	write_file(root, "etc/opensm/partitions.conf", partitions);
	assert_int_equal(rk_tune_audit_host(&options, &audit, NULL), 0);
	return audit;
}

/* The datagram maximum follows the IB MTU partitions.conf gives the IPoIB partition. */
static void test_ipoib_mtu_against_the_fabric(void **state)
{
	char *root = fixture_copy(HOST_TREE);
	struct rk_tune_audit a;

	(void)state;
	write_file(root, "sys/class/net/ib0/mtu", "4092\n");
	a = audit_with_partitions(root, "Default=0x7fff, ipoib, mtu=4 : ALL=full ;\n");
	expect_fact(&a, "TUNE_IPOIB_MTU", "ib0", RK_SEVERITY_CRITICAL, "4092", "2044");
	assert_non_null(strstr(find(&a, "TUNE_IPOIB_MTU", "ib0", NULL)->message, "IB MTU of 2048"));
	rk_tune_audit_free(&a);
	a = audit_with_partitions(root, "Default=0x7fff, ipoib : ALL=full ;\n"); /* 2048 */
	expect_fact(&a, "TUNE_IPOIB_MTU", "ib0", RK_SEVERITY_CRITICAL, "4092", "2044");
	rk_tune_audit_free(&a);
	a = audit_with_partitions(root, "Default=0x7fff, ipoib, mtu=5 : ALL=full ;\n");
	assert_null(find(&a, "TUNE_IPOIB_MTU", "ib0", NULL));
	rk_tune_audit_free(&a);
	write_file(root, "sys/class/net/ib0/mtu", "2044\n");
	a = audit_with_partitions(root, "Default=0x7fff, ipoib, mtu=5 : ALL=full ;\n");
	expect_fact(&a, "TUNE_IPOIB_MTU", "ib0", RK_SEVERITY_WARNING, "2044", "4092");
	rk_tune_audit_free(&a);
	a = audit_with_partitions(root, "Default=0x7fff : ALL=full ;\n"); /* no ipoib flag */
	assert_null(find(&a, "TUNE_IPOIB_MTU", "ib0", NULL)); /* 2044: fine without a fabric */
	rk_tune_audit_free(&a);
	fixture_discard(root);
}

static void test_bad_input_goes_on(void **state)
{
	char *root = fixture_copy(HOST_TREE), path[4096];
	static const char garbage[] = "\x7f\x45\x4c\x46\x00\x01\xff\xfe memlock\n\x00\x00";
	struct rk_tune_audit a;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/proc/cmdline", root);
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0); /* a FIFO must not block the audit */
	snprintf(path, sizeof(path), "%s/etc/security/limits.conf", root);
	f = fopen(path, "wb");
	fwrite(garbage, 1, sizeof(garbage), f);
	fclose(f);
	write_file(root, "dcb/ens1f0/pfc.json", "{ not json");
	write_file(root, "proc/irq/40/smp_affinity_list", "zz\n");
	write_file(root, "proc/sys/kernel/numa_balancing", "\x01\x02 garbage\n");
	log_capture_start();
	a = audit_tree(root, "latency");
	assert_int_equal(log_capture_count("proc/cmdline: not a regular file"), 1);
	assert_int_equal(log_capture_count("smp_affinity_list under"), 1);
	assert_int_equal(log_capture_count("not a CPU list: \"zz\""), 1);
	assert_int_equal(log_capture_count("pfc of ens1f0 is not JSON"), 1);
	expect_fact(&a, "TUNE_SYSCTL", "kernel.numa_balancing", RK_SEVERITY_WARNING,
		    "\x01\x02 garbage", "0");		   /* shown as read, not guessed */
	assert_null(find(&a, "TUNE_CSTATES", NULL, NULL)); /* unreadable: not judged */
	assert_null(find(&a, "TUNE_ROCE_PFC", NULL, NULL));
	assert_non_null(find(&a, "TUNE_ROCE_TRUST", NULL, NULL)); /* app.json still read */
	assert_null(find(&a, "TUNE_IRQ_AFFINITY", NULL, NULL));
	assert_non_null(find(&a, "TUNE_GOVERNOR", NULL, NULL)); /* the rest goes on */
	assert_non_null(find(&a, "TUNE_LIMITS_SYNTAX", "/etc/security/limits.conf", NULL));
	rk_tune_audit_free(&a);
	fixture_discard(root);
}

static void test_missing_root_is_an_error(void **state)
{
	struct rk_tune_options options = {.root = "/nonexistent/rdmakit-root"};
	struct rk_tune_audit audit = {0};

	(void)state;
	log_capture_start();
	assert_int_equal(rk_tune_audit_host(&options, &audit, NULL), -ENOENT);
	assert_int_equal(log_capture_count("/nonexistent/rdmakit-root"), 1);
	options.root = "/etc/hostname";
	assert_int_equal(rk_tune_audit_host(&options, &audit, NULL), -ENOTDIR);
	assert_int_equal(audit.findings.count, 0);
}

static void set16(unsigned char *c, size_t off, unsigned v)
{
	c[off] = v & 0xff;
	c[off + 1] = (v >> 8) & 0xff;
}

static void test_pcie_capability_walk(void **state)
{
	unsigned char c[256] = {0};
	struct rk_tune_pcie_caps caps;

	(void)state;
	assert_int_equal(rk_tune_parse_pcie_config(c, 32, &caps), -EINVAL);
	assert_int_equal(rk_tune_parse_pcie_config(c, sizeof(c), &caps), -ENOENT); /* no list */
	set16(c, 0x06, 0x10);
	c[0x34] = 0x50;
	c[0x50] = 0x05; /* MSI, next 0x70 */
	c[0x51] = 0x70;
	c[0x70] = 0x10;
	set16(c, 0x74, 0x3);		      /* 1024 supported */
	set16(c, 0x78, (1 << 5) | (5 << 12)); /* 256, 4096 */
	assert_int_equal(rk_tune_parse_pcie_config(c, sizeof(c), &caps), 0);
	assert_int_equal(caps.max_payload_supported, 1024);
	assert_int_equal(caps.max_payload, 256);
	assert_int_equal(caps.max_read_request, 4096);
	assert_int_equal(rk_tune_parse_pcie_config(c, 64, &caps), -ENODATA);
	assert_int_equal(rk_tune_parse_pcie_config(c, 0x72, &caps), -ENODATA);
	c[0x51] = 0x50; /* points at itself */
	assert_int_equal(rk_tune_parse_pcie_config(c, sizeof(c), &caps), -ELOOP);
	c[0x51] = 0x20; /* into the header */
	assert_int_equal(rk_tune_parse_pcie_config(c, sizeof(c), &caps), -EINVAL);
	c[0x51] = 0xfc; /* the last dword: the capability would run past 256 */
	c[0xfc] = 0x10;
	assert_int_equal(rk_tune_parse_pcie_config(c, sizeof(c), &caps), -EINVAL);
}

static void test_profiles_are_tables(void **state)
{
	size_t count;
	const struct rk_tune_profile *all = rk_tune_profiles(&count);

	(void)state;
	assert_int_equal(count, 2);
	assert_ptr_equal(rk_tune_profile_find("latency"), &all[0]);
	assert_null(rk_tune_profile_find("fast"));
	assert_string_equal(rk_tune_profile_value(&all[1], "roce_mtu"), "9000");
	assert_null(rk_tune_profile_value(&all[0], "roce_mtu"));
	assert_null(rk_tune_profile_value(NULL, "thp"));
	for (size_t p = 0; p < count; p++)
		for (size_t i = 0; i < all[p].count; i++)
			assert_true(strlen(all[p].settings[i].why) > 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_latency_profile_fires_every_check),
	    cmocka_unit_test(test_throughput_profile_settings),
	    cmocka_unit_test(test_no_profile_reports_hazards_only),
	    cmocka_unit_test(test_quiet_when_settings_are_right),
	    cmocka_unit_test(test_memlock_below_ibverbs_minimum_is_critical),
	    cmocka_unit_test(test_ipoib_datagram_mtu_rules),
	    cmocka_unit_test(test_ipoib_mtu_against_the_fabric),
	    cmocka_unit_test(test_bad_input_goes_on),
	    cmocka_unit_test(test_missing_root_is_an_error),
	    cmocka_unit_test(test_pcie_capability_walk),
	    cmocka_unit_test(test_profiles_are_tables),
	};

	return cmocka_run_group_tests_name("tune_checks", tests, NULL, NULL);
}
