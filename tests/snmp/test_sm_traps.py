#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""SM mode against a real ibsim with two OpenSMs: the SM scalars count a master and a
standby, and when the master's OpenSM stops and the standby takes over (about 50 s in the
sim), a real snmptrapd receives one rdmakitSmMasterChange with the new and the old master."""
import os
import signal
import sys
import tempfile
import unittest

import snmptest
from snmptest import Setup, Trapd
from rktest import fixture, umad2sim_env, wait_for

sys.path.insert(0, os.path.join(snmptest.TOP, "tests", "sim"))
import simlib  # noqa: E402


class MasterChange(unittest.TestCase):
    def test_failover_is_trapped_once(self):
        with tempfile.TemporaryDirectory() as tmp:
            net = simlib.generate(os.path.join(tmp, "ft.net"), leaves=2, hosts=2, spines=1,
                                  radix=4)
            with simlib.Sim(f"rksmtrap{os.getpid()}", net, tmp) as sim:
                sim.opensm("Hca1", 10)
                sim.opensm("Hca2", 5)
                self.failover(sim, tmp)

    def failover(self, sim, tmp):
        s = Setup(fixture("ib-hdr"), config="sm yes\nfabric-interval 1\nrediscover 5\n",
                  env_extra=umad2sim_env(sim.name))
        trapd = Trapd(s.workdir, snmptest.free_port())
        with open(s.snmpd.conf, "a") as f:
            f.write(f"trap2sink 127.0.0.1:{trapd.port} public\n")
        try:
            s.__enter__()
            wait_for(lambda: s.get_raw("RDMAKIT-MIB::rdmakitSmStandbys.0") == "1", 30,
                     "one standby SM")
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitSmMasters.0"), "1")
            old_lid = sim.lid("host1 HCA-1")
            new_lid = sim.lid("host2 HCA-1")
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitSmMasterLid.0"), str(old_lid))
            pid = sim.opensm_pid()
            os.kill(pid, signal.SIGTERM)  # the sim's OpenSM, started by this test
            wait_for(lambda: s.get_raw("RDMAKIT-MIB::rdmakitSmMasterLid.0") == str(new_lid),
                     120, "the standby as master")
            wait_for(lambda: "rdmakitSmMasterChange" in trapd.text(), 10, "the trap")
            text = trapd.text()
            self.assertEqual(trapd.count("rdmakitSmMasterChange"), 1)
            self.assertIn(f"rdmakitSmMasterLid.0 = {new_lid}", text)
            self.assertIn("rdmakitSmMasterGuid.0 = 2:c903:0:21", text)
            self.assertIn("rdmakitSmMasterPriority.0 = 5", text)
            self.assertIn(f"rdmakitNotifyOldMasterLid.0 = {old_lid}", text)
            self.assertIn("rdmakitNotifyOldMasterGuid.0 = 2:c903:0:11", text)
            change = next(line for line in text.splitlines() if "rdmakitSmMasterChange" in line)
            self.assertIn("rdmakitNotifySeverity.0 = warning", change)  # the core's
            # last, the two GUIDs as the kernel writes them
            self.assertTrue(change.rstrip().endswith(
                "rdmakitSmMasterGuidText.0 = 0002:c903:0000:0021\t"
                "RDMAKIT-MIB::rdmakitNotifyOldMasterGuidText.0 = 0002:c903:0000:0011"), change)
        finally:
            trapd.stop()
            s.__exit__(None, None, None)


if __name__ == "__main__":
    unittest.main(verbosity=2)
