#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The subagent with "fabric yes", "audit yes" (audit-interval 1, audit-partitions the file
OpenSM runs with) against a real ibsim + OpenSM whose periodic sweep is off, a real snmpd and
snmptrapd, host2, host3 and host9 members of a multicast group (tests/sim/mcast_join): no
audit row on the healthy fabric; host4's P_Key table given the storage partition, host6's
SL 0 mapped to VL15 and Leaf1's multicast entry sent to host4 instead of host2
(tests/sim/smp_set) are one row each of rdmakitFindingTable (PARTITION_UNEXPECTED,
SL_TO_VL_INVALID, MULTICAST_MEMBER_UNREACHED, MULTICAST_STRAY_ENTRY) and one
rdmakitFindingRaised trap each, rdmakitFabricAuditCritical and rdmakitFabricAuditWarning
counting them; the tables put back, every row goes with a cleared trap each. rdmakitServedModes
says audit."""
import os
import re
import sys
import tempfile
import time
import unittest

import snmptest
from snmptest import Setup, Trapd
from rktest import fixture, umad2sim_env, wait_for

sys.path.insert(0, os.path.join(snmptest.TOP, "tests", "sim"))
import simlib  # noqa: E402

SMP_SET = os.environ.get("SMP_SET", os.path.join(snmptest.TOP, "build", "tests", "smp_set"))
AUDIT_CODES = ("PARTITION_", "SL_TO_VL", "DUPLICATE_", "LID_", "PORT_STUCK", "MULTICAST_")
MGID = "ff12:e001::1234"
# gen-fattree.py: CA n's port GUID is 0x0002c903000000n1
PORT_GUID = {n: 0x0002c90300000001 + 16 * n for n in range(1, 17)}


def audit_rows(setup):
    """[(code, subject)] of the audit findings in rdmakitFindingTable."""
    return snmptest.finding_rows(setup, AUDIT_CODES)


def blocks(trapd, kind):
    return [b for b in re.split(r"\n(?=\S)", trapd.text())
            if kind in b and any(code in b for code in AUDIT_CODES)]


class Audit(unittest.TestCase):
    def test_broken_tables_are_rows_and_traps(self):
        started = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp:
            net = simlib.generate(os.path.join(tmp, "ft.net"), leaves=4, hosts=4, spines=2,
                                  radix=8)
            self.partitions = os.path.join(tmp, "partitions.conf")
            with open(self.partitions, "w") as f:
                f.write("Default=0x7fff, ipoib : ALL=full ;\n"
                        f"storage=0x0002 : 0x{PORT_GUID[2]:016x}=full, "
                        f"0x{PORT_GUID[3]:016x} ;\n")
            with simlib.Sim(f"rksnmpa{os.getpid()}", net, tmp) as sim:
                self.sim = sim
                sim.env["SIM_OSM_ARGS"] = f"-s 0 -P {self.partitions}"
                sim.opensm("Hca1", 10)
                self.mlid = simlib.join_group(sim, MGID, ("Hca2", "Hca3", "Hca9"))
                self.audit()
                sim.ctl("reap", sim.name, check=False)
        print(f"test_audit: {time.monotonic() - started:.1f} s wall", file=sys.stderr)

    def smp_set(self, lid, attr, *patches, modifier="0"):
        proc = self.sim.run(SMP_SET, str(lid), attr, modifier, *patches)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def flip_leaf1_multicast(self):
        """Leaf1's entry for the group: to host4 (port 4), no longer to host2 (port 2)."""
        modifier, patch = simlib.mft_flip(self.mlid, [2, 4])
        self.smp_set(self.sim.lid("Leaf1"), "0x1b", patch, modifier=modifier)

    def audit(self):
        s = Setup(fixture("ib-hdr"),
                  config="fabric yes\nfabric-interval 1\naudit yes\naudit-interval 1\n"
                         f"audit-partitions {self.partitions}\n",
                  env_extra=umad2sim_env(self.sim.name))
        trapd = Trapd(s.workdir, snmptest.free_port())
        with open(s.snmpd.conf, "a") as f:
            f.write(f"trap2sink 127.0.0.1:{trapd.port} public\n")
        try:
            s.__enter__()
            wait_for(lambda: s.get_raw("RDMAKIT-MIB::rdmakitFabricSwitches.0") == "6", 30,
                     "the fabric")
            time.sleep(2)  # two more passes, each with an audit
            self.assertEqual(audit_rows(s), [])
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitFabricAuditCritical.0"), "0")
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitServedModes.0"),
                             "host,fabric,audit")
            host4, host6 = self.sim.lid("host4 HCA-1"), self.sim.lid("host6 HCA-1")
            self.smp_set(host4, "0x16", "2=0x80", "3=0x02")  # entry 1: storage, full member
            self.smp_set(host6, "0x17", "0=0xf1")  # SL 0 to VL15
            self.flip_leaf1_multicast()
            group = f"MLID 0x{self.mlid:04x}"
            want = sorted([("PARTITION_UNEXPECTED", "partition storage (0x0002)"),
                           ("SL_TO_VL_INVALID", "host6 HCA-1"),
                           ("MULTICAST_MEMBER_UNREACHED", group),
                           ("MULTICAST_STRAY_ENTRY", group)])
            wait_for(lambda: sorted(audit_rows(s)) == want, 30, "the audit rows")
            wait_for(lambda: len(blocks(trapd, "rdmakitFindingRaised")) >= 4, 10,
                     "the raised traps")
            time.sleep(2)
            self.assertEqual(sorted(audit_rows(s)), want)
            self.assertEqual(len(blocks(trapd, "rdmakitFindingRaised")), 4)
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitFabricAuditCritical.0"), "2")
            self.assertEqual(s.get_raw("RDMAKIT-MIB::rdmakitFabricAuditWarning.0"), "2")
            self.smp_set(host4, "0x16", "2=0", "3=0")
            self.smp_set(host6, "0x17", "0=0x01")
            self.flip_leaf1_multicast()
            wait_for(lambda: audit_rows(s) == [], 30, "the audit rows gone")
            wait_for(lambda: len(blocks(trapd, "rdmakitFindingCleared")) == 4, 10,
                     "the cleared traps")
        finally:
            trapd.stop()
            s.__exit__(None, None, None)


if __name__ == "__main__":
    unittest.main(verbosity=2)
