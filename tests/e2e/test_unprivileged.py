#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Unprivileged use: every read-only command run as nobody (setpriv) on the bundled trees gives
what root gets, byte for byte and with the same exit code; what needs root says so and exits 4:
tune apply and rollback, and fabric, sm and sweep when the umad device is not this user's (a
umad device made in a private mount namespace, root's and mode 0600, as udev leaves it without
the rdma group's rule). Needs root to drop to nobody and to make the namespace: exit 77
otherwise."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from rktest import FIXTURES, RDMAKIT  # noqa: E402

EXIT_NEEDS_ROOT = 4
AS_NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

# Run as root inside `unshare -m`: a tmpfs at $1 holds a sysfs class directory with one umad
# device (mlx5_0 port 1) and a /dev with that device, root's and 0600; both are bind-mounted
# over /sys/class and /dev in this namespace only; then the rest of the arguments run.
FAKE_UMAD = """set -e
mount --make-rprivate /
mount -t tmpfs -o mode=755 rdmakit-test "$1"
mkdir -p "$1/class/infiniband_mad/umad0" "$1/dev/infiniband"
echo mlx5_0 > "$1/class/infiniband_mad/umad0/ibdev"
echo 1 > "$1/class/infiniband_mad/umad0/port"
echo 5 > "$1/class/infiniband_mad/abi_version"
mknod -m 666 "$1/dev/null" c 1 3
mknod -m 600 "$1/dev/infiniband/umad0" c 231 0
mount --bind "$1/class" /sys/class
mount --bind "$1/dev" /dev
shift
exec "$@"
"""


