#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd with rdmakit.so in SM mode against a real ibsim + OpenSM (umad2sim shim):
the master's values agree with sminfo; a standby OpenSM started later is found (rediscovery),
its loss is notified once; a failover to it is notified once."""
import os
import re
import sys
import tempfile
import time
import unittest

import cdtest

sys.path.insert(0, os.path.join(cdtest.TOP, "tests", "sim"))
import simlib  # noqa: E402

PLUGIN = "rdma_sm"


class SubnetManagerMode(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name
        net = simlib.generate(os.path.join(self.tmp, "ft.net"), leaves=2, hosts=2, spines=1,
                              radix=4)
        self.sim = simlib.Sim(f"rkcds{os.getpid()}", net, self.tmp).__enter__()
        self.addCleanup(self.sim.__exit__, None, None, None)
        self.sim.fast_failover()
        self.sim.opensm("Hca1", 10)
        self.daemon = cdtest.Daemon(cdtest.plugin_block(
            SysfsRoot=cdtest.fixture("ib-hdr"), SubnetManager=True, FabricInterval=1,
            Rediscover=2, Notifications=True))
        self.addCleanup(self.sim.ctl, "reap", self.sim.name, check=False)
        self.addCleanup(self.daemon.cleanup)
        self.assertEqual(self.daemon.start(env=cdtest.sim_env(self.sim.name)), 0,
                         self.daemon.start_output)

    def last(self, ident):
        return self.daemon.last("", ident, PLUGIN)

    def wait_last(self, ident, value, timeout=30):
        cdtest.wait_for(lambda: self.last(ident) == value, timeout, f"{ident} = {value}")

    def rows(self, ident):
        return self.daemon.rows("", ident, PLUGIN)

    def wait_queries(self, count):
        start = len(self.rows("count-sms"))
        cdtest.wait_for(lambda: len(self.rows("count-sms")) >= start + count, 30,
                        f"{count} more SM queries")

    def notes(self, **match):
        return [n for n in self.daemon.notifications()
                if n.get("plugin") == PLUGIN and all(n.get(k, "") == v for k, v in match.items())]

    def check_against_sminfo(self):
        """The master's values equal sminfo's; its activity count lies between the values of
        the queries just before and just after sminfo's."""
        # each value has a csv file of its own: this one may come a moment after count-sms
        cdtest.wait_for(lambda: self.rows("derive-master_activity_count"), 10,
                        "a master activity count")
        before = self.rows("derive-master_activity_count")[-1][1]
        out = self.sim.run("sminfo").stdout
        m = re.search(r"sm lid (\d+) sm guid 0x[0-9a-f]+, activity count (\d+) priority (\d+) "
                      r"state (\d+) SMINFO_MASTER", out)
        self.assertTrue(m, out)
        lid, activity, priority, state = (int(x) for x in m.groups())
        self.wait_queries(2)
        after = self.rows("derive-master_activity_count")[-1][1]
        self.assertTrue(before < activity < after, (before, activity, after))
        self.assertEqual(self.last("gauge-master_lid"), [float(lid)])
        self.assertEqual(self.last("gauge-master_priority"), [float(priority)])
        self.assertEqual(self.last("gauge-master_state"), [float(state)])
        self.assertEqual(self.last("count-masters"), [1.0])
        return lid

    def test_standby_found_lost_and_failover(self):
        self.wait_last("count-sms", [1.0])
        self.assertEqual(self.check_against_sminfo(), self.sim.lid("host1 HCA-1"))
        self.assertEqual(self.last("count-standbys"), [0.0])
        no_standby = dict(type_instance="SM_NO_STANDBY")
        cdtest.wait_for(lambda: self.notes(**no_standby), 10, "SM_NO_STANDBY")

        # a standby started while collectd runs is found at the next rediscovery
        self.sim.opensm("Hca2", 5)
        self.wait_last("count-standbys", [1.0])
        self.assertEqual(self.last("count-sms"), [2.0])
        self.assertEqual([n["severity"] for n in self.notes(**no_standby)], ["WARNING", "OKAY"])

        # losing it is notified once, and the SM that stopped answering is logged once
        self.sim.stop_opensm("Hca2", reap=False)
        self.wait_last("count-standbys", [0.0])
        self.wait_queries(5)
        self.assertEqual([n["severity"] for n in self.notes(**no_standby)],
                         ["WARNING", "OKAY", "WARNING"])
        self.assertEqual(self.notes(**no_standby)[-1]["message"],
                         f"subnet: master SM at LID {self.last('gauge-master_lid')[0]:.0f} "
                         "has no standby behind it")
        self.assertEqual(self.daemon.log().count("does not answer SMInfo"), 1)

        # a failover to a new standby is notified once
        self.sim.opensm("Hca2", 5)
        self.wait_last("count-standbys", [1.0])
        self.sim.stop_opensm("Hca1", reap=False)
        lid2 = self.sim.lid("host2 HCA-1")
        self.wait_last("gauge-master_lid", [float(lid2)], timeout=90)
        self.wait_queries(3)
        changed = self.notes(type_instance="master_lid")
        self.assertEqual(len(changed), 1, changed)
        self.assertEqual(changed[0]["severity"], "WARNING")
        self.assertRegex(changed[0]["message"],
                         r"^the master SM changed: now host2 HCA-1 \(LID \d+, GUID "
                         r"0x0002c90300000021, priority 5\), was host1 HCA-1 ")
        self.assertEqual(self.last("gauge-master_priority"), [5.0])

    def test_activity_count_is_a_derive(self):
        self.wait_queries(3)
        rows = self.rows("derive-master_activity_count")
        self.assertTrue(all(isinstance(r[1], int) for r in rows), rows)
        self.assertTrue(all(b[1] > a[1] for a, b in zip(rows, rows[1:])), rows)
        self.assertEqual(self.daemon.errors(), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
