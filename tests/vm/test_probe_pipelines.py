#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The loopback probe in the pipelines on a real rxe0 (one VM boot for the whole file): a real
snmpd with rdmakit-agentx (probe yes) serves the port table's probe columns, and a real
collectd with rdmakit.so (Probe true) sends the probe's values, then a failure when eth0 goes
down, with PROBE_FAILED notified once and cleared once when it comes back.

Run with --inside snmp|collectd, this file is the part that runs inside the VM (started by
the host side below through tests/vm/run.sh) and prints what it saw as one JSON line."""
import json
import os
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, "tests", "collectd"))
sys.path.insert(0, os.path.join(TOP, "tests", "snmp"))
import cdtest  # noqa: E402
import snmptest  # noqa: E402
import vmlib  # noqa: E402

BUILD = os.environ.get("BUILD_DIR", os.path.join(TOP, "build"))
PORT_COLUMNS = ("rdmakitPortProbeStatus", "rdmakitPortProbeTime", "rdmakitPortProbeFailure")
# What the VM's environment (env -i) needs to find this build's programs.
PASSED_ON = {"RDMAKIT_PLUGIN_DIR": os.path.join(BUILD, "collectd-plugin"),
             "RDMAKIT_AGENTX": os.path.join(BUILD, "snmp-subagent", "rdmakit-agentx")}
# In the sanitized build, what cdtest needs to preload the ASan runtime into collectd and read
# the sanitizers' reports (tests/CMakeLists.txt sets them).
PASSED_ON.update({var: os.environ[var] for var in (
    "RDMAKIT_SANITIZED", "RDMAKIT_ASAN_RUNTIME", "ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS")
    if var in os.environ})
PROBES_WHILE_DOWN = 4  # rounds of a failing probe: the notification must still be one


def inside_snmp():
    """rdmakit-agentx on the VM's /sys, probing every second; the columns of rxe0 port 1 once
    its probe passed, and the probe's finding."""
    config = "refresh 1\nprobe yes\nprobe-interval 1\n"
    with snmptest.Setup("/sys", config=config, ready_timeout=60) as s:
        status = "RDMAKIT-MIB::rdmakitPortProbeStatus.1.1"
        snmptest.wait_for(lambda: s.get_raw(status) == "passed", 60, "rxe0:1's probe passed")
        port = s.named("RDMAKIT-MIB::rdmakitPortTable")
        got = {c: port.get(f"{c}.1.1") for c in PORT_COLUMNS}
        got["snmpget"] = {c: s.get_raw(f"RDMAKIT-MIB::{c}.1.1") for c in PORT_COLUMNS[:2]}
        got["findings"] = {k: v for k, v in s.named("RDMAKIT-MIB::rdmakitFindingTable").items()
                           if k.startswith(("rdmakitFindingCode.", "rdmakitFindingSubject."))}
    return got


def probe_rows(daemon):
    return daemon.rows("rxe0-1", "gauge-probe_passed")


def rows_after(daemon, start, value):
    return [r for r in probe_rows(daemon) if r[0] > start and r[1] == value]


def probe_notes(daemon):
    return [n for n in daemon.notifications() if n.get("type_instance", "").startswith("PROBE_")]


def set_eth0(state, wanted):
    subprocess.run(["ip", "link", "set", "eth0", state], check=True)
    path = "/sys/class/infiniband/rxe0/ports/1/state"
    cdtest.wait_for(lambda: wanted in cdtest.read_text(path), 20, f"rxe0:1 {wanted}")


def inside_collectd():
    """collectd probing rxe0:1 every second: passes, fails while eth0 is down, passes again."""
    block = cdtest.plugin_block(Port="rxe0:1", Probe=True, ProbeInterval=1,
                                ProbeDevice="rxe0:1", Notifications=True)
    with cdtest.Daemon(block) as d:
        if d.start() != 0:
            raise AssertionError(d.start_output + d.log())
        cdtest.wait_for(lambda: rows_after(d, 0, 1), 60, "a passed probe")
        cdtest.wait_for(lambda: len(d.rows("rxe0-1", "duration-probe_rtt")) >= 2, 30, "two rtts")
        down_at = time.time()
        set_eth0("down", "DOWN")
        cdtest.wait_for(lambda: len(rows_after(d, down_at, 0)) >= PROBES_WHILE_DOWN, 60,
                   f"{PROBES_WHILE_DOWN} failed probes")
        up_at = time.time()
        set_eth0("up", "ACTIVE")
        cdtest.wait_for(lambda: rows_after(d, up_at, 1), 60, "a passed probe after eth0 is up")
        cdtest.wait_for(lambda: any(n.get("severity") == "OKAY" for n in probe_notes(d)), 10,
                   "the failure's clearing")
        return {"rows": probe_rows(d), "rtt": d.rows("rxe0-1", "duration-probe_rtt"),
                "down_at": down_at, "up_at": up_at, "notes": probe_notes(d),
                "log": [line for line in d.log().splitlines() if "PROBE_" in line]}