class Unprivileged(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix=f"rdmakit-nobody-{os.getpid()}-")
        os.chmod(cls.tmp, 0o755)  # nobody must reach the binary and the trees
        cls.rdmakit = os.path.join(cls.tmp, "rdmakit")
        shutil.copy2(RDMAKIT, cls.rdmakit)
        cls.trees = os.path.join(cls.tmp, "sysfs")
        shutil.copytree(os.path.join(FIXTURES, "sysfs"), cls.trees, symlinks=True)
        cls.host = os.path.join(cls.tmp, "host")
        shutil.copytree(os.path.join(FIXTURES, "tune", "host"), cls.host, symlinks=True)
        cls.applied = os.path.join(cls.tmp, "applied")
        shutil.copytree(os.path.join(FIXTURES, "tune", "host"), cls.applied, symlinks=True)
        proc = cls.run_rdmakit(["tune", "apply", "--profile", "latency", "--root", cls.applied])
        assert proc.returncode == 0, proc.stderr  # root applies: its journal is root's, 0700

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    @classmethod
    def run_rdmakit(cls, args, nobody=False, wrap=()):
        cmd = [*wrap, *(AS_NOBODY if nobody else []), cls.rdmakit, *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=cls.tmp)

    def same_as_root(self, *args, rc=0):
        """Run args as root and as nobody: same exit code (rc) and same output."""
        root = self.run_rdmakit(list(args))
        nobody = self.run_rdmakit(list(args), nobody=True)
        self.assertEqual(root.returncode, rc, f"{args} as root: {root.stderr}")
        self.assertEqual(nobody.returncode, rc, f"{args} as nobody: {nobody.stderr}")
        self.assertEqual(nobody.stdout, root.stdout, args)
        self.assertNotIn("ermission denied", nobody.stderr)
        return nobody

    def tree(self, name):
        return os.path.join(self.trees, name)

    def test_status(self):
        out = self.same_as_root("status", "--sysfs-root", self.tree("ib-hdr")).stdout
        self.assertIn("mlx5_0", out)
        self.assertIn("ACTIVE", out)
        doc = json.loads(self.same_as_root("status", "--json", "--sysfs-root",
                                           self.tree("ib-hdr")).stdout)
        self.assertEqual([d["name"] for d in doc["devices"]], ["mlx5_0", "mlx5_1"])

    def test_counters(self):
        doc = json.loads(self.same_as_root("counters", "--json", "--sysfs-root",
                                           self.tree("ib-hdr")).stdout)
        self.assertEqual(len(doc["devices"]), 2)
        self.same_as_root("counters", "--sysfs-root", self.tree("saturated"))

    def test_doctor(self):
        self.assertIn("ok: 0 critical, 0 warning",
                      self.same_as_root("doctor", "--sysfs-root", self.tree("ib-hdr")).stdout)
        out = self.same_as_root("doctor", "--sysfs-root", self.tree("degraded-rate"), rc=1)
        self.assertIn("RATE_BELOW_PEERS", out.stdout)
        doc = json.loads(self.same_as_root("doctor", "--json", "--sysfs-root",
                                           self.tree("degraded-rate"), rc=1).stdout)
        self.assertIn("RATE_BELOW_PEERS", [f["code"] for f in doc["findings"]])

    def test_doctor_on_a_device_nobody_can_read(self):
        """Issue 18: a device directory of mode 000 was dropped silently ("ok: 0 findings", or
        NO_DEVICES when it was the only one). As nobody it is DEVICE_UNREADABLE (exit 1) with
        the path, the reason and a remedy; the other device is read as root reads it."""
        tree = tempfile.mkdtemp(dir=self.tmp)
        os.chmod(tree, 0o755)
        root = os.path.join(tree, "root")
        shutil.copytree(self.tree("ib-hdr"), root, symlinks=True)
        hidden = os.path.join(root, "class/infiniband/mlx5_1")
        os.chmod(hidden, 0)
        self.addCleanup(os.chmod, hidden, 0o755)
        proc = self.run_rdmakit(["doctor", "--json", "--sysfs-root", root], nobody=True)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        doc = json.loads(proc.stdout)
        self.assertEqual([(f["code"], f["subject"], f["severity"]) for f in doc["findings"]],
                         [("DEVICE_UNREADABLE", "mlx5_1", "warning")])
        self.assertIn(f"{hidden}/ports: Permission denied", doc["findings"][0]["message"])
        self.assertIn("read access", doc["findings"][0]["remedy"])
        self.assertEqual(proc.stderr.count("mlx5_1: cannot read device"), 1, proc.stderr)
        shutil.rmtree(os.path.join(root, "class/infiniband/mlx5_0"))
        proc = self.run_rdmakit(["doctor", "--sysfs-root", root], nobody=True)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("DEVICE_UNREADABLE", proc.stdout)
        self.assertNotIn("NO_DEVICES", proc.stdout)

    def test_tune_audit_and_plan(self):
        out = self.same_as_root("tune", "audit", "--profile", "latency", "--root", self.host,
                                rc=2).stdout
        self.assertIn("TUNE_MEMLOCK", out)
        doc = json.loads(self.same_as_root("tune", "plan", "--profile", "latency", "--json",
                                           "--root", self.host).stdout)
        self.assertIn("/etc/security/limits.d/90-rdmakit-memlock.conf",
                      [c["path"] for c in doc["changes"]])

    def test_tune_history_of_a_tree_never_applied(self):
        doc = json.loads(self.same_as_root("tune", "history", "--json", "--root",
                                           self.host).stdout)
        self.assertEqual(doc["journals"], [])

    def test_tune_history_and_verify_of_root_journals_need_root(self):
        for action in ("history", "verify"):
            proc = self.run_rdmakit(["tune", action, "--root", self.applied], nobody=True)
            self.assertEqual(proc.returncode, EXIT_NEEDS_ROOT, proc.stderr)
            self.assertIn(f"{self.applied}/var/lib/rdmakit/tune cannot be read", proc.stderr)
            self.assertIn("need root", proc.stderr)
            self.assertEqual(proc.stdout, "")

    def test_tune_apply_and_rollback_need_root(self):
        for args in (["apply", "--profile", "latency"], ["rollback"]):
            before = self.tune_files(self.applied)
            proc = self.run_rdmakit(["tune", *args, "--root", self.applied], nobody=True)
            self.assertEqual(proc.returncode, EXIT_NEEDS_ROOT, proc.stderr)
            self.assertIn(f"tune: {args[0]} needs root", proc.stderr)
            self.assertEqual(self.tune_files(self.applied), before)

    @staticmethod
    def tune_files(root):
        with open(os.path.join(root, "etc/security/limits.d/90-rdmakit-memlock.conf")) as f:
            return f.read()

    def test_probe_and_bench_refuse_alike(self):
        """No verbs device here: probe refuses as it does for root; bench checks its options
        before it needs anything."""
        for args in (["probe"], ["probe", "--json"], ["bench", "client", "127.0.0.1"]):
            root = self.run_rdmakit(args)
            nobody = self.run_rdmakit(args, nobody=True)
            self.assertEqual(nobody.returncode, 3, nobody.stderr)
            self.assertEqual(root.returncode, 3, root.stderr)
            self.assertEqual(nobody.stderr, root.stderr)
            self.assertTrue(nobody.stderr.strip())

    def fake_umad(self, args, nobody):
        ns = tempfile.mkdtemp(dir=self.tmp)
        wrap = ["unshare", "-m", "sh", "-c", FAKE_UMAD, "sh", ns]
        return self.run_rdmakit(args, nobody=nobody, wrap=["timeout", "30", *wrap])

    def test_mads_need_access_to_the_umad_device(self):
        for args in (["fabric"], ["fabric", "--json"], ["sm"], ["sm", "--json"], ["sweep"],
                     ["sweep", "--json"], ["doctor", "--fabric", "--sysfs-root",
                                           self.tree("ib-hdr")]):
            proc = self.fake_umad(args, nobody=True)
            if args[0] == "doctor":  # Nagios's UNKNOWN: never "ok" about what it did not see
                self.assertEqual(proc.returncode, 3, proc.stderr)
                self.assertIn("could not complete the checks", proc.stderr)
            else:
                self.assertEqual(proc.returncode, EXIT_NEEDS_ROOT, f"{args}: {proc.stderr}")
            self.assertIn("cannot open /dev/infiniband/umad0: permission denied", proc.stderr)
            self.assertIn("need root, or read-write access to that device", proc.stderr)
            if args[0] != "doctor":
                self.assertEqual(proc.stdout, "")

    def test_root_is_not_refused_the_umad_device(self):
        proc = self.fake_umad(["fabric"], nobody=False)
        self.assertNotIn(proc.returncode, (0, EXIT_NEEDS_ROOT), proc.stderr)
        self.assertNotIn("permission denied", proc.stderr)


if __name__ == "__main__":
    if os.geteuid() != 0:
        print("skipped: needs root (to run as nobody, and for a private mount namespace)")
        sys.exit(77)
    unittest.main(verbosity=2)
