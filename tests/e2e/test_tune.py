#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""End-to-end tests of rdmakit tune: the CLI on host trees, kill -9 mid-apply, damaged journals,
a real kernel (sysctls and MTUs of veth interfaces in a network namespace made here) and a real
OpenSM on ibsim started with a conf that apply wrote."""
import contextlib
import functools
import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", d) for d in ("lib", "sim")]
import rktest  # noqa: E402
import simlib  # noqa: E402
from rktest import FIXTURES, RDMAKIT  # noqa: E402

HOST = os.path.join(FIXTURES, "tune", "host")
OPENSM_FIXTURES = os.path.join(FIXTURES, "tune", "opensm")
JOURNALS = ("var", "var/lib", "var/lib/rdmakit")


def run(*args, root=None, env=None, user=None):
    cmd = [RDMAKIT, "tune", *args]
    if root:
        cmd += ["--root", root]
    if user:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **(env or {})))


run_json = functools.partial(rktest.run_json, run)


def snapshot(root):
    """{relpath: (kind, mode, sha256 or link)} of a tree, rdmakit's journals left out."""
    tree = {}
    for top, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(top, name)
            rel = os.path.relpath(path, root)
            if rel in JOURNALS or rel.startswith("var/lib/rdmakit/"):
                continue
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                tree[rel] = ("link", st.st_mode, os.readlink(path))
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    tree[rel] = ("file", st.st_mode, hashlib.sha256(f.read()).hexdigest())
            else:
                tree[rel] = ("dir" if stat.S_ISDIR(st.st_mode) else "other", st.st_mode, "")
    return tree


@contextlib.contextmanager
def host_copy():
    tmp = tempfile.mkdtemp(prefix="rdmakit-tune-")
    try:
        root = os.path.join(tmp, "root")
        shutil.copytree(HOST, root, symlinks=True)
        yield root
    finally:
        shutil.rmtree(tmp)


def differences(before, after):
    """The paths where two snapshots differ (for short failure messages)."""
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def codes(doc):
    return sorted({(f["code"], f["subject"]) for f in doc["findings"]})


def read(root, rel):
    with open(os.path.join(root, rel)) as f:
        return f.read()


