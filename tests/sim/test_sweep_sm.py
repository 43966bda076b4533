#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit sweep, sm and doctor --fabric against a real ibsim + OpenSM, with exact values."""
import json
import os
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

HEALTHY_HOST = os.path.join(os.environ.get("FIXTURES", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "fixtures")), "sysfs", "ib-hdr")


def sim_json(sim, *args):
    """The JSON document of an rdmakit command run under the sim."""
    return rktest.run_json(sim.run, RDMAKIT, *args)


def wait_active(sim, host):
    """Wait until the host's port is swept ACTIVE again (other tests count the ports) by a sweep
    that read every port. While the SM brings it back, a sweep may find the port up but not
    ACTIVE yet, which cannot answer its PMA: that sweep says so with exit 5 and is not the
    answer."""
    deadline = time.time() + 30
    while time.time() < deadline:
        proc = sim.run(RDMAKIT, "sweep", "--json")
        if proc.returncode not in (0, 5):
            raise AssertionError(f"sweep --json: exit {proc.returncode}: {proc.stderr}")
        doc = json.loads(proc.stdout)
        if proc.returncode == 0 and any(p["name"] == host and p["state"] == "ACTIVE"
                                        for p in doc["ports"]):
            return doc
        time.sleep(0.5)
    raise AssertionError(f"{host} did not come back after ReLink")


def relink(sim, hca, host):
    """ReLink a host's port and wait until the SM has brought it back ACTIVE."""
    sim.cmd(f'ReLink "{hca}"[1]')
    return wait_active(sim, host)


def start_doctor(sim, interval):
    return simlib.start(sim, RDMAKIT, "doctor", "--fabric", "--json", "--interval",
                        str(interval), "--sysfs-root", HEALTHY_HOST)


def swept(doc, name, port):
    return next(p for p in doc["ports"] if p["name"] == name and p["port"] == port)


