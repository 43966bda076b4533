#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Every table of RDMAKIT-MIB walked through a real snmpd on several fixture trees: the values
are the fixture files' (octets for data counters), OIDs strictly increase, GETBULK with
max-repetitions 1000 gives the same walk, missing rows are noSuchInstance."""
import os
import re
import unittest

import snmptest
from snmptest import Setup
from rktest import fixture

CATALOG = os.path.join(snmptest.TOP, "common", "include", "rdmakit", "catalog_pma.h")
TREES = ["ib-hdr", "roce", "saturated", "no-pma", "port-states", "messy", "rxe", "hfi1",
         "ib-xdr"]
# rdmakitPortSpeed (RdmakitLinkSpeed), rdmakitPortWidth and rdmakitPortRate (Mb/s) by port
# index: ib-xdr's 4X XDR and 4X NDR ports read as in the CLI's status and collectd's rate.
SPEEDS = {
    "ib-xdr": {"1.1": ("9", "4", "800000"), "2.1": ("8", "4", "400000")},  # xdr(9), ndr(8)
    "ib-hdr": {"1.1": ("7", "4", "200000"), "2.1": ("7", "4", "200000")},  # hdr(7)
    "roce": {"1.1": ("6", "4", "100000")},  # edr(6)
    "rxe": {"1.1": ("4", "1", "10000")},  # fdr10(4): "10 Gb/sec (1X FDR10)"
    "port-states": {"1.1": ("1", "4", "10000"), "3.1": ("7", "4", "200000")},  # "(4X)": sdr(1)
}


def pma_catalog():
    """[(sysfs name, scale, width, narrow width)] of the catalog's PMA counters, in its
    order."""
    with open(CATALOG) as f:
        text = f.read()
    found = [(m.group(1), int(m.group(4)), int(m.group(2)), int(m.group(3))) for m in re.finditer(
        r'(?:ROW|ADDL)\(\d+,\s*"(\w+)",\s*(\d+),\s*(\d+),\s*(\d+),', text)]
    rows = len(re.findall(r"^\s*(?:ROW|ADDL)\(", text, re.M))
    assert len(found) == rows >= 21, "catalog_pma.h's rows not all found"
    return found


def camel(name):
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def read(path):
    with open(path) as f:
        return f.read().strip()


def devices(root):
    base = os.path.join(root, "class", "infiniband")
    return sorted(os.listdir(base), key=lambda n: [int(t) if t.isdigit() else t
                                                   for t in re.split(r"(\d+)", n)])


def ports(root, dev):
    return sorted(int(p) for p in os.listdir(os.path.join(root, "class", "infiniband", dev,
                                                          "ports")))


def number(text):
    try:
        return int(text, 0)
    except ValueError:
        return None


SNAPSHOT_AGE = (1, 3, 6, 1, 4, 1, 8072, 9999, 9999, 42, 1, 1, 4, 0)  # rdmakitSnapshotAge.0


def without_age(rows):
    """A walk's rows but rdmakitSnapshotAge, whose value is in whole seconds of the clock."""
    return [r for r in rows if r[0] != SNAPSHOT_AGE]


GUID_TEXT = r"^[0-9a-f]{4}(:[0-9a-f]{4}){3}$"


