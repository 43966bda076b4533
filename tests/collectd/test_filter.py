#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd with rdmakit.so: Port/IgnoreSelected and HwCounters/HwCounter selection."""
import time
import unittest

import cdtest

IB_HDR = cdtest.fixture("ib-hdr")
PMA_AND_GAUGES = sorted(
    ["if_octets", "if_packets", "if_packets-unicast", "if_packets-multicast"]
    + [f"derive-{n}" for n in (
        "symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
        "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors", "port_xmit_discards",
        "port_xmit_constraint_errors", "port_rcv_constraint_errors",
        "local_link_integrity_errors", "excessive_buffer_overrun_errors", "VL15_dropped",
        "port_xmit_wait")]
    + [f"gauge-{n}" for n in (
        "state", "phys_state", "rate", "lid", "sm_lid", "sm_sl", "lid_mask_count", "cap_mask")])


class Selection(unittest.TestCase):
    def run_daemon(self, **options):
        """Start a daemon on ib-hdr, let it read a few times, return it (caller cleans up)."""
        daemon = cdtest.Daemon(cdtest.plugin_block(SysfsRoot=IB_HDR, **options))
        self.addCleanup(daemon.cleanup)
        self.assertEqual(daemon.start(expect_values=False), 0, daemon.start_output)
        cdtest.wait_for(lambda: "rdmakit plugin" in daemon.log() or daemon.values_dirs(), 10,
                        "the first read")
        time.sleep(2.5)  # two more reads: whatever is not there now is not sent
        return daemon

    def assertInstances(self, daemon, devices):
        want = sorted(sum(([f"rdma-{d}", f"rdma-{d}-1"] for d in devices), []))
        self.assertEqual(daemon.values_dirs(), want)

    def test_no_port_entries_collect_all(self):
        self.assertInstances(self.run_daemon(IgnoreSelected=False), ["mlx5_0", "mlx5_1"])

    def test_listed_port_only(self):
        self.assertInstances(self.run_daemon(Port="mlx5_1:1"), ["mlx5_1"])

    def test_listed_port_ignored(self):
        self.assertInstances(self.run_daemon(Port="mlx5_1:1", IgnoreSelected=True), ["mlx5_0"])

    def test_quoted_boolean_as_in_collectd(self):
        daemon = cdtest.Daemon(cdtest.plugin_block(SysfsRoot=IB_HDR, Port="mlx5_1:1")
                               .replace("</Plugin>", '  IgnoreSelected "yes"\n</Plugin>'))
        self.addCleanup(daemon.cleanup)
        self.assertEqual(daemon.start(), 0, daemon.start_output)
        time.sleep(1.5)
        self.assertInstances(daemon, ["mlx5_0"])

    def test_regex_selects(self):
        daemon = self.run_daemon(Port=["/^mlx5_[0-9]+:1$/", "mlx5_9:1"])
        self.assertInstances(daemon, ["mlx5_0", "mlx5_1"])
        self.assertIn('Port "mlx5_9:1" matches no port', daemon.log())
        self.assertNotIn('Port "/^mlx5_[0-9]+:1$/" matches no port', daemon.log())

    def test_regex_ignores(self):
        self.assertInstances(self.run_daemon(Port="/_0:/", IgnoreSelected=True), ["mlx5_1"])

    def test_unmatched_port_collects_nothing(self):
        daemon = self.run_daemon(Port="mlx5_7:1")
        self.assertEqual(daemon.values_dirs(), [])
        self.assertIn('[warning] rdmakit plugin: Port "mlx5_7:1" matches no port', daemon.log())
        self.assertTrue(daemon.running())

    def test_hw_counters_off(self):
        daemon = self.run_daemon(HwCounters=False)
        self.assertEqual(daemon.values_dirs(), ["rdma-mlx5_0-1", "rdma-mlx5_1-1"])
        self.assertEqual(sorted(daemon.value_files("mlx5_0-1")), PMA_AND_GAUGES)
        self.assertEqual(daemon.last("mlx5_0-1", "if_octets"), [987654321098 * 4, 1234567890123 * 4])

    def test_hw_counters_on_by_default(self):
        daemon = self.run_daemon()
        hw = set(daemon.value_files("mlx5_0-1")) - set(PMA_AND_GAUGES)
        self.assertEqual(len(hw), 24)
        self.assertEqual(sorted(daemon.value_files("mlx5_0")),
                         ["derive-out_of_buffer", "derive-out_of_sequence", "gauge-lifespan"])

    def test_hw_counter_selection(self):
        daemon = self.run_daemon(HwCounter=["rx_read_requests", "out_of_buffer"])
        self.assertEqual(sorted(daemon.value_files("mlx5_0-1")),
                         sorted(PMA_AND_GAUGES + ["derive-rx_read_requests",
                                                  "derive-out_of_buffer"]))
        self.assertEqual(sorted(daemon.value_files("mlx5_1")), ["derive-out_of_buffer"])
        self.assertEqual(daemon.last("mlx5_1-1", "derive-rx_read_requests"), [41028366])

    def test_hw_counter_not_in_catalog(self):
        daemon = self.run_daemon(HwCounter=["rx_read_requests", "vendor_specific_thing"])
        self.assertIn('HwCounter "vendor_specific_thing" is not in rdmakit\'s catalog',
                      daemon.log())
        self.assertEqual(sorted(set(daemon.value_files("mlx5_0-1")) - set(PMA_AND_GAUGES)),
                         ["derive-rx_read_requests"])


if __name__ == "__main__":
    unittest.main()
