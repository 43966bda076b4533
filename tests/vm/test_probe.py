#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit probe, status and doctor --probe on a real rxe0, and every command on the VM's real
/sys and /proc (tests/e2e/real_host.py); one VM boot for the whole file."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmlib  # noqa: E402

RK = vmlib.quote(vmlib.RDMAKIT)
REAL_HOST = os.path.join(vmlib.HERE, "..", "e2e", "real_host.py")
NOBODY = "setpriv --reuid=65534 --regid=65534 --clear-groups"
COMMANDS = {
    "json": RK + " probe rxe0:1 --json",
    "text": RK + " probe --size 65536",
    "unknown_device": RK + " probe nosuch --json",
    "unknown_port": RK + " probe rxe0:7",
    "size_zero": RK + " probe --size 0",
    "status_json": RK + " status rxe0 --json",
    "status_text": RK + " status rxe0:1",
    "doctor": RK + " doctor --probe --json",
    # every command on the VM's real /sys and /proc, as e2e_real_host runs them on the host
    "real_host": "python3 " + vmlib.quote(REAL_HOST) + " " + RK,
    "memlock": "chmod 666 /dev/infiniband/uverbs0 && " + NOBODY +
               " sh -c 'ulimit -l 64; exec " + RK + " probe --size 1048576 --json'",
    "down": "ip link set eth0 down; " + vmlib.WAIT_DOWN + "; " + RK + " probe --json",
    "up_again": "ip link set eth0 up; " + vmlib.WAIT_ACTIVE + "; " + RK + " probe",
}


class Probe(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        names = list(COMMANDS)
        results, cls.transcript = vmlib.boot([COMMANDS[n] for n in names])
        cls.r = dict(zip(names, results))
        print(cls.transcript)

    def test_probe_passes_with_valid_json(self):
        r = self.r["json"]
        self.assertEqual(r.status, 0, r)
        doc = json.loads(r.output)
        self.assertEqual(doc["schema_version"], 1)
        self.assertEqual((doc["device"], doc["port"], doc["result"]), ("rxe0", 1, "pass"))
        self.assertEqual((doc["link_layer"], doc["gid_type"]), ("Ethernet", "RoCE v2"))
        self.assertEqual(doc["mtu_bytes"], 1024)
        self.assertEqual(doc["size_bytes"], 4096)
        self.assertIsNone(doc["failure"])
        names = [s["step"] for s in doc["steps"]]
        self.assertEqual(names, ["open", "port", "pd", "mr", "cq", "qp", "init", "rtr", "rts",
                                 "write", "read", "send"])
        for step in doc["steps"]:
            self.assertGreater(step["seconds"], 0, step)
            self.assertLess(step["seconds"], 5, step)
        self.assertGreater(doc["rtt_seconds"], 0)
        self.assertLessEqual(doc["rtt_seconds"], doc["steps"][-1]["seconds"])

    def test_probe_text(self):
        r = self.r["text"]
        self.assertEqual(r.status, 0, r)
        self.assertIn("probe rxe0:1 (Ethernet, GID 1 RoCE v2, MTU 1024, 65536 bytes): PASS",
                      r.output)
        self.assertRegex(r.output, r"send/receive round trip \d+\.\d{3} ms")

    def test_unknown_device_could_not_run(self):
        r = self.r["unknown_device"]
        self.assertEqual(r.status, 3, r)
        self.assertIn('no RDMA device named "nosuch"', r.output)

    def test_unknown_port_could_not_run(self):
        r = self.r["unknown_port"]
        self.assertEqual(r.status, 3, r)
        self.assertIn("rxe0 has no port 7", r.output)

    def test_size_zero_refused(self):
        r = self.r["size_zero"]
        self.assertEqual(r.status, 3, r)
        self.assertIn('--size: expected a whole number from 1 to', r.output)

    def test_status_has_gid_table_and_mtu(self):
        r = self.r["status_json"]
        self.assertEqual(r.status, 0, r)
        port = json.loads(r.output)["devices"][0]["ports"][0]
        self.assertEqual((port["active_mtu_bytes"], port["max_mtu_bytes"]), (1024, 4096))
        self.assertEqual(port["pkeys"], ["0xffff"])
        by_gid = {g["gid"]: g for g in port["gids"]}
        v4 = by_gid["0000:0000:0000:0000:0000:ffff:0a00:020f"]  # 10.0.2.15
        self.assertEqual((v4["type"], v4["netdev"]), ("RoCE v2", "eth0"))
        self.assertEqual(port["gids"][0]["gid"], port["gid0"])
        text = self.r["status_text"]
        self.assertEqual(text.status, 0, text)
        self.assertIn("rxe0 port 1: active MTU 1024, max MTU 4096, P_Keys 0xffff", text.output)
        self.assertRegex(text.output, r"\t1 +0000:0000:0000:0000:0000:ffff:0a00:020f +RoCE v2 +eth0")

    def test_doctor_probe_finding(self):
        r = self.r["doctor"]
        self.assertIn(r.status, (0, 1), r)
        findings = json.loads(r.output)["findings"]
        probe = [f for f in findings if f["code"].startswith("PROBE_")]
        self.assertEqual(len(probe), 1, findings)
        self.assertEqual((probe[0]["code"], probe[0]["subject"], probe[0]["severity"]),
                         ("PROBE_PASSED", "rxe0:1", "ok"))
        self.assertRegex(probe[0]["message"], r"4096 bytes passed, round trip \d")

    def test_memlock_too_low_names_the_limit(self):
        r = self.r["memlock"]
        self.assertEqual(r.status, 2, r)
        failure = json.loads(r.output[r.output.index("{"):])["failure"]
        self.assertEqual(failure["step"], "mr")
        self.assertIn("ibv_reg_mr of 4194304 bytes", failure["message"])
        self.assertIn("the memlock limit (ulimit -l) is 64 KiB and the MR needs 4096 KiB",
                      failure["hint"])

    def test_port_down_fails_at_port(self):
        r = self.r["down"]
        self.assertEqual(r.status, 2, r)
        doc = json.loads(r.output[r.output.index("{"):])
        self.assertEqual(doc["result"], "fail")
        self.assertEqual(doc["failure"]["step"], "port")
        self.assertEqual(doc["failure"]["message"], "port 1 is DOWN, not ACTIVE")
        self.assertIn("ip link", doc["failure"]["hint"])
        self.assertEqual([s["step"] for s in doc["steps"]], ["open"])

    def test_every_command_on_the_vms_real_sysfs(self):
        """rxe0 and ib_uverbs, no ib_umad: probe passes, the MAD commands say in one line that
        ib_umad is not loaded, and no library prints on stderr."""
        r = self.r["real_host"]
        self.assertEqual(r.status, 0, r)
        self.assertIn("machine: devices ['rxe0'], umad ports - (ib_umad not loaded), ib_uverbs "
                      "loaded, uverbs nodes ['uverbs0']", r.output)
        self.assertIn("REAL-HOST-OK", r.output)

    def test_port_up_again_passes(self):
        r = self.r["up_again"]
        self.assertEqual(r.status, 0, r)
        self.assertIn(": PASS", r.output)


if __name__ == "__main__":
    unittest.main(verbosity=2)
