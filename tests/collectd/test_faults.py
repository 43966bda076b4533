#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Faults under a running collectd with rdmakit.so (docs/reliability.md: the fault matrix).

- A hostile SysfsRoot (FIFOs, a directory, a symlink loop where attributes should be):
  collectd starts, names each bad file once, and sends every other value.
- A counter file replaced by a FIFO while collectd runs: noticed at the next rescan, named once,
  that counter no longer sent.
- The simulator itself (ibsim and its OpenSM) dies and comes back while collectd sweeps the
  fabric: the outage is logged, collectd keeps running, and discovery (in its helper, a new
  process) finds the whole fabric again. Per-port counters do not come back in the same
  collectd under the simulator: ibsim's umad shim connects a process to ibsim once, when it
  first opens the umad device (umad2sim.c: umad2sim_init, run once per process, creates the
  one simulated device and its sim_client connection), and never again: a close() and open()
  of the umad device only hands out another descriptor on that same dead connection. The
  monitor does close and reopen its umad port at every rediscovery (Rediscover 2 here, and
  whenever ports that answered stop answering), and after a receive error (test_fabric_cache_port:
  an HCA reset); under the shim the sends after the restart still fail, which is asserted.
  While ibsim is down, the helper of each rediscovery hangs (the shim waits for ibsim to
  answer its attach, for good): DiscoveryDeadline stops it, and the last view is swept
  meanwhile, so the outage is reported (before, a helper started as ibsim died held the
  sweeps for its 600 s deadline and the outage went unreported).
