#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd with rdmakit.so in tune mode (Tune true): the audit of a host tree every
TuneInterval, each finding notified once, and a setting that drifts away from the profile
notified once more; the options' values checked."""
import os
import shutil
import tempfile
import time
import unittest

import cdtest

HOST_TREE = os.path.join(cdtest.TOP, "tests", "fixtures", "tune", "host")
THP = "sys/kernel/mm/transparent_hugepage/enabled"


class Tune(unittest.TestCase):
    def tree(self):
        parent = tempfile.mkdtemp(prefix="rdmakit-tune-")
        self.addCleanup(shutil.rmtree, parent, True)
        root = os.path.join(parent, "root")
        shutil.copytree(HOST_TREE, root, symlinks=True)
        return root

    def tune_notes(self, daemon, **match):
        return [n for n in daemon.notifications() if n.get("plugin") == "rdma_tune" and
                all(n.get(k) == v for k, v in match.items())]

    def test_findings_once_and_drift(self):
        root = self.tree()
        daemon = cdtest.Daemon(cdtest.plugin_block(
            SysfsRoot=os.path.join(root, "sys"), Notifications=True, Tune=True, TuneInterval=1,
            TuneRoot=root, TuneProfile="latency"))
        self.addCleanup(daemon.cleanup)
        self.assertEqual(daemon.start(), 0, daemon.start_output)
        cdtest.wait_for(lambda: self.tune_notes(daemon, type_instance="TUNE_THP"), 10,
                        "the THP finding")
        time.sleep(2.5)  # two more audits: nothing new
        thp = self.tune_notes(daemon, type_instance="TUNE_THP")
        self.assertEqual(len(thp), 1, thp)
        self.assertEqual(thp[0]["severity"], "WARNING")
        self.assertIn("transparent hugepages are \"always\"", thp[0]["message"])
        mtu = self.tune_notes(daemon, type_instance="TUNE_IPOIB_MTU")
        self.assertEqual([n["severity"] for n in mtu], ["FAILURE"])
        self.assertEqual(self.tune_notes(daemon, type_instance="TUNE_SRIOV"), [])  # ok only

        with open(os.path.join(root, THP), "w") as f:
            f.write("always madvise [never]\n")  # set as the profile wants
        cdtest.wait_for(lambda: self.tune_notes(daemon, type_instance="TUNE_THP",
                                                severity="OKAY"), 10, "the THP finding to clear")
        with open(os.path.join(root, THP), "w") as f:
            f.write("[always] madvise never\n")  # drifts away again
        cdtest.wait_for(lambda: len(self.tune_notes(daemon, type_instance="TUNE_THP")) == 3,
                        10, "the drift to be notified")
        time.sleep(2.5)
        thp = self.tune_notes(daemon, type_instance="TUNE_THP")
        self.assertEqual([n["severity"] for n in thp], ["WARNING", "OKAY", "WARNING"])

    def test_bad_values_refused(self):
        for key, value, why in (("TuneInterval", 0, "TuneInterval 0: expected a number of "
                                 "seconds from 1 to 604800"),
                                ("TuneProfile", "fast", 'TuneProfile "fast": expected latency or '
                                 "throughput"),
                                ("TuneRoot", "/nonexistent/rdmakit", 'TuneRoot "/nonexistent/'
                                 'rdmakit": expected the absolute path of an existing directory')):
            with self.subTest(key=key), cdtest.Daemon(cdtest.plugin_block(
                    SysfsRoot=cdtest.fixture("ib-hdr"), Tune=True, **{key: value})) as daemon:
                self.assertNotEqual(daemon.start(expect_values=False), 0)
                self.assertIn("Parsing the config file failed", daemon.start_output)
                self.assertIn(f"[error] rdmakit plugin: {why}", daemon.log())
                self.assertIsNone(daemon.read_pidfile())


if __name__ == "__main__":
    unittest.main(verbosity=2)