def inside(step):
    got = inside_snmp() if step == "snmp" else inside_collectd()
    print("RESULT " + json.dumps(got))


def vm_command(step):
    env = " ".join(f"{k}={vmlib.quote(v)}" for k, v in PASSED_ON.items())
    return f"env {env} python3 {vmlib.quote(os.path.abspath(__file__))} --inside {step}"


def result_of(r):
    lines = [line for line in r.output.splitlines() if line.startswith("RESULT ")]
    if r.status != 0 or not lines:
        raise AssertionError(f"the VM step failed:\n{r}")
    return json.loads(lines[-1][len("RESULT "):])


class Pipelines(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        results, cls.transcript = vmlib.boot([vm_command("snmp"), vm_command("collectd")])
        print(cls.transcript)
        cls.snmp, cls.collectd = results

    def test_snmp_columns_of_a_passed_probe(self):
        got = result_of(self.snmp)
        self.assertEqual(got["rdmakitPortProbeStatus"], "2")  # passed(2)
        micros = int(got["rdmakitPortProbeTime"])
        self.assertGreater(micros, 0)
        self.assertLess(micros, 1000000)
        self.assertEqual(got["rdmakitPortProbeFailure"], "")
        self.assertEqual(got["snmpget"]["rdmakitPortProbeStatus"], "passed")
        self.assertRegex(got["snmpget"]["rdmakitPortProbeTime"], r"^[1-9]\d* microseconds$")

    def test_snmp_findings_table_has_the_probe(self):
        findings = result_of(self.snmp)["findings"]
        codes = {k.split(".", 1)[1]: v for k, v in findings.items()
                 if k.startswith("rdmakitFindingCode.")}
        probe = [i for i, code in codes.items() if code.startswith("PROBE_")]
        self.assertEqual(len(probe), 1, findings)
        self.assertEqual(codes[probe[0]], "PROBE_PASSED")
        self.assertEqual(findings["rdmakitFindingSubject." + probe[0]], "rxe0:1")

    def test_collectd_values_of_passed_probes(self):
        got = result_of(self.collectd)
        before = [r for r in got["rows"] if r[0] < got["down_at"]]
        self.assertTrue(before)
        self.assertEqual({r[1] for r in before}, {1})
        self.assertGreaterEqual(len(got["rtt"]), 2)
        for _, rtt in got["rtt"]:
            self.assertGreater(rtt, 0)
            self.assertLess(rtt, 1)

    def test_collectd_fails_while_eth0_is_down(self):
        got = result_of(self.collectd)
        down = [r[1] for r in got["rows"] if got["down_at"] < r[0] < got["up_at"]]
        self.assertGreaterEqual(down.count(0), PROBES_WHILE_DOWN, got["rows"])
        rtt_down = [r for r in got["rtt"] if got["down_at"] + 1 < r[0] < got["up_at"]]
        self.assertEqual(rtt_down, [], "a failed probe has no round trip")
        after = [r[1] for r in got["rows"] if r[0] > got["up_at"]]
        self.assertIn(1, after)

    def test_collectd_notifies_the_failure_once_and_its_clearing_once(self):
        got = result_of(self.collectd)
        notes = [(n["severity"], n["type_instance"], n["plugin_instance"]) for n in got["notes"]]
        self.assertEqual(notes, [("FAILURE", "PROBE_FAILED", "rxe0-1"),
                                 ("OKAY", "PROBE_FAILED", "rxe0-1")], got["notes"])
        self.assertIn("loopback probe failed at port: port 1 is DOWN, not ACTIVE",
                      got["notes"][0]["message"])
        raised = [line for line in got["log"]
                  if "[error] rdmakit plugin: PROBE_FAILED rxe0:1: loopback probe" in line]
        self.assertEqual(len(raised), 1, got["log"])
        self.assertEqual(sum("PROBE_FAILED rxe0:1: cleared" in line for line in got["log"]), 1)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--inside":
        inside(sys.argv[2])
    else:
        unittest.main(verbosity=2)