class Audit(unittest.TestCase):
    def test_latency_audit_json(self):
        doc = run_json("audit", "--profile", "latency", root=HOST, rc=2)
        self.assertEqual(doc["profile"], "latency")
        self.assertEqual(doc["worst"], "critical")
        found = codes(doc)
        for expected in [("TUNE_THP", "transparent_hugepage"), ("TUNE_IPOIB_MTU", "ib0"),
                         ("TUNE_GOVERNOR", "cpufreq"), ("TUNE_ROCE_PFC", "ens1f0"),
                         ("TUNE_IRQ_AFFINITY", "mlx5_0"), ("TUNE_SYSCTL_CONF", "/etc/sysctl.conf")]:
            self.assertIn(expected, found)
        thp = next(f for f in doc["findings"] if f["code"] == "TUNE_THP")
        self.assertEqual((thp["area"], thp["current"], thp["recommended"]),
                         ("memory", "always", "never"))
        self.assertTrue(thp["message"] and thp["remedy"])

    def test_plan_writes_nothing(self):
        with host_copy() as root:
            before = snapshot(root)
            doc = run_json("plan", "--profile", "throughput", root=root)
            self.assertEqual(differences(before, snapshot(root)), [])
            self.assertFalse(os.path.exists(os.path.join(root, "var")))
            by_path = {c["path"]: c for c in doc["changes"]}
            thp = by_path["/sys/kernel/mm/transparent_hugepage/enabled"]
            self.assertEqual((thp["kind"], thp["current"], thp["new"]),
                             ("live", "[always] madvise never\n", "madvise\n"))
            dropin = by_path["/etc/sysctl.d/90-rdmakit-tune.conf"]
            self.assertIsNone(dropin["current"])
            self.assertEqual(dropin["mode"], "0644")
            self.assertIn("net.core.rmem_max = 16777216\n", dropin["new"])
            self.assertNotIn("/etc/sysctl.conf", by_path)  # never edited in place
            udev = by_path["/etc/udev/rules.d/90-rdmakit-tune.rules"]["new"].splitlines()
            self.assertEqual(udev[1:], [
                'ACTION=="add", SUBSYSTEM=="net", KERNEL=="ib1", ATTR{mtu}="65520"',
                'ACTION=="add", SUBSYSTEM=="net", KERNEL=="ens1f0", ATTR{mtu}="9000"'])
            text = run("plan", "--profile", "throughput", root=root).stdout
            self.assertIn("/proc/sys/vm/zone_reclaim_mode  (vm.zone_reclaim_mode)\n    1 -> 0\n",
                          text)

    def test_missing_root_and_bad_options(self):
        proc = run("audit", root="/nonexistent/rdmakit-root")
        self.assertEqual(proc.returncode, 3)
        self.assertIn("/nonexistent/rdmakit-root: No such file or directory", proc.stderr)
        self.assertEqual(run("audit", "--profile", "fast", root=HOST).returncode, 3)
        self.assertEqual(run("frobnicate", root=HOST).returncode, 3)
        self.assertEqual(run("rollback", "../0001", root=HOST).returncode, 3)
        proc = run("plan", root=HOST)
        self.assertEqual(proc.returncode, 3)
        self.assertIn("--profile", proc.stderr)


    def test_unreadable_file_is_named_and_the_rest_goes_on(self):
        with host_copy() as root:
            os.chmod(os.path.dirname(root), 0o755)
            conf = os.path.join(root, "etc/opensm.conf")
            with open(conf, "w") as f:
                f.write("sm_priority 14\n")
            os.chmod(conf, 0)
            os.chmod(os.path.join(root, "etc/security/limits.conf"), 0)
            proc = run("audit", "--profile", "latency", "--opensm-conf", "/etc/opensm.conf",
                       "--json", root=root, user="65534")
            self.assertEqual(proc.returncode, 2, proc.stderr)
            doc = json.loads(proc.stdout)
            bad = next(f for f in doc["findings"] if f["code"] == "TUNE_OSM_UNREADABLE")
            self.assertIn("Permission denied", bad["message"])
            self.assertIn("etc/security/limits.conf: Permission denied", proc.stderr)
            self.assertIn(("TUNE_THP", "transparent_hugepage"), codes(doc))  # the rest ran

    def test_doctor_tune_adds_the_audit(self):
        def doctor(*extra):
            proc = subprocess.run([RDMAKIT, "doctor", *extra, "--json", "--sysfs-root",
                                   os.path.join(HOST, "sys")], capture_output=True, text=True,
                                  timeout=60)
            return proc.returncode, codes(json.loads(proc.stdout))

        audit = codes(run_json("audit", root=HOST, rc=2))
        rc_plain, plain = doctor()
        rc_tune, with_tune = doctor("--tune")
        self.assertEqual(rc_plain, 0)
        self.assertEqual(rc_tune, 2)  # the IPoIB MTU of 4096
        self.assertEqual(with_tune, sorted(set(plain) | set(audit)))
        self.assertIn(("TUNE_IPOIB_MTU", "ib0"), with_tune)


