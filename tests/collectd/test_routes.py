#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd with rdmakit.so in fabric mode with Routes true, against a real ibsim +
OpenSM (ftree): no route finding while the routes are sound, and the summary values (routes
followed, holes, loops, max hops) as the check counts them; a hole and a loop written into
one leaf's table by tests/sim/lft_set (OpenSM stopped, so it repairs nothing) are notified
once each as ROUTE_HOLE and ROUTE_LOOP, and cleared (OKAY) once a restarted OpenSM has
rewritten the tables; a spine link unlinked while OpenSM is held is ROUTE_DEAD_END, cleared
once OpenSM, resumed, has rerouted."""
import os
import signal
import sys
import tempfile
import time
import unittest

import cdtest

sys.path.insert(0, os.path.join(cdtest.TOP, "tests", "sim"))
import simlib  # noqa: E402

PLUGIN = "rdma_fabric"
STARTED = time.monotonic()


class RoutesMode(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), leaves=4, hosts=4,
                              spines=2, radix=8)
        cls.sim = simlib.Sim(f"rkcdr{os.getpid()}", net, cls.tmp.name).__enter__()
        cls.daemon = None
        try:
            cls.sim.opensm_routing("ftree")
            cls.daemon = cdtest.Daemon(cdtest.plugin_block(
                SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True, FabricInterval=1, Routes=True,
                Rediscover=2, Notifications=True))
            status = cls.daemon.start(env=cdtest.sim_env(cls.sim.name))
            assert status == 0, cls.daemon.start_output
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if cls.daemon:
            cls.daemon.cleanup()
        cls.sim.ctl("reap", cls.sim.name, check=False)
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()
        print(f"test_routes: {time.monotonic() - STARTED:.1f} s wall", file=sys.stderr)

    def route_notes(self):
        return [(n["type_instance"], n["severity"]) for n in self.daemon.notifications()
                if n.get("plugin") == PLUGIN and n.get("type_instance", "").startswith("ROUTE")]

    def wait_sweeps(self, count):
        start = len(self.daemon.rows("", "count-nodes", PLUGIN))
        cdtest.wait_for(lambda: len(self.daemon.rows("", "count-nodes", PLUGIN)) >= start + count,
                        30, f"{count} more sweeps")

    def last(self, ident):
        return self.daemon.last("", ident, PLUGIN)

    def test_1_hole_and_loop_notified_once_and_cleared(self):
        self.wait_sweeps(3)
        self.assertEqual(self.route_notes(), [])
        # 6 switches to 16 CA LIDs, the 4 leaves to 6 switch LIDs; a leaf to a host: 3 hops
        self.assertEqual(self.last("count-routes_followed"), [120.0])
        self.assertEqual(self.last("count-route_holes"), [0.0])
        self.assertEqual(self.last("count-route_max_hops"), [3.0])
        self.sim.stop_opensm()
        self.sim.break_routes()  # Leaf2: a hole to host9, a loop to host5
        cdtest.wait_for(lambda: len(self.route_notes()) >= 2, 30, "the route notifications")
        self.wait_sweeps(3)
        self.assertEqual(sorted(self.route_notes()),
                         [("ROUTE_HOLE", "FAILURE"), ("ROUTE_LOOP", "FAILURE")])
        self.assertEqual(self.last("count-route_holes"), [1.0])  # Leaf2's own route
        self.assertEqual(self.last("count-route_loops"), [6.0])  # from every switch
        self.assertEqual(self.last("count-routes_unbalanced"), [0.0])
        log = self.daemon.log()
        self.assertEqual(log.count("ROUTE_HOLE Leaf2: "), 1, log)
        self.assertEqual(log.count("ROUTE_LOOP Leaf2: "), 1, log)
        self.sim.opensm_routing("minhop")  # a fresh routing rewrites every table
        cdtest.wait_for(lambda: len(self.route_notes()) >= 4, 30, "the routes cleared")
        self.assertEqual(sorted(self.route_notes()),
                         [("ROUTE_HOLE", "FAILURE"), ("ROUTE_HOLE", "OKAY"),
                          ("ROUTE_LOOP", "FAILURE"), ("ROUTE_LOOP", "OKAY")])
        self.assertNotIn("route check failed", self.daemon.log())
        cdtest.wait_for(lambda: self.last("count-route_loops") == [0.0], 10, "no loop counted")

    def test_2_lost_link_is_a_dead_end_until_rerouted(self):
        """Checked at each discovery (Rediscover 2), then at every pass while routes break."""
        before = len(self.route_notes())
        pid = self.sim.opensm_pid()
        os.kill(pid, signal.SIGSTOP)
        try:
            self.sim.cmd('Unlink "Leaf2"[5]')
            cdtest.wait_for(lambda: ("ROUTE_DEAD_END", "FAILURE") in self.route_notes(), 30,
                            "ROUTE_DEAD_END")
        finally:
            os.kill(pid, signal.SIGCONT)
        t0 = time.monotonic()
        cdtest.wait_for(lambda: ("ROUTE_DEAD_END", "OKAY") in self.route_notes(), 30,
                        "ROUTE_DEAD_END cleared")
        print(f"test_routes: dead end cleared {time.monotonic() - t0:.1f} s after OpenSM "
              "resumed", file=sys.stderr)
        cdtest.wait_for(lambda: self.route_notes()[before:].count(("ROUTE_DEAD_END", "OKAY")) ==
                        self.route_notes()[before:].count(("ROUTE_DEAD_END", "FAILURE")), 10,
                        "every dead end cleared")
        notes = self.route_notes()[before:]
        # one per switch at the lost link's ends that routes out through it: Leaf2, Spine1
        self.assertEqual(sorted(notes), [("ROUTE_DEAD_END", "FAILURE")] * 2 +
                         [("ROUTE_DEAD_END", "OKAY")] * 2, notes)


if __name__ == "__main__":
    unittest.main(verbosity=2)
