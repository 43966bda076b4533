#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit fabric --expect with the plan formats sites already keep, against a real ibsim +
OpenSM: an NDT CSV and an LLNL ibfabricconf.xml written from the live fabric, the switches
named by a node name map the test writes and the HCAs by their node descriptions, give no
finding; with one cable moved in each file they give exactly the LINK_MISWIRED finding (code,
subject, severity) that rdmakit's own plan with the same move gives; rows that cannot be placed
are named with file and line and counted."""
import json
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "lib")]
import rktest  # noqa: E402
import simlib  # noqa: E402
from rktest import RDMAKIT  # noqa: E402

NODE = re.compile(r'^node (0x[0-9a-f]+) (\w+) (\d+) "(.*)"$')
LINK = re.compile(r"^(0x[0-9a-f]+)\[(\d+)\] -> (0x[0-9a-f]+)\[(\d+)\] (\d+)X (\w+)")
MOVED = ("Leaf1", 1, 7)  # the plans put host1's cable into Leaf1[7]; it is in Leaf1[1]


class PlanImport(simlib.SimTestCase):
    # Leaf1, Leaf2: ports 1-2 to hosts, 3-6 to Spine1; Leaf2[1] - host3 runs 1X.
    NET = {"leaves": 2, "hosts": 2, "spines": 1, "radix": 8, "slow": ["Leaf2:1=1xEDR"]}
    PREFIX = "rkplanimp"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        try:  # unittest skips tearDownClass when setUpClass fails: stop the sim here then
            cls.read_fabric()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def save(cls, name, *args):
        path = os.path.join(cls.tmp.name, name)
        proc = cls.sim.run(RDMAKIT, "fabric", "--save", path, *args)
        if proc.returncode != 0:
            raise AssertionError(f"fabric --save: {proc.returncode}: {proc.stderr}")
        with open(path) as f:
            return f.read()

    @classmethod
    def read_fabric(cls):
        """The live fabric from a saved plan (names: the descriptions), a node name map naming
        the switches, and rdmakit's own plan saved with it."""
        cls.desc, cls.kind, cls.links = {}, {}, []
        for line in cls.save("plain.plan").splitlines():
            if m := NODE.match(line):
                cls.desc[m[1]], cls.kind[m[1]] = m[4], m[2]
            elif m := LINK.match(line):
                cls.links.append((m[1], int(m[2]), m[3], int(m[4]), int(m[5]), m[6]))
        cls.map = os.path.join(cls.tmp.name, "names.map")
        with open(cls.map, "w") as f:
            for guid, desc in cls.desc.items():
                if cls.kind[guid] == "switch":
                    f.write(f'{guid} "sw-{desc.lower()}"\n')
        cls.native = cls.save("native.plan", "--node-name-map", cls.map)

    def name(self, guid):
        """What the imported files call a node: the map's name of a switch, an HCA's
        description."""
        desc = self.desc[guid]
        return f"sw-{desc.lower()}" if self.kind[guid] == "switch" else desc

    def moved_links(self):
        """The fabric's links with host1's cable planned in Leaf1[7]."""
        leaf, old, new = MOVED
        for ga, pa, gb, pb, width, speed in self.links:
            if self.desc[ga] == leaf and pa == old and self.desc[gb].startswith("host1 "):
                pa = new
            yield ga, pa, gb, pb, width, speed

    def ndt(self, links):
        """An NDT of links: switch ports as UFM writes them, HCAs as "HOST DESCRIPTION"."""
        rows = ["#StartDevice,StartPort,EndDevice,EndPort,LinkType"]
        for i, (ga, pa, gb, pb, _, _) in enumerate(links):
            ends = []
            for guid, port in ((ga, pa), (gb, pb)):
                if self.kind[guid] == "switch":
                    ends += [self.name(guid), f"Port {port}" if i % 2 else str(port)]
                else:
                    ends += [self.desc[guid].split()[0], self.desc[guid]]
            rows.append(",".join(ends) + ",Data")
        return "\n".join(rows) + "\n"

    def ibfabricconf(self, links):
        """An ibfabricconf.xml of links: a linklist per node, the rate as attributes."""
        lists = {}
        for ga, pa, gb, pb, width, speed in links:
            lists.setdefault(ga, []).append(
                f'    <port num="{pa}" width="{width}x" speed="{speed}"><r_port>{pb}</r_port>'
                f"<r_node>{self.name(gb)}</r_node></port>")
        body = "".join(f'  <linklist name="{self.name(guid)}">\n' + "\n".join(ports) +
                       "\n  </linklist>\n" for guid, ports in lists.items())
        return ('<?xml version="1.0" encoding="ISO-8859-1"?>\n'
                f'<ibfabric name="sim" schemaVersion="1.0">\n{body}</ibfabric>\n')

    def expect(self, name, text, rc):
        """The findings of rdmakit fabric --expect on text written to name, with the map."""
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return rktest.run_json(self.sim.run, RDMAKIT, "fabric", "--expect", path,
                               "--node-name-map", self.map, rc=rc)["findings"]

    @staticmethod
    def keys(findings):
        return [(f["code"], f["subject"], f["severity"]) for f in findings]

    def native_moved(self):
        """rdmakit's own plan with host1's cable moved as in moved_links."""
        leaf = next(g for g, d in self.desc.items() if d == MOVED[0])
        old = f"{leaf}[{MOVED[1]}] -> "
        self.assertEqual(self.native.count(old), 1)
        return self.native.replace(old, f"{leaf}[{MOVED[2]}] -> ")

    def test_files_of_the_fabric_give_no_finding(self):
        self.assertEqual(self.expect("plan.csv", self.ndt(self.links), 0), [])
        self.assertEqual(self.expect("ibfabricconf.xml", self.ibfabricconf(self.links), 0), [])
        self.assertEqual(self.expect("native.plan", self.native, 0), [])

    def test_moved_cable_is_the_native_miswire(self):
        native = self.keys(self.expect("native-moved.plan", self.native_moved(), 1))
        self.assertEqual(native, [("LINK_MISWIRED", "sw-leaf1[7]-host1 HCA-1[1]", "warning")])
        ndt = self.expect("moved.csv", self.ndt(self.moved_links()), 1)
        self.assertEqual(self.keys(ndt), native)
        self.assertIn("the cable joins sw-leaf1[1] - host1 HCA-1[1]", ndt[0]["message"])
        xml = self.expect("moved.xml", self.ibfabricconf(self.moved_links()), 1)
        self.assertEqual(self.keys(xml), native)

    def test_rows_not_placed_are_named_and_counted(self):
        path = os.path.join(self.tmp.name, "bad.csv")
        text = self.ndt(self.links)
        with open(path, "w") as f:
            f.write(text + "nosuch,Port 1,sw-spine1,Port 7,Data\n"
                    "sw-leaf1,Blade 2_Port 1/1,sw-spine1,Port 8,Data\n")
        proc = self.sim.run(RDMAKIT, "fabric", "--expect", path, "--node-name-map", self.map,
                            "--json")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        nlines = text.count("\n")
        self.assertIn(f"{path}:{nlines + 1}: \"nosuch\" is not in the node name map", proc.stderr)
        self.assertIn(f"{path}:{nlines + 2}: StartDevice \"sw-leaf1\" StartPort \"Blade 2_Port "
                      "1/1\": a director's port", proc.stderr)
        [f] = json.loads(proc.stdout)["findings"]
        self.assertEqual(f["code"], "PLAN_LINES_SKIPPED")
        self.assertIn("2 line(s)", f["message"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
