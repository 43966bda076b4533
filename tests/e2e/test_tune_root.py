#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""End-to-end tests of --root that confines: hostile roots (absolute and ".."-climbing links to a
sentinel tree beside the root for etc/sysctl.d, proc/sys and the journal directory, a symlinked
drop-in and live value, a resealed journal whose path goes through a link) never change anything
outside the root, an RDMA device that is an absolute link out of the root is audited from the
root's own copy, and a link where tune writes is refused by name, never followed nor replaced.
Each case runs with openat2 and again with the walk by hand of kernels before 5.6 (the
RDMAKIT_TUNE_NO_OPENAT2 test hook). Last, an audit of this host's real / warns of nothing."""
import contextlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "lib")]
import rktest  # noqa: E402
from rktest import RDMAKIT  # noqa: E402
from test_tune import HOST, differences, snapshot  # noqa: E402

DROPIN = "etc/sysctl.d/90-rdmakit-tune.conf"
NUMA = "proc/sys/kernel/numa_balancing"
JOURNAL = "var/lib/rdmakit/tune/0001"
FNV_SEED, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3


def fnv(data, h=FNV_SEED):
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def reseal(journal_dir, old, new):
    """Replace old by new in every record, then recompute the hash chain and the head, as an
    attacker who knows the format would: the checksums cannot catch it."""
    with open(os.path.join(journal_dir, "journal"), "rb") as f:
        records = [line.split(b" ", 1)[1] for line in f.read().splitlines()]
    prev, lines = b"0" * 16, []
    for body in records:
        body = body.replace(old, new)
        prev = b"%016x" % fnv(body, fnv(prev))
        lines.append(prev + b" " + body + b"\n")
    with open(os.path.join(journal_dir, "journal"), "wb") as f:
        f.write(b"".join(lines))
    with open(os.path.join(journal_dir, "head"), "wb") as f:
        f.write(b"%d %s\n" % (len(lines), prev))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def climbing(target):
    """A relative link to the absolute path target from anywhere: enough ".." to reach / first."""
    return "../" * 24 + target.lstrip("/")


