#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd with rdmakit.so in fabric mode, sending MADs into a real ibsim + OpenSM
through the umad2sim shim: every swept port's values, counters set on ibsim's console, the
fabric-wide values, and findings (a slow link, a saturated counter, rising errors) notified
once each; and the fabric checked against a plan saved by rdmakit fabric --save (Expect): no
finding as saved, a cable unlinked on ibsim's console LINK_MISSING once and cleared once, the
plan file edited while collectd runs LINK_BELOW_PLAN without a restart, two cables swapped
LINK_MISWIRED; write_prometheus serves every fabric value between two sweeps (their value lists
say FabricInterval, not the reads' quarter of it, so collectd's cache does not drop them).
collectd's BaseDir is its working directory, where the shim writes ./sys-<pid>/."""
import os
import re
import sys
import tempfile
import time
import unittest

import cdtest

sys.path.insert(0, os.path.join(cdtest.TOP, "tests", "sim"))
import simlib  # noqa: E402

PLUGIN = "rdma_fabric"
LEAVES, HOSTS, SPINES, RADIX = 4, 4, 2, 8
# gen-fattree.py's GUIDs (see tests/sim/README.md)
LEAF = 0x0002c90200100000
SPINE = 0x0002c90200200000
HCA = 0x0002c90300000000
RDMAKIT = os.environ.get("RDMAKIT", os.path.join(cdtest.TOP, "build", "cli", "rdmakit"))
PLAN_CODES = {"LINK_MISSING", "LINK_UNEXPECTED", "LINK_MISWIRED", "LINK_BELOW_PLAN",
              "NODE_MISSING", "NODE_UNEXPECTED", "NODE_REPLACED", "PLAN_LINES_SKIPPED",
              "PLAN_UNREADABLE"}


def expected_instances():
    """The plugin instance of every port the sweep reads: every switch port, CA port 1.
    The name map below names Leaf1 "leaf1" and Hca7 "host7 HCA-1" (made "host7_HCA-1")."""
    names = {f"0x{LEAF + n:016x}": f"0x{LEAF + n:016x}" for n in range(1, LEAVES + 1)}
    names.update({f"0x{SPINE + n:016x}": f"0x{SPINE + n:016x}" for n in range(1, SPINES + 1)})
    names[f"0x{LEAF + 1:016x}"] = "leaf1"
    instances = {f"{name}-{p}" for name in names.values() for p in range(1, RADIX + 1)}
    for n in range(1, LEAVES * HOSTS + 1):
        instances.add(("host7_HCA-1" if n == 7 else f"0x{HCA + 16 * n:016x}") + "-1")
    return instances


