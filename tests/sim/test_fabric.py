#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit fabric against a real ibsim + OpenSM: discovery, degraded links, Unlink/ReLink."""
import json
import os
import subprocess
import sys
import time
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "lib")]
import rktest  # noqa: E402
import simlib  # noqa: E402
from rktest import RDMAKIT  # noqa: E402


def fabric_json(sim, *args):
    return rktest.run_json(sim.run, RDMAKIT, "fabric", *args)


def port_of(doc, guid, num):
    node = next(n for n in doc["nodes"] if n["guid"] == guid)
    return next(p for p in node["ports"] if p["port"] == num)


SVG = "{http://www.w3.org/2000/svg}"


def render_svg(dot_text):
    """dot -Tsvg of a graph: {node id: (label lines, element)}, [(id, id, label lines,
    element)] (parallel links share their ends)."""
    proc = subprocess.run(["dot", "-Tsvg"], input=dot_text, capture_output=True, text=True,
                          timeout=60)
    if proc.returncode != 0 or proc.stderr:
        raise AssertionError(f"dot -Tsvg: exit {proc.returncode}: {proc.stderr}")
    nodes, edges = {}, []
    for g in ET.fromstring(proc.stdout).iter(SVG + "g"):
        title = g.find(SVG + "title").text if g.find(SVG + "title") is not None else ""
        texts = [t.text for t in g.iter(SVG + "text")]
        if g.get("class") == "node":
            nodes[title] = (texts, g)
        elif g.get("class") == "edge":
            a, b = title.split("--")
            edges.append((a, b, texts, g))
    return nodes, edges


def edges_between(edges, a, b):
    return [(texts, g) for x, y, texts, g in edges if {x, y} == {a, b}]


def ends(a, b):
    return tuple(sorted((a, b)))


