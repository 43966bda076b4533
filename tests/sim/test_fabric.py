#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit fabric against a real ibsim + OpenSM: discovery, degraded links, Unlink/ReLink."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simlib  # noqa: E402

RDMAKIT = os.environ.get("RDMAKIT", "rdmakit")


def fabric_json(sim, *args):
    return simlib.run_json(sim, RDMAKIT, "fabric", *args)[0]


def port_of(doc, guid, num):
    node = next(n for n in doc["nodes"] if n["guid"] == guid)
    return next(p for p in node["ports"] if p["port"] == num)


class Fabric(simlib.SimTestCase):
    NET = {"leaves": 4, "hosts": 6, "spines": 3, "radix": 12, "slow": ["Leaf2:3=4xSDR"]}
    PREFIX = "rkfab"

    def test_discovery_matches_ibnetdiscover(self):
        proc = self.sim.run("ibnetdiscover")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        expected, links = simlib.parse_ibnetdiscover(proc.stdout)
        doc = fabric_json(self.sim)
        got = {int(n["guid"], 16): (n["type"], n["lid"]) for n in doc["nodes"]}
        self.assertEqual(len(got), 4 + 3 + 24)
        self.assertEqual(sum(1 for t, _ in got.values() if t == "switch"), 7)
        self.assertEqual(sum(1 for t, _ in got.values() if t == "ca"), 24)
        self.assertEqual(len(doc["links"]), links)
        self.assertEqual(links, 24 + 4 * 3 * 2)
        self.assertEqual(got, expected)
        leaf1 = next(n for n in doc["nodes"] if n["guid"] == "0x0002c90200100001")
        self.assertEqual((leaf1["description"], leaf1["num_ports"]), ("Leaf1", 12))
        self.assertEqual(leaf1["lid"], self.sim.lid("Leaf1"))

    def test_slow_link_is_the_only_degraded_one(self):
        doc = fabric_json(self.sim)
        degraded = [(l["a"]["name"], l["a"]["port"], l["b"]["name"], l["b"]["port"],
                     l["width"], l["speed"]) for l in doc["links"] if l["degraded"]]
        self.assertEqual(degraded, [("Leaf2", 3, "host9 HCA-1", 1, "4X", "SDR")])
        others = {(l["width"], l["speed"]) for l in doc["links"] if not l["degraded"]}
        self.assertEqual(others, {("4X", "EDR")})
        text = self.sim.run(RDMAKIT, "fabric", "--degraded").stdout
        self.assertIn('"Leaf2"[3] <-> "host9 HCA-1"[1]  4X SDR  DEGRADED', text)
        self.assertIn("(1 degraded)", text)
        self.assertEqual(text.count("<->"), 1)

    def test_unlink_and_relink_a_host_port(self):
        leaf = "0x0002c90200100001"
        self.assertEqual(port_of(fabric_json(self.sim), leaf, 2)["state"], "ACTIVE")
        self.sim.cmd('Unlink "Hca2"[1]')
        doc = fabric_json(self.sim)
        port = port_of(doc, leaf, 2)
        self.assertEqual((port["state"], port.get("remote")), ("DOWN", None))
        self.assertNotIn("0x0002c90300000020", {n["guid"] for n in doc["nodes"]})
        self.sim.cmd('ReLink "Hca2"[1]')
        doc = fabric_json(self.sim)
        self.assertEqual(port_of(doc, leaf, 2)["remote"], {"guid": "0x0002c90300000020",
                                                            "port": 1})
        self.assertIn("0x0002c90300000020", {n["guid"] for n in doc["nodes"]})

    def test_node_name_map(self):
        path = os.path.join(self.tmp.name, "names")
        with open(path, "w") as f:
            f.write("# friendly names\n0x0002c90200100001 \"leaf-r1-u40\"\n"
                    "0x0002c90300000010   \"compute-001\"\nnot a line\n")
        proc = self.sim.run(RDMAKIT, "fabric", "--json", "--node-name-map", path)
        doc = json.loads(proc.stdout)
        names = {n["guid"]: n["name"] for n in doc["nodes"]}
        self.assertEqual(names["0x0002c90200100001"], "leaf-r1-u40")
        self.assertEqual(names["0x0002c90300000010"], "compute-001")
        self.assertEqual(names["0x0002c90200100002"], "Leaf2")
        self.assertIn(f"{path}:4: expected 0xGUID \"name\", skipped: not a line", proc.stderr)
        missing = self.sim.run(RDMAKIT, "fabric", "--node-name-map", "/nonexistent/map")
        self.assertEqual(missing.returncode, 3)
        self.assertIn("/nonexistent/map: cannot open node name map", missing.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