class FabricMode(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), leaves=LEAVES, hosts=HOSTS,
                              spines=SPINES, radix=RADIX, slow=["Leaf2:3=4xSDR"])
        cls.name_map = os.path.join(cls.tmp.name, "node-name-map")
        with open(cls.name_map, "w") as f:
            f.write(f'0x{LEAF + 1:016x} "leaf1"\n0x{HCA + 16 * 7:016x} "host7 HCA-1"\n')
        cls.sim = simlib.Sim(f"rkcdf{os.getpid()}", net, cls.tmp.name).__enter__()
        try:
            cls.sim.opensm("Hca1", 10)
            cls.plan = os.path.join(cls.tmp.name, "fabric.plan")
            proc = cls.sim.run(RDMAKIT, "fabric", "--save", cls.plan)
            assert proc.returncode == 0, proc.stderr
            with open(cls.plan) as f:
                cls.plan_text = f.read()
            # Rediscover 2: a cable between two switches leaves every port answering, so only
            # a rediscovery sees it go
            cls.prom_port = cdtest.free_port()
            cls.daemon = cdtest.Daemon(cdtest.plugin_block(
                SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True, FabricInterval=1,
                NodeNameMap=cls.name_map, Notifications=True, Expect=cls.plan, Rediscover=2,
                XmitWaitTick=100),
                extra=cdtest.prometheus_block(cls.prom_port))
            status = cls.daemon.start(env=cdtest.sim_env(cls.sim.name))
            assert status == 0, cls.daemon.start_output
        except BaseException:
            cls.sim.__exit__(None, None, None)
            raise

    @classmethod
    def tearDownClass(cls):
        cls.daemon.cleanup()
        cls.sim.ctl("reap", cls.sim.name, check=False)
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()

    def last(self, instance, ident):
        return self.daemon.last(instance, ident, PLUGIN)

    def wait_last(self, instance, ident, value, timeout=20):
        cdtest.wait_for(lambda: self.last(instance, ident) == value, timeout,
                        f"{PLUGIN}-{instance} {ident} = {value}")

    def wait_sweeps(self, count):
        """Wait until count more sweeps have been sent."""
        start = len(self.daemon.rows("", "count-nodes", PLUGIN))
        cdtest.wait_for(lambda: len(self.daemon.rows("", "count-nodes", PLUGIN)) >= start + count,
                        30, f"{count} more sweeps")

    def notes(self, **match):
        return [n for n in self.daemon.notifications()
                if n.get("plugin") == PLUGIN and all(n.get(k, "") == v for k, v in match.items())]

    def test_every_swept_port_sends_its_data_counters(self):
        want = {f"{PLUGIN}-{i}" for i in expected_instances()}
        self.assertEqual(len(want), (LEAVES + SPINES) * RADIX + LEAVES * HOSTS)
        cdtest.wait_for(lambda: set(self.daemon.values_dirs(PLUGIN)) >= want, 20, "every port")
        self.assertEqual(set(self.daemon.values_dirs(PLUGIN)) - {PLUGIN}, want)
        for d in want:
            files = self.daemon.value_files(d[len(PLUGIN) + 1:], PLUGIN)
            self.assertIn("if_octets", files, d)
            self.assertNotIn("if_packets", files, d)  # FabricPackets false
        ibnd = self.sim.run("ibnetdiscover").stdout
        nodes, links = simlib.parse_ibnetdiscover(ibnd)
        facts = {"nodes": len(nodes), "switches": LEAVES + SPINES, "cas": LEAVES * HOSTS,
                 "links": links, "degraded_links": 1, "swept_ports": len(want),
                 "unanswered_ports": 0}
        for name, value in facts.items():
            self.assertEqual(self.last("", f"count-{name}"), [float(value)], name)
        seconds = self.last("", "duration-sweep")[0]
        self.assertTrue(0 < seconds < 5, seconds)
        self.assertEqual(self.daemon.errors(), [])
        self.assertNotIn("discovering in this process", self.daemon.log())  # the helper did

    def test_counters_set_on_the_console_arrive_with_their_value(self):
        cdtest.wait_for(lambda: self.last("leaf1-3", "if_octets"), 20, "the first sweep")
        self.assertIsNone(self.last("leaf1-3", "derive-symbol_error"))  # zero: not sent yet
        self.sim.cmd('PerformanceSet "Leaf1"[3] PortCounters.SymbolErrorCounter=5')
        self.sim.cmd('PerformanceSet "Leaf1"[4] PortCounters.PortXmitWait=123456')
        self.sim.cmd('PerformanceSet "Spine1"[2] PortCountersExtended.PortXmitData=1000000')
        self.wait_last("leaf1-3", "derive-symbol_error", [5])
        self.wait_last("leaf1-4", "derive-port_xmit_wait", [123456])
        cdtest.wait_for(lambda: (self.last(f"0x{SPINE + 1:016x}-2", "if_octets") or
                                 [0, 0])[1] >= 4000000, 20, "Spine1[2] data")
        # bytes: 1000000 words x 4, plus the MADs the simulator adds as they cross the port
        octets = self.last(f"0x{SPINE + 1:016x}-2", "if_octets")[1]
        self.assertTrue(4000000 <= octets < 4000000 + 65536, octets)
        # cleared after five sweeps without a rise (RK_ERRORS_QUIET_SWEEPS)
        cdtest.wait_for(lambda: len(self.notes(plugin_instance="leaf1-3",
                                               type_instance="ERRORS_RISING")) >= 2, 20,
                        "ERRORS_RISING cleared")
        self.wait_sweeps(2)
        rising = self.notes(plugin_instance="leaf1-3", type_instance="ERRORS_RISING")
        self.assertEqual([n["severity"] for n in rising], ["WARNING", "OKAY"], rising)
        self.assertEqual(rising[0]["message"],
                         "leaf1[3]: error counters rose between sweeps: symbol_error +5")
        log = self.daemon.log()
        self.assertEqual(log.count("[warning] rdmakit plugin: ERRORS_RISING leaf1[3]: "), 1)
        self.assertEqual(log.count("[info] rdmakit plugin: ERRORS_RISING leaf1[3]: cleared"), 1)

    def test_saturated_counter_is_not_sent_and_notified_once(self):
        instance = f"0x{LEAF + 3:016x}-1"
        self.sim.cmd('PerformanceSet "Leaf3"[1] PortCounters.SymbolErrorCounter=70000')
        cdtest.wait_for(lambda: self.notes(plugin_instance=instance,
                                           type_instance="COUNTER_SATURATED"), 20,
                        "the saturation notification")
        self.wait_sweeps(3)
        notes = self.notes(plugin_instance=instance, type_instance="COUNTER_SATURATED")
        self.assertEqual(len(notes), 1, notes)
        self.assertEqual(notes[0]["severity"], "WARNING")
        self.assertEqual(notes[0]["message"],
                         "Leaf3[1]: counters stuck at their maximum: symbol_error")
        self.assertIsNone(self.last(instance, "derive-symbol_error"))
        self.assertIn("[warning] rdmakit plugin: COUNTER_SATURATED Leaf3[1]: ", self.daemon.log())

    def test_congested_port_sends_its_wait_and_is_notified_once(self):
        """A port whose wait rises 5,000,000 ticks a second at 100 ns a tick (XmitWaitTick)
        waits about half of each interval: percent-xmit_wait, and gauge-lost_bandwidth the
        same share of its 4X EDR link's 100 Gb/s at each sweep; PORT_CONGESTED after two
        intervals, cleared when the wait stops rising; each notified once."""
        started = time.monotonic()
        instance = f"0x{SPINE + 2:016x}-4"
        raiser = simlib.WaitRaiser(self.sim, '"Spine2"[4]').start()
        try:
            cdtest.wait_for(lambda: self.notes(plugin_instance=instance,
                                               type_instance="PORT_CONGESTED"), 20,
                            "the congestion notification")
            wait = self.last(instance, "percent-xmit_wait")
            idle = self.last(f"0x{SPINE + 2:016x}-3", "percent-xmit_wait")
            idle_lost = self.last(f"0x{SPINE + 2:016x}-3", "gauge-lost_bandwidth")
        finally:
            raiser.stop()
        self.assertTrue(10 <= wait[0] <= 100, wait)
        self.assertEqual(idle, [0.0])
        self.assertEqual(idle_lost, [0.0])
        waits = {r[0]: r[1] for r in self.daemon.rows(instance, "percent-xmit_wait", PLUGIN)}
        lost = {r[0]: r[1] for r in self.daemon.rows(instance, "gauge-lost_bandwidth", PLUGIN)}
        self.assertEqual(set(lost), set(waits))  # sent together, by the same sweep
        for at, gbps in lost.items():
            self.assertAlmostEqual(gbps, waits[at], places=3, msg=at)  # 1% of 100 Gb/s: 1
        cdtest.wait_for(lambda: len(self.notes(plugin_instance=instance,
                                               type_instance="PORT_CONGESTED")) == 2, 20,
                        "the congestion cleared")
        self.wait_sweeps(2)
        notes = self.notes(type_instance="PORT_CONGESTED")
        self.assertEqual([(n["plugin_instance"], n["severity"]) for n in notes],
                         [(instance, "WARNING"), (instance, "OKAY")], notes)
        self.assertRegex(notes[0]["message"], r"^Spine2\[4\]: port_xmit_wait rose by \d+ "
                         r"ticks of 100\.00 ns: the port waited \d+\.\d% of the last")
        print(f"congestion in collectd: {time.monotonic() - started:.1f} s", file=sys.stderr)

    def test_write_prometheus_keeps_every_fabric_value_between_sweeps(self):
        """collectd drops a value from its cache (and write_prometheus from /metrics) when it
        is not updated within 2 of its intervals: each scrape has every swept port's data
        counters and every fabric-wide value."""
        self.wait_sweeps(2)
        for _ in range(6):
            series = cdtest.scrape(self.prom_port)
            ports = {dict(labels)["rdma_fabric"] for name, labels in series
                     if name == "collectd_rdma_fabric_if_octets_rx_total"}
            self.assertEqual(ports, expected_instances())
            counts = {dict(labels)["rdma_fabric"]: v for (name, labels), v in series.items()
                      if name == "collectd_rdma_fabric_count"}
            self.assertEqual(counts["swept_ports"], len(expected_instances()))
            time.sleep(0.45)

    def test_slow_link_is_notified_once(self):
        self.wait_sweeps(3)
        notes = self.notes(type_instance="LINK_DEGRADED")
        self.assertEqual(len(notes), 1, notes)
        self.assertEqual(notes[0]["severity"], "WARNING")
        self.assertEqual(notes[0]["plugin_instance"], f"0x{LEAF + 2:016x}-3")
        self.assertEqual(notes[0]["message"],
                         "Leaf2[3]-host7 HCA-1[1]: link runs 4X SDR, below most links "
                         "between the same models")
        self.assertEqual(self.last("", "count-degraded_links"), [1.0])
        # informational findings are logged once and not notified
        self.assertEqual(self.daemon.log().count("LINK_SPEED_NOT_ENABLED"), 1)
        self.assertEqual(self.notes(type_instance="LINK_SPEED_NOT_ENABLED"), [])

    def plan_notes(self):
        return [n for n in self.notes() if n.get("type_instance") in PLAN_CODES]

    def wait_note(self, code, severity, count=1, timeout=30):
        cdtest.wait_for(lambda: len([n for n in self.notes(type_instance=code)
                                     if n["severity"] == severity]) >= count, timeout,
                        f"{count} {code} {severity}")

    def write_plan(self, text):
        """Replace the plan as an editor or a configuration manager does (a new file renamed
        over it)."""
        with open(self.plan + ".new", "w") as f:
            f.write(text)
        os.replace(self.plan + ".new", self.plan)

    def test_plan_1_as_saved_no_finding_then_unlink_missing_once(self):
        self.wait_sweeps(1)  # the tests before ran many
        self.assertEqual(self.plan_notes(), [])
        self.assertIn(f"fabric plan {self.plan} read: {LEAVES + SPINES + LEAVES * HOSTS} nodes",
                      self.daemon.log())
        self.sim.cmd('Unlink "Leaf4"[5]')  # to Spine1[7]
        try:
            self.wait_note("LINK_MISSING", "WARNING")
        finally:
            self.sim.cmd('ReLink "Leaf4"[5]')
        self.wait_note("LINK_MISSING", "OKAY")
        self.wait_sweeps(1)
        [raised, cleared] = self.notes(type_instance="LINK_MISSING")
        self.assertEqual((raised["severity"], cleared["severity"]), ("WARNING", "OKAY"))
        self.assertEqual(raised["plugin_instance"], f"0x{LEAF + 4:016x}-5")
        self.assertIn("Leaf4[5]-Spine1[7]", raised["message"])
        self.assertIn(f"0x{LEAF + 4:016x}[5] - 0x{SPINE + 1:016x}[7] (4X EDR) is not up",
                      raised["message"])
        self.assertEqual([n["type_instance"] for n in self.plan_notes()],
                         ["LINK_MISSING", "LINK_MISSING"])
        self.assertEqual(self.daemon.log().count("LINK_MISSING Leaf4[5]-Spine1[7]: cleared"), 1)

    def test_plan_2_edited_while_running_below_plan(self):
        slow = f"0x{HCA + 16 * 7:016x}[1] 4X SDR"
        self.assertEqual(self.plan_text.count(slow), 1, self.plan_text)
        self.write_plan(self.plan_text.replace(slow, f"0x{HCA + 16 * 7:016x}[1] 4X EDR"))
        try:
            self.wait_note("LINK_BELOW_PLAN", "WARNING")
        finally:
            self.write_plan(self.plan_text)
        self.wait_note("LINK_BELOW_PLAN", "OKAY")
        [raised, cleared] = self.notes(type_instance="LINK_BELOW_PLAN")
        self.assertEqual((raised["severity"], cleared["severity"]), ("WARNING", "OKAY"))
        self.assertEqual(raised["plugin_instance"], f"0x{LEAF + 2:016x}-3")
        self.assertIn("Leaf2[3]-host7 HCA-1[1]", raised["message"])
        self.assertIn("runs 4X SDR, the plan has 4X EDR", raised["message"])
        self.assertEqual(len(re.findall(rf"fabric plan {re.escape(self.plan)} read:",
                                        self.daemon.log())), 3)  # at the start and twice

    def test_plan_3_swapped_cables_miswired(self):
        # host3 and host4 swap their ports on Leaf1 (no leaf or spine port is free here)
        for line in ('Unlink "Hca3"[1]', 'Unlink "Hca4"[1]', 'Link "Leaf1"[3] "Hca4"[1]',
                     'Link "Leaf1"[4] "Hca3"[1]'):
            self.sim.cmd(line)
        try:
            self.wait_note("LINK_MISWIRED", "WARNING", 2)
        finally:
            for line in ('Unlink "Hca3"[1]', 'Unlink "Hca4"[1]', 'Link "Leaf1"[3] "Hca3"[1]',
                         'Link "Leaf1"[4] "Hca4"[1]'):
                self.sim.cmd(line)
        self.wait_note("LINK_MISWIRED", "OKAY", 2)
        miswired = self.notes(type_instance="LINK_MISWIRED")
        self.assertEqual(sorted(n["severity"] for n in miswired), ["OKAY"] * 2 + ["WARNING"] * 2)
        raised = sorted(n["message"] for n in miswired if n["severity"] == "WARNING")
        self.assertIn("leaf1[3]-host3 HCA-1[1]", raised[0])  # leaf1: the name map
        self.assertIn("the cable joins leaf1[4] - host3 HCA-1[1]", raised[0])
        self.assertIn("leaf1[4]-host4 HCA-1[1]", raised[1])
        self.assertIn("the cable joins leaf1[3] - host4 HCA-1[1]", raised[1])


if __name__ == "__main__":
    unittest.main(verbosity=2)
