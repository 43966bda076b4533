#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit events on ibsim + a master and a standby OpenSM: a host's and a spine's cable pulled
and put back, each told within seconds by the switch port that changed and its peer (a trap 128
from OpenSM's Report, then one PortInfo SMP a port of that switch, no discovery). The events
process receives Reports through tests/sim/issm_shim.c (ibsim hands them only to its node's
SM-side client: tests/sim/README.md). A failover is not tried here: with such a client on the
fabric, a standby OpenSM that takes over never finishes its first heavy sweep (found by trying,
the shim answering its SMInfo queries or not); the subscription's move to a new master is
tested on the fake libibumad (unit_notice)."""
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "lib")]
import rktest  # noqa: E402
import simlib  # noqa: E402
from rktest import RDMAKIT  # noqa: E402

ISSM_SHIM = os.environ.get("ISSM_SHIM", os.path.join(HERE, "..", "..", "build", "tests",
                                                     "issm_shim.so"))
TARGET_S = 5  # the target: max 5 s from a pulled cable to its event


class Events(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), leaves=4, hosts=4,
                              spines=2, radix=8)
        cls.sim = simlib.Sim(f"rkev{os.getpid()}", net, cls.tmp.name).__enter__()
        cls.sim.opensm("Hca1", 10)
        env = dict(cls.sim.env, SIM_HOST="Hca4", SIM_TIMEOUT="600", RK_ISSM_COMM="rdmakit",
                   LD_PRELOAD=ISSM_SHIM)
        cls.proc = subprocess.Popen([simlib.SIMCTL, "run", cls.sim.name, RDMAKIT, "events",
                                     "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, env=env)
        cls.lines = queue.Queue()
        cls.stderr = []
        threading.Thread(target=cls._read, daemon=True).start()
        threading.Thread(target=lambda: cls.stderr.extend(cls.proc.stderr), daemon=True).start()
        time.sleep(4)  # discovery, the master's LID, the subscription

    @classmethod
    def _read(cls):
        for line in cls.proc.stdout:
            cls.lines.put((time.monotonic(), json.loads(line)))

    @classmethod
    def tearDownClass(cls):
        cls.proc.send_signal(signal.SIGTERM)
        try:
            cls.proc.wait(10)
        except subprocess.TimeoutExpired:
            cls.proc.kill()
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()

    def events_after(self, command, want, timeout=TARGET_S + 5):
        """Send the console command, then collect events until want(events) holds; (seconds
        from the command to the event that made it hold, the events)."""
        while not self.lines.empty():
            self.lines.get()
        start = time.monotonic()
        self.sim.cmd(command)
        got = []
        while not want(got):
            left = start + timeout - time.monotonic()
            if left <= 0:
                self.fail(f"{command}: no such event within {timeout} s; got {got}; "
                          f"stderr {''.join(self.stderr)[-800:]}")
            try:
                at, event = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            got.append(event)
        return at - start, got

    @staticmethod
    def port_changes(events, state):
        return {(e["subject"], e.get("peer")) for e in events
                if e["trap"] == 128 and e.get("state") == state}

    def test_1_a_host_cable_pulled_and_put_back(self):
        leaf_port = self.peer_of("host5 HCA-1[1]")
        seconds, events = self.events_after(
            'Unlink "Hca5"[1]', lambda got: self.port_changes(got, "DOWN"))
        self.assertEqual(self.port_changes(events, "DOWN"), {(leaf_port, "host5 HCA-1[1]")})
        self.assertLess(seconds, TARGET_S)
        self.assertEqual(events[0]["name"], "link state change")
        seconds, events = self.events_after(
            'ReLink "Hca5"[1]',
            lambda got: any(e.get("was") == "DOWN" for e in got if e["trap"] == 128))
        up = [e for e in events if e.get("was") == "DOWN"]
        self.assertEqual({(e["subject"], e["peer"]) for e in up}, {(leaf_port, "host5 HCA-1[1]")})
        self.assertIn(up[0]["state"], ("INIT", "ARMED", "ACTIVE"))
        self.assertLess(seconds, TARGET_S)

    def test_2_a_spine_cable_is_told_with_both_ends(self):
        """ibsim sends the trap 128 of an Unlink from one end only (the leaf here); the read of
        the far end goes by LID through routes OpenSM has not moved off the cable yet, and
        times out: the line names both ends all the same."""
        leaf_port = self.peer_of("Spine1[1]")
        seconds, events = self.events_after(
            'Unlink "Spine1"[1]', lambda got: self.port_changes(got, "DOWN"))
        self.assertIn(self.port_changes(events, "DOWN"),
                      ({(leaf_port, "Spine1[1]")},
                       {(leaf_port, "Spine1[1]"), ("Spine1[1]", leaf_port)}))
        self.assertLess(seconds, TARGET_S)
        self.events_after('ReLink "Spine1"[1]',
                          lambda got: any(e.get("was") == "DOWN" for e in got))

    def peer_of(self, end):
        """The other end of a cable ("Leaf2[1]" for "host5 HCA-1[1]"), from rdmakit fabric."""
        doc = json.loads(self.sim.run(RDMAKIT, "fabric", "--json", host="Hca3").stdout)
        for link in doc["links"]:
            a = f'{link["a"]["name"]}[{link["a"]["port"]}]'
            b = f'{link["b"]["name"]}[{link["b"]["port"]}]'
            if end in (a, b):
                return b if end == a else a
        raise AssertionError(f"no link of {end}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
