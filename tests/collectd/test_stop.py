#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd in fabric mode, on a real ibsim + OpenSM, stopped with SIGTERM while its
watch engine's discovery waits in the rdmakit-discover helper on a fabric whose ibsim was
frozen and then killed: collectd exits within 5 s and leaves no helper behind."""
import os
import signal
import sys
import tempfile
import time
import unittest

import cdtest

sys.path.insert(0, os.path.join(cdtest.TOP, "tests", "sim"))
import stoplib  # noqa: E402


class StopDuringDiscovery(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.sim = stoplib.small_fabric("rkcds", cls.tmp.name)
        try:
            cls.daemon = cdtest.Daemon(cdtest.plugin_block(
                SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True, FabricInterval=1,
                Rediscover=1))
            status = cls.daemon.start(env=cdtest.sim_env(cls.sim.name))
            assert status == 0, cls.daemon.start_output
        except BaseException:
            cls.sim.__exit__(None, None, None)
            raise

    @classmethod
    def tearDownClass(cls):
        cls.daemon.cleanup()
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()

    def test_sigterm_during_a_discovery_ends_collectd_and_its_helper(self):
        cdtest.wait_for(lambda: self.daemon.last("", "count-nodes", "rdma_fabric"), 30,
                        "the first sweep")
        helper = stoplib.freeze_fabric_until_a_helper_waits(self.sim, self.daemon.pid)
        started = time.monotonic()
        os.kill(self.daemon.pid, signal.SIGTERM)
        try:
            cdtest.wait_for(lambda: not self.daemon.running(), 5, "collectd to exit")
        except AssertionError:
            raise AssertionError("collectd still runs 5 s after SIGTERM; its log ends:\n" +
                                 self.daemon.log()[-1500:])
        stoplib.assert_stopped_in_time(self, "collectd", self.sim, helper, started)


if __name__ == "__main__":
    unittest.main(verbosity=2)
