#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit fabric --save / --expect and doctor --fabric --expect against a real ibsim +
OpenSM: a saved plan and the sim's own ibnetdiscover output give no finding; a plan edited to
move a cable, to give a switch another GUID or to plan 4X on a 1X link gives exactly its
finding; an unlinked cable is LINK_MISSING with both ends named and a cable moved in the sim
(Unlink + Link) LINK_MISWIRED, each gone once put back."""
import json
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "lib")]
import rktest  # noqa: E402
import simlib  # noqa: E402
from rktest import RDMAKIT  # noqa: E402

HEALTHY_HOST = os.path.join(os.environ.get("FIXTURES", os.path.join(HERE, "..", "fixtures")),
                            "sysfs", "ib-hdr")
SPINE = "0x0002c90200200001"


class Plan(simlib.SimTestCase):
    # Leaf1, Leaf2: ports 1-2 to hosts, 3-6 to Spine1; Leaf2[1] - host3 runs 1X.
    NET = {"leaves": 2, "hosts": 2, "spines": 1, "radix": 8, "slow": ["Leaf2:1=1xEDR"]}
    PREFIX = "rkplan"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        try:  # unittest skips tearDownClass when setUpClass fails: stop the sim here then
            cls.saved = os.path.join(cls.tmp.name, "fabric.plan")
            proc = cls.sim.run(RDMAKIT, "fabric", "--save", cls.saved)
            if proc.returncode != 0:
                raise AssertionError(f"fabric --save: {proc.returncode}: {proc.stderr}")
            with open(cls.saved) as f:
                cls.text = f.read()
        except BaseException:
            cls.tearDownClass()
            raise

    def expect(self, text, rc):
        path = os.path.join(self.tmp.name, f"plan-{self.id().split('.')[-1]}")
        with open(path, "w") as f:
            f.write(text)
        return rktest.run_json(self.sim.run, RDMAKIT, "fabric", "--expect", path,
                               rc=rc)["findings"]

    def edited(self, old, new):
        self.assertEqual(self.text.count(old), 1, old)
        return self.text.replace(old, new)

    def test_saved_plan_has_every_node_and_link(self):
        lines = self.text.splitlines()
        self.assertEqual(sum(1 for l in lines if l.startswith("node ")), 3 + 4)
        links = [l for l in lines if l.startswith("0x")]
        self.assertEqual(len(links), 4 + 8)
        self.assertIn(f'0x0002c90200100001[3] -> {SPINE}[1] 4X EDR  # "Leaf1" - "Spine1"',
                      links)
        self.assertIn('0x0002c90200100002[1] -> 0x0002c90300000030[1] 1X EDR  # "Leaf2" - '
                      '"host3 HCA-1"', links)
        self.assertEqual(links, sorted(links))

    def test_saved_plan_gives_no_finding(self):
        self.assertEqual(self.expect(self.text, 0), [])

    def test_doctor_expect(self):
        proc = self.sim.run(RDMAKIT, "doctor", "--fabric", "--json", "--sysfs-root",
                            HEALTHY_HOST, "--expect", self.saved)
        codes = {f["code"] for f in json.loads(proc.stdout)["findings"]}
        self.assertFalse({c for c in codes if c.startswith(("NODE_", "LINK_M", "LINK_B"))},
                         codes)
        moved = os.path.join(self.tmp.name, "moved-for-doctor")
        with open(moved, "w") as f:
            f.write(self.edited(f"{SPINE}[1] 4X", f"{SPINE}[7] 4X").replace(
                "0x0002c90200100002[5] -> 0x0002c90200200001[7]",
                "0x0002c90200100002[5] -> 0x0002c90200200001[1]"))
        proc = self.sim.run(RDMAKIT, "doctor", "--fabric", "--json", "--sysfs-root",
                            HEALTHY_HOST, "--expect", moved)
        doc = json.loads(proc.stdout)
        self.assertGreaterEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(sorted(f["code"] for f in doc["findings"]
                                if f["code"].startswith("LINK_MIS")),
                         ["LINK_MISWIRED", "LINK_MISWIRED"])

    def test_ibnetdiscover_output_as_plan_gives_no_finding(self):
        proc = self.sim.run("ibnetdiscover")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('Switch\t8 "S-0002c90200200001"', proc.stdout)
        self.assertEqual(self.expect(proc.stdout, 0), [])

    def test_moved_cable_is_one_miswire(self):
        # The plan puts host1 on Leaf1[7]; it is cabled to Leaf1[1].
        text = self.edited("0x0002c90200100001[1] -> 0x0002c90300000010[1]",
                           "0x0002c90200100001[7] -> 0x0002c90300000010[1]")
        [f] = self.expect(text, 1)
        self.assertEqual((f["code"], f["subject"]), ("LINK_MISWIRED", "Leaf1[7]-host1 HCA-1[1]"))
        self.assertIn("the cable joins Leaf1[1] - host1 HCA-1[1]", f["message"])

    def test_switch_with_another_guid_is_replaced(self):
        text = self.text.replace(SPINE, "0x0002c902002000ff")
        [f] = self.expect(text, 1)
        self.assertEqual((f["code"], f["subject"]),
                         ("NODE_REPLACED", "Spine1 (0x0002c902002000ff)"))
        self.assertIn(f"switch {SPINE} is cabled where the plan has 0x0002c902002000ff",
                      f["message"])

    def test_planned_4x_on_a_1x_link_is_below_plan(self):
        text = self.edited("0x0002c90300000030[1] 1X EDR", "0x0002c90300000030[1] 4X EDR")
        [f] = self.expect(text, 1)
        self.assertEqual((f["code"], f["subject"]), ("LINK_BELOW_PLAN", "Leaf2[1]-host3 HCA-1[1]"))
        self.assertIn("runs 1X EDR, the plan has 4X EDR", f["message"])

    def test_unlinked_cable_is_missing_then_cleared(self):
        self.sim.cmd('Unlink "Leaf1"[3]')
        try:
            [f] = self.expect(self.text, 1)
        finally:
            self.sim.cmd('ReLink "Leaf1"[3]')
        self.assertEqual((f["code"], f["subject"]), ("LINK_MISSING", "Leaf1[3]-Spine1[1]"))
        self.assertIn(f"0x0002c90200100001[3] - {SPINE}[1] (4X EDR) is not up", f["message"])
        self.assertEqual(self.expect_until(0), [])

    def expect_until(self, rc):
        """The findings of --expect against the saved plan once it exits rc (the SM brings a
        relinked port ACTIVE in well under a second on this tree)."""
        for _ in range(50):
            proc = self.sim.run(RDMAKIT, "fabric", "--expect", self.saved, "--json")
            if proc.returncode == rc:
                break
            time.sleep(0.2)
        self.assertEqual(proc.returncode, rc, proc.stderr)
        return json.loads(proc.stdout)["findings"]

    def test_cable_moved_in_the_sim_then_put_back(self):
        # host2's cable from Leaf1[2] to Leaf1[7], then back.
        self.sim.cmd('Unlink "Hca2"[1]')
        self.sim.cmd('Link "Leaf1"[7] "Hca2"[1]')
        try:
            [f] = self.expect_until(1)
        finally:
            self.sim.cmd('Unlink "Hca2"[1]')
            self.sim.cmd('Link "Leaf1"[2] "Hca2"[1]')
        self.assertEqual((f["code"], f["subject"]), ("LINK_MISWIRED", "Leaf1[2]-host2 HCA-1[1]"))
        self.assertIn("the cable joins Leaf1[7] - host2 HCA-1[1]", f["message"])
        self.assertEqual(self.expect_until(0), [])

    def test_bad_lines_named_rest_compared(self):
        path = os.path.join(self.tmp.name, "bad.plan")
        with open(path, "w") as f:
            f.write(self.text + "0x0002c90200100001[7] -> nowhere\n")
        proc = self.sim.run(RDMAKIT, "fabric", "--expect", path, "--json")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        nlines = self.text.count("\n") + 1
        self.assertIn(f"{path}:{nlines}: expected 0xGUID[PORT] after ->", proc.stderr)
        self.assertEqual([f["code"] for f in json.loads(proc.stdout)["findings"]],
                         ["PLAN_LINES_SKIPPED"])

    def test_save_refuses_a_non_regular_file(self):
        fifo = os.path.join(self.tmp.name, "fifo")
        os.mkfifo(fifo)
        proc = self.sim.run(RDMAKIT, "fabric", "--save", fifo)
        self.assertEqual(proc.returncode, 3)
        self.assertIn(f"{fifo}: not a regular file", proc.stderr)
        proc = self.sim.run(RDMAKIT, "fabric", "--expect", fifo)
        self.assertEqual(proc.returncode, 3)
        self.assertIn(f"{fifo}: cannot read the fabric plan: not a regular file", proc.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