class ApplyRollback(unittest.TestCase):
    def test_apply_history_verify_rollback(self):
        with host_copy() as root:
            os.chmod(os.path.join(root, "etc/security/limits.conf"), 0o640)
            before = snapshot(root)
            res = run_json("apply", "--profile", "latency", root=root)
            self.assertEqual(res["id"], "0001")
            self.assertEqual(res["failed"], 0)
            self.assertEqual(read(root, "sys/kernel/mm/transparent_hugepage/enabled"), "never\n")
            self.assertEqual(run_json("verify", root=root)["findings"], [])
            again = run_json("apply", "--profile", "latency", root=root)
            self.assertIsNone(again["id"])  # applying twice changes nothing
            hist = run_json("history", root=root)["journals"]
            self.assertEqual([(j["id"], j["state"], j["label"]) for j in hist],
                             [("0001", "applied", "latency")])
            with open(os.path.join(root, "proc/sys/kernel/numa_balancing"), "w") as f:
                f.write("1\n")
            drift = run_json("verify", root=root, rc=1)["findings"]
            self.assertEqual([(d["code"], d["subject"], d["current"], d["recommended"])
                              for d in drift],
                             [("TUNE_DRIFT", "/proc/sys/kernel/numa_balancing", "1", "0")])
            applied = res["done"]
            res = run_json("rollback", root=root)
            self.assertEqual((res["id"], res["done"], res["failed"]), ("0001", applied, 0))
            self.assertEqual(differences(before, snapshot(root)), [])
            hist = run_json("history", root=root)["journals"]
            self.assertEqual(hist[0]["state"], "rolled back")
            proc = run("rollback", root=root)
            self.assertEqual(proc.returncode, 3)
            self.assertIn("nothing to roll back", proc.stderr)

    def test_apply_needs_root(self):
        with host_copy() as root:
            os.chmod(os.path.dirname(root), 0o755)
            before = snapshot(root)
            proc = run("apply", "--profile", "latency", root=root, user="65534")
            self.assertEqual(proc.returncode, 4)  # needs privileges this user lacks
            self.assertIn("apply needs root", proc.stderr)
            self.assertEqual(differences(before, snapshot(root)), [])
            self.assertFalse(os.path.exists(os.path.join(root, "var")))

    @unittest.skipUnless(os.environ.get("RDMAKIT_TEST_HOOKS") == "1",
                         "the crash hook is compiled only with -DRDMAKIT_TEST_HOOKS=ON "
                         "(scripts/check.sh turns it on)")
    def test_kill_at_several_points_then_rollback(self):
        for stop_after in (1, 2, 5, 9, 17, 30, 45, 60, 70):
            with self.subTest(stop_after=stop_after), host_copy() as root:
                before = snapshot(root)
                proc = run("apply", "--profile", "throughput", root=root,
                           env={"RDMAKIT_TUNE_STOP_AFTER": str(stop_after)})
                self.assertEqual(proc.returncode, -signal.SIGKILL)
                if stop_after >= 5:  # by then the first values have changed
                    self.assertNotEqual(snapshot(root), before)
                hist = run_json("history", root=root)["journals"]
                self.assertEqual(hist[0]["state"], "incomplete")
                proc = run("apply", "--profile", "throughput", root=root)
                self.assertEqual(proc.returncode, 3)
                self.assertIn("interrupted: run rdmakit tune rollback first", proc.stderr)
                res = run_json("rollback", root=root)
                self.assertEqual(res["failed"], 0)
                self.assertEqual(differences(before, snapshot(root)), [])

    def test_damaged_journal_is_refused(self):
        for how in ("truncate", "edit"):
            with self.subTest(how=how), host_copy() as root:
                run_json("apply", "--profile", "latency", root=root)
                journal = os.path.join(root, "var/lib/rdmakit/tune/0001/journal")
                with open(journal, "rb") as f:
                    data = f.read()
                if how == "truncate":
                    data = data[:data.rstrip(b"\n").rfind(b"\n") + 1]
                else:
                    data = data.replace(b"never", b"nevar", 1)
                with open(journal, "wb") as f:
                    f.write(data)
                tuned = snapshot(root)
                proc = run("rollback", root=root)
                self.assertEqual(proc.returncode, 3)
                self.assertIn("journal 0001 is damaged", proc.stderr)
                self.assertIn("nothing was changed", proc.stderr)
                self.assertEqual(differences(tuned, snapshot(root)), [])
                hist = run_json("history", root=root)["journals"]
                self.assertEqual(hist[0]["state"], "damaged")