def stroke(element, tag):
    return element.find(SVG + tag).get("stroke")


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

    def test_dot_draws_every_node_and_the_degraded_link_red(self):
        path = os.path.join(self.tmp.name, "dot-names")
        with open(path, "w") as f:  # the rest of the line is the name: quotes, backslashes
            f.write('0x0002c90300000010 evil "quoted" \\back\\slash\n')
        doc = fabric_json(self.sim, "--node-name-map", path)
        proc = self.sim.run(RDMAKIT, "fabric", "--dot", "--node-name-map", path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        nodes, edges = render_svg(proc.stdout)
        self.assertEqual({guid: texts for guid, (texts, _) in nodes.items()},
                         {n["guid"]: [n["name"]] for n in doc["nodes"]})
        self.assertEqual(nodes["0x0002c90300000010"][0], ['evil "quoted" \\back\\slash'])
        shapes = {}
        for n in doc["nodes"]:  # an SVG node group: its title, its shape, its label
            shapes.setdefault(n["type"], set()).add(nodes[n["guid"]][1][1].tag)
        self.assertEqual(shapes, {"switch": {SVG + "polygon"}, "ca": {SVG + "ellipse"}})
        leaf2, host9 = "0x0002c90200100002", "0x0002c90300000090"
        [(texts, slow)] = edges_between(edges, leaf2, host9)
        self.assertEqual(stroke(slow, "path"), "red")
        self.assertEqual(texts[:2], ["4X SDR", "below peers"])
        others = [(stroke(g, "path"), t[0]) for _, _, t, g in edges if g is not slow]
        self.assertEqual(set(others), {("black", "4X EDR")})
        self.assertEqual(sorted(ends(a, b) for a, b, _, _ in edges),
                         sorted(ends(l["a"]["guid"], l["b"]["guid"]) for l in doc["links"]))

    def test_dot_dashes_a_link_that_went_down_between_two_discoveries(self):
        leaf1, host3 = "0x0002c90200100001", "0x0002c90300000030"
        self.assertEqual(port_of(fabric_json(self.sim), leaf1, 3)["remote"],
                         {"guid": host3, "port": 1})
        proc = simlib.start(self.sim, RDMAKIT, "fabric", "--dot", "--interval", "4")
        try:
            proc.stderr.readline()  # the shim attached: the first discovery is under way
            time.sleep(1.5)
            self.sim.cmd('Unlink "Hca3"[1]')
            out, err = proc.communicate(timeout=60)
        finally:
            self.sim.cmd('ReLink "Hca3"[1]')
            self.addCleanup(self.wait_until_active, leaf1, 3)
        self.assertEqual(proc.returncode, 0, err)
        nodes, edges = render_svg(out)
        texts, gone = nodes[host3]
        self.assertEqual(texts, ["host3 HCA-1"])
        self.assertIsNotNone(gone.find(SVG + "ellipse").get("stroke-dasharray"))
        [(texts, down)] = edges_between(edges, leaf1, host3)
        self.assertEqual(texts[0], "went DOWN")
        self.assertIsNotNone(down.find(SVG + "path").get("stroke-dasharray"))
        dashed = [(a, b) for a, b, _, g in edges if g.find(SVG + "path").get("stroke-dasharray")]
        self.assertEqual(len(dashed), 1, dashed)
        self.assertIsNone(nodes[leaf1][1].find(SVG + "polygon").get("stroke-dasharray"))

    def test_dot_colours_links_by_congestion(self):
        started = time.monotonic()
        spine1 = "0x0002c90200200001"
        peer = port_of(fabric_json(self.sim), spine1, 2)["remote"]["guid"]
        raiser = simlib.WaitRaiser(self.sim, '"Spine1"[2]').start()
        try:
            proc = self.sim.run(RDMAKIT, "fabric", "--dot", "--congestion", "2")
        finally:
            raiser.stop()
            self.sim.cmd('PerformanceSet "Spine1"[2] PortCounters.PortXmitWait=0')
        self.assertEqual(proc.returncode, 0, proc.stderr)
        _, edges = render_svg(proc.stdout)
        hot = [(a, b, texts) for a, b, texts, g in edges if stroke(g, "path") == "orange"]
        self.assertEqual([ends(a, b) for a, b, _ in hot], [ends(spine1, peer)], hot)
        self.assertTrue(any(t.startswith("wait ") and t.endswith(" ticks/word")
                            for t in hot[0][2]), hot)
        colours = {stroke(g, "path") for _, _, _, g in edges}
        self.assertEqual(colours, {"orange", "forestgreen", "red"})  # the slow link stays red
        print(f"dot --congestion: {time.monotonic() - started:.1f} s", file=sys.stderr)

    def wait_until_active(self, guid, num, timeout=30):
        deadline = time.monotonic() + timeout
        while port_of(fabric_json(self.sim), guid, num)["state"] != "ACTIVE":
            if time.monotonic() > deadline:
                raise AssertionError(f"{guid}[{num}] did not come back ACTIVE")
            time.sleep(0.5)

    def test_interval_shows_the_second_of_two_discoveries(self):
        once = fabric_json(self.sim)
        start = time.monotonic()
        twice = fabric_json(self.sim, "--interval", "1")
        self.assertGreaterEqual(time.monotonic() - start, 1.0)
        self.assertEqual(sorted(n["guid"] for n in twice["nodes"]),
                         sorted(n["guid"] for n in once["nodes"]))
        self.assertEqual(len(twice["links"]), len(once["links"]))
        bad = self.sim.run(RDMAKIT, "fabric", "--interval", "-1")
        self.assertEqual(bad.returncode, 3)
        self.assertIn("--interval -1: expected a number of seconds from 0 to 86400", bad.stderr)

    def test_dot_usage_errors(self):
        for args, text in ((["--dot", "--json"], "--dot and --json: choose one"),
                           (["--dot", "--degraded"], "--dot draws every link")):
            proc = subprocess.run([RDMAKIT, "fabric", *args], capture_output=True, text=True,
                                  timeout=30)
            self.assertEqual(proc.returncode, 3, args)
            self.assertIn(text, proc.stderr)
            self.assertEqual(proc.stdout, "")


if __name__ == "__main__":
    unittest.main(verbosity=2)