"""
import os
import sys
import tempfile
import time
import unittest

import cdtest

sys.path.insert(0, os.path.join(cdtest.TOP, "tests", "sim"))
import simlib  # noqa: E402

PLUGIN = "rdma_fabric"
PORT0 = "class/infiniband/mlx5_0/ports/1"


class HostileTree(unittest.TestCase):
    def test_fifos_directories_and_loops_in_the_tree(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        root = cdtest.copy_fixture("ib-hdr", tmp.name)
        for name, make in (("state", os.mkfifo), ("counters/port_xmit_wait", os.mkfifo),
                           ("rate", os.mkdir)):
            path = os.path.join(root, PORT0, name)
            os.unlink(path)
            make(path)
        os.unlink(os.path.join(root, PORT0, "lid"))
        os.symlink("lid", os.path.join(root, PORT0, "lid"))
        with cdtest.Daemon(cdtest.plugin_block(SysfsRoot=root)) as daemon:
            self.assertEqual(daemon.start(), 0, daemon.start_output)
            cdtest.wait_for(lambda: daemon.last("mlx5_1-1", "derive-port_xmit_wait"), 10,
                            "mlx5_1's values")
            cdtest.wait_for(lambda: daemon.last("mlx5_0-1", "if_octets"), 10, "mlx5_0's data")
            self.assertIsNone(daemon.last("mlx5_0-1", "derive-port_xmit_wait"))
            log = daemon.log()
            for name, why in (("state", "not a regular file"), ("rate", "a directory"),
                              ("lid", "Too many levels of symbolic links"),
                              ("counters/port_xmit_wait", "not a regular file")):
                self.assertEqual(log.count(f"{PORT0}/{name}: {why}"), 1, log)
            self.assertTrue(daemon.running())


class ReplacedCounter(unittest.TestCase):
    def test_counter_file_replaced_by_a_fifo(self):
        """Issue 18: a counter file replaced by a FIFO under a running collectd was read through
        the old descriptor forever. At the next look for devices (every Rescan seconds: 2
        here, 60 by default) the file is checked: the FIFO is named once, never waited on,
        and that counter is no longer sent; every other value goes on."""
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        root = cdtest.copy_fixture("ib-hdr", tmp.name)
        with cdtest.Daemon(cdtest.plugin_block(SysfsRoot=root, Rescan=2)) as daemon:
            self.assertEqual(daemon.start(), 0, daemon.start_output)
            cdtest.wait_for(lambda: daemon.last("mlx5_0-1", "derive-symbol_error"), 10,
                            "symbol_error sent")
            path = os.path.join(root, PORT0, "counters/symbol_error")
            os.unlink(path)
            os.mkfifo(path)
            why = f"{PORT0}/counters/symbol_error: not a regular file"
            cdtest.wait_for(lambda: why in daemon.log(), 10, "the FIFO noticed at a rescan")
            time.sleep(1.5)
            sent = len(daemon.rows("mlx5_0-1", "derive-symbol_error"))
            others = len(daemon.rows("mlx5_0-1", "gauge-state"))
            time.sleep(3)
            self.assertEqual(len(daemon.rows("mlx5_0-1", "derive-symbol_error")), sent)
            self.assertGreaterEqual(len(daemon.rows("mlx5_0-1", "gauge-state")), others + 2)
            self.assertEqual(daemon.log().count(why), 1)
            self.assertTrue(daemon.running())


class SimulatorRestart(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.net = simlib.generate(os.path.join(tmp.name, "ft.net"), leaves=2, hosts=2,
                                   spines=1, radix=4)
        self.sim = simlib.Sim(f"rkcdr{os.getpid()}", self.net, tmp.name).__enter__()
        self.addCleanup(self.sim.__exit__, None, None, None)
        self.sim.opensm("Hca1", 10)
        self.daemon = cdtest.Daemon(cdtest.plugin_block(
            SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True, FabricInterval=1,
            FabricTimeout=100, Rediscover=2, DiscoveryDeadline=3))
        self.addCleanup(self.daemon.cleanup)
        self.assertEqual(self.daemon.start(env=cdtest.sim_env(self.sim.name)), 0,
                         self.daemon.start_output)

    def rows(self, ident):
        return self.daemon.rows("", ident, PLUGIN)

    def test_ibsim_dies_and_comes_back(self):
        cdtest.wait_for(lambda: len(self.rows("count-nodes")) >= 2, 30, "two sweeps")
        self.assertEqual(self.rows("count-unanswered_ports")[-1][1], 0)
        nodes = self.rows("count-nodes")[-1][1]
        self.sim.ctl("stop", self.sim.name)
        cdtest.wait_for(lambda: "PORT_NO_ANSWER" in self.daemon.log(), 20, "the outage logged")
        stopped = "rdmakit-discover gave no whole answer in 3 s; stopped it"
        cdtest.wait_for(lambda: stopped in self.daemon.log(), 20, "a hung helper stopped")
        failing = ("fabric discovery failed (Connection timed out): reading the last view "
                   f"({nodes:.0f} nodes) until it works again")
        cdtest.wait_for(lambda: failing in self.daemon.log(), 10, "the failure said")
        swept = len(self.rows("count-nodes"))
        cdtest.wait_for(lambda: len(self.rows("count-nodes")) > swept, 20,
                        "the last view swept while discovery fails")
        self.assertEqual(self.daemon.log().count("fabric discovery failed"), 1)
        self.assertTrue(self.daemon.running(), self.daemon.log())
        discoveries = self.daemon.log().count("fabric discovered in")
        self.sim.ctl("start", self.sim.name, self.net)
        self.sim.opensm("Hca1", 10)
        cdtest.wait_for(lambda: self.daemon.log().count("fabric discovered in") > discoveries,
                        90, "a discovery after the restart")
        before = len(self.rows("count-nodes"))
        cdtest.wait_for(lambda: len(self.rows("count-nodes")) >= before + 2, 30,
                        "sweeps after the restart")
        self.assertEqual(self.rows("count-nodes")[-1][1], nodes)
        self.assertEqual(self.daemon.log().count("fabric discovery works again"), 1)
        self.assertTrue(self.daemon.running())
        cdtest.wait_for(  # the shim's dead connection, see above
            lambda: "MAD sends failed" in "".join(
                self.daemon.log().split("fabric discovered in")[discoveries + 1:]), 20,
            "the sends after the restart failing")
        print("after the restart: unanswered ports",
              [r[1] for r in self.rows("count-unanswered_ports")[-3:]])


if __name__ == "__main__":
    unittest.main(verbosity=2)