class NetworkNamespace(unittest.TestCase):
    """A real kernel: arp_ignore/arp_announce and the MTU of two veth ends in one subnet."""

    # The kernel's parts the root holds: sys/class/net's links lead to sys/devices/virtual/net;
    # $$ is the shell that execs the command, so proc/net is the namespace's.
    KERNEL = (("/sys/class/net", "sys/class/net"),
              ("/sys/devices/virtual/net", "sys/devices/virtual/net"),
              ("/proc/sys/net/ipv4/conf", "proc/sys/net/ipv4/conf"),
              ("/proc/$$/net", "proc/net"))

    @classmethod
    def setUpClass(cls):
        cls.ns = f"rktune{os.getpid()}"
        subprocess.run(["ip", "netns", "add", cls.ns], check=True)
        cls.tmp = tempfile.mkdtemp(prefix="rdmakit-netns-")
        for cmd in (["link", "add", "v0", "type", "veth", "peer", "name", "v1"],
                    ["addr", "add", "10.77.0.1/24", "dev", "v0"],
                    ["addr", "add", "10.77.0.2/24", "dev", "v1"],
                    ["link", "set", "v0", "up"], ["link", "set", "v1", "up"]):
            subprocess.run(["ip", "-n", cls.ns, *cmd], check=True)
        cls.root = os.path.join(cls.tmp, "root")
        rxe = os.path.join(FIXTURES, "sysfs", "rxe", "class", "infiniband", "rxe0")
        for i in (0, 1):  # two soft-RoCE devices on the veth ends
            dev = os.path.join(cls.root, "sys/class/infiniband", f"rxe{i}")
            shutil.copytree(rxe, dev, symlinks=True)
            with open(os.path.join(dev, "ports/1/gid_attrs/ndevs/0"), "w") as f:
                f.write(f"v{i}\n")
        for _, inside in cls.KERNEL:
            os.makedirs(os.path.join(cls.root, inside))

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["ip", "netns", "del", cls.ns], check=False)
        shutil.rmtree(cls.tmp)

    def in_ns(self, *args):
        """args run in the namespace, with the kernel's parts bind-mounted into the root (in the
        mount namespace of ip netns exec): a symlink to them would be resolved inside it."""
        binds = "".join(f"mount --bind {real} {self.root}/{inside} && "
                        for real, inside in self.KERNEL)
        return subprocess.run(["ip", "netns", "exec", self.ns, "sh", "-c", binds + 'exec "$@"',
                               "sh", *args], capture_output=True, text=True, timeout=120)

    def live(self):
        values = {}
        for dev in ("v0", "v1"):
            for key in ("arp_ignore", "arp_announce"):
                values[(dev, key)] = self.in_ns("cat", f"/proc/sys/net/ipv4/conf/{dev}/{key}"
                                                ).stdout.strip()
            link = json.loads(self.in_ns("ip", "-j", "link", "show", dev).stdout)
            values[(dev, "mtu")] = str(link[0]["mtu"])
        return values

    def test_apply_and_rollback_in_the_kernel(self):
        before = self.live()
        self.assertEqual(before[("v0", "arp_ignore")], "0")
        self.assertEqual(before[("v1", "mtu")], "1500")
        audit = self.in_ns(RDMAKIT, "tune", "audit", "--root", self.root, "--json")
        self.assertEqual(audit.returncode, 1, audit.stderr)
        found = codes(json.loads(audit.stdout))
        self.assertIn(("TUNE_ARP", "v0"), found)
        self.assertIn(("TUNE_ARP", "v1"), found)
        proc = self.in_ns(RDMAKIT, "tune", "apply", "--profile", "throughput", "--root",
                          self.root, "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        after = self.live()
        for dev in ("v0", "v1"):
            self.assertEqual(after[(dev, "arp_ignore")], "1")
            self.assertEqual(after[(dev, "arp_announce")], "2")
            self.assertEqual(after[(dev, "mtu")], "9000")
        dropin = read(self.root, "etc/sysctl.d/90-rdmakit-tune.conf")
        self.assertIn("net/ipv4/conf/v1/arp_announce = 2\n", dropin)
        rules = read(self.root, "etc/udev/rules.d/90-rdmakit-tune.rules")
        self.assertIn('KERNEL=="v1", ATTR{mtu}="9000"', rules)
        proc = self.in_ns(RDMAKIT, "tune", "verify", "--root", self.root)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        proc = self.in_ns(RDMAKIT, "tune", "rollback", "--root", self.root)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.live(), before)
        self.assertFalse(os.path.exists(os.path.join(self.root, "etc")))  # created, removed


