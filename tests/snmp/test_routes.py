#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The subagent with "fabric yes" and "routes yes" against a real ibsim + OpenSM (ftree), a
real snmpd and snmptrapd: no route finding while the routes are sound; a hole and a loop
written into one leaf's table by tests/sim/lft_set (OpenSM stopped) are one row each of
rdmakitFindingTable (ROUTE_HOLE and ROUTE_LOOP, subject Leaf2) and one rdmakitFindingRaised
trap each, the rdmakitFabricRoute* scalars counting them; a restarted OpenSM rewrites the
tables, and both rows go with a cleared trap each."""
import os
import re
import sys
import tempfile
import time
import unittest

import snmptest
from snmptest import Setup, Trapd
from rktest import fixture, umad2sim_env, wait_for

sys.path.insert(0, os.path.join(snmptest.TOP, "tests", "sim"))
import simlib  # noqa: E402



def route_rows(setup):
    """[(code, subject)] of the route findings in rdmakitFindingTable."""
    return snmptest.finding_rows(setup, "ROUTE")


class Routes(unittest.TestCase):
    def test_hole_and_loop_are_rows_and_traps(self):
        started = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp:
            net = simlib.generate(os.path.join(tmp, "ft.net"), leaves=4, hosts=4, spines=2,
                                  radix=8)
            with simlib.Sim(f"rksnmpr{os.getpid()}", net, tmp) as sim:
                self.sim = sim
                sim.opensm_routing("ftree")
                self.routes()
        print(f"test_routes: {time.monotonic() - started:.1f} s wall", file=sys.stderr)

    def routes(self):
        s = Setup(fixture("ib-hdr"),
                  config="fabric yes\nfabric-interval 1\nroutes yes\nroutes-interval 1\n",
                  env_extra=umad2sim_env(self.sim.name))
        trapd = Trapd(s.workdir, snmptest.free_port())
        with open(s.snmpd.conf, "a") as f:
            f.write(f"trap2sink 127.0.0.1:{trapd.port} public\n")
        try:
            s.__enter__()
            wait_for(lambda: s.get_raw("RDMAKIT-MIB::rdmakitFabricSwitches.0") == "6", 30,
                     "the fabric")
            time.sleep(2)  # two more passes, each with a route check
            self.assertEqual(route_rows(s), [])
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitFabricRoutes.0"), "120")
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitFabricRouteHoles.0"), "0")
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitFabricRouteMaxHops.0"), "3")
            self.sim.stop_opensm()
            self.sim.break_routes()  # Leaf2: a hole to host9, a loop to host5
            want = [("ROUTE_HOLE", "Leaf2"), ("ROUTE_LOOP", "Leaf2")]
            wait_for(lambda: route_rows(s) == want, 30, "the route rows")
            wait_for(lambda: trapd.count("ROUTE_LOOP") and trapd.count("ROUTE_HOLE"), 10,
                     "the raised traps")
            time.sleep(2)
            self.assertEqual(route_rows(s), want)
            raised = [b for b in re.split(r"\n(?=\S)", trapd.text())
                      if "rdmakitFindingRaised" in b and "ROUTE" in b]
            self.assertEqual(len(raised), 2, raised)
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitFabricRouteHoles.0"), "1")
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitFabricRouteLoops.0"), "6")
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitFabricRouteDeadEnds.0"), "0")
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitFabricRoutesUnbalanced.0"), "0")
            self.sim.opensm_routing("minhop")  # a fresh routing rewrites every table
            wait_for(lambda: route_rows(s) == [], 30, "the route rows gone")
            wait_for(lambda: len([b for b in re.split(r"\n(?=\S)", trapd.text())
                                  if "rdmakitFindingCleared" in b and "ROUTE" in b]) == 2, 10,
                     "the cleared traps")
        finally:
            trapd.stop()
            s.__exit__(None, None, None)


if __name__ == "__main__":
    unittest.main(verbosity=2)
