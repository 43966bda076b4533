#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Fabric events in both daemons, on ibsim + OpenSM: a real collectd (rdmakit.so, Fabric true,
FabricInterval 300) and a real snmpd with rdmakit-agentx (fabric-interval 300), so that no
sweep can be what finds a change. Each receives the SA's Reports through tests/sim/issm_shim.c
(its own simulated node, RK_ISSM_COMM naming the process).

- a host's cable pulled: PORT_WENT_DOWN of its leaf port as a collectd notification and as an
  SNMP trap within 5 s; put back: both cleared within 5 s; no LINK_FLAPPING for one down/up;
- another host's cable pulled and put back five times within a minute: LINK_FLAPPING raised
  once (one notification, one trap) and cleared after FlapStable (8 s here) of stability.

What the sim cannot show (tests/sim/README.md): a failover with such clients, traps 129-131
and 256-259 (ibsim raises none: decoded on crafted Reports in unit_notice), LinkDownedCounter
rises (ibsim does not count downs: set from the console in sim_watchers)."""
import os
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "lib"), os.path.join(HERE, "..", "collectd"),
                os.path.join(HERE, "..", "snmp")]
import cdtest  # noqa: E402
import simlib  # noqa: E402
import snmptest  # noqa: E402
from rktest import fixture, wait_for  # noqa: E402

TARGET_S = 5  # the target: max 5 s from a pulled cable to its notification and trap
PLUGIN = "rdma_fabric"
LEAF = 0x0002c90200100000
STABLE_S = 8




class DaemonEvents(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), leaves=4, hosts=4,
                              spines=2, radix=8)
        cls.sim = simlib.Sim(f"rkevd{os.getpid()}", net, cls.tmp.name).__enter__()
        cls.daemon = cls.setup = cls.trapd = None
        try:
            cls.sim.opensm("Hca1", 10)
            cls.start_daemons()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def start_daemons(cls):
        cls.daemon = cdtest.Daemon(cdtest.plugin_block(
            SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True, FabricInterval=300,
            Notifications=True, FlapWindow=60, FlapStable=STABLE_S, FabricRole="active"))
        env = dict(os.environ, **simlib.issm_env(cls.sim.name, "Hca4", "collectd"))
        assert cls.daemon.start(env=env) == 0, cls.daemon.start_output
        config = (f"refresh 10\nfabric yes\nfabric-role active\nfabric-interval 300\nflap-window 60\n"
                  f"flap-stable {STABLE_S}\n")
        cls.setup = snmptest.Setup(fixture("ib-hdr"), config=config,
                                   env_extra=simlib.issm_env(cls.sim.name, "Hca3",
                                                             "rdmakit-agentx"))
        cls.trapd = snmptest.Trapd(cls.setup.workdir, snmptest.free_port())
        with open(cls.setup.snmpd.conf, "a") as f:
            f.write(f"trap2sink 127.0.0.1:{cls.trapd.port} public\n")
        cls.setup.__enter__()
        wait_for(lambda: "subscribed" in cls.daemon.log().lower(), 30,
                 "collectd subscribed to the SA")
        time.sleep(3)  # the subagent's first pass, its subscription

    @classmethod
    def tearDownClass(cls):
        simlib.stop_watched(cls)

    def notes(self, **match):
        return [n for n in self.daemon.notifications()
                if n.get("plugin") == PLUGIN and all(n.get(k, "") == v for k, v in match.items())]

    def traps(self, kind, code, guid, port):
        return [t for t in snmptest.finding_traps(self.trapd.text())
                if t == (kind, code, snmptest.guid_text(guid), port)]

    def both_within(self, command, note, trap, what):
        """Send the console command; seconds until collectd's notification and the trap."""
        notes, traps = len(self.notes(**note)), len(self.traps(*trap))
        start = time.monotonic()
        self.sim.cmd(command)
        wait_for(lambda: len(self.notes(**note)) > notes, TARGET_S,
                 f"collectd: {what} within {TARGET_S} s\n{self.daemon.log()[-1500:]}")
        noted = time.monotonic() - start
        wait_for(lambda: len(self.traps(*trap)) > traps, TARGET_S,
                 f"the trap: {what} within {TARGET_S} s\n{self.setup.agent.log()[-1500:]}")
        return noted, time.monotonic() - start

    def test_1_host_cable_down_and_back(self):
        # Hca6 is Leaf2's second host: Leaf2 port 2
        instance = f"0x{LEAF + 2:016x}-2"
        down = self.both_within('Unlink "Hca6"[1]',
                                {"plugin_instance": instance, "type_instance": "PORT_WENT_DOWN",
                                 "severity": "WARNING"},
                                ("Raised", "PORT_WENT_DOWN", LEAF + 2, 2), "Leaf2[2] down")
        up = self.both_within('ReLink "Hca6"[1]',
                              {"plugin_instance": instance, "type_instance": "PORT_WENT_DOWN",
                               "severity": "OKAY"},
                              ("Cleared", "PORT_WENT_DOWN", LEAF + 2, 2), "Leaf2[2] back")
        print(f"host cable: down told in {down[0]:.2f} s (collectd), {down[1]:.2f} s (trap); "
              f"back in {up[0]:.2f} s, {up[1]:.2f} s", file=sys.stderr)
        time.sleep(2)
        self.assertEqual(self.notes(type_instance="LINK_FLAPPING"), [])

    def test_2_flapping_link_raised_once_and_cleared(self):
        # Hca10 is Leaf3's second host: Leaf3 port 2
        instance = f"0x{LEAF + 3:016x}-2"
        for _ in range(5):
            self.sim.cmd('Unlink "Hca10"[1]')
            time.sleep(1.5)
            self.sim.cmd('ReLink "Hca10"[1]')
            time.sleep(1.5)
        flapping = {"plugin_instance": instance, "type_instance": "LINK_FLAPPING"}
        wait_for(lambda: self.notes(severity="WARNING", **flapping), TARGET_S,
                 f"LINK_FLAPPING raised\n{self.daemon.log()[-1500:]}")
        wait_for(lambda: self.traps("Raised", "LINK_FLAPPING", LEAF + 3, 2), TARGET_S,
                 "the LINK_FLAPPING trap")
        wait_for(lambda: self.notes(severity="OKAY", **flapping), STABLE_S + 10,
                 "LINK_FLAPPING cleared after the stable time")
        wait_for(lambda: self.traps("Cleared", "LINK_FLAPPING", LEAF + 3, 2), STABLE_S + 10,
                 "the LINK_FLAPPING cleared trap")
        self.assertEqual(len(self.notes(severity="WARNING", **flapping)), 1)
        self.assertEqual(len(self.traps("Raised", "LINK_FLAPPING", LEAF + 3, 2)), 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