class Tables(unittest.TestCase):
    def check_tree(self, name):
        root = fixture(name)
        with Setup(root, config="probe yes\n") as s:
            rows = s.walk()
            oids = [r[0] for r in rows]
            self.assertTrue(rows, "the walk returned nothing")
            for a, b in zip(oids, oids[1:]):
                self.assertLess(a, b, f"{name}: OIDs not strictly increasing")
            # the snapshot's age moves with the clock between the two walks: the rest may not
            self.assertEqual(without_age(s.walk(bulk=True, extra=("-Cr1000",))),
                             without_age(rows),
                             f"{name}: GETBULK max-repetitions 1000 differs from GETNEXT")
            values = s.named()
            self.check_devices(root, values)
            self.check_ports(root, values)
            self.check_speeds(name, values)
            self.check_counters(root, values)
            self.check_driver_counters(root, values)
            self.check_missing(s)

    def check_devices(self, root, values):
        for i, dev in enumerate(devices(root), 1):
            base = os.path.join(root, "class", "infiniband", dev)
            self.assertEqual(values[f"rdmakitDeviceName.{i}"], dev)
            # the GUIDs as the kernel writes them, leading zeros kept; as octets, never
            self.assertNotIn(f"rdmakitDeviceNodeGuid.{i}", values)
            self.assertNotIn(f"rdmakitDeviceSysImageGuid.{i}", values)
            self.assertEqual(values[f"rdmakitDeviceNodeGuidText.{i}"],
                             read(os.path.join(base, "node_guid")), dev)
            self.assertRegex(values[f"rdmakitDeviceNodeGuidText.{i}"], GUID_TEXT)
            self.assertEqual(values[f"rdmakitDeviceSysImageGuidText.{i}"],
                             read(os.path.join(base, "sys_image_guid")), dev)
            self.assertEqual(values[f"rdmakitDeviceFirmware.{i}"],
                             read(os.path.join(base, "fw_ver")), dev)
        self.assertNotIn(f"rdmakitDeviceName.{len(devices(root)) + 1}", values)

    def check_ports(self, root, values):
        for i, dev in enumerate(devices(root), 1):
            for p in ports(root, dev):
                state = read(os.path.join(root, "class", "infiniband", dev, "ports", str(p),
                                          "state")).split(":")[0]
                self.assertEqual(values[f"rdmakitPortState.{i}.{p}"], state,
                                 f"{dev}:{p}")
                gid = os.path.join(root, "class", "infiniband", dev, "ports", str(p), "gids",
                                   "0")
                guid = read(gid)[20:] if os.path.exists(gid) else ""
                self.assertEqual(values[f"rdmakitPortGuid.{i}.{p}"], guid, f"{dev}:{p}")
                self.check_probe_not_run(values, f"{i}.{p}", f"{dev}:{p}", state == "4")

    def check_speeds(self, name, values):
        for key, (speed, width, rate) in SPEEDS.get(name, {}).items():
            self.assertEqual((values[f"rdmakitPortSpeed.{key}"], values[f"rdmakitPortWidth.{key}"],
                              values[f"rdmakitPortRate.{key}"]), (speed, width, rate),
                             f"{name} {key}")

    def check_probe_not_run(self, values, key, subject, active):
        """probe yes on a host without a verbs device: each ACTIVE port's probe could not run
        (a PROBE_NOT_RUN finding), and every port's probe columns read notRun."""
        self.assertEqual(values[f"rdmakitPortProbeStatus.{key}"], "1", subject)  # notRun(1)
        self.assertNotIn(f"rdmakitPortProbeTime.{key}", values)
        self.assertEqual(values[f"rdmakitPortProbeFailure.{key}"], "", subject)
        findings = [k for k, v in values.items()
                    if k.startswith("rdmakitFindingCode.") and v == "PROBE_NOT_RUN"
                    and values["rdmakitFindingSubject." + k.split(".", 1)[1]] == subject]
        self.assertEqual(len(findings), 1 if active else 0, subject)

    def check_counters(self, root, values):
        for i, dev in enumerate(devices(root), 1):
            for p in ports(root, dev):
                cdir = os.path.join(root, "class", "infiniband", dev, "ports", str(p),
                                    "counters")
                key = f"{i}.{p}"
                if not os.path.isdir(cdir):
                    self.assertNotIn(f"rdmakitPcSaturated.{key}", values)
                    continue
                sat, unavail = set(), set()
                for bit, (counter, scale, width, narrow) in enumerate(pma_catalog()):
                    column = f"rdmakitPc{camel(counter)}.{key}"
                    path = os.path.join(cdir, counter)
                    raw = number(read(path)) if os.path.exists(path) else None
                    if raw is None:
                        unavail.add(bit)
                        self.assertNotIn(column, values, "unavailable served as a number")
                    elif raw in {(1 << w) - 1 for w in (width, narrow) if 0 < w < 64}:
                        sat.add(bit)
                        self.assertNotIn(column, values, "saturated served as a number")
                    else:
                        self.assertEqual(int(values[column].split()[0]), raw * scale, column)
                self.assertEqual(bits(values[f"rdmakitPcSaturated.{key}"]), sat, key)
                self.assertEqual(bits(values[f"rdmakitPcUnavailable.{key}"]), unavail, key)

    def check_driver_counters(self, root, values):
        for i, dev in enumerate(devices(root), 1):
            dirs = [(0, os.path.join(root, "class", "infiniband", dev, "hw_counters"))]
            dirs += [(p + 1, os.path.join(root, "class", "infiniband", dev, "ports", str(p),
                                          "hw_counters")) for p in ports(root, dev)]
            for port_key, hw in dirs:
                names = sorted(os.listdir(hw)) if os.path.isdir(hw) else []
                for n, counter in enumerate(names, 1):
                    key = f"{i}.{port_key}.{n}"
                    if counter == "lifespan":
                        self.assertNotIn(f"rdmakitDcName.{key}", values)
                        continue
                    self.assertEqual(values[f"rdmakitDcName.{key}"], counter)
                    self.assertEqual(int(values[f"rdmakitDcValue.{key}"]),
                                     int(read(os.path.join(hw, counter))), key)
                    self.assertEqual(values[f"rdmakitDcState.{key}"], "1")  # ok(1)

    def check_missing(self, s):
        self.assertIn("No Such Instance",
                      s.tool("snmpget", "RDMAKIT-MIB::rdmakitPortState.99.1"))
        self.assertIn("No Such Instance",
                      s.tool("snmpget", "RDMAKIT-MIB::rdmakitAgentVersion.1"))
        self.assertIn("No Such Object",
                      s.tool("snmpget", f"{snmptest.ROOT_OID}.1.2.2.1.99.1.1"))
        self.assertIn("No Such Object",
                      s.tool("snmpget", f"{snmptest.ROOT_OID}.1.2.2.1.1.1.1"))
        last = s.tool("snmpgetnext", f"{snmptest.ROOT_OID}.1.99")
        self.assertNotIn(snmptest.ROOT_OID[1:] + ".", last.replace("iso.", "1."))

    def test_trees(self):
        for name in TREES:
            with self.subTest(tree=name):
                self.check_tree(name)

    def test_snmptable(self):
        with Setup(fixture("port-states")) as s:
            out = s.tool("snmptable", "-Cf", ",", "-CH", "RDMAKIT-MIB::rdmakitPortTable")
            states = [line.split(",")[0] for line in out.strip().splitlines()]
            self.assertEqual(states, ["down", "down", "armed", "active"])


def bits(text):
    """The bit numbers set in a BITS value as snmpwalk -OQ prints it ("00 00 00 " or
    "80 00 00 symbolError(0) ...")."""
    octets = re.findall(r"\b[0-9A-Fa-f]{2}\b", text.split("(")[0])
    found = set()
    for i, octet in enumerate(octets[:3]):
        for b in range(8):
            if int(octet, 16) & (0x80 >> b):
                found.add(i * 8 + b)
    return found


if __name__ == "__main__":
    unittest.main(verbosity=2)
