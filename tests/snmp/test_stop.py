#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit-agentx in fabric mode, on a real ibsim + OpenSM and a real snmpd, stopped with
SIGTERM while its watch engine's discovery waits in the rdmakit-discover helper on a fabric
whose ibsim was frozen and then killed: the subagent exits within 5 s and leaves no helper."""
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import snmptest
from snmptest import Setup, fixture
from rktest import umad2sim_env

sys.path.insert(0, os.path.join(snmptest.TOP, "tests", "sim"))
import stoplib  # noqa: E402


class StopDuringDiscovery(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.sim = stoplib.small_fabric("rksnst", cls.tmp.name)
        try:
            config = "refresh 0.5\nfabric yes\nfabric-interval 1\nrediscover 1\n"
            cls.setup = Setup(fixture("ib-hdr"), config=config,
                              env_extra=umad2sim_env(cls.sim.name))
            cls.setup.__enter__()
        except BaseException:
            cls.sim.__exit__(None, None, None)
            raise

    @classmethod
    def tearDownClass(cls):
        cls.setup.__exit__(None, None, None)
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()

    def test_sigterm_during_a_discovery_ends_the_subagent_and_its_helper(self):
        agent = self.setup.agent.proc
        helper = stoplib.freeze_fabric_until_a_helper_waits(self.sim, agent.pid)
        started = time.monotonic()
        agent.send_signal(signal.SIGTERM)
        try:
            agent.wait(5)
        except subprocess.TimeoutExpired:
            agent.kill()
            agent.wait()
            self.fail("rdmakit-agentx did not exit within 5 s of SIGTERM")
        self.assertEqual(agent.returncode, 0)
        stoplib.assert_stopped_in_time(self, "rdmakit-agentx", self.sim, helper, started)


if __name__ == "__main__":
    unittest.main(verbosity=2)
