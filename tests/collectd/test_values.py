#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd with rdmakit.so on the ib-hdr and roce fixtures: every counter's value.

Each counter file of the fixture is looked up in the README's reference table (so the table
is what users really get) and its value in the csv plugin's files must equal the file's raw
value times the catalog's scale (bytes for the data counters).
"""
import unittest

import cdtest

GAUGES = {
    "ib-hdr": {
        "mlx5_0-1": {"state": 4, "phys_state": 5, "rate": 200, "lid": 5, "sm_lid": 1, "sm_sl": 0,
                     "lid_mask_count": 0, "cap_mask": 0xa651e848},
        "mlx5_1-1": {"state": 4, "phys_state": 5, "rate": 200, "lid": 6, "sm_lid": 1, "sm_sl": 0,
                     "lid_mask_count": 0, "cap_mask": 0xa651e848},
    },
    "roce": {
        "mlx5_2-1": {"state": 4, "phys_state": 5, "rate": 100, "lid": 0, "sm_lid": 0, "sm_sl": 0,
                     "lid_mask_count": 0, "cap_mask": 0x04010000},
    },
    # 4X XDR and 4X NDR: the rates the CLI's status and the MIB's rdmakitPortRate show too.
    "ib-xdr": {
        "mlx5_0-1": {"state": 4, "phys_state": 5, "rate": 800, "lid": 5, "sm_lid": 1, "sm_sl": 0,
                     "lid_mask_count": 0, "cap_mask": 0xa651e848},
        "mlx5_1-1": {"state": 4, "phys_state": 5, "rate": 400, "lid": 6, "sm_lid": 1, "sm_sl": 0,
                     "lid_mask_count": 0, "cap_mask": 0xa651e848},
    },
}

# Values stated in tests/fixtures/sysfs/README.md, checked as sent (bytes = words x 4).
STATED = {
    "ib-hdr": [
        ("mlx5_0-1", "if_octets", [987654321098 * 4, 1234567890123 * 4]),
        ("mlx5_0-1", "if_packets", [964728135, 1204817745]),
        ("mlx5_0-1", "if_packets-unicast", [964432817, 1204635011]),
        ("mlx5_0-1", "if_packets-multicast", [295318, 182734]),
        ("mlx5_0-1", "derive-port_xmit_wait", [2837461]),
        ("mlx5_0-1", "derive-symbol_error", [0]),
        ("mlx5_0-1", "derive-rx_read_requests", [39182735]),
        ("mlx5_0-1", "gauge-lifespan", [10]),
        ("mlx5_1-1", "if_octets", [998877665544 * 4, 1122334455667 * 4]),
        ("mlx5_1-1", "derive-port_xmit_wait", [1947283]),
        ("mlx5_1-1", "derive-rx_atomic_requests", [2093]),
        ("mlx5_1", "gauge-lifespan", [10]),
    ],
    "roce": [
        ("mlx5_2-1", "if_octets", [398765432109 * 4, 456789012345 * 4]),
        ("mlx5_2-1", "if_packets", [352545274, 401325384]),
        ("mlx5_2-1", "derive-port_xmit_wait", [918273]),
        ("mlx5_2-1", "derive-np_cnp_sent", [183746]),
        ("mlx5_2-1", "derive-rx_write_requests", [56473829]),
        ("mlx5_2-1", "derive-rnr_nak_retry_err", [1]),
        ("mlx5_2", "derive-out_of_buffer", [17]),
        ("mlx5_2", "derive-out_of_sequence", [29]),
    ],
    "ib-xdr": [
        ("mlx5_0-1", "gauge-rate", [800]),
        ("mlx5_1-1", "gauge-rate", [400]),
        ("mlx5_0-1", "if_octets", [987654321098 * 4, 1234567890123 * 4]),
        ("mlx5_1-1", "if_octets", [998877665544 * 4, 1122334455667 * 4]),
    ],
}


class Values(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.documented = cdtest.parse_reference_table()
        cls.scale = {k: v["scale"] for k, v in cdtest.reference_rows().items()}

    def expected(self, root, device, port):
        """{ident: {ds index: value}} of one plugin instance, from the fixture's files."""
        found = {}
        for source, raw in cdtest.counter_files(root, device, port).items():
            self.assertIn(source, self.documented, f"{device}: {source} is not documented")
            row = self.documented[source]
            ds = {"rx": 0, "value": 0, "tx": 1}[row["ds"]]
            found.setdefault(cdtest.ident(row), {})[ds] = int(raw) * self.scale[source]
        return found

    def check_instance(self, daemon, instance, expected):
        def complete():  # every file there with a whole row (csv writes them one by one)
            return (set(daemon.value_files(instance)) >= set(expected) and
                    all(daemon.last(instance, key) for key in expected))

        cdtest.wait_for(complete, 10, f"every value of {instance}")
        self.assertEqual(sorted(daemon.value_files(instance)), sorted(expected), instance)
        for key, values in expected.items():
            got = daemon.last(instance, key)
            want = [values[i] for i in sorted(values)]
            self.assertEqual(got, want, f"{instance} {key}")

    def check_fixture(self, name, devices):
        root = cdtest.fixture(name)
        with cdtest.Daemon(cdtest.plugin_block(SysfsRoot=root)) as daemon:
            self.assertEqual(daemon.start(), 0, daemon.start_output)
            instances = []
            for device in devices:
                port = self.expected(root, device, 1)
                gauges = GAUGES[name][f"{device}-1"]
                port.update({f"gauge-{k}": {0: v} for k, v in gauges.items()})
                self.check_instance(daemon, f"{device}-1", port)
                self.check_instance(daemon, device, self.expected(root, device, None))
                instances += [f"rdma-{device}", f"rdma-{device}-1"]
            self.assertEqual(daemon.values_dirs(), sorted(instances))
            for instance, key, values in STATED[name]:
                self.assertEqual(daemon.last(instance, key), values, f"{instance} {key}")
            self.check_unixsock(daemon, f"{devices[0]}-1", GAUGES[name][f"{devices[0]}-1"])
            self.assertTrue(daemon.running())
            self.assertEqual(daemon.errors(), [])

    def check_unixsock(self, daemon, instance, gauges):
        listed = daemon.collectdctl("listval").split()
        self.assertIn(f"{cdtest.HOST}/rdma-{instance}/if_octets", listed)
        self.assertIn(f"{cdtest.HOST}/rdma-{instance}/gauge-state", listed)
        got = daemon.collectdctl("getval", f"{cdtest.HOST}/rdma-{instance}/gauge-rate")
        self.assertEqual(float(got.strip().split("=")[1]), gauges["rate"])

    def test_ib_hdr(self):
        self.check_fixture("ib-hdr", ["mlx5_0", "mlx5_1"])

    def test_roce(self):
        self.check_fixture("roce", ["mlx5_2"])

    def test_ib_xdr(self):
        self.check_fixture("ib-xdr", ["mlx5_0", "mlx5_1"])


if __name__ == "__main__":
    unittest.main()
