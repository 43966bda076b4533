#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""End-to-end tests of the rdmakit CLI on the sysfs fixtures: exact values from its JSON."""
import contextlib
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rktest  # noqa: E402
from rktest import RDMAKIT, SYSFS_FIXTURES as SYSFS  # noqa: E402


@contextlib.contextmanager
def fixture_copy(name):
    """A writable copy of a fixture tree, removed afterwards; yields its root."""
    tmp = tempfile.mkdtemp()
    try:
        root = os.path.join(tmp, "root")
        shutil.copytree(os.path.join(SYSFS, name), root, symlinks=True)
        yield root
    finally:
        shutil.rmtree(tmp)


def run(*args, root=None, check_rc=None):
    cmd = [RDMAKIT, *args]
    if root:
        cmd += ["--sysfs-root", root if os.path.isabs(root) else os.path.join(SYSFS, root)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if check_rc is not None and proc.returncode != check_rc:
        raise AssertionError(f"{cmd}: exit {proc.returncode}, stderr: {proc.stderr}")
    return proc


run_json = functools.partial(rktest.run_json, run)
GOLDEN_TEXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden_text")


def device(doc, name):
    return next(d for d in doc["devices"] if d["name"] == name)


def port(doc, name, num=1):
    return next(p for p in device(doc, name)["ports"] if p["port"] == num)


def codes(doc):
    return sorted((f["code"], f["subject"]) for f in doc["findings"])


class Status(unittest.TestCase):
    def test_ib_hdr_device_facts(self):
        doc = run_json("status", root="ib-hdr")
        self.assertEqual([d["name"] for d in doc["devices"]], ["mlx5_0", "mlx5_1"])
        d = device(doc, "mlx5_1")
        self.assertEqual(d["node_guid"], "b859:9f03:00d4:6f2b")
        self.assertEqual(d["sys_image_guid"], "b859:9f03:00d4:6f2a")
        self.assertEqual(d["fw_ver"], "20.31.1014")
        self.assertEqual(d["hca_type"], "MT4123")
        self.assertEqual(d["board_id"], "MT_0000000223")
        self.assertEqual(d["hw_rev"], "0x0")
        self.assertEqual(d["node_type"], "CA")
        self.assertEqual(d["num_ports"], 1)
        self.assertEqual(d["pci"], {
            "address": "0000:3b:00.1", "vendor_id": "0x15b3", "device_id": "0x101b",
            "numa_node": 0, "link_speed_gts": 16, "max_link_speed_gts": 16,
            "link_width": 16, "max_link_width": 16, "sriov_numvfs": 0, "sriov_totalvfs": 8})

    def test_ib_hdr_port_facts(self):
        p = port(run_json("status", root="ib-hdr"), "mlx5_0")
        expected = {"port": 1, "state": "ACTIVE", "phys_state": "LinkUp", "rate_gbps": 200,
                    "width": "4X", "speed": "HDR", "link_layer": "InfiniBand", "lid": 5,
                    "sm_lid": 1, "sm_sl": 0, "lmc": 0, "cap_mask": "0xa651e848",
                    "gid0": "fe80:0000:0000:0000:b859:9f03:00d4:6f2a", "netdev": None}
        self.assertEqual({k: p[k] for k in expected}, expected)
        self.assertEqual(port(run_json("status", root="ib-hdr"), "mlx5_1")["lid"], 6)

    def test_ib_hdr_counters_in_bytes(self):
        p = port(run_json("status", root="ib-hdr"), "mlx5_0")
        c = p["counters"]
        self.assertEqual(len(c), 21)
        self.assertEqual(c["port_xmit_data"], 1234567890123 * 4)
        self.assertEqual(c["port_rcv_data"], 987654321098 * 4)
        self.assertEqual(c["port_xmit_packets"], 1204817745)
        self.assertEqual(c["unicast_rcv_packets"], 964432817)
        self.assertEqual(c["multicast_xmit_packets"], 182734)
        self.assertEqual(c["port_xmit_wait"], 2837461)
        self.assertEqual(c["symbol_error"], 0)
        self.assertEqual(p["hw_counters"]["rx_write_requests"], 84736251)
        self.assertEqual(p["hw_counters"]["lifespan"], 10)
        self.assertEqual(len(p["hw_counters"]), 24)
        self.assertEqual(p["saturated"], [])
        self.assertEqual(p["unavailable"], [])
        self.assertEqual(device(run_json("status", root="ib-hdr"), "mlx5_0")["hw_counters"],
                         {"lifespan": 10, "out_of_buffer": 0, "out_of_sequence": 0})

    def test_roce_port(self):
        doc = run_json("status", root="roce")
        d = device(doc, "mlx5_2")
        self.assertEqual((d["hca_type"], d["fw_ver"], d["pci"]["device_id"]),
                         ("MT4119", "16.35.2000", "0x1017"))
        p = port(doc, "mlx5_2")
        self.assertEqual(p["link_layer"], "Ethernet")
        self.assertEqual(p["netdev"], "ens1f0")
        self.assertEqual((p["rate_gbps"], p["width"], p["speed"]), (100, "4X", "EDR"))
        self.assertEqual(p["gid0"], "fe80:0000:0000:0000:0a5e:a1ff:fe2b:3c4d")
        self.assertEqual(p["hw_counters"]["np_cnp_sent"], 183746)
        self.assertEqual(p["counters"]["port_rcv_data"], 398765432109 * 4)

    def test_rxe_has_no_pci_and_only_hw_counters(self):
        doc = run_json("status", root="rxe")
        d = device(doc, "rxe0")
        self.assertIsNone(d["pci"])
        self.assertIsNone(d["hca_type"])
        p = port(doc, "rxe0")
        self.assertEqual(p["counters"], {})
        self.assertEqual(p["hw_counters"]["sent_pkts"], 48213977)
        self.assertEqual(p["netdev"], "eth0")
        self.assertEqual((p["rate_gbps"], p["width"], p["speed"]), (10, "1X", "FDR10"))

    def test_hfi1_unknown_driver_counters_and_missing_hca_type(self):
        doc = run_json("status", root="hfi1")
        d = device(doc, "hfi1_0")
        self.assertIsNone(d["hca_type"])
        self.assertEqual(d["board_id"], "Intel Omni-Path Host Fabric Interface Adapter 100 Series")
        self.assertEqual((d["pci"]["vendor_id"], d["pci"]["numa_node"]), ("0x8086", 1))
        self.assertIsNone(d["pci"]["sriov_totalvfs"])
        self.assertEqual(d["hw_counters"], {"DcRecvErr": 3, "RcvOverflow": 0, "lifespan": 10})
        p = port(doc, "hfi1_0")
        self.assertEqual(p["hw_counters"], {"RxFlits": 81726354012, "TxFlits": 91827364501,
                                            "TxWait": 1234509, "lifespan": 10})
        self.assertEqual(p["counters"]["port_xmit_data"], 5566778899001 * 4)
        self.assertEqual((p["lid"], p["rate_gbps"], p["speed"]), (26, 100, "EDR"))

    def test_old_kernel_sdr_rate_string(self):
        p = port(run_json("status", root="port-states"), "mlx5_0")
        self.assertEqual((p["rate_gbps"], p["width"], p["speed"]), (10, "4X", "SDR"))
        self.assertEqual((p["state"], p["phys_state"]), ("DOWN", "Polling"))

    def test_xdr_and_ndr_ports(self):
        doc = run_json("status", root="ib-xdr")
        self.assertEqual([(device(doc, d)["hca_type"], device(doc, d)["pci"]["device_id"])
                          for d in ("mlx5_0", "mlx5_1")], [("MT4131", "0x1023"),
                                                           ("MT4129", "0x1021")])
        xdr, ndr = port(doc, "mlx5_0"), port(doc, "mlx5_1")
        self.assertEqual((xdr["rate_gbps"], xdr["width"], xdr["speed"]), (800, "4X", "XDR"))
        self.assertEqual((ndr["rate_gbps"], ndr["width"], ndr["speed"]), (400, "4X", "NDR"))
        text = run("status", root="ib-xdr", check_rc=0).stdout
        self.assertIn("Rate:            800 Gb/s\n\t\tWidth:           4X\n"
                      "\t\tSpeed:           XDR\n", text)
        self.assertIn("Rate:            400 Gb/s\n\t\tWidth:           4X\n"
                      "\t\tSpeed:           NDR\n", text)

    def test_no_pma_counters_are_null_not_zero(self):
        p = port(run_json("status", root="no-pma"), "mlx5_0")
        self.assertEqual(len(p["counters"]), 21)
        self.assertTrue(all(v is None for v in p["counters"].values()))
        self.assertEqual(len(p["unavailable"]), 21)
        self.assertEqual(p["hw_counters"]["rx_write_requests"], 72619384)
        self.assertEqual(p["state"], "ACTIVE")

    def test_saturated_counters_flagged(self):
        p = port(run_json("status", root="saturated"), "mlx5_0")
        self.assertEqual(sorted(p["saturated"]), ["link_downed", "port_xmit_wait", "symbol_error"])
        self.assertEqual(p["counters"]["port_xmit_wait"], 4294967295)
        self.assertEqual(p["counters"]["symbol_error"], 65535)
        self.assertEqual(p["counters"]["port_xmit_data"], 2233445566778 * 4)

    def test_messy_files_parse_and_bad_values_are_isolated(self):
        proc = run("status", "--json", root="messy", check_rc=0)
        doc = json.loads(proc.stdout)
        self.assertEqual([d["name"] for d in doc["devices"]], ["mlx5_0", "mlx5_1", "mlx5_2"])
        m0, m1, m2 = (device(doc, n) for n in ("mlx5_0", "mlx5_1", "mlx5_2"))
        self.assertEqual(m0["fw_ver"], "20.31.1014")
        self.assertIsNone(m0["hw_rev"])
        p0 = port(doc, "mlx5_0")
        self.assertEqual((p0["state"], p0["rate_gbps"], p0["lid"]), ("ACTIVE", 200, 5))
        self.assertEqual(p0["counters"]["port_xmit_data"], 1357924680135 * 4)
        self.assertIsNone(p0["counters"]["port_rcv_packets"])
        self.assertIsNone(p0["counters"]["VL15_dropped"])
        self.assertEqual(p0["counters"]["symbol_error"], 7)
        self.assertEqual(sorted(p0["unavailable"]), ["VL15_dropped", "port_rcv_packets"])
        self.assertIn("port_rcv_packets: not a counter value: \"abc\"", proc.stderr)
        self.assertEqual((m1["fw_ver"], m1["node_guid"], m1["board_id"]),
                         ("20.31.1014", "b859:9f03:00d4:6f2b", None))
        p1 = port(doc, "mlx5_1")
        self.assertEqual((p1["state"], p1["phys_state"]), ("ACTIVE", "LinkUp"))
        self.assertEqual(p1["counters"]["port_rcv_data"], 975318642086 * 4)
        self.assertEqual(m1["pci"]["address"], "0000:3b:00.1")
        self.assertIsNone(m1["pci"]["link_speed_gts"])
        self.assertIsNone(m1["pci"]["numa_node"])
        self.assertEqual(m1["pci"]["link_width"], 16)
        self.assertIsNone(m2["pci"])
        self.assertEqual(port(doc, "mlx5_2")["counters"]["port_xmit_data"], 1029384756102 * 4)
        self.assertEqual(port(doc, "mlx5_2")["hw_counters"], {})

    def test_attribute_refusing_reads_is_skipped_with_one_message(self):
        """A ConnectX-7 port in switch mode answers some sysfs attributes with EINVAL
        (prometheus/node_exporter #3265): that attribute is unknown, said once, and the rest
        of the host is read."""
        env = dict(os.environ, **rktest.fault_env(),
                   RDMAKIT_FAULT_EINVAL="ports/1/counters/port_rcv_data")
        cmd = [RDMAKIT, "counters", "--json", "--interval", "0.1", "--count", "3",
               "--sysfs-root", os.path.join(SYSFS, "ib-hdr")]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        docs = [json.loads(line) for line in proc.stdout.splitlines()]
        self.assertEqual(len(docs), 3)
        for doc in docs:
            for name in ("mlx5_0", "mlx5_1"):
                counters = port(doc, name)["counters"]
                self.assertIsNone(counters["port_rcv_data"])
                self.assertIsNotNone(counters["port_xmit_data"])
                self.assertIsNotNone(counters["symbol_error"])
        for name in ("mlx5_0", "mlx5_1"):
            self.assertEqual(proc.stderr.count(f"{name}/ports/1/counters/port_rcv_data"), 1,
                             proc.stderr)
        self.assertEqual(proc.stderr.count("Invalid argument"), 2, proc.stderr)
        doctor = subprocess.run([RDMAKIT, "doctor", "--json", "--sysfs-root",
                                 os.path.join(SYSFS, "ib-hdr")], capture_output=True,
                                text=True, timeout=60, env=env)
        self.assertEqual(doctor.returncode, 0, doctor.stderr)  # nothing above ok
        self.assertEqual([(f["severity"], f["code"], f["subject"], f["message"])
                          for f in json.loads(doctor.stdout)["findings"]],
                         [("ok", "COUNTERS_UNAVAILABLE", f"{name}:1",
                           "counters the driver cannot report: port_rcv_data")
                          for name in ("mlx5_0", "mlx5_1")])

    def test_filter_and_unknown_device(self):
        doc = run_json("status", "mlx5_1:1", root="ib-hdr")
        self.assertEqual([d["name"] for d in doc["devices"]], ["mlx5_1"])
        proc = run("status", "mlx5_9", root="ib-hdr")
        self.assertEqual(proc.returncode, 3)
        self.assertIn("no RDMA device named mlx5_9", proc.stderr)

    def test_switch_port_zero_and_representor_port_numbers(self):
        with fixture_copy("ib-hdr") as root:
            dev0 = os.path.join(root, "class/infiniband/mlx5_0")
            os.rename(os.path.join(dev0, "ports/1"), os.path.join(dev0, "ports/0"))
            dev1 = os.path.join(root, "class/infiniband/mlx5_1")
            os.rename(os.path.join(dev1, "ports/1"), os.path.join(dev1, "ports/300"))
            doc = run_json("counters", "mlx5_1:300", root=root)
            self.assertEqual([d["name"] for d in doc["devices"]], ["mlx5_1"])
            self.assertEqual([p["port"] for p in doc["devices"][0]["ports"]], [300])
            self.assertEqual(port(doc, "mlx5_1", 300)["counters"]["port_rcv_data"],
                             998877665544 * 4)
            doc = run_json("counters", "mlx5_0:0", root=root)
            self.assertEqual(port(doc, "mlx5_0", 0)["counters"]["port_rcv_data"],
                             987654321098 * 4)
            proc = run("counters", "mlx5_0:1", root=root)
            self.assertEqual(proc.returncode, 3)
            self.assertIn("mlx5_0 has no port 1", proc.stderr)
            proc = run("counters", "mlx5_0:65536", root=root)
            self.assertEqual(proc.returncode, 3)
            self.assertIn("expected DEVICE or DEVICE:PORT", proc.stderr)

    def test_missing_root_is_a_clear_error(self):
        proc = run("status", root="/nonexistent/sysfs")
        self.assertEqual(proc.returncode, 3)
        self.assertIn("/nonexistent/sysfs", proc.stderr)

    def test_text_output(self):
        out = run("status", root="roce", check_rc=0).stdout
        self.assertIn("CA 'mlx5_2'", out)
        self.assertIn("Netdev:          ens1f0", out)
        self.assertIn("0000:5e:00.0 [15b3:1017]", out)

    def test_text_goldens(self):
        """The text of status (no counters: a line of the error counters that are not zero,
        saturated ones marked) and of status --counters (every counter), byte for byte."""
        for name, args, fixture in (("saturated.status", [], "saturated"),
                                    ("saturated.status-counters", ["--counters"], "saturated"),
                                    ("no-pma.status", [], "no-pma")):
            with self.subTest(golden=name), open(os.path.join(GOLDEN_TEXT, name + ".txt")) as f:
                self.assertEqual(run("status", *args, root=fixture, check_rc=0).stdout, f.read())

    def test_counters_only_on_request(self):
        short = run("status", root="saturated", check_rc=0).stdout
        self.assertIn("\t\tErrors:          4 counters non-zero (link_downed(saturated), "
                      "symbol_error(saturated), local_ack_timeout_err, out_of_sequence); "
                      "rdmakit counters mlx5_0:1 for all\n", short)
        self.assertNotIn("Counters:", short)
        self.assertNotIn("port_xmit_wait", short)
        self.assertEqual(len(short.splitlines()), 28)
        self.assertEqual(run("status", "-v", root="saturated", check_rc=0).stdout,
                         run("status", "--counters", root="saturated", check_rc=0).stdout)
        clean = run("status", "mlx5_0", root="ib-hdr", check_rc=0).stdout
        self.assertNotIn("Errors:", clean)
        self.assertNotIn("Unreadable:", clean)
        self.assertEqual(run_json("status", "--counters", root="saturated"),
                         run_json("status", root="saturated"))


class Counters(unittest.TestCase):
    def test_single_sample(self):
        doc = run_json("counters", "mlx5_0:1", root="ib-hdr")
        self.assertIsNone(doc["interval"])
        p = port(doc, "mlx5_0")
        self.assertEqual(p["counters"]["port_rcv_data"], 987654321098 * 4)
        self.assertEqual(p["rates"], {})

    def test_rates_from_two_samples(self):
        with fixture_copy("ib-hdr") as root:
            data = os.path.join(root, "class/infiniband/mlx5_0/ports/1/counters/port_xmit_data")

            def bump():
                time.sleep(0.4)
                with open(data, "w") as f:
                    f.write(f"{1234567890123 + 250000}\n")

            t = threading.Thread(target=bump)
            t.start()
            proc = run("counters", "--interval", "1", "--count", "2", "--json", root=root,
                       check_rc=0)
            t.join()
            lines = proc.stdout.strip().split("\n")
            self.assertEqual(len(lines), 2)
            second = json.loads(lines[1])
            self.assertGreater(second["interval"], 0.9)
            p = port(second, "mlx5_0")
            self.assertEqual(p["counters"]["port_xmit_data"], (1234567890123 + 250000) * 4)
            rate = p["rates"]["port_xmit_data"]
            self.assertAlmostEqual(rate, 1e6 / second["interval"], delta=1)
            self.assertEqual(p["rates"]["port_rcv_data"], 0)

    def test_device_removed_between_samples(self):
        with fixture_copy("ib-hdr") as root:

            def remove():
                time.sleep(0.4)
                shutil.rmtree(os.path.join(root, "class/infiniband/mlx5_1"))

            t = threading.Thread(target=remove)
            t.start()
            proc = run("counters", "--interval", "1", "--count", "2", "--json", root=root)
            t.join()
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("mlx5_1: device vanished", proc.stderr)
            first, second = (json.loads(l) for l in proc.stdout.strip().split("\n"))
            self.assertFalse(device(first, "mlx5_1")["vanished"])
            self.assertTrue(device(second, "mlx5_1")["vanished"])
            self.assertEqual(device(second, "mlx5_1")["ports"], [])
            self.assertEqual(port(second, "mlx5_0")["counters"]["port_xmit_data"],
                             1234567890123 * 4)
            doc = run_json("doctor", root=root, rc=0)
            self.assertEqual(codes(doc), [])

    def test_bad_values_are_logged_once_while_sampling(self):
        with fixture_copy("ib-hdr") as root:
            port_dir = os.path.join(root, "class/infiniband/mlx5_0/ports/1")
            for name, text in (("rate", "fast"), ("lid", "0xzz"), ("state", "ACTIVE"),
                               ("counters/symbol_error", "-3")):
                with open(os.path.join(port_dir, name), "w") as f:
                    f.write(text + "\n")
            proc = run("counters", "--interval", "0.1", "--count", "4", "--json", root=root,
                       check_rc=0)
            samples = [json.loads(l) for l in proc.stdout.strip().split("\n")]
            self.assertEqual(len(samples), 4)
            prefix = "class/infiniband/mlx5_0/ports/1/"
            for line in ('rate: malformed rate: "fast"', 'lid: not a number: "0xzz"',
                         'state: malformed: "ACTIVE"',
                         'counters/symbol_error: not a counter value: "-3"'):
                self.assertEqual(proc.stderr.count(prefix + line), 1, proc.stderr)
            self.assertEqual(len(proc.stderr.strip().split("\n")), 4, proc.stderr)
            last = port(samples[-1], "mlx5_0")
            self.assertIsNone(last["counters"]["symbol_error"])
            self.assertEqual(last["counters"]["port_rcv_data"], 987654321098 * 4)
            self.assertEqual(port(samples[-1], "mlx5_1")["counters"]["port_rcv_data"],
                             998877665544 * 4)

    def test_bad_arguments(self):
        for args, text in ((["--interval", "abc"],
                            "--interval abc: expected a number of seconds from 0 to 86400"),
                           (["--count", "0"], "--count: expected a whole number"),
                           (["mlx5_0:x"], "expected DEVICE or DEVICE:PORT"),
                           (["--bogus"], "unknown option")):
            proc = run("counters", *args, root="ib-hdr")
            self.assertEqual(proc.returncode, 3, args)
            self.assertIn(text, proc.stderr)


class Doctor(unittest.TestCase):
    EXPECTED = {
        "ib-hdr": (0, []),
        "no-sm": (2, [("PORT_NO_SM", "mlx5_0:1")]),
        "degraded-rate": (1, [("RATE_BELOW_PEERS", "mlx5_1:1")]),
        "pcie-x8": (1, [("PCIE_WIDTH_DEGRADED", "mlx5_0 (0000:3b:00.0)")]),
        "pcie-slow": (1, [("PCIE_SPEED_DEGRADED", "mlx5_0 (0000:3b:00.0)")]),
        "no-pma": (0, [("COUNTERS_UNAVAILABLE", "mlx5_0:1")]),
        "saturated": (1, [("COUNTER_SATURATED", "mlx5_0:1")]),
        "fw-mismatch": (1, [("FW_MISMATCH", "MT4123")]),
        "ib-xdr": (0, []),
        "roce": (0, []),
        "rxe": (0, []),
        "hfi1": (0, []),
        "port-states": (2, [("PORT_DISABLED", "mlx5_1:1"), ("PORT_NO_SM", "mlx5_2:1"),
                            ("PORT_POLLING", "mlx5_0:1"), ("PORT_SM_LID_ZERO", "mlx5_3:1")]),
    }

    def test_every_fixture(self):
        for fixture, (rc, expected) in self.EXPECTED.items():
            with self.subTest(fixture=fixture):
                doc = run_json("doctor", root=fixture, rc=rc)
                self.assertEqual(codes(doc), sorted(expected))

    def test_most_severe_first_with_remedies(self):
        doc = run_json("doctor", root="port-states", rc=2)
        severities = [f["severity"] for f in doc["findings"]]
        self.assertEqual(severities, ["critical", "critical", "warning", "warning"])
        for f in doc["findings"]:
            self.assertTrue(f["message"] and f["remedy"])
        self.assertIn("ARMED", doc["findings"][0]["message"])

    def test_expect_rate(self):
        doc = run_json("doctor", "--expect-rate", "200", root="roce", rc=1)
        self.assertEqual(codes(doc), [("RATE_BELOW_EXPECTED", "mlx5_2:1")])
        self.assertEqual(codes(run_json("doctor", "--expect-rate", "200", root="ib-hdr")), [])
        for rate, text in (("nan", "not a number"), ("1e999", "not a number"),
                           ("inf", "not a number"), ("1e300", "above any link's rate")):
            proc = run("doctor", "--expect-rate", rate, root="ib-hdr")
            self.assertEqual(proc.returncode, 3, rate)
            self.assertIn(f"--expect-rate: {text}", proc.stderr)

    def test_rising_errors_and_congestion_between_samples(self):
        with fixture_copy("ib-hdr") as root:
            c0 = os.path.join(root, "class/infiniband/mlx5_0/ports/1/counters")
            c1 = os.path.join(root, "class/infiniband/mlx5_1/ports/1/counters")

            def write(path, value):
                with open(path, "w") as f:
                    f.write(f"{value}\n")

            def change():
                time.sleep(0.3)
                write(os.path.join(c0, "symbol_error"), 3)
                write(os.path.join(c0, "link_downed"), 1)
                write(os.path.join(c1, "port_xmit_wait"), 1947283 + 500000)
                write(os.path.join(c1, "port_xmit_data"), 1122334455667 + 100000)

            t = threading.Thread(target=change)
            t.start()
            doc = run_json("doctor", "--interval", "1", root=root, rc=2)
            t.join()
            self.assertEqual(codes(doc), [("CONGESTION", "mlx5_1:1"), ("ERRORS_RISING", "mlx5_0:1")])
            rising = next(f for f in doc["findings"] if f["code"] == "ERRORS_RISING")
            self.assertIn("symbol_error +3", rising["message"])
            self.assertIn("link_downed +1", rising["message"])
            congestion = doc["findings"][0]
            self.assertEqual(congestion["severity"], "critical")
            self.assertIn("500000 ticks", congestion["message"])
            # unchanged counters over an interval: nothing
            self.assertEqual(codes(run_json("doctor", "--interval", "0.2", root=root)), [])

    def test_text_summary_and_exit_code(self):
        proc = run("doctor", root="no-sm")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("critical PORT_NO_SM", proc.stdout)
        self.assertIn("critical: 1 critical, 0 warning, 0 ok", proc.stdout)

    def test_help_on_every_command(self):
        for cmd in ("status", "counters", "doctor"):
            proc = run(cmd, "--help", check_rc=0)
            self.assertIn(f"Usage: rdmakit {cmd}", proc.stdout)


def strict_json(text):
    """json.loads that refuses NaN and Infinity (Python accepts them; JSON does not)."""
    def refuse(name):
        raise ValueError(f"not JSON: {name}")
    return json.loads(text, parse_constant=refuse)


PORT1 = "class/infiniband/mlx5_0/ports/1"


def make_hostile(root, relpath, kind):
    """Put a FIFO, a directory, a symlink loop, 1 MB of text or binary garbage at relpath."""
    path = os.path.join(root, relpath)
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.unlink(path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dir":
        os.mkdir(path)
    elif kind == "loop":
        os.symlink(os.path.basename(path), path)
    elif kind == "huge":
        with open(path, "w") as f:
            f.write("4" * (1 << 20))
    elif kind == "binary":
        with open(path, "wb") as f:
            f.write(bytes(range(256)) * 16)


class HostileTrees(unittest.TestCase):
    """Where an attribute should be: FIFOs (whose open used to hang every command), directories,
    symlink loops, 1 MB values and binary garbage. Every command returns, names the file and
    reads the rest; doctor never calls an unseen port ok."""

    WHY = {"fifo": "not a regular file", "dir": "a directory",
           "loop": "Too many levels of symbolic links"}

    def run_all(self, root):
        out = {}
        for cmd in ("status", "counters", "doctor"):
            proc = subprocess.run([RDMAKIT, cmd, "--json", "--sysfs-root", root],
                                  capture_output=True, text=True, timeout=20)
            out[cmd] = (proc.returncode, strict_json(proc.stdout), proc.stderr)
        return out

    def test_non_files_at_port_state_rate_and_counter(self):
        for kind in ("fifo", "dir", "loop"):
            with self.subTest(kind=kind), fixture_copy("ib-hdr") as root:
                for name in ("state", "rate", "counters/symbol_error"):
                    make_hostile(root, f"{PORT1}/{name}", kind)
                out = self.run_all(root)
                rc, doc, err = out["status"]
                self.assertEqual(rc, 0, err)
                p = port(doc, "mlx5_0")
                self.assertEqual((p["state"], p["rate_gbps"]), (None, None))
                self.assertEqual(port(doc, "mlx5_1")["state"], "ACTIVE")
                self.assertIn(f"{PORT1}/state: {self.WHY[kind]}", err)
                self.assertIn(f"{PORT1}/rate: {self.WHY[kind]}", err)
                if kind != "dir":  # a directory in counters/ is an old kernel's, skipped quietly
                    self.assertIn(f"{PORT1}/counters/symbol_error: {self.WHY[kind]}", err)
                self.assertNotIn("symbol_error", port(doc, "mlx5_0")["counters"])
                rc, doc, err = out["doctor"]
                self.assertEqual(rc, 1, err)
                self.assertEqual(codes(doc), [("PORT_STATE_UNKNOWN", "mlx5_0:1")])

    def test_huge_and_binary_values(self):
        for kind in ("huge", "binary"):
            with self.subTest(kind=kind), fixture_copy("ib-hdr") as root:
                for name in ("state", "rate", "lid", "counters/symbol_error", "../../fw_ver"):
                    make_hostile(root, os.path.normpath(f"{PORT1}/{name}"), kind)
                out = self.run_all(root)
                rc, doc, err = out["status"]
                self.assertEqual(rc, 0, err)
                p = port(doc, "mlx5_0")
                self.assertEqual((p["state"], p["rate_gbps"], p["lid"]), (None, None, None))
                self.assertIn(f"{PORT1}/state: malformed", err)
                self.assertIsNone(p["counters"]["symbol_error"])
                self.assertEqual(out["doctor"][0], 1)
                found = codes(out["doctor"][1])
                self.assertIn(("PORT_STATE_UNKNOWN", "mlx5_0:1"), found)
                self.assertIn(("COUNTERS_UNAVAILABLE", "mlx5_0:1"), found)  # symbol_error
                if kind == "huge":  # "4444..." is not mlx5_1's firmware
                    self.assertIn(("FW_MISMATCH", "MT4123"), found)

    def test_rates_that_are_not_numbers(self):
        for text in ("nan Gb/sec (4X HDR)", "1e999 Gb/sec (4X HDR)", "-inf Gb/sec"):
            with self.subTest(rate=text), fixture_copy("ib-hdr") as root:
                with open(os.path.join(root, PORT1, "rate"), "w") as f:
                    f.write(text + "\n")
                out = self.run_all(root)
                rc, doc, err = out["status"]
                self.assertEqual(rc, 0, err)
                self.assertIsNone(port(doc, "mlx5_0")["rate_gbps"])
                self.assertIn("malformed rate", err)
                # issue 18: an ACTIVE port's rate that is not a rate is a finding, not "ok"
                rc, doc, err = out["doctor"]
                self.assertEqual((rc, codes(doc)), (1, [("PORT_RATE_UNKNOWN", "mlx5_0:1")]), err)
                self.assertIn(text, doc["findings"][0]["message"])

    def test_node_name_map_that_is_a_fifo(self):
        with fixture_copy("ib-hdr") as root:
            fifo = os.path.join(root, "names")
            os.mkfifo(fifo)
            proc = subprocess.run([RDMAKIT, "doctor", "--fabric", "--node-name-map", fifo,
                                   "--sysfs-root", root], capture_output=True, text=True,
                                  timeout=20)
            self.assertEqual(proc.returncode, 3, proc.stderr)
            self.assertIn(f"{fifo}: cannot open node name map: not a regular file", proc.stderr)


class Unreadable(unittest.TestCase):
    """Issue 18: what doctor could not read is a finding, never "ok"; a failed write to stdout is
    an error. (A directory of mode 000 is test_unprivileged's: root reads it.)"""

    LONG = "mlx5_" + "7" * 60  # longer than any name the kernel gives a device

    def break_device(self, root, how):
        """Make mlx5_1 unreadable; returns the name doctor lists it under."""
        dev = os.path.join(root, "class/infiniband/mlx5_1")
        if how == "long name":
            os.rename(dev, os.path.join(root, "class/infiniband", self.LONG))
            return self.LONG
        shutil.rmtree(os.path.join(dev, "ports"))
        if how == "ports a file":
            with open(os.path.join(dev, "ports"), "w") as f:
                f.write("1\n")
        return "mlx5_1"

    def test_unreadable_device_is_a_warning(self):
        for how, why in (("no ports", "ports: No such file or directory"),
                         ("ports a file", "ports: Not a directory"),
                         ("long name", "File name too long")):
            with self.subTest(how=how), fixture_copy("ib-hdr") as root:
                name = self.break_device(root, how)
                doc = run_json("doctor", root=root, rc=1)
                self.assertEqual(codes(doc), [("DEVICE_UNREADABLE", name)])
                self.assertEqual(doc["worst"], "warning")
                self.assertIn(why, doc["findings"][0]["message"])
                proc = run("doctor", root=root)
                self.assertEqual(proc.returncode, 1)
                self.assertIn("warning  DEVICE_UNREADABLE", proc.stdout)
                self.assertEqual(proc.stderr.count("cannot read device"), 1, proc.stderr)

    def test_only_device_unreadable_is_not_no_devices(self):
        with fixture_copy("ib-hdr") as root:
            shutil.rmtree(os.path.join(root, "class/infiniband/mlx5_0"))
            self.break_device(root, "no ports")
            doc = run_json("doctor", root=root, rc=1)
            self.assertEqual(codes(doc), [("DEVICE_UNREADABLE", "mlx5_1")])
            proc = run("status", root=root, check_rc=0)
            self.assertEqual(proc.stdout,
                             "No RDMA device could be read (1 listed: see the warnings).\n")
            self.assertIn("mlx5_1: cannot read device", proc.stderr)

    def test_rate_unreadable_on_an_active_port(self):
        with fixture_copy("ib-hdr") as root:
            make_hostile(root, f"{PORT1}/rate", "fifo")
            doc = run_json("doctor", root=root, rc=1)
            self.assertEqual(codes(doc), [("PORT_RATE_UNKNOWN", "mlx5_0:1")])
            self.assertIn("could not be read", doc["findings"][0]["message"])

    def test_full_stdout_is_an_error(self):
        for args in (["status", "--json"], ["status"], ["doctor", "--json"],
                     ["counters", "--json"], ["--version"]):
            with self.subTest(args=args), open("/dev/full", "w") as full:
                cmd = [RDMAKIT, *args]
                if args[0] != "--version":
                    cmd += ["--sysfs-root", os.path.join(SYSFS, "ib-hdr")]
                proc = subprocess.run(cmd, stdout=full, stderr=subprocess.PIPE, text=True,
                                      timeout=20)
                self.assertEqual(proc.returncode, 3, proc.stderr)
                self.assertEqual(proc.stderr,
                                 "rdmakit: cannot write the output: No space left on device\n")

    def test_full_stdout_stops_sampling(self):
        with open("/dev/full", "w") as full:
            proc = subprocess.run([RDMAKIT, "counters", "--json", "--interval", "0.1",
                                   "--sysfs-root", os.path.join(SYSFS, "ib-hdr")],
                                  stdout=full, stderr=subprocess.PIPE, text=True, timeout=20)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn("No space left on device", proc.stderr)


class Options(unittest.TestCase):
    """The one option parser (cli/options.c) behind every subcommand."""
    COMMANDS = ("status", "counters", "doctor", "fabric", "sm", "sweep")
    MAD = ("fabric", "sm", "sweep", "doctor")

    def cli(self, *args):
        return subprocess.run([RDMAKIT, *args], capture_output=True, text=True, timeout=30)

    def test_help_comes_from_each_table(self):
        for cmd in self.COMMANDS:
            proc = self.cli(cmd, "--help")
            self.assertEqual(proc.returncode, 0, cmd)
            self.assertTrue(proc.stdout.startswith(f"Usage: rdmakit {cmd} "), cmd)
            lines = proc.stdout.splitlines()
            self.assertIn("--help", [l.split()[0] for l in lines if l.startswith("  --")])
            mad = [l for l in lines if l.startswith("  --window N ")]
            self.assertEqual(mad, ["  --window N             MADs in flight at once (default 32)"]
                             if cmd in self.MAD else [], cmd)
        doctor = self.cli("doctor", "--help").stdout
        self.assertTrue(doctor.endswith("3 could not check.\n"))
        self.assertIn("  --interval S           take a second sample", doctor)
        self.assertIn("  --count N         number of samples (default 1, or unlimited with "
                      "--interval)\n", self.cli("counters", "--help").stdout)
        sweep = self.cli("sweep", "--help").stdout
        self.assertIn("                         (default 300; it is also rediscovered when "
                      "ports stop\n                         answering)\n", sweep)

    def test_usage_errors_exit_3(self):
        for cmd in self.COMMANDS:
            proc = self.cli(cmd, "--bogus")
            self.assertEqual(proc.returncode, 3, cmd)
            self.assertIn(f"rdmakit {cmd}: unknown option\nTry 'rdmakit {cmd} --help'.",
                          proc.stderr)
            extra = ["a", "b"] if cmd in ("status", "counters") else ["a"]
            proc = self.cli(cmd, *extra)
            self.assertEqual(proc.returncode, 3, cmd)
            self.assertIn("too many arguments" if len(extra) == 2
                          else 'unexpected argument "a"', proc.stderr)
        for cmd in self.MAD:
            for args, text in ((["--window", "4097"],
                                "rdmakit: --window 4097: expected a whole number from 1 to 4096"),
                               (["-P", "0"], "rdmakit: -P 0: expected a port number from 1 to 254"),
                               (["--timeout"], "option '--timeout' requires an argument")):
                proc = self.cli(cmd, *args)
                self.assertEqual((proc.returncode, proc.stdout), (3, ""), (cmd, args))
                self.assertIn(text, proc.stderr)

    def test_the_discovery_helper_checks_the_same_limits(self):
        helper = os.environ.get("RDMAKIT_DISCOVER_HELPER")
        if not helper:
            self.fail("RDMAKIT_DISCOVER_HELPER is not set")
        for args, text in ((["-t", "60001"], "60001: expected a whole number of milliseconds "
                                             "from 1 to 60000"),
                           (["-P", "255"], "255: expected a port number from 1 to 254")):
            proc = subprocess.run([helper, *args], capture_output=True, text=True, timeout=30)
            self.assertEqual(proc.returncode, 2, args)
            self.assertIn(f"rdmakit-discover: {text}", proc.stderr)


class DescriptorBudget(unittest.TestCase):
    def test_fallback_reads_the_same_values(self):
        many = os.environ.get("MANY_PORTS")
        if not many:
            self.fail("MANY_PORTS (the generated 16-port fixture) is not set")
        normal = run_json("status", root=many)
        limited = subprocess.run(
            ["sh", "-c", 'ulimit -n 100 && exec "$0" "$@"', RDMAKIT, "status", "--json",
             "--sysfs-root", many], capture_output=True, text=True, timeout=60)
        self.assertEqual(limited.returncode, 0, limited.stderr)
        self.assertEqual(json.loads(limited.stdout), normal)
        self.assertEqual(limited.stderr.count("descriptor budget"), 1, limited.stderr)
        self.assertEqual(len(normal["devices"]), 16)


if __name__ == "__main__":
    unittest.main(verbosity=2)
