#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit-agentx in fabric and SM mode against a real ibsim + OpenSM (through the umad2sim
shim), served by a real snmpd: the node and port tables match the simulated fabric, a
PerformanceSet counter shows up with its value, the master SM is served, and after an
Unlink/ReLink and rediscoveries every row keeps its index; checked against a plan saved by
rdmakit fabric --save (expect), a cable unlinked on ibsim's console is one LINK_MISSING row
with one raised and one cleared trap, and a SIGHUP to another plan (a link planned faster) is
LINK_BELOW_PLAN without a restart."""
import os
import re
import signal
import sys
import tempfile
import time
import unittest

import snmptest
from snmptest import Setup, Trapd
from rktest import RDMAKIT, fixture, umad2sim_env, wait_for

sys.path.insert(0, os.path.join(snmptest.TOP, "tests", "sim"))
import simlib  # noqa: E402

LEAVES, HOSTS, SPINES, RADIX = 2, 4, 1, 8
LEAF = 0x0002c90200100000
SPINE = 0x0002c90200200000
HCA = 0x0002c90300000000


def guid_index(guid):
    return ".".join(str(guid >> (56 - 8 * i) & 0xff) for i in range(8))



def column(rows, entry, col):
    """{index suffix: value} of one column of a numeric walk."""
    prefix = tuple(int(x) for x in (snmptest.ROOT_OID + entry).strip(".").split("."))
    out = {}
    for oid, _, value in rows:
        if oid[:len(prefix)] == prefix and oid[len(prefix)] == col:
            out[".".join(map(str, oid[len(prefix) + 1:]))] = value.strip('"')
    return out


NODE, PORT, COUNTER, SM = ".1.5.1.1", ".1.5.2.1", ".1.5.3.1", ".1.4.2.1"
SYMBOL_ERROR = 30  # the catalog's column of symbol_error (tests/snmp/test_columns.py)
XMIT_WAIT = 93  # rdmakitFcXmitWaitPercent
LOST_BANDWIDTH = 94  # rdmakitFcLostBandwidth
CONGESTED = (r"rdmakitFinding(Raised|Cleared)\s+RDMAKIT-MIB::rdmakitFindingCode\.\d+ = "
             r"PORT_CONGESTED")


class FabricMode(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), leaves=LEAVES, hosts=HOSTS,
                              spines=SPINES, radix=RADIX, slow=["Leaf2:3=4xSDR"])
        names = os.path.join(cls.tmp.name, "names")
        with open(names, "w") as f:
            f.write(f'0x{LEAF + 1:016x} "leaf-r1"\n')
        cls.sim = simlib.Sim(f"rksnmp{os.getpid()}", net, cls.tmp.name).__enter__()
        cls.trapd = None
        try:
            cls.sim.opensm("Hca1", 10)
            cls.plan = os.path.join(cls.tmp.name, "fabric.plan")
            proc = cls.sim.run(RDMAKIT, "fabric", "--save", cls.plan)
            assert proc.returncode == 0, proc.stderr
            with open(cls.plan) as f:
                cls.plan_text = f.read()
            cls.config = (f"refresh 0.5\nfabric yes\nsm yes\nfabric-interval 1\nrediscover 2\n"
                          f"node-name-map {names}\nxmit-wait-tick 100\n")
            cls.setup = Setup(fixture("ib-hdr"), config=f"{cls.config}expect {cls.plan}\n",
                              env_extra=umad2sim_env(cls.sim.name))
            cls.trapd = Trapd(cls.setup.workdir, snmptest.free_port())
            with open(cls.setup.snmpd.conf, "a") as f:
                f.write(f"trap2sink 127.0.0.1:{cls.trapd.port} public\n")
            cls.setup.__enter__()
            wait_for(lambda: column(cls.setup.walk(snmptest.ROOT_OID + NODE), NODE, 2), 30,
                     "the fabric node table")
        except BaseException:
            if cls.trapd:
                cls.trapd.stop()
            cls.sim.__exit__(None, None, None)
            raise

    @classmethod
    def tearDownClass(cls):
        cls.trapd.stop()
        cls.setup.__exit__(None, None, None)
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()

    def expected_guids(self):
        return ([LEAF + n for n in range(1, LEAVES + 1)] +
                [SPINE + n for n in range(1, SPINES + 1)] +
                [HCA + 16 * n for n in range(1, LEAVES * HOSTS + 1)])

    def expected_nodes(self):
        nodes = {LEAF + n: 2 for n in range(1, LEAVES + 1)}
        nodes.update({SPINE + n: 2 for n in range(1, SPINES + 1)})
        nodes.update({HCA + 16 * n: 1 for n in range(1, LEAVES * HOSTS + 1)})
        return {guid_index(g): str(t) for g, t in nodes.items()}

    def test_served_modes_name_fabric_and_sm(self):
        """Issue 19: the modes a template discovers the SM and fabric objects by."""
        agent = self.setup.named(snmptest.ROOT_OID + ".1.1")
        self.assertEqual(agent["rdmakitServedModes.0"], "host,fabric,sm")
        sm = self.setup.named(snmptest.ROOT_OID + ".1.4")
        self.assertGreater(int(sm["rdmakitSmMasterLid.0"]), 0)

    def test_nodes_match_the_fabric(self):
        rows = self.setup.walk(snmptest.ROOT_OID + ".1.5")
        self.assertEqual(column(rows, NODE, 2), self.expected_nodes())
        names = column(rows, NODE, 4)
        self.assertEqual(names[guid_index(LEAF + 1)], "leaf-r1")
        self.assertEqual(names[guid_index(HCA + 16 * 3)], "host3 HCA-1")
        lids = column(rows, NODE, 5)
        self.assertEqual(int(lids[guid_index(LEAF + 1)]), self.sim.lid("Leaf1"))
        self.assertEqual(column(rows, NODE, 6)[guid_index(LEAF + 1)], str(RADIX))
        self.assertEqual(column(rows, NODE, 7), {k: snmptest.guid_text(g) for k, g in (
            (guid_index(g), g) for g in self.expected_guids())})

    def test_ports_and_the_degraded_link(self):
        rows = self.setup.walk(snmptest.ROOT_OID + PORT)
        states = column(rows, PORT, 2)
        for n in range(1, LEAVES * HOSTS + 1):
            self.assertEqual(states[guid_index(HCA + 16 * n) + ".1"], "4")  # active
        self.assertEqual(column(rows, PORT, 6), {})  # the peer's GUID as octets: not served
        self.assertEqual(column(rows, PORT, 7)[guid_index(LEAF + 1) + ".2"], "1")
        texts = column(rows, PORT, 10)
        self.assertEqual(texts[guid_index(LEAF + 1) + ".2"], "0002:c903:0000:0020")
        self.assertEqual(texts[guid_index(HCA + 16 * 2) + ".1"], snmptest.guid_text(LEAF + 1))
        unlinked = set(texts) - set(column(rows, PORT, 7))  # no peer port: no peer
        self.assertTrue(unlinked, "a leaf has free ports")
        self.assertEqual({texts[k] for k in unlinked}, {""})
        degraded = {k for k, v in column(rows, PORT, 8).items() if v == "1"}
        self.assertEqual(degraded, {guid_index(LEAF + 2) + ".3", guid_index(HCA + 16 * 7) + ".1"})
        self.assertIn("SDR", column(rows, PORT, 9)[guid_index(LEAF + 2) + ".3"])
        names = column(rows, PORT, 12)  # rdmakitFpName: as findings name the port
        self.assertEqual(names[guid_index(LEAF + 1) + ".2"], "leaf-r1[2]")
        self.assertEqual(names[guid_index(HCA + 16 * 3) + ".1"], "host3 HCA-1[1]")
        self.assertEqual(set(names), set(states))

    def test_performance_set_counter(self):
        self.sim.cmd('PerformanceSet "Leaf1"[3] PortCounters.SymbolErrorCounter=5')
        key = guid_index(LEAF + 1) + ".3"
        wait_for(lambda: column(self.setup.walk(snmptest.ROOT_OID + COUNTER), COUNTER,
                                SYMBOL_ERROR)
                 .get(key, "").split(" ")[0] == "5", 15, "SymbolErrorCounter 5 served")

    def test_congested_port_served_raised_once_and_cleared(self):
        """A port whose wait rises 5,000,000 ticks a second at 100 ns a tick (xmit-wait-tick)
        waits about half of each interval: served in rdmakitFcXmitWaitPercent, and the data
        rate its 4X EDR link lost in rdmakitFcLostBandwidth (Mb/s: 1% of 100 Gb/s is 1000),
        PORT_CONGESTED raised once after two intervals and cleared when the wait stops
        rising."""
        started = time.monotonic()
        key = guid_index(SPINE + 1) + ".2"
        raiser = simlib.WaitRaiser(self.sim, '"Spine1"[2]').start()
        try:
            wait_for(lambda: len(re.findall(CONGESTED, self.trapd.text())) == 1, 20,
                     "PORT_CONGESTED raised")
            walk = self.setup.walk(snmptest.ROOT_OID + COUNTER)
            both = self.setup.get_values(*(f"{snmptest.ROOT_OID}{COUNTER}.{col}.{key}"
                                           for col in (XMIT_WAIT, LOST_BANDWIDTH)))
            findings = self.setup.named("RDMAKIT-MIB::rdmakitFindingTable")
        finally:
            raiser.stop()
        waits, lost = (column(walk, COUNTER, col) for col in (XMIT_WAIT, LOST_BANDWIDTH))
        self.assertIn(key, waits, waits)
        self.assertTrue(1000 <= int(waits[key].split(" ")[0]) <= 10000, waits)  # 10% to 100%
        wait, gbps = (int(v.split(" ")[0]) for v in both)  # one request: one sweep's values
        self.assertAlmostEqual(gbps, wait * 10, delta=10)
        self.assertEqual(waits[guid_index(SPINE + 1) + ".1"].split(" ")[0], "0")
        self.assertEqual(lost[guid_index(SPINE + 1) + ".1"].split(" ")[0], "0")
        subjects = [v for k, v in findings.items() if k.startswith("rdmakitFindingSubject")]
        codes = [v for k, v in findings.items() if k.startswith("rdmakitFindingCode")]
        self.assertEqual(subjects[codes.index("PORT_CONGESTED")], "Spine1[2]")
        wait_for(lambda: len(re.findall(CONGESTED, self.trapd.text())) == 2, 20,
                 "PORT_CONGESTED cleared")
        time.sleep(2)
        self.assertEqual([m.group(1) for m in re.finditer(CONGESTED, self.trapd.text())],
                         ["Raised", "Cleared"])
        self.assertIn("rdmakitFindingSubject", self.trapd.text())
        self.assertIn("Spine1[2]", self.trapd.text())
        print(f"congestion over SNMP: {time.monotonic() - started:.1f} s", file=sys.stderr)

    def test_snmptable(self):
        out = self.setup.tool("snmptable", "-Cf", ",", "-CH", "-Ci", "-Ob",
                              "RDMAKIT-MIB::rdmakitFabricNodeTable")
        rows = {line.split(",")[0]: line.split(",")[1] for line in out.strip().splitlines()}
        self.assertEqual(rows, {k: {"1": "ca", "2": "switch"}[v]
                                for k, v in self.expected_nodes().items()})

    def test_fabric_summary(self):
        values = self.setup.named("RDMAKIT-MIB::rdmakitFabricSummary")
        self.assertEqual(values["rdmakitFabricNodes.0"], str(LEAVES + SPINES + LEAVES * HOSTS))
        self.assertEqual(values["rdmakitFabricSwitches.0"], str(LEAVES + SPINES))
        self.assertEqual(values["rdmakitFabricCas.0"], str(LEAVES * HOSTS))
        self.assertEqual(values["rdmakitFabricDegradedLinks.0"], "1")

    def test_master_sm(self):
        values = self.setup.named("RDMAKIT-MIB::rdmakitSm")
        self.assertEqual(values["rdmakitSmMasterLid.0"], str(self.sim.lid("host1 HCA-1")))
        self.assertEqual(values["rdmakitSmMasterState.0"], "3")  # master
        self.assertEqual(values["rdmakitSmMasters.0"], "1")
        self.assertEqual(values["rdmakitSmStandbys.0"], "0")
        text = values["rdmakitSmMasterGuidText.0"]
        self.assertRegex(text, r"^[0-9a-f]{4}(:[0-9a-f]{4}){3}$")
        self.assertIn(int(text.replace(":", ""), 16) - (HCA + 16), range(16), "Hca1's")
        self.assertNotIn("rdmakitSmMasterGuid.0", values)  # octets only in the notification
        sms = column(self.setup.walk(snmptest.ROOT_OID + SM), SM, 11)  # rdmakitSmGuidText
        self.assertEqual(sms, {guid_index(int(text.replace(":", ""), 16)): text}, "its index")

    def test_every_guid_is_served_in_the_kernels_form(self):
        """Every object of the MIB whose syntax is a GUID, walked with the MIB loaded: the
        octets (RdmakitGuid) only as indexes, never a value; every text (RdmakitGuidText) as
        the kernel writes one, zero-padded, or empty for a port without a peer."""
        with open(os.path.join(snmptest.TOP, "mibs", "RDMAKIT-MIB.txt")) as f:
            syntax = dict(re.findall(r"^(\w+) OBJECT-TYPE\s+SYNTAX\s+(\w+)", f.read(), re.M))
        values = self.setup.named()
        served = {}
        for name, value in values.items():
            served.setdefault(syntax.get(name.split(".")[0]), []).append((name, value))
        self.assertNotIn("RdmakitGuid", served)
        texts = served["RdmakitGuidText"]
        self.assertEqual({n.split(".")[0] for n, _ in texts},
                         {"rdmakitDeviceNodeGuidText", "rdmakitDeviceSysImageGuidText",
                          "rdmakitPortGuid", "rdmakitSmMasterGuidText", "rdmakitSmGuidText",
                          "rdmakitFnGuidText", "rdmakitFpPeerGuidText",
                          "rdmakitFindingNodeGuid"})
        for name, value in texts:
            if name.startswith(("rdmakitFpPeerGuidText", "rdmakitFindingNodeGuid")) and \
                    value == "":
                continue  # a port without a peer, a finding about no fabric node
            self.assertRegex(value, r"^[0-9a-f]{4}(:[0-9a-f]{4}){3}$", name)
        self.assertEqual(values["rdmakitDeviceNodeGuidText.1"], "b859:9f03:00d4:6f2a")
        spine = column(self.setup.walk(snmptest.ROOT_OID + NODE), NODE, 7)[guid_index(SPINE + 1)]
        self.assertEqual(spine, "0002:c902:0020:0001")

    def test_indexes_survive_unlink_relink(self):
        before = [r[0] for r in self.setup.walk(snmptest.ROOT_OID + NODE)]
        self.sim.cmd('Unlink "Hca4"[1]')
        gone = guid_index(HCA + 16 * 4)
        wait_for(lambda: gone not in column(self.setup.walk(snmptest.ROOT_OID + NODE), NODE, 2),
                 20, "Hca4 gone after a rediscovery")
        self.sim.cmd('ReLink "Hca4"[1]')
        wait_for(lambda: [r[0] for r in self.setup.walk(snmptest.ROOT_OID + NODE)] == before,
                 30, "every node back at its index")

    def findings(self):
        """{(code, subject): {column: value}} of the plan's rows of rdmakitFindingTable."""
        rows = {}
        for name, value in self.setup.named("RDMAKIT-MIB::rdmakitFindingTable").items():
            m = re.match(r"rdmakitFinding(\w+)\.(\d+)$", name)
            if m:
                rows.setdefault(m.group(2), {})[m.group(1)] = value
        return {(r.get("Code"), r.get("Subject")): r for r in rows.values()
                if r.get("Code", "").startswith(("LINK_MIS", "LINK_UN", "LINK_BELOW", "NODE_",
                                                  "PLAN_"))}

    def traps(self, kind, code):
        """The trap records of kind (rdmakitFindingRaised, ...) that carry code."""
        return [b for b in re.split(r"\n(?=\S)", self.trapd.text()) if kind in b and code in b]

    def test_plan_1_unlink_is_one_row_and_two_traps(self):
        wait_for(lambda: f"fabric plan {self.plan} read: 11 nodes" in self.setup.agent.log(), 10,
                 "the plan read")
        # none as saved (test_indexes_survive_unlink_relink's NODE_MISSING has cleared)
        wait_for(lambda: not self.findings(), 10, "no plan finding")
        self.assertEqual(self.traps("rdmakitFindingRaised", "LINK_"), [])
        self.sim.cmd('Unlink "Leaf2"[6]')  # to Spine1[6]
        key = ("LINK_MISSING", "Leaf2[6]-Spine1[6]")
        try:
            row = wait_for(lambda: self.findings().get(key), 30, "the LINK_MISSING row")
            self.assertEqual(set(self.findings()), {key})
        finally:
            self.sim.cmd('ReLink "Leaf2"[6]')
        self.assertEqual(row["Severity"], "2")  # warning
        self.assertIn(f"0x{LEAF + 2:016x}[6] - 0x{SPINE + 1:016x}[6] (4X EDR) is not up",
                      row["Message"])
        wait_for(lambda: key not in self.findings(), 30, "the row gone after ReLink")
        wait_for(lambda: self.traps("rdmakitFindingCleared", "LINK_MISSING"), 10,
                 "the clear trap")
        [raised] = self.traps("rdmakitFindingRaised", "LINK_MISSING")
        self.assertIn("Leaf2[6]-Spine1[6]", raised)
        self.assertIn("rdmakitNotifySeverity.0 = warning", raised)
        self.assertEqual(len(self.traps("rdmakitFindingCleared", "LINK_MISSING")), 1)

    def test_plan_2_sighup_to_another_plan(self):
        slow = f"0x{HCA + 16 * 7:016x}[1] 4X SDR"
        self.assertEqual(self.plan_text.count(slow), 1, self.plan_text)
        faster = os.path.join(self.tmp.name, "faster.plan")
        with open(faster, "w") as f:
            f.write(self.plan_text.replace(slow, f"0x{HCA + 16 * 7:016x}[1] 4X EDR"))
        key = ("LINK_BELOW_PLAN", "Leaf2[3]-host7 HCA-1[1]")
        for plan, present in ((faster, True), (self.plan, False)):
            with open(self.setup.agent.config, "w") as f:
                f.write(f"{self.config}expect {plan}\n")
            self.setup.agent.proc.send_signal(signal.SIGHUP)
            wait_for(lambda: (key in self.findings()) == present, 30,
                     f"LINK_BELOW_PLAN {'raised' if present else 'cleared'}")
        self.assertIn(f"expect {faster} from the next sweep on", self.setup.agent.log())
        self.assertNotIn("expect change only at a restart", self.setup.agent.log())
        wait_for(lambda: self.traps("rdmakitFindingCleared", "LINK_BELOW_PLAN"), 10,
                 "the clear trap")
        self.assertEqual(len(self.traps("rdmakitFindingRaised", "LINK_BELOW_PLAN")), 1)
        self.assertIn("runs 4X SDR, the plan has 4X EDR",
                      self.traps("rdmakitFindingRaised", "LINK_BELOW_PLAN")[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