class HostileRoot(unittest.TestCase):
    ENV = {}

    def run_tune(self, *args):
        return subprocess.run([RDMAKIT, "tune", *args, "--root", self.root], capture_output=True,
                              text=True, timeout=120, env=dict(os.environ, **self.ENV))

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rdmakit-hostile-")
        self.root = os.path.join(self.tmp, "root")
        self.outside = os.path.join(self.tmp, "sentinel")
        shutil.copytree(HOST, self.root, symlinks=True)
        write(os.path.join(self.outside, "sysctl.d/50-keep.conf"), "vm.swappiness = 60\n")
        write(os.path.join(self.outside, "sysctl.d/90-rdmakit-tune.conf"), "sentinel\n")
        shutil.copytree(os.path.join(self.root, "proc/sys"), os.path.join(self.outside, "sys"))
        write(os.path.join(self.outside, "journals/keep"), "sentinel\n")
        self.sentinel = snapshot(self.outside)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def expect_outside_untouched(self):
        self.assertEqual(differences(self.sentinel, snapshot(self.outside)), [])

    def link(self, rel, target):
        path = os.path.join(self.root, rel)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink(target, path)

    def apply_refused_then_rollback(self, named):
        """apply fails the item that would write through a link, naming it; rollback then leaves
        the root as it was."""
        before = snapshot(self.root)
        proc = self.run_tune("apply", "--profile", "latency")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn(f"/{named} under {self.root} is a symbolic link", proc.stderr)
        self.expect_outside_untouched()
        proc = self.run_tune("rollback")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(differences(before, snapshot(self.root)), [])
        self.expect_outside_untouched()

    def test_sysctl_d_absolute_link_out_of_the_root(self):
        self.link("etc/sysctl.d", os.path.join(self.outside, "sysctl.d"))
        self.apply_refused_then_rollback("etc/sysctl.d")

    def test_sysctl_d_link_climbing_out_with_dot_dot(self):
        self.link("etc/sysctl.d", climbing(os.path.join(self.outside, "sysctl.d")))
        self.apply_refused_then_rollback("etc/sysctl.d")

    def test_proc_sys_absolute_link_is_resolved_inside_the_root(self):
        """R/proc/sys -> /S/sys reaches R/S/sys, the root's own copy, never S/sys itself."""
        target = os.path.join(self.outside, "sys")
        inside = os.path.join(self.root, target.lstrip("/"))
        shutil.copytree(os.path.join(self.root, "proc/sys"), inside)
        self.link("proc/sys", target)
        before = snapshot(self.root)
        proc = self.run_tune("apply", "--profile", "latency")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(read(os.path.join(inside, "kernel/numa_balancing")), "0\n")
        self.expect_outside_untouched()
        self.assertEqual(self.run_tune("verify").returncode, 0)
        proc = self.run_tune("rollback")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(differences(before, snapshot(self.root)), [])
        self.expect_outside_untouched()

    def test_journal_directory_absolute_link_out_of_the_root(self):
        self.link("var/lib/rdmakit/tune", os.path.join(self.outside, "journals"))
        before = snapshot(self.root)
        proc = self.run_tune("apply", "--profile", "latency")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn(f"/var/lib/rdmakit/tune/.lock under {self.root}", proc.stderr)
        self.assertEqual(differences(before, snapshot(self.root)), [])  # nothing was applied
        self.assertEqual(rktest.run_json(lambda *a: self.run_tune(*a), "history")["journals"],
                         [])
        self.expect_outside_untouched()

    def test_symlinked_dropin_is_refused_and_stays_a_link(self):
        for target in ("../sysctl.conf", os.path.join(self.outside, "sysctl.d/50-keep.conf")):
            with self.subTest(target=target):
                if os.path.lexists(os.path.join(self.root, DROPIN)):
                    os.unlink(os.path.join(self.root, DROPIN))
                self.link(DROPIN, target)
                self.apply_refused_then_rollback(DROPIN)
                self.assertEqual(os.readlink(os.path.join(self.root, DROPIN)), target)

    def test_symlinked_live_value_is_refused_and_stays_a_link(self):
        os.rename(os.path.join(self.root, NUMA), os.path.join(self.root, NUMA + ".real"))
        self.link(NUMA, "numa_balancing.real")
        real = read(os.path.join(self.root, NUMA + ".real"))
        self.apply_refused_then_rollback(NUMA)
        self.assertTrue(os.path.islink(os.path.join(self.root, NUMA)))
        self.assertEqual(read(os.path.join(self.root, NUMA + ".real")), real)

    def test_rollback_never_turns_a_link_into_a_file(self):
        """A drop-in replaced by a link after apply: rollback refuses it by name, and the link
        and what it points to stay as they are."""
        write(os.path.join(self.root, DROPIN), "# the image's own\n")  # backed up by apply
        proc = self.run_tune("apply", "--profile", "latency")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        os.unlink(os.path.join(self.root, DROPIN))
        self.link(DROPIN, "../sysctl.conf")
        conf = read(os.path.join(self.root, "etc/sysctl.conf"))
        proc = self.run_tune("rollback")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn(f"/{DROPIN} under {self.root} is a symbolic link", proc.stderr)
        self.assertEqual(os.readlink(os.path.join(self.root, DROPIN)), "../sysctl.conf")
        self.assertEqual(read(os.path.join(self.root, "etc/sysctl.conf")), conf)
        self.expect_outside_untouched()

    def test_resealed_journal_through_a_link_is_refused(self):
        write(os.path.join(self.root, DROPIN), "# the image's own\n")  # backed up by apply
        proc = self.run_tune("apply", "--profile", "latency")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.link("evil", os.path.join(self.outside, "sysctl.d"))
        reseal(os.path.join(self.root, JOURNAL), DROPIN.encode(),
               b"evil/90-rdmakit-tune.conf")
        self.assertEqual(self.run_tune("history").returncode, 0)
        proc = self.run_tune("rollback")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("/evil/90-rdmakit-tune.conf", proc.stderr)
        self.expect_outside_untouched()

    def test_device_absolute_link_is_read_inside_the_root(self):
        """R/sys/class/infiniband/mlx5_1 -> /S/dev/mlx5_1: audit reads the root's own copy at
        R/S/dev/mlx5_1 (its absolute device link resolved inside R too), never S/dev/mlx5_1,
        whose device link leads to a PCI function with 77 of 99 VFs enabled."""
        device = os.path.join(self.root, "sys/class/infiniband/mlx5_1")
        pci = os.path.realpath(os.path.join(device, "device"))
        target = os.path.join(self.outside, "dev/mlx5_1")
        outside_pci = os.path.join(self.outside, "pci", os.path.basename(pci))
        shutil.copytree(device, target, symlinks=True)
        shutil.copytree(pci, outside_pci, symlinks=True)
        write(os.path.join(outside_pci, "sriov_numvfs"), "77\n")
        write(os.path.join(outside_pci, "sriov_totalvfs"), "99\n")
        os.unlink(os.path.join(target, "device"))
        os.symlink(outside_pci, os.path.join(target, "device"))
        inside = os.path.join(self.root, target.lstrip("/"))
        shutil.copytree(device, inside, symlinks=True)
        os.unlink(os.path.join(inside, "device"))
        os.symlink("/" + os.path.relpath(pci, self.root), os.path.join(inside, "device"))
        self.link("sys/class/infiniband/mlx5_1", target)
        self.sentinel = snapshot(self.outside)
        proc = self.run_tune("audit", "--profile", "latency", "--json")
        self.assertEqual(proc.returncode, 2, proc.stderr)
        sriov = {f["subject"]: (f["current"], f["recommended"])
                 for f in json.loads(proc.stdout)["findings"] if f["code"] == "TUNE_SRIOV"}
        self.assertEqual(sriov, {name: ("0 VFs", "up to 8 VFs")
                                 for name in ("mlx5_0", "mlx5_1", "mlx5_2")})
        self.assertNotIn("77 VFs", proc.stdout)
        self.assertNotIn("99 VFs", proc.stdout)
        self.expect_outside_untouched()


@unittest.skipUnless(os.environ.get("RDMAKIT_TEST_HOOKS") == "1",
                     "the hook that forces the walk by hand is compiled only with "
                     "-DRDMAKIT_TEST_HOOKS=ON")
class HostileRootWithoutOpenat2(HostileRoot):
    ENV = {"RDMAKIT_TUNE_NO_OPENAT2": "1"}


class ThisHost(unittest.TestCase):
    def test_audit_of_the_real_root_warns_of_nothing(self):
        for env in ({}, {"RDMAKIT_TUNE_NO_OPENAT2": "1"}):
            with self.subTest(env=env):
                proc = subprocess.run([RDMAKIT, "tune", "audit", "--profile", "latency"],
                                      capture_output=True, text=True, timeout=120,
                                      env=dict(os.environ, **env))
                self.assertIn(proc.returncode, (0, 1, 2), proc.stderr)
                self.assertEqual(proc.stderr, "")


if __name__ == "__main__":
    unittest.main(verbosity=2)
