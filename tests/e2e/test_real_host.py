#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Every rdmakit command on the build machine's real /sys and /proc (real_host.py): the exit
status documented for what the machine has, valid JSON, and no line on stderr that is not
rdmakit's own. Holds on a machine without an HCA and on one with it."""
import os
import sys
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
        run = checker.run("status", "--json")
        self.assertEqual(run.status, 0, run.stderr)
        names = sorted(d["name"] for d in run.document()["devices"])
        self.assertEqual(names, checker.machine.devices)


if __name__ == "__main__":
    unittest.main()
