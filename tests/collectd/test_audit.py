#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd with rdmakit.so in fabric mode with Audit true (AuditInterval 1,
AuditPartitions the file OpenSM runs with), against a real ibsim + OpenSM whose periodic sweep
is off, host2, host3 and host9 members of a multicast group (tests/sim/mcast_join): no audit
finding on the healthy fabric; host4's P_Key table given the storage partition
(tests/sim/smp_set), host6's SL 0 mapped to VL15, and Leaf1's multicast entry sent to host4
instead of host2 are notified once each, PARTITION_UNEXPECTED, SL_TO_VL_INVALID,
MULTICAST_MEMBER_UNREACHED and MULTICAST_STRAY_ENTRY, and cleared (OKAY) once each table is
put back; count-audit_critical and count-audit_warning count them (0, 2, 0)."""
import os
import sys
import tempfile
import time
import unittest

import cdtest

sys.path.insert(0, os.path.join(cdtest.TOP, "tests", "sim"))
import simlib  # noqa: E402

PLUGIN = "rdma_fabric"
STARTED = time.monotonic()
SMP_SET = os.environ.get("SMP_SET", os.path.join(cdtest.TOP, "build", "tests", "smp_set"))
AUDIT_CODES = ("PARTITION_", "SL_TO_VL", "DUPLICATE_", "LID_", "PORT_STUCK", "MULTICAST_")
MGID = "ff12:e001::1234"
# gen-fattree.py: CA n's port GUID is 0x0002c903000000n1
PORT_GUID = {n: 0x0002c90300000001 + 16 * n for n in range(1, 17)}


class AuditMode(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), leaves=4, hosts=4,
                              spines=2, radix=8)
        cls.partitions = os.path.join(cls.tmp.name, "partitions.conf")
        with open(cls.partitions, "w") as f:
            f.write("Default=0x7fff, ipoib : ALL=full ;\n"
                    f"storage=0x0002 : 0x{PORT_GUID[2]:016x}=full, 0x{PORT_GUID[3]:016x} ;\n")
        cls.sim = simlib.Sim(f"rkcda{os.getpid()}", net, cls.tmp.name).__enter__()
        cls.daemon = None
        try:
            cls.sim.env["SIM_OSM_ARGS"] = f"-s 0 -P {cls.partitions}"
            cls.sim.opensm("Hca1", 10)
            cls.mlid = simlib.join_group(cls.sim, MGID, ("Hca2", "Hca3", "Hca9"))
            cls.daemon = cdtest.Daemon(cdtest.plugin_block(
                SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True, FabricInterval=1, Audit=True,
                AuditInterval=1, AuditPartitions=cls.partitions, Notifications=True))
            status = cls.daemon.start(env=cdtest.sim_env(cls.sim.name))
            assert status == 0, cls.daemon.start_output
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if cls.daemon:
            cls.daemon.cleanup()
        cls.sim.ctl("reap", cls.sim.name, check=False)
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()
        print(f"test_audit: {time.monotonic() - STARTED:.1f} s wall", file=sys.stderr)

    def audit_notes(self):
        return [(n["type_instance"], n["severity"]) for n in self.daemon.notifications()
                if n.get("plugin") == PLUGIN and
                n.get("type_instance", "").startswith(AUDIT_CODES)]

    def wait_sweeps(self, count):
        start = len(self.daemon.rows("", "count-nodes", PLUGIN))
        cdtest.wait_for(lambda: len(self.daemon.rows("", "count-nodes", PLUGIN)) >= start + count,
                        30, f"{count} more sweeps")

    def last(self, ident):
        return self.daemon.last("", ident, PLUGIN)

    def smp_set(self, lid, attr, *patches, modifier="0"):
        proc = self.sim.run(SMP_SET, str(lid), attr, modifier, *patches)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def flip_leaf1_multicast(self):
        """Leaf1's entry for the group: to host4 (port 4), no longer to host2 (port 2)."""
        modifier, patch = simlib.mft_flip(self.mlid, [2, 4])
        self.smp_set(self.sim.lid("Leaf1"), "0x1b", patch, modifier=modifier)

    def test_broken_tables_notified_once_and_cleared(self):
        self.wait_sweeps(3)
        self.assertEqual(self.audit_notes(), [])
        self.assertEqual(self.last("count-audit_critical"), [0.0])
        self.assertEqual(self.last("count-audit_warning"), [0.0])
        host4, host6 = self.sim.lid("host4 HCA-1"), self.sim.lid("host6 HCA-1")
        self.smp_set(host4, "0x16", "2=0x80", "3=0x02")  # entry 1: storage, full member
        self.smp_set(host6, "0x17", "0=0xf1")  # SL 0 to VL15
        self.flip_leaf1_multicast()
        cdtest.wait_for(lambda: len(self.audit_notes()) >= 4, 30, "the audit notifications")
        self.wait_sweeps(3)
        self.assertEqual(sorted(self.audit_notes()),
                         [("MULTICAST_MEMBER_UNREACHED", "FAILURE"),
                          ("MULTICAST_STRAY_ENTRY", "WARNING"),
                          ("PARTITION_UNEXPECTED", "FAILURE"), ("SL_TO_VL_INVALID", "WARNING")])
        self.assertEqual(self.last("count-audit_critical"), [2.0])
        self.assertEqual(self.last("count-audit_warning"), [2.0])
        log = self.daemon.log()
        self.assertEqual(log.count("PARTITION_UNEXPECTED partition storage (0x0002): "), 1, log)
        self.assertIn(f"host4 HCA-1[1] (0x{PORT_GUID[4]:016x})", log)
        self.assertEqual(log.count("SL_TO_VL_INVALID host6 HCA-1: "), 1, log)
        group = f"MLID 0x{self.mlid:04x}: "
        self.assertEqual(log.count(f"MULTICAST_MEMBER_UNREACHED {group}"), 1, log)
        self.assertIn(f"host2 HCA-1[1] (0x{PORT_GUID[2]:016x}, not from host3 HCA-1[1])", log)
        self.assertEqual(log.count(f"MULTICAST_STRAY_ENTRY {group}"), 1, log)
        self.smp_set(host4, "0x16", "2=0", "3=0")
        self.smp_set(host6, "0x17", "0=0x01")
        self.flip_leaf1_multicast()
        cdtest.wait_for(lambda: len(self.audit_notes()) >= 8, 30, "the findings cleared")
        self.assertEqual(sorted(self.audit_notes()),
                         [("MULTICAST_MEMBER_UNREACHED", "FAILURE"),
                          ("MULTICAST_MEMBER_UNREACHED", "OKAY"),
                          ("MULTICAST_STRAY_ENTRY", "OKAY"), ("MULTICAST_STRAY_ENTRY", "WARNING"),
                          ("PARTITION_UNEXPECTED", "FAILURE"), ("PARTITION_UNEXPECTED", "OKAY"),
                          ("SL_TO_VL_INVALID", "OKAY"), ("SL_TO_VL_INVALID", "WARNING")])
        self.assertNotIn("fabric audit failed", self.daemon.log())
        cdtest.wait_for(lambda: self.last("count-audit_critical") == [0.0], 10,
                        "no critical finding counted")


if __name__ == "__main__":
    unittest.main(verbosity=2)
