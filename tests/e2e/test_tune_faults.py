#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The fault matrix of rdmakit tune on a copy of the host tree (--root): apply and rollback
with each of their write, fsync, rename, unlink and rmdir calls failing in turn, with ENOSPC
and with EIO (tests/fakes/fault_shim.c, preloaded), and killed at random points (the
RDMAKIT_TUNE_STOP_AFTER hook). After each, rollback is run again without the fault until it
succeeds, and the tree must be the original, byte-, mode- and owner-exact, with every journal
rolled back and no temporary one left. Every injected failure must be reported with the path
it hit. Root only (apply needs it): exits 77 otherwise."""
import errno
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import rktest  # noqa: E402
from rktest import FAULT_CALLS, FIXTURES, RDMAKIT  # noqa: E402

HOST = os.path.join(FIXTURES, "tune", "host")
PROFILE = "latency"
JOURNALS = os.path.join("var", "lib", "rdmakit", "tune")
ERRNOS = ("ENOSPC", "EIO")
RETRIES = 4  # rollbacks after a fault before the case fails
KILLS = 12  # random kill points in apply, and as many in rollback
# A file apply replaces, not root's and not 0644: its backup must come back with both.
REPLACED = os.path.join("etc", "security", "limits.d", "90-rdmakit-memlock.conf")
SANITIZER_REPORT = re.compile(r"Sanitizer|runtime error:")


def tune(action, root, *extra, env=None):
    args = [RDMAKIT, "tune", action] + (["--profile", PROFILE] if action == "apply" else [])
    return subprocess.run(args + ["--root", root, *extra], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, **(env or {})))


# Values the host tree has that the profile changes, set as it wants them here: the matrix
# runs every call of a plan, so its plan keeps one of each kind of change (a selector and a
# plain live value, new files in new directories, a file replaced), not every device's copy.
ALREADY_TUNED = {
    "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor": "performance",
    "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor": "performance",
    "sys/devices/system/cpu/cpu2/cpufreq/scaling_governor": "performance",
    "proc/sys/net/ipv4/conf/ib0/arp_ignore": "1",
    "proc/sys/net/ipv4/conf/ib0/arp_announce": "2",
    "proc/sys/net/ipv4/conf/ib1/arp_ignore": "1",
    "proc/sys/net/ipv4/conf/ib1/arp_announce": "2",
    "proc/irq/40/smp_affinity_list": "0-1",
    "sys/kernel/config/rdma_cm/mlx5_2/ports/1/default_roce_tos": "106",
}


def make_root(path):
    shutil.copytree(HOST, path, symlinks=True)
    for rel, value in ALREADY_TUNED.items():
        with open(os.path.join(path, rel), "w") as f:
            f.write(value + "\n")
    replaced = os.path.join(path, REPLACED)
    with open(replaced, "w") as f:
        f.write("# an older memlock drop-in, someone else's\n")
    os.chmod(replaced, 0o640)
    os.chown(replaced, 1234, 2345)
    return path


def copy_exact(src, dest):
    """A copy with owners, modes and links kept (cp -a)."""
    subprocess.run(["cp", "-a", src, dest], check=True)
    return dest


def differences(before, after):
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def stop_points(action, root_of):
    """How many crash-hook steps a clean run of action makes: the largest N that kills it."""
    def killed(n):
        root = root_of()
        proc = tune(action, root, env={"RDMAKIT_TUNE_STOP_AFTER": str(n)})
        shutil.rmtree(root)
        return proc.returncode < 0

    low, high = 0, 1  # killed after low steps (0: trivially), finished with high
    while killed(high):
        low, high = high, high * 2
        if high > 1 << 16:
            raise AssertionError(f"{action} never finished under the crash hook")
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if killed(mid) else (low, mid)
    return low


class FaultMatrix(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # tmpfs when there is one: a thousand runs of fsyncs on a disk take minutes
        shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        cls.tmp = tempfile.mkdtemp(prefix="rdmakit-faults-", dir=shm)
        cls.pristine = make_root(os.path.join(cls.tmp, "pristine"))
        cls.before = rktest.tree_state(cls.pristine, skip=("var",))
        cls.applied = cls.fresh("applied")
        counts = os.path.join(cls.tmp, "counts")
        proc = tune("apply", cls.applied, env=rktest.fault_env(counts=counts))
        assert proc.returncode == 0, proc.stderr
        cls.apply_calls = rktest.read_call_counts(counts)
        probe = copy_exact(cls.applied, os.path.join(cls.tmp, "probe"))
        proc = tune("rollback", probe, env=rktest.fault_env(counts=counts))
        assert proc.returncode == 0, proc.stderr
        cls.rollback_calls = rktest.read_call_counts(counts)
        shutil.rmtree(probe)
        cls.cases = 0
        print(f"\nclean apply: {cls.apply_calls}\nclean rollback: {cls.rollback_calls}",
              file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)
        print(f"fault matrix: {cls.cases} cases", file=sys.stderr)

    @classmethod
    def fresh(cls, name, template=None):
        dest = os.path.join(cls.tmp, name)
        if os.path.exists(dest):
            shutil.rmtree(dest)
        return copy_exact(template or cls.pristine, dest)

    def ran_cleanly(self, proc, what):
        """No sanitizer report, no signal: a fault is an error to report, never a crash."""
        self.assertIsNone(SANITIZER_REPORT.search(proc.stderr), f"{what}: {proc.stderr}")
        self.assertGreaterEqual(proc.returncode, 0, f"{what}: {proc.stderr}")

    def reported(self, proc, errno_name, what):
        """The fault made the command fail, with a message naming the file it hit."""
        text = os.strerror(getattr(errno, errno_name))
        self.ran_cleanly(proc, what)
        self.assertIn(proc.returncode, (1, 3), f"{what}: exit {proc.returncode}: {proc.stderr}")
        named = [line for line in proc.stderr.splitlines()
                 if text in line and "/" in line.split(text)[0]]
        self.assertTrue(named, f"{what}: no message names the path: {proc.stderr}")

    def says_what_changed(self, proc, root, what):
        """A stopped apply (exit 3) says that it changed nothing, and then the tree is the
        original with no journal and no rollback is asked for; or which paths it changed and
        that rollback undoes them. Which of the three it said."""
        stopped = re.search(r"apply (0001 )?stopped: [^;]*; (.*)", proc.stderr)
        self.assertTrue(stopped, f"{what}: {proc.stderr}")
        said = stopped.group(2)
        if said.startswith("nothing was changed"):
            self.assertNotIn("rollback", proc.stderr, what)
            self.assertRegex(said, r"^nothing was changed( \(its journal 0001 removed\))?: mend "
                             r"the cause and run rdmakit tune apply again$", what)
            after = rktest.tree_state(root, skip=("var",))
            self.assertEqual(differences(self.before, after), [], what)
            left = [n for n in os.listdir(os.path.join(root, JOURNALS)) if n != ".lock"]
            self.assertEqual(left, [], what)
            return "journal removed" if "journal 0001 removed" in said else "no journal"
        self.assertRegex(said, r"^it had changed( /\S+)+( and \d+ more)?: run rdmakit tune "
                         r"rollback to undo that, then apply again once the cause is mended$",
                         what)
        return "changed"

    def settle(self, root, what):
        """Roll back until it succeeds; then the tree is the original and the journals clean."""
        for _ in range(RETRIES):
            proc = tune("rollback", root)
            self.ran_cleanly(proc, what)
            if proc.returncode == 0 or "nothing to roll back" in proc.stderr:
                break
            self.assertEqual(proc.returncode, 1, f"{what}: {proc.stderr}")  # retry it
        else:
            self.fail(f"{what}: rollback did not succeed in {RETRIES} runs: {proc.stderr}")
        after = rktest.tree_state(root, skip=("var",))
        self.assertEqual(differences(self.before, after), [], what)
        # exit 0 (nothing failed: the rollback record says none is still tuned) or nothing to
        # roll back: the one journal an apply makes is rolled back, or was never made
        journals = os.path.join(root, JOURNALS)
        left = [n for n in os.listdir(journals) if n not in ("0001", ".lock")]
        self.assertEqual(left, [], f"{what}: temporary journals left")
        FaultMatrix.cases += 1

    def test_fault_in_apply_then_rollback(self):
        said = set()
        for call in FAULT_CALLS:
            for at in range(1, self.apply_calls[call] + 1):
                for errno_name in ERRNOS:
                    what = f"apply, {call} #{at} fails with {errno_name}"
                    root = self.fresh("case")
                    proc = tune("apply", root, env=rktest.fault_env(call, at, errno_name))
                    self.reported(proc, errno_name, what)
                    if proc.returncode == 3:  # stopped (1: an item refused, the rest applied)
                        said.add(self.says_what_changed(proc, root, what))
                    self.settle(root, what)
        # the first write (the journal's) fails: no journal; a later one before the first
        # change: the journal removed; after it: the paths changed
        self.assertEqual(said, {"no journal", "journal removed", "changed"})
        first = tune("apply", self.fresh("case"), env=rktest.fault_env("write", 1, "ENOSPC"))
        self.assertIn("apply stopped: No space left on device; nothing was changed: mend the "
                      "cause and run rdmakit tune apply again\n", first.stderr)

    def test_fault_in_rollback_then_rollback_again(self):
        for call in FAULT_CALLS:
            for at in range(1, self.rollback_calls[call] + 1):
                for errno_name in ERRNOS:
                    what = f"rollback, {call} #{at} fails with {errno_name}"
                    root = self.fresh("case", self.applied)
                    proc = tune("rollback", root, env=rktest.fault_env(call, at, errno_name))
                    self.reported(proc, errno_name, what)
                    self.settle(root, what)

    @unittest.skipUnless(os.environ.get("RDMAKIT_TEST_HOOKS") == "1",
                         "the crash hook is compiled only with -DRDMAKIT_TEST_HOOKS=ON")
    def test_kill_at_random_points(self):
        seed = int(os.environ.get("RDMAKIT_FAULT_SEED", random.SystemRandom().randrange(1 << 30)))
        pick = random.Random(seed)
        print(f"kill points from seed {seed} (RDMAKIT_FAULT_SEED)", file=sys.stderr)
        for action, template in (("apply", None), ("rollback", self.applied)):
            steps = stop_points(action, lambda: self.fresh("probe", template))
            for n in sorted(pick.sample(range(1, steps + 1), min(KILLS, steps))):
                what = f"{action} killed after step {n} of {steps}"
                root = self.fresh("case", template)
                proc = tune(action, root, env={"RDMAKIT_TUNE_STOP_AFTER": str(n)})
                self.assertEqual(proc.returncode, -9, f"{what}: {proc.stderr}")
                self.settle(root, what)


if __name__ == "__main__":
    if os.geteuid() != 0:
        print("the fault matrix needs root (tune apply does)", file=sys.stderr)
        sys.exit(77)
    unittest.main(verbosity=2)
