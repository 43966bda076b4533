#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Tune mode of rdmakit-agentx with a real snmpd and snmptrapd: the audit of a host tree every
tune-interval (not every refresh), its findings as rows of rdmakitFindingTable, and a setting
that drifts away from the profile trapped once when it drifts and once when it is set back;
the tree is only read; an audit that fails keeps the last findings; a SIGHUP with a new profile,
root or tune on/off audits (or clears) at once, probe on/off a round (or a clear) at once, a
bad one keeps the audit as it was; a finding that changes severity trapped as rdmakitFindingChanged; bad values of the tune settings refused line by line."""
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

import snmptest
from snmptest import AGENTX, Setup, Trapd
from rktest import wait_for

HOST_TREE = os.path.join(snmptest.TOP, "tests", "fixtures", "tune", "host")
THP = "sys/kernel/mm/transparent_hugepage/enabled"
AUDIT_LINE = re.compile(r"tune audit of (\S+): (\d+) findings")
INTERVAL = 2
WARNING, CRITICAL = "2", "3"  # RdmakitSeverity, as a walk with -Oe shows it


def snapshot(root):
    """{relative path: (mode, bytes or None for a directory, mtime)} of a tree."""
    entries = {}
    for top, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(top, name)
            st = os.lstat(path)
            data = None
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as f:
                    data = f.read()
            entries[os.path.relpath(path, root)] = (st.st_mode, data, st.st_mtime_ns)
    return entries


def findings(setup):
    """{index: {column: value}} of rdmakitFindingTable, whole rows only: a walk that crosses a
    new snapshot (a reload's audit) sees a row that came or went in some columns only."""
    rows = {}
    for name, value in setup.named("RDMAKIT-MIB::rdmakitFindingTable").items():
        m = re.match(r"rdmakitFinding(\w+)\.(\d+)$", name)
        if m:
            rows.setdefault(int(m.group(2)), {})[m.group(1)] = value
    whole = {"Code", "Severity", "Subject", "Message"}
    return {i: r for i, r in rows.items() if whole <= set(r)}


def by_code(rows, code):
    return {i: r for i, r in rows.items() if r.get("Code") == code}


class Drift(unittest.TestCase):
    """One snmpd, snmptrapd and subagent for the file; the tests run in their order."""

    @classmethod
    def setUpClass(cls):
        cls.parent = tempfile.mkdtemp(prefix="rdmakit-tune-")
        cls.root = os.path.join(cls.parent, "root")
        shutil.copytree(HOST_TREE, cls.root, symlinks=True)
        cls.write_thp("always madvise [never]")  # as the latency profile wants
        cls.before = snapshot(cls.root)
        cls.setup = Setup(snmptest.fixture("ib-hdr"), config=(
            f"refresh 0.2\ntune yes\ntune-interval {INTERVAL}\ntune-root {cls.root}\n"
            "tune-profile latency\n"))
        cls.trapd = Trapd(cls.setup.workdir, snmptest.free_port())
        with open(cls.setup.snmpd.conf, "a") as f:
            f.write(f"trap2sink 127.0.0.1:{cls.trapd.port} public\n")
        try:
            cls.setup.__enter__()
        except BaseException:
            cls.trapd.stop()
            shutil.rmtree(cls.parent, ignore_errors=True)
            raise

    @classmethod
    def tearDownClass(cls):
        cls.trapd.stop()
        cls.setup.__exit__(None, None, None)
        shutil.rmtree(cls.parent, ignore_errors=True)

    @classmethod
    def write_thp(cls, text):
        with open(os.path.join(cls.root, THP), "w") as f:
            f.write(text + "\n")

    def audits(self):
        return AUDIT_LINE.findall(self.setup.agent.log())

    def tune_traps(self, kind):
        """(code, subject) of each rdmakitFinding{kind} trap about a TUNE_ finding."""
        traps = []
        for block in self.trapd.text().split("rdmakitFinding" + kind)[1:]:
            code = re.search(r"rdmakitFindingCode\.(\d+) = (\S+)", block)
            subject = re.search(r"rdmakitFindingSubject\.\d+ = ([^\t\n]*)", block)
            if code and code.group(2).startswith("TUNE_"):
                traps.append((int(code.group(1)), code.group(2), subject.group(1).strip()))
        return traps

    def test_1_first_audit_in_the_table_without_traps(self):
        rows = findings(self.setup)
        mtu = by_code(rows, "TUNE_IPOIB_MTU")
        self.assertEqual(len(mtu), 1, rows)
        self.assertEqual([r["Severity"] for r in mtu.values()], [CRITICAL])
        governor = list(by_code(rows, "TUNE_GOVERNOR").values())
        self.assertEqual([(r["Severity"], r["Subject"]) for r in governor],
                         [(WARNING, "cpufreq")])
        self.assertIn("3 of 3 CPUs use the powersave governor", governor[0]["Message"])
        self.assertIn("cpupower frequency-set -g performance", governor[0]["Remedy"])
        arp = {r["Subject"]: r["Message"] for r in by_code(rows, "TUNE_ARP").values()}
        self.assertEqual(sorted(arp), ["ib0", "ib1"], "one row each, not one per sysctl")
        self.assertTrue(arp["ib0"].startswith("arp_ignore is 0 on ib0"), arp)
        self.assertNotIn("rows with the same index were dropped", self.setup.agent.log())
        self.assertEqual(by_code(rows, "TUNE_THP"), {}, "THP is as the profile wants")
        self.assertEqual(by_code(rows, "TUNE_SRIOV"), {}, "an ok finding is not a row")
        self.assertEqual(by_code(rows, "TUNE_PCIE_CONFIG"), {}, "an ok finding is not a row")
        audits = self.audits()
        self.assertEqual(audits[0][0], self.root)
        self.assertEqual(int(audits[0][1]),
                         len([r for r in rows.values() if r["Code"].startswith("TUNE_")]))
        time.sleep(0.5)
        self.assertEqual(self.tune_traps("Raised"), [], "the first audit only primes")

    def test_2_audits_every_interval_not_every_refresh(self):
        first = len(self.audits())
        time.sleep(2.5 * INTERVAL)  # 25 refreshes, two or three audits
        audits = len(self.audits()) - first
        self.assertIn(audits, (2, 3), self.setup.agent.log()[-2000:])
        rows = by_code(findings(self.setup), "TUNE_IPOIB_MTU")
        self.assertEqual(len(rows), 1, "kept between audits")

    def test_3_drift_raised_once_then_cleared_once(self):
        self.write_thp("[always] madvise never")
        raised = wait_for(lambda: self.tune_traps("Raised"), 3 * INTERVAL, "the drift trap")
        time.sleep(2.2 * INTERVAL)  # two more audits: nothing new
        self.assertEqual(self.tune_traps("Raised"), raised)
        self.assertEqual(len(raised), 1, raised)
        index, code, subject = raised[0]
        self.assertEqual((code, subject), ("TUNE_THP", "transparent_hugepage"))
        text = self.trapd.text()
        self.assertIn(f"rdmakitFindingSeverity.{index} = warning", text)
        self.assertIn(f"rdmakitFindingMessage.{index} = transparent hugepages are "
                      "\"always\", the latency profile wants \"never\"", text)
        rows = by_code(findings(self.setup), "TUNE_THP")
        self.assertEqual(list(rows), [index], "the row has the trap's index")
        self.assertEqual(rows[index]["Subject"], "transparent_hugepage")
        self.assertEqual(rows[index]["Severity"], WARNING)
        self.assertEqual(self.tune_traps("Cleared"), [])

        self.write_thp("always madvise [never]")
        cleared = wait_for(lambda: self.tune_traps("Cleared"), 3 * INTERVAL, "the clear trap")
        time.sleep(2.2 * INTERVAL)
        self.assertEqual(self.tune_traps("Cleared"), cleared)
        self.assertEqual(cleared, [(index, "TUNE_THP", "transparent_hugepage")])
        self.assertEqual(self.tune_traps("Raised"), raised)
        self.assertEqual(by_code(findings(self.setup), "TUNE_THP"), {})
        self.assertEqual(len(by_code(findings(self.setup), "TUNE_IPOIB_MTU")), 1)

    def test_4_the_tree_is_only_read(self):
        after = snapshot(self.root)
        self.assertEqual(sorted(after), sorted(self.before), "no file added or removed")
        for path, (mode, data, mtime) in self.before.items():
            self.assertEqual(after[path][:2], (mode, data), path)
            if path != THP and data is not None:
                self.assertEqual(after[path][2], mtime, path)

    def config(self, root=None, profile="latency", interval=INTERVAL, tune="yes"):
        return (f"refresh 0.2\ntune {tune}\ntune-interval {interval}\n"
                f"tune-root {root or self.root}\ntune-profile {profile}\n")

    def reload(self, config):
        """Write the config and SIGHUP; the log from the signal to the reload's last line."""
        start = len(self.setup.agent.log())
        with open(self.setup.agent.config, "w") as f:
            f.write(config)
        self.setup.agent.proc.send_signal(signal.SIGHUP)
        wait_for(lambda: re.search(r"reloaded \(|not reloaded", self.setup.agent.log()[start:]),
                 10, "the reload")
        return self.setup.agent.log()[start:]

    def audits_after(self, count, root, timeout):
        """The audits after the first count, once one of them is of root."""
        return wait_for(lambda: [a for a in self.audits()[count:] if a[0] == root], timeout,
                        f"an audit of {root}")

    def restore(self):
        """The file's first config again (the tests after this one start from it)."""
        if "tune-root " + self.root + "\n" not in open(self.setup.agent.config).read():
            self.reload(self.config())

    def modes(self):
        return self.setup.named(snmptest.ROOT_OID + ".1.1")["rdmakitServedModes.0"]

    def thp_row(self):
        rows = list(by_code(findings(self.setup), "TUNE_THP").values())
        return rows[0] if len(rows) == 1 else None

    def tune_keys(self):
        return {(r["Code"], r["Subject"]) for r in findings(self.setup).values()
                if r["Code"].startswith("TUNE_")}

    def test_5a_sighup_a_new_profile_audits_at_once(self):
        first, raised = len(self.audits()), len(self.tune_traps("Raised"))
        before = self.tune_keys()
        log = self.reload(self.config(profile="throughput", interval=60))
        self.assertIn(f"tune yes, root {self.root}, profile throughput from now on", log)
        self.assertIn("tune-interval 60 s from now on", log)
        self.assertNotIn("change only at a restart", log)
        self.audits_after(first, self.root, INTERVAL)  # at once, not after 60 s
        row = wait_for(self.thp_row, 2, "the throughput profile's THP row")
        self.assertTrue(row["Message"].startswith(
            "transparent hugepages are \"never\", the throughput profile wants \"madvise\":"),
            row)
        self.assertEqual(row["Severity"], WARNING)
        added = self.tune_keys() - before
        self.assertIn(("TUNE_THP", "transparent_hugepage"), added)
        new = wait_for(lambda: len(self.tune_traps("Raised")[raised:]) >= len(added) and
                       self.tune_traps("Raised")[raised:], 3, "the new findings' traps")
        self.assertEqual(sorted(t[1:] for t in new), sorted(added), "one trap each")
        self.assertEqual(len(by_code(findings(self.setup), "TUNE_IPOIB_MTU")), 1)
        count = len(self.audits())
        time.sleep(1.5 * INTERVAL)
        self.assertEqual(len(self.audits()), count, "the next audit in 60 s")

    def test_5b_sighup_a_new_root(self):
        other = os.path.join(self.parent, "other")
        shutil.copytree(self.root, other, symlinks=True)
        with open(os.path.join(other, THP), "w") as f:
            f.write("[always] madvise never\n")
        first = len(self.audits())
        log = self.reload(self.config(root=other))
        self.assertIn(f"tune yes, root {other}, profile latency from now on", log)
        self.audits_after(first, other, INTERVAL)
        row = wait_for(lambda: (r := self.thp_row()) and "always" in r["Message"] and r, 2,
                       "the other root's THP row")
        self.assertTrue(row["Message"].startswith(
            "transparent hugepages are \"always\", the latency profile wants \"never\":"), row)
        self.assertEqual(self.audits()[-1][0], other)

    def test_5c_a_bad_reload_keeps_the_audit(self):
        other = os.path.join(self.parent, "other")
        first = len(self.audits())
        log = self.reload(self.config(root=other, interval=0) + "tune-profile fast\nfabric yes\n")
        conf = self.setup.agent.config
        self.assertIn(f'{conf}:3: tune-interval: "0": expected a number of seconds from 1 to '
                      "604800", log)
        self.assertIn(f'{conf}:6: tune-profile: "fast" is not latency or throughput', log)
        self.assertIn(f"{conf}: not reloaded: the config has errors", log)
        self.assertNotIn("from now on", log)
        time.sleep(2.5 * INTERVAL)
        audits = self.audits()[first:]
        self.assertIn(len(audits), (2, 3), "still every 2 s")
        self.assertEqual({a[0] for a in audits}, {other}, "still the other root")
        self.assertIn("always", self.thp_row()["Message"])

    def test_5d_tune_off_clears_and_on_again(self):
        other = os.path.join(self.parent, "other")
        active = self.tune_keys()
        self.assertIn(("TUNE_THP", "transparent_hugepage"), active)
        cleared = len(self.tune_traps("Cleared"))
        self.addCleanup(self.restore)
        log = self.reload(self.config(root=other, tune="no") + "fabric yes\nstate-dir /tmp\n")
        self.assertIn("fabric change only at a restart: the umad port is opened at the start", log)
        self.assertIn("state-dir change only at a restart", log)
        wait_for(lambda: not self.tune_keys(), 2 * INTERVAL, "no tune rows")
        self.assertIn(f"tune audit turned off: its {len(active)} findings are cleared",
                      self.setup.agent.log())
        self.assertEqual(self.modes(), "host")
        traps = wait_for(lambda: len(self.tune_traps("Cleared")[cleared:]) == len(active) and
                         self.tune_traps("Cleared")[cleared:], 3, "the clear traps")
        self.assertEqual({t[1:] for t in traps}, active)
        first = len(self.audits())
        time.sleep(1.5 * INTERVAL)
        self.assertEqual(len(self.audits()), first, "no audit while off")

        raised = len(self.tune_traps("Raised"))
        self.reload(self.config())
        self.audits_after(first, self.root, INTERVAL)
        wait_for(lambda: not self.thp_row() and len(by_code(findings(self.setup),
                                                            "TUNE_IPOIB_MTU")) == 1,
                 2, "the first root's findings again")
        again = wait_for(lambda: self.tune_traps("Raised")[raised:], 3, "the raise traps")
        self.assertIn("TUNE_IPOIB_MTU", [t[1] for t in again])
        self.assertEqual(self.modes(), "host,tune")

    def test_6_a_failed_audit_keeps_the_findings(self):
        moved = self.root + ".away"
        traps = self.trapd.text().count("rdmakitFinding")
        os.rename(self.root, moved)
        try:
            wait_for(lambda: f"tune audit of {self.root} failed: No such file or directory"
                     in self.setup.agent.log(), 3 * INTERVAL, "the failed audit")
            self.assertEqual(len(by_code(findings(self.setup), "TUNE_IPOIB_MTU")), 1)
        finally:
            os.rename(moved, self.root)
        first = len(self.audits())
        wait_for(lambda: len(self.audits()) > first, 3 * INTERVAL, "an audit again")
        self.assertEqual(self.audits()[-1][1], self.audits()[first - 1][1])
        time.sleep(0.5)
        self.assertEqual(self.trapd.text().count("rdmakitFinding"), traps, "no trap")

    def test_7_a_severity_change_is_trapped(self):
        mtu = os.path.join(self.root, "sys/class/net/ib0/mtu")
        raised = len(self.tune_traps("Raised"))
        (index, row), = by_code(findings(self.setup), "TUNE_IPOIB_MTU").items()
        self.assertEqual((row["Subject"], row["Severity"]), ("ib0", CRITICAL))
        with open(mtu, "w") as f:
            f.write("3000\n")  # below the datagram maximum: a warning, the same finding
        try:
            changed = wait_for(lambda: self.tune_traps("Changed"), 3 * INTERVAL,
                               "the severity change trap")
            self.assertEqual(changed, [(index, "TUNE_IPOIB_MTU", "ib0")])
            block = self.trapd.text().split("rdmakitFindingChanged")[1]
            self.assertIn(f"rdmakitFindingSeverity.{index} = warning", block)
            self.assertIn("rdmakitNotifyOldSeverity.0 = critical", block)
            self.assertIn("has MTU 3000", block)
            rows = by_code(findings(self.setup), "TUNE_IPOIB_MTU")
            self.assertEqual(list(rows), [index], "the same row")
            self.assertEqual(rows[index]["Severity"], WARNING)
            self.assertEqual([t for t in self.tune_traps("Raised")[raised:]
                              if t[1] == "TUNE_IPOIB_MTU"], [], "no raise")
        finally:
            with open(mtu, "w") as f:
                f.write("4096\n")
        wait_for(lambda: len(self.tune_traps("Changed")) == 2, 3 * INTERVAL, "changed back")

    def test_8_probe_on_and_off_at_a_reload(self):
        probed = lambda: {r["Subject"] for r in findings(self.setup).values()
                          if r["Code"] == "PROBE_NOT_RUN"}
        active = {f"{d}:{p}" for d, p in active_ports(snmptest.fixture("ib-hdr"))}
        self.assertEqual(len(active), 2, "the fixture's ACTIVE ports")
        self.assertEqual(probed(), set())
        log = self.reload(self.config() + "probe yes\nprobe-interval 3600\n")
        self.assertIn("probe yes from now on", log)
        self.assertNotIn("change only at a restart", log)
        # no verbs device here: a round at once, each ACTIVE port's probe could not run
        self.assertEqual(wait_for(probed, 5, "the probe's findings"), active)
        self.assertEqual(self.modes(), "host,tune,probe")
        log = self.reload(self.config())
        self.assertIn("probe no from now on", log)
        wait_for(lambda: not probed(), 5, "the probe's findings cleared")
        self.assertIn("loopback probe turned off: its 2 findings are cleared",
                      self.setup.agent.log())
        self.assertEqual(self.modes(), "host,tune")


def active_ports(root):
    """(device, port) of each ACTIVE port of a sysfs tree."""
    base = os.path.join(root, "class", "infiniband")
    for dev in sorted(os.listdir(base)):
        for port in sorted(os.listdir(os.path.join(base, dev, "ports"))):
            with open(os.path.join(base, dev, "ports", port, "state")) as f:
                if f.read().startswith("4:"):
                    yield dev, port


class BadConfig(unittest.TestCase):
    def test_bad_tune_values(self):
        with tempfile.TemporaryDirectory() as tmp:
            conf = os.path.join(tmp, "bad.conf")
            not_dir = os.path.join(tmp, "file")
            open(not_dir, "w").close()
            with open(conf, "w") as f:
                f.write(f"tune maybe\ntune-interval 0\ntune-interval soon\ntune-root rel\n"
                        f"tune-root {tmp}/none\ntune-root {not_dir}\ntune-profile fast\n"
                        f"tune-profile\ntune-interval 604801\ntune yes\ntune-root {tmp}\n"
                        "tune-profile throughput\ntune-interval 0.5\n")
            out = subprocess.run([AGENTX, "-f", "-Le", "-c", conf, "--sysfs-root",
                                  snmptest.fixture("ib-hdr")], capture_output=True, text=True,
                                 timeout=20, env=snmptest.env(tmp))
        self.assertEqual(out.returncode, 2)
        self.assertEqual(out.stderr.splitlines(), [
            f'{conf}:1: tune: "maybe" is not yes or no',
            f'{conf}:2: tune-interval: "0": expected a number of seconds from 1 to 604800',
            f'{conf}:3: tune-interval: "soon": expected a number of seconds from 1 to 604800',
            f'{conf}:4: tune-root: "rel" is not the absolute path of an existing directory',
            f'{conf}:5: tune-root: "{tmp}/none" is not the absolute path of an existing '
            "directory",
            f'{conf}:6: tune-root: "{not_dir}" is not the absolute path of an existing '
            "directory",
            f'{conf}:7: tune-profile: "fast" is not latency or throughput',
            f'{conf}:8: tune-profile: "" is not latency or throughput',
            f'{conf}:9: tune-interval: "604801": expected a number of seconds from 1 to 604800',
            f'{conf}:13: tune-interval: "0.5": expected a number of seconds from 1 to 604800',
        ])


if __name__ == "__main__":
    unittest.main(verbosity=2)
