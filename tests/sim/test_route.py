#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit route against a real ibsim + OpenSM on a generated fat tree (one sim for the file):
with OpenSM's ftree, minhop and updn every route reaches its destination in as many hops as a
BFS over `rdmakit fabric`'s links gives; `route trace` takes ibtracert's path on sampled pairs
and `route dump` has ibroute's entries;
the switches flagged unbalanced are check_lft_balance's on dump_lfts + ibnetdiscover --cache of
the same sim; routes to a host behind a 1X cable are ROUTE_THROUGH_DEGRADED, one finding
for that link. A hole and a loop written into one switch's table by lft_set (OpenSM stopped so
it repairs nothing) are exactly ROUTE_HOLE and ROUTE_LOOP for that switch, once each; a
LinearFDBTop set past the unicast range is ROUTE_TABLE_UNREAD for that switch alone; a spine
link unlinked while OpenSM is stopped gives ROUTE_DEAD_END, gone once OpenSM reroutes."""
import collections
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "lib")]
import rktest  # noqa: E402
import simlib  # noqa: E402
from rktest import RDMAKIT  # noqa: E402

ROUTE_CODES = ("ROUTE_", "ROUTES_")
DEGRADED = "ROUTE_THROUGH_DEGRADED"  # the 1X cable to host16, there throughout
STARTED = time.monotonic()


class Route(simlib.SimTestCase):
    # Four leaves of four hosts, two spines, two cables from each leaf to each spine; the
    # cable from Leaf4[4] to host16 runs 1X.
    NET = {"leaves": 4, "hosts": 4, "spines": 2, "radix": 8, "slow": ["Leaf4:4=1xEDR"]}
    PREFIX = "rkroute"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), **cls.NET)
        cls.sim = simlib.Sim(f"{cls.PREFIX}{os.getpid()}", net, cls.tmp.name).__enter__()
        try:
            cls.sim.env["SIM_OSM_ARGS"] = "-R ftree"
            cls.sim.opensm("Hca1", 10)
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        print(f"test_route: {time.monotonic() - STARTED:.1f} s wall", file=sys.stderr)

    # ---- helpers -----------------------------------------------------------------------

    def check(self, rc=None):
        proc = self.sim.run(RDMAKIT, "route", "check", "--json", "--show", "100")
        if rc is not None:
            self.assertEqual(proc.returncode, rc, proc.stderr)
        return json.loads(proc.stdout)

    def restart_opensm(self, engine):
        self.sim.stop_opensm()
        self.sim.opensm_routing(engine)

    def wait_sound(self, timeout=30):
        """The check once it has no route finding (the SM may still be routing)."""
        def sound():
            doc = self.check()
            return doc if not [f for f in doc["findings"]
                               if f["code"].startswith(ROUTE_CODES) and
                               f["code"] != DEGRADED] else None
        return rktest.wait_for(sound, timeout, "every route sound")

    def fabric(self):
        return rktest.run_json(self.sim.run, RDMAKIT, "fabric")

    def bfs_hops(self, fabric):
        """{(switch name, CA LID): hops} over the fabric's links (only switches forward)."""
        nodes = {n["guid"]: n for n in fabric["nodes"]}
        adj = collections.defaultdict(set)
        for link in fabric["links"]:
            adj[link["a"]["guid"]].add(link["b"]["guid"])
            adj[link["b"]["guid"]].add(link["a"]["guid"])
        hops = {}
        for guid, node in nodes.items():
            if node["type"] != "switch":
                continue
            dist, queue = {guid: 0}, collections.deque([guid])
            while queue:
                here = queue.popleft()
                if nodes[here]["type"] != "switch":
                    continue
                for there in adj[here]:
                    if there not in dist:
                        dist[there] = dist[here] + 1
                        queue.append(there)
            for there, d in dist.items():
                if nodes[there]["type"] == "ca":
                    hops[(node["name"], nodes[there]["lid"])] = d
        return hops

    def lft_balance_flagged(self):
        """Switch names check_lft_balance flags on dump_lfts + ibnetdiscover --cache."""
        lfts = os.path.join(self.tmp.name, "lfts.txt")
        cache = os.path.join(self.tmp.name, "ib.cache")
        if os.path.exists(cache):
            os.unlink(cache)
        dump = self.sim.run("dump_lfts")
        self.assertEqual(dump.returncode, 0, dump.stderr)
        with open(lfts, "w") as f:
            f.write(dump.stdout)
        self.assertEqual(self.sim.run("ibnetdiscover", "--cache", cache).returncode, 0)
        out = self.sim.run("check_lft_balance", "-l", lfts, "-i", cache).stdout
        return set(re.findall(r"^Unbalanced Switch Port Usage: (\S+),", out, re.M))

    def ours_flagged(self, doc):
        return {f["subject"] for f in doc["findings"] if f["code"] == "ROUTES_UNBALANCED"}

    def assert_degraded_link(self, doc, switches, lids=1):
        """Every switch's routes to host16's LIDs cross its 1X cable: one finding, the link."""
        found = [f for f in doc["findings"] if f["code"] == DEGRADED]
        self.assertEqual(len(found), 1, found)
        self.assertIn("Leaf4[4]", found[0]["subject"])
        self.assertIn("host16 HCA-1[1]", found[0]["subject"])
        self.assertEqual(doc["summary"]["degraded"], switches * lids)
        self.assertTrue(found[0]["message"].startswith(
            f"{switches * lids} route(s) to {lids} destination LID(s) run through this "
            "degraded link"), found[0]["message"])

    def assert_sound(self, doc, fabric):
        s = doc["summary"]
        self.assertEqual(s["tables_read"], s["switches"])
        self.assertEqual(s["reached"], s["routes"])
        for key in ("holes", "loops", "dead_ends", "longer", "unknown"):
            self.assertEqual(s[key], 0, key)
        cas = [n for n in fabric["nodes"] if n["type"] == "ca"]
        switches = [n for n in fabric["nodes"] if n["type"] == "switch"]
        self.assert_degraded_link(doc, len(switches))
        # every switch to every CA LID, and the CAs' leaves to every switch
        self.assertEqual(s["destinations"], len(cas) + len(switches))
        self.assertEqual(s["routes"], len(switches) * len(cas) + 4 * len(switches))
        self.assertEqual(s["max_hops"], max(self.bfs_hops(fabric).values()))

    def trace(self, src, dst, rc=0):
        return rktest.run_json(self.sim.run, RDMAKIT, "route", "trace", str(src), str(dst),
                               rc=rc)

    def ibtracert(self, src, dst):
        """[(node GUID, out port)] of ibtracert's path, the destination last with 0."""
        out = self.sim.run("ibtracert", str(src), str(dst)).stdout
        start = re.search(r"^From \w+ \{(0x[0-9a-f]+)\}", out, re.M)
        hops, node = [], int(start.group(1), 16)
        for m in re.finditer(r"^\[(\d+)\] -> \w+ port \{(0x[0-9a-f]+)\}", out, re.M):
            hops.append((node, int(m.group(1))))
            node = int(m.group(2), 16)  # a switch's port GUID is its node GUID
        end = re.search(r"^To \w+ \{(0x[0-9a-f]+)\}", out, re.M)
        return hops, int(end.group(1), 16)

    # ---- tests -------------------------------------------------------------------------

    def test_1_ftree_sound_traced_and_balanced(self):
        fabric = self.fabric()
        doc = self.wait_sound()
        self.assert_sound(doc, fabric)
        self.assertEqual([f["code"] for f in doc["findings"]], [DEGRADED])
        hops = self.bfs_hops(fabric)
        leaves = [b for b in doc["balance"] if b["rank"] == 1]
        self.assertEqual(len(leaves), 4)
        self.assertTrue(all(b["uplinks"] == 4 and b["min"] == b["max"] == 3 for b in leaves))
        self.assertEqual(self.lft_balance_flagged(), self.ours_flagged(doc))
        cas = sorted(n["lid"] for n in fabric["nodes"] if n["type"] == "ca")
        by_lid = {n["lid"]: n for n in fabric["nodes"]}
        rng = random.Random(22)
        for src, dst in [rng.sample(cas, 2) for _ in range(6)]:
            ours = self.trace(src, dst)
            self.assertEqual(ours["end"], "reaches")
            theirs, last = self.ibtracert(src, dst)
            mine = [(int(h["guid"], 16), h["out_port"]) for h in ours["hops"]]
            self.assertEqual(mine[:-1], theirs, (src, dst))
            self.assertEqual(mine[-1], (last, 0))
            # from the source's leaf: as many hops as the BFS gives
            leaf = ours["hops"][1]["name"]
            self.assertEqual(ours["hop_count"] - 1, hops[(leaf, dst)], (src, dst))
            self.assertEqual(by_lid[dst]["name"], ours["hops"][-1]["name"])

    def test_1b_dump_is_ibroutes(self):
        fabric = self.fabric()
        doc = rktest.run_json(self.sim.run, RDMAKIT, "route", "dump")
        self.assertEqual(len(doc["switches"]),
                         sum(1 for n in fabric["nodes"] if n["type"] == "switch"))
        for table in doc["switches"]:
            out = self.sim.run("ibroute", str(table["lid"])).stdout
            theirs = {int(m.group(1), 16): int(m.group(2))
                      for m in re.finditer(r"^(0x[0-9a-f]{4}) (\d{3}) :", out, re.M)}
            ours = {e["dest_lid"]: e["out_port"] for e in table["entries"]}
            self.assertEqual(ours, theirs, table["name"])
            names = {e["destination"] for e in table["entries"]}
            self.assertLessEqual(names, {n["name"] for n in fabric["nodes"]})

    def test_2_minhop_and_updn_sound(self):
        fabric = self.fabric()
        for engine in ("minhop", "updn"):
            with self.subTest(engine=engine):
                self.restart_opensm(engine)
                doc = self.wait_sound()
                self.assert_sound(doc, fabric)
                self.assertEqual(self.lft_balance_flagged(), self.ours_flagged(doc))

    def test_2b_lmc_1_every_lid_is_a_destination(self):
        fabric = self.fabric()
        cas = [n for n in fabric["nodes"] if n["type"] == "ca"]
        switches = [n for n in fabric["nodes"] if n["type"] == "switch"]
        self.restart_opensm("minhop -l 1")
        want = 2 * len(cas) + len(switches)  # OpenSM gives switch port 0 LMC 0
        doc = rktest.wait_for(lambda: (lambda d: d if d["summary"]["destinations"] == want
                                       and d["summary"]["reached"] == d["summary"]["routes"]
                                       else None)(self.check()), 30, "LMC 1 routed")
        s = doc["summary"]
        self.assertEqual(s["reached"], s["routes"])
        self.assertEqual(s["longer"], 0)
        self.assert_degraded_link(doc, len(switches), lids=2)
        leaves = [b for b in doc["balance"] if b["rank"] == 1]
        self.assertTrue(all(b["min"] + b["max"] == 12 for b in leaves), leaves)  # 2 x 12 / 4
        self.assertEqual(self.lft_balance_flagged(), self.ours_flagged(doc))

    def test_3_hole_loop_and_imbalance_written_into_tables(self):
        self.restart_opensm("ftree")
        self.wait_sound()
        self.sim.stop_opensm()
        fabric = self.fabric()
        by_name = {n["name"]: n for n in fabric["nodes"]}
        dump = rktest.run_json(self.sim.run, RDMAKIT, "route", "dump", "Leaf2")["switches"][0]
        entries = {e["dest_lid"]: e for e in dump["entries"]}
        hole = by_name["host9 HCA-1"]["lid"]    # on Leaf3: Leaf2 sends it up
        looped = by_name["host5 HCA-1"]["lid"]  # on Leaf2: sent up, the spine sends it back
        up = entries[hole]["out_port"]
        done = self.sim.run(simlib.LFT_SET, str(by_name["Leaf2"]["lid"]), f"{hole}=255",
                            f"{looped}={up}")
        self.assertEqual(done.returncode, 0, done.stderr)
        doc = self.check(rc=2)
        route = [(f["code"], f["subject"]) for f in doc["findings"]
                 if f["code"].startswith(ROUTE_CODES) and f["code"] != DEGRADED]
        self.assertEqual(sorted(route), [("ROUTE_HOLE", "Leaf2"), ("ROUTE_LOOP", "Leaf2")])
        self.assertEqual(doc["summary"]["holes"], 1)  # only Leaf2's own route passes there
        self.assertEqual(doc["summary"]["loops"], 6)  # from every switch
        trace = self.trace(by_name["host6 HCA-1"]["lid"], hole, rc=2)  # host6 hangs on Leaf2
        self.assertEqual(trace["end"], "hole")
        self.assertEqual(trace["hops"][-1]["name"], "Leaf2")

        # Two more CA LIDs of Leaf3 moved from one up-link to another: 1, 5, 3, 3.
        dump = rktest.run_json(self.sim.run, RDMAKIT, "route", "dump", "Leaf3")["switches"][0]
        ups = collections.defaultdict(list)
        for e in dump["entries"]:
            owner = by_name.get(e["destination"])
            if e["out_port"] >= 5 and owner and owner["type"] == "ca":
                ups[e["out_port"]].append(e["dest_lid"])
        src, dst = sorted(ups)[:2]
        moved = [f"{lid}={dst}" for lid in ups[src][:2]]
        done = self.sim.run(simlib.LFT_SET, str(by_name["Leaf3"]["lid"]), *moved)
        self.assertEqual(done.returncode, 0, done.stderr)
        doc = self.check(rc=2)
        self.assertEqual(self.ours_flagged(doc), {"Leaf3"})
        # check_lft_balance weighs a leaf's host ports too: Leaf2's port to host5, whose LID
        # the loop sends up, carries 0 LIDs next to 3 on the up-links. rdmakit weighs up-links
        # only (the loop is its own finding).
        self.assertEqual(self.lft_balance_flagged(), {"Leaf3", "Leaf2"})

    def test_3b_linear_fdb_top_past_the_unicast_range_is_refused(self):
        leaf3 = self.sim.lid("Leaf3")  # OpenSM still stopped (test 3)
        done = self.sim.run(simlib.LFT_SET, str(leaf3), f"top={0xc000}")
        self.assertEqual(done.returncode, 0, done.stderr)
        proc = self.sim.run(RDMAKIT, "route", "check", "--json")
        doc = json.loads(proc.stdout)
        self.assertIn("switch Leaf3: LinearFDBTop 49152 is past the unicast LID range",
                      proc.stderr)
        unread = [f for f in doc["findings"] if f["code"] == "ROUTE_TABLE_UNREAD"]
        self.assertEqual([f["subject"] for f in unread], ["Leaf3"])
        self.assertEqual(doc["summary"]["tables_read"], doc["summary"]["switches"] - 1)
        self.assertTrue(doc["summary"]["unknown"] > 0)
        self.assertNotIn("Leaf3", self.ours_flagged(doc))  # not weighed unread
        self.assertEqual(sorted(f["code"] for f in doc["findings"] if f["code"] != DEGRADED),
                         ["ROUTE_HOLE", "ROUTE_LOOP", "ROUTE_TABLE_UNREAD"])

    def test_4_unlinked_spine_link_is_a_dead_end_until_rerouted(self):
        self.sim.opensm_routing("minhop")  # a fresh routing repairs test 3's tables
        self.wait_sound()
        pid = self.sim.opensm_pid()
        os.kill(pid, signal.SIGSTOP)
        try:
            self.sim.cmd('Unlink "Leaf2"[5]')
            doc = self.check(rc=2)
            codes = {f["code"] for f in doc["findings"]
                     if f["code"].startswith(ROUTE_CODES) and f["code"] != DEGRADED}
            self.assertEqual(codes, {"ROUTE_DEAD_END"})
            subjects = {f["subject"] for f in doc["findings"]}
            self.assertIn("Leaf2", subjects)
        finally:
            os.kill(pid, signal.SIGCONT)
        t0 = time.monotonic()
        doc = self.wait_sound(timeout=40)
        print(f"test_route: rerouted {time.monotonic() - t0:.1f} s after OpenSM resumed",
              file=sys.stderr)
        self.assertEqual(doc["summary"]["dead_ends"], 0)
        leaf2 = next(b for b in doc["balance"] if b["name"] == "Leaf2")
        self.assertEqual(leaf2["uplinks"], 3)


if __name__ == "__main__":
    unittest.main(verbosity=2)