class Sweep(simlib.SimTestCase):
    NET = {"leaves": 4, "hosts": 4, "spines": 2, "radix": 8}
    PREFIX = "rksw"

    def test_performance_set_values_read_back_exactly(self):
        self.sim.cmd('PerformanceSet "Leaf1"[3] PortCounters.SymbolErrorCounter=5')
        self.sim.cmd('PerformanceSet "Leaf1"[3] PortCounters.PortXmitWait=123456')
        self.sim.cmd('PerformanceSet "Leaf2"[1] PortCounters.SymbolErrorCounter=70000')
        self.sim.cmd('PerformanceSet "Leaf2"[2] PortCounters.LinkDownedCounter=7')
        self.sim.cmd('PerformanceSet "Spine1"[2] PortCountersExtended.PortXmitData=1000000')
        doc = sim_json(self.sim, "sweep")
        self.assertEqual(doc["failed"], [])
        self.assertEqual(doc["ports_swept"], 64)  # 16 CA ports, 32 leaf and 16 spine ports
        p = swept(doc, "Leaf1", 3)
        self.assertEqual(p["counters"]["symbol_error"], 5)
        self.assertEqual(p["counters"]["port_xmit_wait"], 123456)
        self.assertEqual(p["saturated"], [])
        self.assertTrue(p["extended"])
        p = swept(doc, "Leaf2", 1)
        self.assertEqual(p["counters"]["symbol_error"], 65535)
        self.assertEqual(p["saturated"], ["symbol_error"])
        self.assertEqual(swept(doc, "Leaf2", 2)["counters"]["link_downed"], 7)
        # the simulator adds the MADs that cross the port: at most a few KB here
        self.assertTrue(4000000 <= swept(doc, "Spine1", 2)["counters"]["port_xmit_data"]
                        < 4000000 + 65536)
        perf = self.sim.run("perfquery", str(self.sim.lid("Leaf1")), "3").stdout
        self.assertIn("SymbolErrorCounter:..............5", perf)
        errors = self.sim.run(RDMAKIT, "sweep", "--errors-only").stdout
        self.assertIn('"Leaf1"[3] lid', errors)
        self.assertIn("symbol_error=65535(saturated)", errors)
        # A port nobody set is left out; ibsim itself counts relay errors on a switch port that
        # MADs it dropped crossed (the other tests drop some), so only those may list it.
        for line in errors.splitlines():
            if line.startswith('"Leaf1"[1] lid'):
                self.assertRegex(line, r": port_rcv_switch_relay_errors=\d+$")

    def test_errors_only_text_lists_the_error_counters_not_zero(self):
        # Two ports nobody else touches: a leaf's port to a host, and another host's port.
        self.sim.cmd('PerformanceSet "Leaf3"[3] PortCounters.PortRcvErrors=4')
        self.sim.cmd('PerformanceSet "Leaf3"[3] PortCounters.PortXmitDiscards=70000')
        self.sim.cmd('PerformanceSet "Hca15"[1] PortCounters.SymbolErrorCounter=12')
        self.sim.cmd('PerformanceSet "Hca15"[1] PortCounters.LinkDownedCounter=3')
        self.sim.cmd('PerformanceSet "Hca15"[1] PortCounters.PortXmitWait=500')
        doc = sim_json(self.sim, "sweep", "--errors-only")
        leaf, hca = (next(p for p in doc["ports"] if p["guid"] == guid and p["port"] == port)
                     for guid, port in (("0x0002c90200100003", 3), ("0x0002c903000000f0", 1)))
        self.assertEqual(len(hca["counters"]), 21)  # the JSON keeps every counter
        self.assertEqual(hca["counters"]["port_xmit_wait"], 500)
        self.assertEqual(leaf["saturated"], ["port_xmit_discards"])
        text = self.sim.run(RDMAKIT, "sweep", "--errors-only")
        self.assertEqual(text.returncode, 0, text.stderr)
        lines = text.stdout.splitlines()
        self.assertIn(f'"Leaf3"[3] lid {leaf["lid"]} ACTIVE: port_rcv_errors=4 '
                      f'port_xmit_discards=65535(saturated)', lines)
        self.assertIn(f'"{hca["name"]}"[1] lid {hca["lid"]} ACTIVE: symbol_error=12 '
                      f'link_downed=3', lines)
        data = self.sim.run(RDMAKIT, "sweep", "--errors-only", "--data").stdout.splitlines()
        line = next(x for x in data if x.startswith(f'"{hca["name"]}"[1] lid'))
        self.assertTrue(line.startswith(f'"{hca["name"]}"[1] lid {hca["lid"]} ACTIVE extended: '
                                        f'symbol_error=12 link_downed=3 VL15_dropped=0 '
                                        f'port_xmit_wait=500 port_xmit_data='), line)
        self.assertEqual(line.count("="), 2 + 10)  # two error counters, the ten others
        proc = self.sim.run(RDMAKIT, "sweep", "--data")
        self.assertEqual(proc.returncode, 3)
        self.assertIn("--data is for --errors-only", proc.stderr)
        # doctor --fabric's text: a finding is its code and node[port], what, and what to do
        doctor = self.sim.run(RDMAKIT, "doctor", "--fabric", "--sysfs-root", HEALTHY_HOST)
        lines = doctor.stdout.splitlines()
        at = lines.index("warning  COUNTER_SATURATED  Leaf3[3]")
        self.assertEqual(lines[at + 1:at + 3],
                         ["         counters stuck at their maximum: port_xmit_discards",
                          "         -> record the values, then clear them (rdmakit sweep --reset "
                          "NAMES) so they count again"])
        self.assertNotIn("host15 HCA-1[1]", doctor.stdout)  # not saturated, nothing rising

    def test_errors_only_asks_extended_counters_of_erring_ports_only(self):
        self.sim.cmd('PerformanceSet "Leaf4"[2] PortCounters.SymbolErrorCounter=9')
        self.sim.cmd('PerformanceSet "Leaf4"[2] PortCountersExtended.PortXmitData=2000000')
        full = sim_json(self.sim, "sweep")
        errors = sim_json(self.sim, "sweep", "--errors-only")
        listed = errors["ports"]
        p = swept(errors, "Leaf4", 2)
        self.assertEqual(p["counters"]["symbol_error"], 9)
        self.assertTrue(p["extended"])  # its data counters still 64-bit, from the second pass
        self.assertGreaterEqual(p["counters"]["port_xmit_data"], 8000000)
        self.assertTrue(all(q["extended"] for q in listed))
        self.assertLess(len(listed), full["ports_swept"])
        # requests = sent - retried; the same ClassPortInfo in both. The full sweep asks each
        # swept port's PortCounters and PortCountersExtended; --errors-only asks each switch for
        # its PortCounters summed over every port (PortSelect 0xFF, as ibqueryerrors does), then
        # PortCounters port by port only on the CAs and on the switches whose sum has an error,
        # and PortCountersExtended only of the listed ports.
        requests = {k: d["mads"]["sent"] - d["mads"]["retried"] for k, d in
                    (("full", full), ("errors", errors))}
        switches = {q["name"] for q in full["ports"] if q["name"].startswith(("Leaf", "Spine"))}
        erring = {q["name"] for q in listed}
        self.assertIn("Leaf4", erring)
        self.assertLess(len(erring & switches), len(switches), "a switch with no error")
        per_port = sum(1 for q in full["ports"] if q["name"] not in switches or q["name"] in erring)
        self.assertEqual(requests["full"] - requests["errors"],
                         (full["ports_swept"] - per_port) + (full["ports_swept"] - len(listed))
                         - len(switches))

    def test_errors_only_gives_no_rate_across_two_counter_widths(self):
        # Sweep 1 sees no error on Leaf4[6], so its data counters come from PortCounters (32
        # bits); sweep 2 does, and reads them from PortCountersExtended (64 bits): no rate of
        # them between the two, the error counter's own rate as usual.
        child = simlib.start(self.sim, RDMAKIT, "sweep", "--errors-only", "--json", "--count",
                             "2", "--interval", "3")
        first = json.loads(child.stdout.readline())
        self.sim.cmd('PerformanceSet "Leaf4"[6] PortCounters.SymbolErrorCounter=6')
        out, err = child.communicate(timeout=60)
        self.assertEqual(child.returncode, 0, err)
        self.assertFalse(any(p["name"] == "Leaf4" and p["port"] == 6 for p in first["ports"]))
        p = swept(json.loads(out), "Leaf4", 6)
        self.assertTrue(p["extended"])
        self.assertEqual(p["counters"]["symbol_error"], 6)
        self.assertGreater(p["rates"]["symbol_error"], 0)
        self.assertNotIn("port_xmit_data", p["rates"])
        self.assertNotIn("port_rcv_packets", p["rates"])

    def test_deltas_between_sweeps_and_reset_by_name(self):
        self.sim.cmd('PerformanceSet "Leaf3"[1] PortCounters.SymbolErrorCounter=10')
        self.sim.cmd('PerformanceSet "Leaf3"[1] PortCounters.LinkErrorRecoveryCounter=3')
        proc = self.sim.run(RDMAKIT, "sweep", "--json", "--count", "2", "--interval", "0.5",
                            "--reset", "symbol_error")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        first, second = (json.loads(line) for line in proc.stdout.strip().splitlines())
        self.assertEqual(swept(first, "Leaf3", 1)["counters"]["symbol_error"], 10)
        p = swept(second, "Leaf3", 1)
        self.assertEqual(p["counters"]["symbol_error"], 0)  # cleared by name
        self.assertEqual(p["counters"]["link_error_recovery"], 3)  # not named: kept
        self.assertIn("cleared the named counters on 64 ports", proc.stderr)
        for bad in ("port_xmit_data", "nonsense", "symbol_error,"):
            bad_proc = self.sim.run(RDMAKIT, "sweep", "--reset", bad)
            if bad == "symbol_error,":
                continue
            self.assertEqual(bad_proc.returncode, 3)
            self.assertIn(f'"{bad}" is not an error counter', bad_proc.stderr)

    def test_top_ranks_a_port_whose_wait_rises_and_congestion_clears(self):
        started = time.monotonic()
        raiser = simlib.WaitRaiser(self.sim, '"Spine2"[4]').start()
        child = simlib.start(self.sim, RDMAKIT, "sweep", "--interval", "1", "--top", "3",
                             "--count", "8", "--json")
        text = simlib.start(self.sim, RDMAKIT, "sweep", "--interval", "1", "--top", "2")
        try:
            time.sleep(4.5)  # the first four intervals or so see the wait rise
        finally:
            raiser.stop()
        out, err = child.communicate(timeout=60)
        lines = text.communicate(timeout=60)[0].splitlines()
        self.assertEqual(text.returncode, 0)
        self.assertRegex(lines[1], r'^  1  "Spine2"\[4\] +-> "Leaf2"\[\d\] +wait [\d.e+]+ '
                         r"ticks/word \(tick unknown\) +data +[\d.]+ k?B/s +4X EDR  CONGESTED$")
        self.assertEqual(len(lines), 4, lines)  # the heading, 2 ports, the count
        self.assertEqual(child.returncode, 0, err)
        docs = [json.loads(line) for line in out.strip().splitlines()]
        self.assertEqual(len(docs), 7)  # one per interval, none for the first sweep
        top = docs[0]["ranked"][0]
        self.assertEqual((top["name"], top["port"]), ("Spine2", 4), docs[0])
        self.assertEqual(top["remote"]["name"], "Leaf2")  # gen-fattree.py wires it so
        self.assertEqual((top["width"], top["speed"], top["basis"]), ("4X", "EDR", "per_data"))
        self.assertIsNone(top["xmit_wait_percent"])  # ibsim has no PortSamplesControl
        self.assertGreater(top["xmit_wait_ticks"], 1_000_000)
        self.assertTrue(top["congested"])
        self.assertEqual(docs[0]["measured"], 64)
        self.assertFalse(docs[0]["ranked"][1]["congested"], docs[0])
        raised = [[f["subject"] for f in d["findings"] if f["code"] == "PORT_CONGESTED"]
                  for d in docs]
        self.assertEqual(raised[0], [])  # one interval over the threshold is not enough
        self.assertEqual(raised[1], ["Spine2[4]"], raised)
        self.assertEqual(raised[-1], [])  # the wait stopped rising: cleared
        self.assertEqual(docs[-1]["ranked"][0]["xmit_wait_ticks"], 0)
        self.assertEqual({s for r in raised for s in r}, {"Spine2[4]"})
        print(f"top and PORT_CONGESTED: {time.monotonic() - started:.1f} s", file=sys.stderr)

    def test_top_names_the_waiting_vl_and_the_bandwidth_lost(self):
        """On a healthy fabric no port shows a VL that waited. Then PortVLXmitWaitCounters of
        VL 3 of Leaf3[6] (an uplink) rises between the two sweeps, with its PortXmitWait as
        hardware counts both: that port and only that VL are named, and its lost bandwidth is
        1e8 ticks of 2 ns (--tick-ns: ibsim has no PortSamplesControl) over the interval times
        4X EDR's 100 Gb/s of data. The second sweep asks the VL counters of that port only."""
        healthy = sim_json(self.sim, "sweep", "--interval", "1", "--top", "64", "--tick-ns", "2")
        self.assertEqual(len(healthy["ranked"]), 64)
        self.assertEqual([p for p in healthy["ranked"] if p["port_vl_xmit_wait"] != []], [])
        self.assertEqual(healthy["mads"]["sent"] - healthy["mads"]["retried"], 2 * 64)
        port = '"Leaf3"[6]'
        self.sim.cmd(f"PerformanceSet {port} PortCounters.PortXmitWait=1000")
        self.sim.cmd(f"PerformanceSet {port} PortVLXmitWaitCounters.PortVLXmitWaitCounters3=100")
        child = simlib.start(self.sim, RDMAKIT, "sweep", "--interval", "4", "--top", "64",
                             "--tick-ns", "2", "--json")
        time.sleep(2.0)  # discovery and the first sweep take well under 2 s on this small tree
        self.sim.cmd(f"PerformanceSet {port} PortCounters.PortXmitWait=100001000")
        self.sim.cmd(f"PerformanceSet {port} PortVLXmitWaitCounters.PortVLXmitWaitCounters3=40100")
        out, err = child.communicate(timeout=60)
        self.assertEqual(child.returncode, 0, err)
        doc = json.loads(out)
        waited = {(p["name"], p["port"]): p["port_vl_xmit_wait"] for p in doc["ranked"]
                  if p["port_vl_xmit_wait"] != []}
        self.assertEqual(waited, {("Leaf3", 6): [{"vl": 3, "ticks": 40000, "saturated": False}]})
        top = doc["ranked"][0]
        self.assertEqual((top["name"], top["port"], top["width"], top["speed"]),
                         ("Leaf3", 6, "4X", "EDR"))
        self.assertEqual((top["basis"], top["xmit_wait_ticks"], top["tick_ns"]),
                         ("time", 100000000, 2.0))
        self.assertAlmostEqual(top["lost_bandwidth_gbps"], 0.2 / doc["interval"] * 100, places=9)
        self.assertTrue(all(p["lost_bandwidth_gbps"] == 0 for p in doc["ranked"][1:]))
        self.assertEqual(doc["mads"]["sent"] - doc["mads"]["retried"], 2 * 64 + 1)

    def test_rising_errors_reported_by_doctor(self):
        # Raise a counter while doctor waits between its two sweeps.
        child = start_doctor(self.sim, 4)
        time.sleep(2.0)  # doctor's first samples take well under 2 s on this small tree
        self.sim.cmd('PerformanceSet "Spine2"[3] PortCounters.PortRcvErrors=4')
        out, err = child.communicate(timeout=60)
        self.assertEqual(child.returncode, 1, err)  # warnings only
        doc = json.loads(out)
        rising = [f for f in doc["findings"] if f["code"] == "ERRORS_RISING"]
        self.assertEqual([f["subject"] for f in rising], ["Spine2[3]"], err)
        self.assertIn("port_rcv_errors +4", rising[0]["message"])
        codes = {f["code"] for f in doc["findings"]}
        self.assertTrue({"ERRORS_RISING", "LINK_SPEED_NOT_ENABLED", "SM_NO_STANDBY"} <= codes,
                        codes)
        self.assertNotIn("critical", {f["severity"] for f in doc["findings"]})

    def test_doctor_sees_a_port_go_down_between_samples(self):
        child = start_doctor(self.sim, 4)
        time.sleep(2.0)  # doctor's first samples take well under 2 s on this small tree
        self.sim.cmd('Unlink "Hca8"[1]')
        try:
            out, err = child.communicate(timeout=60)
        finally:
            relink(self.sim, "Hca8", "host8 HCA-1")
        doc = json.loads(out)
        down = [f["subject"] for f in doc["findings"] if f["code"] == "PORT_WENT_DOWN"]
        self.assertEqual(down, ["Leaf2[4]"], err)

    def test_unlink_reports_port_down_then_relink(self):
        self.sim.cmd('Unlink "Hca6"[1]')
        doc = sim_json(self.sim, "sweep")
        self.assertEqual(swept(doc, "Leaf2", 2)["state"], "DOWN")
        self.assertNotIn("host6 HCA-1", {p["name"] for p in doc["ports"]})
        doc = relink(self.sim, "Hca6", "host6 HCA-1")
        self.assertEqual(swept(doc, "Leaf2", 2)["state"], "ACTIVE")
        self.assertEqual(swept(doc, "host6 HCA-1", 1)["state"], "ACTIVE")

    def test_a_port_coming_up_triggers_rediscovery(self):
        self.sim.cmd('Unlink "Hca10"[1]')
        time.sleep(0.5)
        child = simlib.start(self.sim, RDMAKIT, "sweep", "--json", "--count", "6",
                             "--interval", "1", "--rediscover", "0")
        time.sleep(0.5)
        self.sim.cmd('ReLink "Hca10"[1]')
        out, err = child.communicate(timeout=60)
        self.assertEqual(child.returncode, 0, err)
        seen = ["host10 HCA-1" in {p["name"] for p in json.loads(line)["ports"]}
                for line in out.strip().splitlines()]
        self.assertFalse(seen[0])
        self.assertTrue(seen[-1], seen)
        self.assertIn("rediscovering", err)
        wait_active(self.sim, "host10 HCA-1")

    def test_discovery_runs_in_its_helper_process(self):
        helper = os.environ.get("RDMAKIT_DISCOVER_HELPER", "")
        self.assertTrue(os.access(helper, os.X_OK), "RDMAKIT_DISCOVER_HELPER is not set")
        with tempfile.TemporaryDirectory() as tmp:
            calls = os.path.join(tmp, "calls")
            wrapper = os.path.join(tmp, "helper")
            with open(wrapper, "w") as f:
                f.write(f'#!/bin/sh\necho "$@" >> "{calls}"\nexec "{helper}" "$@"\n')
            os.chmod(wrapper, 0o755)
            proc = self.sim.run("env", f"RDMAKIT_DISCOVER_HELPER={wrapper}", RDMAKIT, "sweep",
                                "--json", "--count", "3", "--interval", "0.2", "--rediscover",
                                "0.001", "--timeout", "500")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(calls) as f:
                self.assertEqual(f.read().splitlines(), ["-P 0 -t 500 -s 0"] * 3)
        self.assertNotIn("in this process", proc.stderr)
        ports = [{(p["name"], p["port"]) for p in json.loads(line)["ports"]}
                 for line in proc.stdout.strip().splitlines()]
        one_shot = sim_json(self.sim, "sweep")
        self.assertEqual(ports, [{(p["name"], p["port"]) for p in one_shot["ports"]}] * 3)

    def test_without_its_helper_discovery_runs_here(self):
        missing = "/nonexistent/rdmakit-discover"
        proc = self.sim.run("env", f"RDMAKIT_DISCOVER_HELPER={missing}", RDMAKIT, "sweep",
                            "--json", "--count", "2", "--interval", "0.2", "--rediscover",
                            "0.001")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr.count(
            f"{missing}: No such file or directory; discovering in this process"), 1)
        docs = [json.loads(line) for line in proc.stdout.strip().splitlines()]
        self.assertEqual(len(docs), 2)
        self.assertEqual(len(docs[0]["ports"]), len(docs[1]["ports"]))
        self.assertGreater(len(docs[0]["ports"]), 0)

    def test_helper_failure_is_logged_here(self):
        proc = self.sim.run(RDMAKIT, "sweep", "-C", "nosuchca", "--interval", "1")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn("rdmakit: error: fabric discovery through nosuchca, port 0, failed",
                      proc.stderr)

    def sweeps_while_dropping(self, percent):
        """Five sweeps, every one after the first while ibsim drops percent of the MADs to
        Hca3[1]; their JSON documents and the total timeouts and failed ports."""
        child = simlib.start(self.sim, RDMAKIT, "sweep", "--json", "--count", "5",
                             "--interval", "0.5", "--timeout", "100")
        first = child.stdout.readline()  # discovery and the first sweep are done
        self.sim.cmd(f'Error "Hca3"[1] {percent}')
        try:
            out, err = child.communicate(timeout=60)
        finally:
            self.sim.cmd('Error "Hca3"[1] 0')
        sweeps = [json.loads(line) for line in (first + out).strip().splitlines()]
        self.assertEqual(len(sweeps), 5)
        # exit 5 when the last sweep left a port unread, else 0
        unread = sweeps[-1]["failed"] + sweeps[-1]["unreached"]
        self.assertEqual(child.returncode, 5 if unread else 0, err)
        self.assertEqual(sweeps[0]["failed"], [])
        timeouts = failures = 0
        for doc in sweeps[1:]:
            others = [p for p in doc["ports"] if p["name"] != "host3 HCA-1"]
            self.assertEqual(len(others), 63)  # every other port is complete
            failed = [(f["name"], f["port"], f["error"]) for f in doc["failed"]]
            self.assertEqual(doc["unreached"], [])
            self.assertTrue(set(failed) <= {("host3 HCA-1", 1, "timeout")}, failed)
            timeouts += doc["mads"]["timeouts"]
            failures += len(failed)
            # within its budget: a failing request gives up after 3 attempts of --timeout
            # 100 ms (the default 200 ms would take 0.6 s)
            self.assertLess(doc["seconds"], 0.55)
        return timeouts, failures

    def test_dropped_mads_do_not_stall_the_sweep(self):
        timeouts, failures = self.sweeps_while_dropping(80)
        self.assertGreater(timeouts, 0)
        self.assertGreater(failures, 0)

    def test_half_the_mads_to_one_port_dropped(self):
        """The fault matrix's row: Error "Hca3"[1] 50. Retries hide most losses (a port fails
        only when 3 attempts in a row are lost, 1 in 8), so only timeouts must be seen."""
        timeouts, _ = self.sweeps_while_dropping(50)
        self.assertGreater(timeouts, 0)


