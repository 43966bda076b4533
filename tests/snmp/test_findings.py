#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Findings as a poller and a trap receiver follow them, with a real snmpd and snmptrapd: a
finding keeps its row while others come and go; rdmakitFindingSummary counts what was raised
and cleared, says when, and counts the active critical and warning findings; every trap names
the device and port in plain text and carries the severity as a number, seen by a receiver
with RDMAKIT-MIB and by one without; a SIGHUP applies a good config (what needs a restart
named in the log) and keeps the old one when the new one is bad, the log naming the key."""
import os
import re
import shutil
import signal
import tempfile
import time
import unittest

import snmptest
from snmptest import Setup, Trapd
from rktest import copy_fixture, wait_for, write_attr

OK, WARNING, CRITICAL = "1", "2", "3"  # RdmakitSeverity
NOTIFY = ".1.3.6.1.4.1.8072.9999.9999.42.0.100"  # rdmakitNotifyObjects
RAISED, CLEARED = (f"= OID: .1.3.6.1.4.1.8072.9999.9999.42.0.{n}\t" for n in (1, 2))
STATE = "class/infiniband/{}/ports/1/state"
COLUMNS = ("Code", "Severity", "Subject", "Message", "Remedy", "RaisedAt", "NodeGuid", "NodePort")


def findings(setup):
    """{(code, subject): {column: value}} of rdmakitFindingTable, with the row's index; walked
    again when a row came or went during the walk (a walk spans snapshots: some columns)."""
    for _ in range(10):
        rows = {}
        for name, value in setup.named("RDMAKIT-MIB::rdmakitFindingTable").items():
            m = re.match(r"rdmakitFinding(\w+)\.(\d+)$", name)
            if m:
                rows.setdefault(int(m.group(2)), {"Index": int(m.group(2))})[m.group(1)] = value
        if all(len(r) == len(COLUMNS) + 1 for r in rows.values()):
            return {(r["Code"], r["Subject"]): r for r in rows.values()}
    raise AssertionError(f"no walk of the findings table saw whole rows: {rows}")


def summary(setup):
    """{name: int} of the rdmakitFindingSummary scalars."""
    return {name.split(".")[0].replace("rdmakitFindings", ""): int(value)
            for name, value in setup.named("RDMAKIT-MIB::rdmakitFindingSummary").items()}


class Findings(unittest.TestCase):
    """One snmpd, two snmptrapds and one subagent for the file; the tests run in their order."""

    @classmethod
    def setUpClass(cls):
        cls.tree = tempfile.mkdtemp(prefix="rdmakit-tree-")
        cls.root = copy_fixture("ib-hdr", cls.tree)
        cls.setup = Setup(cls.root, config="refresh 0.3\n")
        cls.trapd = Trapd(cls.setup.workdir, snmptest.free_port())
        cls.numeric = Trapd(cls.setup.workdir, snmptest.free_port(), mib=False,
                            name="numeric")
        with open(cls.setup.snmpd.conf, "a") as f:
            f.write(f"trap2sink 127.0.0.1:{cls.trapd.port} public\n"
                    f"trap2sink 127.0.0.1:{cls.numeric.port} public\n")
        try:
            cls.setup.__enter__()
        except BaseException:
            cls.trapd.stop()
            cls.numeric.stop()
            shutil.rmtree(cls.tree, ignore_errors=True)
            raise

    @classmethod
    def tearDownClass(cls):
        cls.trapd.stop()
        cls.numeric.stop()
        cls.setup.__exit__(None, None, None)
        shutil.rmtree(cls.tree, ignore_errors=True)

    def set_state(self, device, state):
        write_attr(self.root, STATE.format(device), state)

    def wait_rows(self, what, predicate):
        """The findings once predicate holds for them."""
        def check():
            rows = findings(self.setup)
            return [rows] if predicate(rows) else None
        return wait_for(check, 10, what)[0]

    def test_1_indexes_stay_while_another_finding_clears(self):
        before = summary(self.setup)
        self.assertEqual(before["Raised"], len(findings(self.setup)), "the start's findings")
        self.assertEqual(before["Cleared"], 0)
        self.set_state("mlx5_0", "1: DOWN")
        rows = self.wait_rows("mlx5_0:1 down", lambda r: ("PORT_DOWN", "mlx5_0:1") in r)
        first = rows[("PORT_DOWN", "mlx5_0:1")]
        self.set_state("mlx5_1", "2: INIT")  # LinkUp and INIT: no SM, critical
        rows = self.wait_rows("mlx5_1:1 without an SM", lambda r: ("PORT_NO_SM", "mlx5_1:1") in r)
        second = rows[("PORT_NO_SM", "mlx5_1:1")]
        self.assertGreater(second["Index"], first["Index"])
        self.assertEqual((first["Severity"], second["Severity"]), (WARNING, CRITICAL))
        now = summary(self.setup)
        self.assertEqual(now["Raised"], before["Raised"] + 2)
        self.assertEqual((now["Critical"], now["Warning"]),
                         (before["Critical"] + 1, before["Warning"] + 1))
        self.assertGreaterEqual(now["LastChange"], int(time.time()) - 10)

        self.set_state("mlx5_0", "4: ACTIVE")  # the first clears, the second stays
        rows = self.wait_rows("mlx5_0:1 cleared", lambda r: ("PORT_DOWN", "mlx5_0:1") not in r)
        kept = rows[("PORT_NO_SM", "mlx5_1:1")]
        self.assertEqual(kept["Index"], second["Index"])
        self.assertEqual(kept["RaisedAt"], second["RaisedAt"])
        cleared = summary(self.setup)
        self.assertEqual((cleared["Raised"], cleared["Cleared"]), (now["Raised"], 1))
        self.assertEqual((cleared["Critical"], cleared["Warning"]),
                         (now["Critical"], now["Warning"] - 1))
        self.assertGreaterEqual(cleared["LastChange"], now["LastChange"])

        self.set_state("mlx5_0", "1: DOWN")  # back: a new row after the others
        rows = self.wait_rows("mlx5_0:1 down again", lambda r: ("PORT_DOWN", "mlx5_0:1") in r)
        self.assertGreater(rows[("PORT_DOWN", "mlx5_0:1")]["Index"], second["Index"])
        self.assertEqual(rows[("PORT_NO_SM", "mlx5_1:1")]["Index"], second["Index"])
        self.assertEqual(summary(self.setup)["Raised"], now["Raised"] + 1)
        self.set_state("mlx5_0", "4: ACTIVE")
        self.set_state("mlx5_1", "4: ACTIVE")
        self.wait_rows("both ports back", lambda r: not any(k[1].endswith(":1") for k in r))
        self.assertEqual(summary(self.setup)["Cleared"], 3)

    def test_2_traps_name_the_device_port_and_severity(self):
        log = wait_for(lambda: self.trapd.text() if self.trapd.count("rdmakitFindingCleared")
                       >= 3 else None, 10, "the clear traps of test 1")
        raised = [b for b in re.split(r"\n(?=\S)", log) if "rdmakitFindingRaised" in b
                  and "PORT_NO_SM" in b]
        self.assertEqual(len(raised), 1, log[-3000:])
        self.assertIn("rdmakitNotifyDevice.0 = mlx5_1", raised[0])
        self.assertIn("rdmakitNotifyPort.0 = 1", raised[0])
        self.assertIn("rdmakitNotifySeverity.0 = critical", raised[0])
        # a host finding is about no fabric node: an empty GUID and port 0
        self.assertRegex(raised[0], r"rdmakitFindingNodeGuid\.\d+ = (\t|$)")
        self.assertRegex(raised[0], r"rdmakitFindingNodePort\.\d+ = 0(\t|$)")
        cleared = [b for b in re.split(r"\n(?=\S)", log) if "rdmakitFindingCleared" in b
                   and "PORT_NO_SM" in b]
        self.assertEqual(len(cleared), 1)
        self.assertIn("rdmakitNotifySeverity.0 = ok", cleared[0])
        self.assertIn("rdmakitFindingSeverity.", cleared[0])
        state = [b for b in re.split(r"\n(?=\S)", log) if "rdmakitPortStateChange" in b
                 and "rdmakitPortState.1.1 = down" in b]
        self.assertTrue(state, log[-3000:])
        self.assertIn("rdmakitNotifyDevice.0 = mlx5_0", state[0])
        self.assertIn("rdmakitNotifyPort.0 = 1", state[0])
        self.assertIn("rdmakitNotifySeverity.0 = critical", state[0])  # the core: DOWN

        # A receiver without the MIB gets the same as numbers and plain text.
        numeric = wait_for(lambda: self.numeric.text() if self.numeric.count(CLEARED) >= 3
                           else None, 10, "the clear traps, numerically")
        no_sm = [b for b in numeric.split("\n") if "PORT_NO_SM" in b and RAISED in b]
        self.assertEqual(len(no_sm), 1, numeric[-3000:])
        self.assertIn(f'{NOTIFY}.5.0 = STRING: "mlx5_1"', no_sm[0])
        self.assertIn(f"{NOTIFY}.6.0 = Gauge32: 1", no_sm[0])
        self.assertIn(f"{NOTIFY}.7.0 = INTEGER: 3", no_sm[0])

    def test_3_sighup_applies_a_good_config(self):
        self.assertNotIn(("RATE_BELOW_EXPECTED", "mlx5_0:1"), findings(self.setup))
        with open(self.setup.agent.config, "w") as f:
            f.write("refresh 0.3\nexpect-rate 400\nprobe-interval 120\nwindow 8\n")
        self.setup.agent.proc.send_signal(signal.SIGHUP)
        wait_for(lambda: "reloaded (refresh 0.3 s)" in self.setup.agent.log(), 10, "reloaded")
        log = self.setup.agent.log()
        self.assertIn("fabric-interval 30 s, probe-interval 120 s, tune-interval 3600 s from now on",
                      log)
        self.assertIn(f"{self.setup.agent.config}: window change only at a restart", log)
        rows = self.wait_rows("the expected rate applied",
                              lambda r: ("RATE_BELOW_EXPECTED", "mlx5_0:1") in r)
        self.assertIn("below the expected 400 Gb/s",
                      rows[("RATE_BELOW_EXPECTED", "mlx5_0:1")]["Message"])
        self.assertIn(("RATE_BELOW_EXPECTED", "mlx5_1:1"), rows)

    def test_4_sighup_keeps_the_old_config_when_the_new_is_bad(self):
        config = self.setup.agent.config
        with open(config, "w") as f:
            f.write("refresh 0.3\nexpect-rate lots\n")
        self.setup.agent.proc.send_signal(signal.SIGHUP)
        wait_for(lambda: "not reloaded" in self.setup.agent.log(), 10, "the bad config refused")
        log = self.setup.agent.log()
        self.assertIn(f'{config}:2: expect-rate: "lots" is not a number from 0 to 10000', log)
        self.assertIn(f"{config}: not reloaded: the config has errors", log)
        time.sleep(1)  # three refreshes: the old expected rate stays
        self.assertIn(("RATE_BELOW_EXPECTED", "mlx5_0:1"), findings(self.setup))
        self.assertIsNone(self.setup.agent.proc.poll())


if __name__ == "__main__":
    unittest.main(verbosity=2)
