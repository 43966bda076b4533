#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd with rdmakit.so while the fixture changes under it: port states, rising
error counters, saturated and unavailable counters, a device that vanishes and comes back.
Notifications are written by collectd's logfile plugin (it logs every notification)."""
import os
import shutil
import tempfile
import time
import unittest

import cdtest

PORT0 = "class/infiniband/mlx5_0/ports/1"


class Events(unittest.TestCase):
    def daemon_on_copy(self, fixture, **options):
        """A daemon reading a private copy of fixture; returns (daemon, root of the copy)."""
        parent = tempfile.mkdtemp(prefix="rdmakit-fixture-")
        self.addCleanup(shutil.rmtree, parent, True)
        root = cdtest.copy_fixture(fixture, parent)
        daemon = cdtest.Daemon(cdtest.plugin_block(SysfsRoot=root, **options))
        self.addCleanup(daemon.cleanup)
        self.assertEqual(daemon.start(), 0, daemon.start_output)
        return daemon, root

    def wait_value(self, daemon, instance, ident, value):
        cdtest.wait_for(lambda: daemon.last(instance, ident) == value, 10,
                        f"{instance} {ident} = {value}")

    def notes(self, daemon, **match):
        return [n for n in daemon.notifications()
                if all(n.get(k, "") == v for k, v in match.items())]

    def test_port_state_change_notifies_once(self):
        daemon, root = self.daemon_on_copy("ib-hdr", Notifications=True)
        self.wait_value(daemon, "mlx5_0-1", "gauge-state", [4.0])
        cdtest.write_attr(root, f"{PORT0}/state", "2: INIT")
        self.wait_value(daemon, "mlx5_0-1", "gauge-state", [2.0])
        time.sleep(2.5)
        notes = self.notes(daemon, plugin="rdma", type="gauge", type_instance="state")
        self.assertEqual(len(notes), 1, notes)
        self.assertEqual(notes[0]["severity"], "WARNING")
        self.assertEqual(notes[0]["plugin_instance"], "mlx5_0-1")
        self.assertEqual(notes[0]["host"], cdtest.HOST)
        self.assertEqual(notes[0]["message"], "mlx5_0:1: port is INIT/LinkUp, was ACTIVE/LinkUp")
        self.assertEqual(daemon.last("mlx5_0-1", "gauge-phys_state"), [5.0])

        cdtest.write_attr(root, f"{PORT0}/state", "4: ACTIVE")
        self.wait_value(daemon, "mlx5_0-1", "gauge-state", [4.0])
        time.sleep(2.5)
        notes = self.notes(daemon, plugin="rdma", type="gauge", type_instance="state")
        self.assertEqual([n["severity"] for n in notes], ["WARNING", "OKAY"])
        self.assertEqual(notes[1]["message"], "mlx5_0:1: port is ACTIVE/LinkUp, was INIT/LinkUp")
        self.assertEqual(daemon.log().count("mlx5_0:1: port is"), 4)  # two logs, two notes
        self.assertEqual(self.notes(daemon, plugin_instance="mlx5_1-1"), [])

    def test_rising_error_counter_notifies_once(self):
        daemon, root = self.daemon_on_copy("ib-hdr", Notifications=True)
        self.wait_value(daemon, "mlx5_0-1", "derive-symbol_error", [0])
        cdtest.write_attr(root, f"{PORT0}/counters/symbol_error", "5")
        # Notifications are logged during the read that sees the rise: the next read, which
        # must see it rise again, is about an interval away.
        cdtest.wait_for(lambda: self.notes(daemon, type_instance="symbol_error"), 10,
                        "the rising notification")
        cdtest.write_attr(root, f"{PORT0}/counters/symbol_error", "9")
        self.wait_value(daemon, "mlx5_0-1", "derive-symbol_error", [9])
        cdtest.wait_for(lambda: self.notes(daemon, type_instance="symbol_error",
                                           severity="OKAY"), 5, "the counter to settle")
        time.sleep(1.5)
        notes = self.notes(daemon, plugin_instance="mlx5_0-1", type="derive",
                           type_instance="symbol_error")
        self.assertEqual([n["severity"] for n in notes], ["WARNING", "OKAY"], notes)
        self.assertEqual(notes[0]["message"], "mlx5_0:1: symbol_error is rising: +5 to 5 errors")
        self.assertEqual(notes[1]["message"], "mlx5_0:1: symbol_error stopped rising at 9 errors")
        self.assertEqual(len(daemon.notifications()), 2, daemon.notifications())

    def test_no_notifications_unless_configured(self):
        daemon, root = self.daemon_on_copy("ib-hdr")
        cdtest.write_attr(root, f"{PORT0}/counters/symbol_error", "5")
        cdtest.write_attr(root, f"{PORT0}/state", "2: INIT")
        self.wait_value(daemon, "mlx5_0-1", "gauge-state", [2.0])
        self.wait_value(daemon, "mlx5_0-1", "derive-symbol_error", [5])
        time.sleep(1.5)
        self.assertEqual(daemon.notifications(), [])
        self.assertIn("[info] rdmakit plugin: mlx5_0:1: port is INIT/LinkUp, was ACTIVE/LinkUp",
                      daemon.log())

    def test_saturated_counters_are_not_sent(self):
        daemon, root = self.daemon_on_copy("saturated", Notifications=True)
        self.wait_value(daemon, "mlx5_0-1", "if_octets", [1988776655443 * 4, 2233445566778 * 4])
        time.sleep(2.5)
        files = daemon.value_files("mlx5_0-1")
        for name in ("symbol_error", "link_downed", "port_xmit_wait"):
            self.assertNotIn(f"derive-{name}", files)
        self.assertEqual(daemon.last("mlx5_0-1", "derive-port_rcv_errors"), [0])
        self.assertEqual(daemon.last("mlx5_0-1", "derive-link_error_recovery"), [0])
        log = daemon.log()
        self.assertEqual(log.count("[warning] rdmakit plugin: mlx5_0:1: symbol_error is stuck at "
                                   "65535, its register's maximum: not sent until the counter "
                                   "is cleared"), 1)
        self.assertEqual(log.count("link_downed is stuck at 255"), 1)
        self.assertEqual(log.count("port_xmit_wait is stuck at 4294967295"), 1)
        notes = self.notes(daemon, plugin_instance="mlx5_0-1", severity="WARNING")
        self.assertEqual(sorted(n["type_instance"] for n in notes),
                         ["link_downed", "port_xmit_wait", "symbol_error"])

        cdtest.write_attr(root, f"{PORT0}/counters/symbol_error", "0")  # cleared
        self.wait_value(daemon, "mlx5_0-1", "derive-symbol_error", [0])
        self.assertIn("mlx5_0:1: symbol_error counts again (0), sent again", daemon.log())
        self.assertNotIn("derive-link_downed", daemon.value_files("mlx5_0-1"))

    def test_unavailable_counters_are_not_sent(self):
        daemon, _ = self.daemon_on_copy("no-pma")
        self.wait_value(daemon, "mlx5_0-1", "derive-duplicate_request", [23])
        time.sleep(2.5)
        files = daemon.value_files("mlx5_0-1")
        self.assertEqual(sorted(f for f in files if not f.startswith("gauge-")),
                         sorted(f"derive-{n}" for n in (
                             "duplicate_request", "implied_nak_seq_err", "local_ack_timeout_err",
                             "out_of_buffer", "out_of_sequence", "packet_seq_err",
                             "req_cqe_error", "req_cqe_flush_error", "req_remote_access_errors",
                             "req_remote_invalid_request", "resp_cqe_error",
                             "resp_cqe_flush_error", "resp_local_length_error",
                             "resp_remote_access_errors", "rnr_nak_retry_err",
                             "rx_atomic_requests", "rx_read_requests", "rx_write_requests",
                             "np_cnp_sent", "np_ecn_marked_roce_packets", "rp_cnp_handled",
                             "rp_cnp_ignored", "rx_icrc_encapsulated")))
        self.assertEqual(daemon.last("mlx5_0-1", "derive-rx_read_requests"), [36271845])
        self.assertEqual(daemon.last("mlx5_0-1", "gauge-state"), [4.0])
        log = daemon.log()
        self.assertEqual(log.count("counters unavailable"), 1, log)
        self.assertIn("[info] rdmakit plugin: mlx5_0:1: 21 counters unavailable (no PMA, or not "
                      "a number), not sent: VL15_dropped, excessive_buffer_overrun_errors, ", log)

    def test_malformed_counters_are_skipped(self):
        daemon, _ = self.daemon_on_copy("messy")
        self.wait_value(daemon, "mlx5_0-1", "if_octets", [864209753186 * 4, 1357924680135 * 4])
        time.sleep(1.5)
        files = daemon.value_files("mlx5_0-1")
        self.assertNotIn("if_packets", files)  # port_rcv_packets is "abc": the pair is not sent
        self.assertNotIn("derive-VL15_dropped", files)  # empty file
        self.assertEqual(daemon.last("mlx5_0-1", "if_packets-unicast"), [843920175, 1327465019])
        self.assertEqual(daemon.last("mlx5_0-1", "derive-symbol_error"), [7])
        self.assertEqual(daemon.last("mlx5_1-1", "if_octets"), [975318642086 * 4,
                                                                1246801357913 * 4])
        self.assertEqual(daemon.last("mlx5_2-1", "derive-port_xmit_wait"), [1785432])
        self.assertNotIn("rdma-mlx5_2", daemon.values_dirs())  # no hw_counters at all
        log = daemon.log()
        self.assertEqual(log.count('port_rcv_packets: not a counter value: "abc"'), 1)
        self.assertIn("mlx5_0:1: 2 counters unavailable (no PMA, or not a number), not sent: "
                      "VL15_dropped, port_rcv_packets", log)

    def test_device_vanishes_and_comes_back(self):
        daemon, root = self.daemon_on_copy("ib-hdr", Notifications=True)
        self.wait_value(daemon, "mlx5_1-1", "gauge-state", [4.0])
        device = os.path.join(root, "class/infiniband/mlx5_1")
        aside = os.path.join(os.path.dirname(root), "mlx5_1.aside")
        os.rename(device, aside)
        cdtest.wait_for(lambda: "mlx5_1: device vanished; skipping it" in daemon.log(), 10,
                        "the vanished device to be logged")
        time.sleep(0.5)
        gone = len(daemon.rows("mlx5_1-1", "gauge-state"))
        gone_device = len(daemon.rows("mlx5_1", "gauge-lifespan"))
        others = len(daemon.rows("mlx5_0-1", "gauge-state"))
        time.sleep(3)
        self.assertEqual(len(daemon.rows("mlx5_1-1", "gauge-state")), gone)
        self.assertEqual(len(daemon.rows("mlx5_1", "gauge-lifespan")), gone_device)
        self.assertGreaterEqual(len(daemon.rows("mlx5_0-1", "gauge-state")), others + 2)
        self.assertTrue(daemon.running())

        cdtest.write_attr(aside, "ports/1/counters/symbol_error", "3")
        os.rename(aside, device)
        cdtest.wait_for(lambda: len(daemon.rows("mlx5_1-1", "gauge-state")) > gone, 10,
                        "mlx5_1 to be sent again")
        self.wait_value(daemon, "mlx5_1-1", "derive-symbol_error", [3])
        self.assertEqual(daemon.last("mlx5_1-1", "if_octets"), [998877665544 * 4,
                                                                1122334455667 * 4])
        log = daemon.log()
        self.assertEqual(log.count("[warning] rdmakit plugin: mlx5_1: device vanished; skipping "
                                   "it"), 1)
        self.assertEqual(log.count("[info] rdmakit plugin: mlx5_1: device is back"), 1)
        notes = self.notes(daemon, plugin="rdma", plugin_instance="mlx5_1")
        self.assertEqual([n["severity"] for n in notes], ["FAILURE", "OKAY"], notes)
        self.assertEqual(daemon.errors(), [])
        self.assertTrue(daemon.running())

    def test_unreadable_device_notifies_once_and_logs_once(self):
        """Issue 18: a device that could not be read sent no notification and was logged again
        at every rescan. Now: one WARNING notification and one log line over several reads,
        and the other device's values are sent."""
        parent = tempfile.mkdtemp(prefix="rdmakit-fixture-")
        self.addCleanup(shutil.rmtree, parent, True)
        root = cdtest.copy_fixture("ib-hdr", parent)
        shutil.rmtree(os.path.join(root, "class/infiniband/mlx5_1/ports"))
        daemon = cdtest.Daemon(cdtest.plugin_block(SysfsRoot=root, Notifications=True))
        self.addCleanup(daemon.cleanup)
        self.assertEqual(daemon.start(), 0, daemon.start_output)
        self.wait_value(daemon, "mlx5_0-1", "gauge-state", [4.0])
        reads = len(daemon.rows("mlx5_0-1", "gauge-state"))
        cdtest.wait_for(lambda: len(daemon.rows("mlx5_0-1", "gauge-state")) >= reads + 3, 10,
                        "three more reads")
        notes = self.notes(daemon, plugin="rdma", plugin_instance="mlx5_1")
        self.assertEqual([n["severity"] for n in notes], ["WARNING"], notes)
        self.assertIn("mlx5_1 could not be read (", notes[0]["message"])
        self.assertIn("class/infiniband/mlx5_1/ports: No such file or directory",
                      notes[0]["message"])
        log = daemon.log()
        self.assertEqual(log.count("[warning] rdmakit plugin: mlx5_1: cannot read device: "
                                   "class/infiniband/mlx5_1/ports: No such file or directory"),
                         1, log)
        self.assertNotIn("rdma-mlx5_1-1", daemon.values_dirs())
        self.assertTrue(daemon.running())


if __name__ == "__main__":
    unittest.main()