class OpenSM(unittest.TestCase):
    def test_template_audit(self):
        with tempfile.TemporaryDirectory() as tmp:
            conf = os.path.join(tmp, "opensm.conf")
            subprocess.run(["opensm", "-c", conf], check=True, capture_output=True)
            doc = run_json("audit", "--opensm-conf", conf, root="/", rc=1)
            osm = sorted(f["code"] for f in doc["findings"] if f["area"] == "opensm")
            self.assertEqual(osm, ["TUNE_OSM_MKEY", "TUNE_OSM_PRIORITY", "TUNE_OSM_SMKEY"])

    def test_bad_conf_partitions_and_log(self):
        doc = run_json("audit", "--opensm-conf", os.path.join(OPENSM_FIXTURES, "bad-opensm.conf"),
                       "--partitions", os.path.join(OPENSM_FIXTURES, "partitions-bad.conf"),
                       "--opensm-log", os.path.join(OPENSM_FIXTURES, "opensm.log"), root="/",
                       rc=2)
        found = {f["code"] for f in doc["findings"]}
        for code in ("TUNE_OSM_UNKNOWN_KEY", "TUNE_OSM_GUID", "TUNE_OSM_VALUE", "TUNE_OSM_RANGE",
                     "TUNE_OSM_CONSOLE", "TUNE_PART_MEMBERSHIP", "TUNE_PART_SYNTAX",
                     "TUNE_OSM_LOG_ERR"):
            self.assertIn(code, found)

    def test_applied_conf_brings_a_real_subnet_up(self):
        with tempfile.TemporaryDirectory() as tmp, host_copy() as root:
            os.makedirs(os.path.join(root, "etc/opensm"))
            conf = os.path.join(root, "etc/opensm/opensm.conf")
            subprocess.run(["opensm", "-c", conf], check=True, capture_output=True)
            dumps = os.path.join(tmp, "dumps")
            os.makedirs(dumps)
            proc = run("apply", "--opensm-conf", "/etc/opensm/opensm.conf",
                       "--set", "sm_priority=14", "--set", "m_key=0x5a5a0123456789ab",
                       "--set", "sm_key=0x0123456789abcdef", "--set", f"dump_files_dir={dumps}",
                       "--set", "routing_engine=ftree,minhop", root=root)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            doc = run_json("audit", "--opensm-conf", "/etc/opensm/opensm.conf", root=root,
                           rc=2)  # the host tree's IPoIB MTU is critical
            self.assertEqual([f["code"] for f in doc["findings"] if f["area"] == "opensm"], [])
            net = simlib.generate(os.path.join(tmp, "ft.net"), leaves=2, hosts=2, spines=1,
                                  radix=4)
            sim = simlib.Sim(f"rktune{os.getpid()}", net, tmp)
            sim.env["SIM_OSM_ARGS"] = f"-F {conf}"
            with sim:
                sim.opensm("Hca1", 14)  # waits for SUBNET UP in OpenSM's log
                logs = [os.path.join(top, name) for top, _, files in os.walk(tmp)
                        for name in files if name == "opensm.log"]
                with open(logs[0]) as f:
                    log = f.read()
                self.assertIn("SUBNET UP", log)
                self.assertIn("ftree tables configured", log)  # our routing_engine: our conf
            hist = run_json("history", root=root)["journals"]
            self.assertEqual(hist[0]["label"], "opensm.conf")


if __name__ == "__main__":
    unittest.main(verbosity=2)