class SubnetManagers(unittest.TestCase):
    def test_master_standby_and_failover(self):
        with tempfile.TemporaryDirectory() as tmp:
            net = simlib.generate(os.path.join(tmp, "ft.net"), leaves=2, hosts=2, spines=1,
                                  radix=4)
            with simlib.Sim(f"rksm{os.getpid()}", net, tmp) as sim:
                sim.fast_failover()
                sim.opensm("Hca1", 10)
                sim.opensm("Hca2", 5)
                doc = sim_json(sim, "sm")
                states = {s["name"]: (s["state"], s["priority"]) for s in doc["sms"]}
                self.assertEqual(states, {"host1 HCA-1": ("MASTER", 10),
                                          "host2 HCA-1": ("STANDBY", 5)})
                self.assertEqual(doc["local_sm_lid"], sim.lid("host1 HCA-1"))
                self.assertEqual(doc["findings"], [])
                master = next(s for s in doc["sms"] if s["state"] == "MASTER")
                self.assertEqual(master["guid"], "0x0002c90300000011")
                sminfo = sim.run("sminfo").stdout
                self.assertIn(f"sm lid {master['lid']} sm guid 0x2c90300000011", sminfo)
                pid = sim.opensm_pid()
                os.kill(pid, signal.SIGTERM)
                deadline = time.time() + 90
                while time.time() < deadline:
                    proc = sim.run(RDMAKIT, "sm", "--json", host="Hca3")
                    doc = json.loads(proc.stdout) if proc.returncode == 0 else {"sms": []}
                    masters = [s for s in doc["sms"] if s.get("state") == "MASTER"]
                    if masters and masters[0]["name"] == "host2 HCA-1":
                        break
                    time.sleep(1)
                self.assertEqual([s["name"] for s in masters], ["host2 HCA-1"])
                codes = {f["code"] for f in doc["findings"]}
                self.assertIn("SM_NO_STANDBY", codes)


if __name__ == "__main__":
    unittest.main(verbosity=2)
