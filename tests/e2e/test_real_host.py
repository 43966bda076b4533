#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Every rdmakit command on the build machine's real /sys and /proc (real_host.py): the exit
status documented for what the machine has, valid JSON, and no line on stderr that is not
rdmakit's own. Holds on a machine without an HCA and on one with it."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import real_host  # noqa: E402

RDMAKIT = os.environ.get("RDMAKIT", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 "..", "..", "build", "cli", "rdmakit"))


class RealHost(unittest.TestCase):
    def test_every_command_on_this_machine(self):
        checker = real_host.Checker(RDMAKIT)
        print(f"machine: {checker.machine}")
        problems = checker.check()
        self.assertEqual(problems, [], "\n".join(problems))

    def test_the_machine_is_read_as_rdmakit_reads_it(self):
        """The checker's expectations come from sysfs: they must agree with status --json."""
        checker = real_host.Checker(RDMAKIT)
        self.addCleanup(shutil.rmtree, checker.cwd, True)
        run = checker.run("status", "--json")
        self.assertEqual(run.status, 0, run.stderr)
        names = sorted(d["name"] for d in run.document()["devices"])
        self.assertEqual(names, checker.machine.devices)


# A private /sys/class (root, a mount namespace): one device mlx5_0 and, by $2, no RDMA module
# ("none"), ib_umad without a umad device ("umad-loaded") or umad0 on mlx5_0 port 1 ("umad0").
FAKE_CLASS = """set -e
mount --make-rprivate /
mount -t tmpfs -o mode=755 rdmakit-test "$1"
mkdir -p "$1/infiniband/mlx5_0"
if [ "$2" != none ]; then
    mkdir -p "$1/infiniband_mad"
    echo 5 > "$1/infiniband_mad/abi_version"
fi
if [ "$2" = umad0 ]; then
    mkdir -p "$1/infiniband_mad/umad0"
    echo mlx5_0 > "$1/infiniband_mad/umad0/ibdev"
    echo 1 > "$1/infiniband_mad/umad0/port"
fi
mount --bind "$1" /sys/class
shift 2
exec "$@"
"""


@unittest.skipUnless(os.geteuid() == 0, "needs root (a private mount namespace)")
class MissingModules(unittest.TestCase):
    """What is missing is said in one line, before libibumad or libibverbs speak."""

    def run_with(self, shape, *args):
        tmp = tempfile.mkdtemp(prefix="rdmakit-class-")
        self.addCleanup(os.rmdir, tmp)
        env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "IBSIM_SOCKNAME")}
        return subprocess.run(["timeout", "30", "unshare", "-m", "sh", "-c", FAKE_CLASS, "sh",
                               tmp, shape, os.path.abspath(RDMAKIT), *args],
                              capture_output=True, text=True, timeout=60, env=env, cwd=tmp)

    def assert_one_line(self, proc, line):
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(proc.stderr, line + "\n")
        self.assertEqual(proc.stdout, "")

    def test_ib_umad_not_loaded(self):
        for command in ("sm", "fabric", "sweep"):
            self.assert_one_line(self.run_with("none", command, "--json"),
                                 "rdmakit: error: cannot send MADs: ib_umad is not loaded (no "
                                 "/sys/class/infiniband_mad): modprobe ib_umad")

    def test_no_infiniband_port(self):
        self.assert_one_line(self.run_with("umad-loaded", "fabric"),
                             "rdmakit: error: cannot send MADs: no InfiniBand port has a umad "
                             "device (RoCE and iWARP ports have none): MADs need an InfiniBand "
                             "port")

    def test_no_umad_device_of_the_ca_given(self):
        self.assert_one_line(self.run_with("umad0", "sm", "-C", "mlx5_9"),
                             "rdmakit: error: cannot send MADs: no umad device of mlx5_9, any "
                             "port on this host: choose another CA or port (ibstat -l lists "
                             "the CAs)")
        self.assert_one_line(self.run_with("umad0", "sweep", "-C", "mlx5_0", "-P", "2"),
                             "rdmakit: error: cannot send MADs: no umad device of mlx5_0, port "
                             "2 on this host: choose another CA or port (ibstat -l lists the "
                             "CAs)")

    def test_ib_uverbs_not_loaded(self):
        proc = self.run_with("none", "probe")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertEqual(proc.stderr.splitlines(), [
            "rdmakit: error: cannot list RDMA devices: Function not implemented; ib_uverbs is "
            "not loaded (no /sys/class/infiniband_verbs): modprobe ib_uverbs",
            "rdmakit probe: could not run the probe"])


if __name__ == "__main__":
    unittest.main()
