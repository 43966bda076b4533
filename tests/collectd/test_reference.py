#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The README's value reference tables match the core's catalog and the plugin's mapping: the
host mode's table, and the fabric and SM modes' table."""
import unittest

import cdtest


class ReferenceTable(unittest.TestCase):
    def test_every_value_is_documented_as_sent(self):
        expected = cdtest.reference_rows()
        documented = cdtest.parse_reference_table()
        missing = sorted(set(expected) - set(documented))
        extra = sorted(set(documented) - set(expected))
        self.assertEqual(missing, [], "in the catalog or the plugin but not in the README")
        self.assertEqual(extra, [], "in the README but neither in the catalog nor the plugin")
        for source, row in expected.items():
            doc = documented[source]
            for key in ("type", "type_instance", "ds", "unit", "help"):
                self.assertEqual(doc[key], row[key], f"README row {source}: {key}")

    def test_every_fabric_and_sm_value_is_documented(self):
        expected = cdtest.fabric_reference_rows()
        documented = cdtest.parse_fabric_table()
        self.assertEqual(sorted(set(expected) - set(documented)), [], "not in the README")
        self.assertEqual(sorted(set(documented) - set(expected)), [], "not sent by the plugin")
        for key, row in expected.items():
            self.assertEqual(documented[key], row, f"README fabric row {key}")
        plugins = {key[0] for key in expected}
        self.assertEqual(plugins, {"rdma_fabric", "rdma_sm"})  # no "-" in plugin names

    def test_types_are_standard(self):
        types_db = {}
        for line in cdtest.read_text("/usr/share/collectd/types.db").splitlines():
            parts = line.split(None, 1)
            if parts and not parts[0].startswith("#"):
                types_db[parts[0]] = [ds.split(":")[0] for ds in parts[1].replace(",", " ").split()]
        for source, row in cdtest.reference_rows().items():
            self.assertIn(row["type"], types_db, source)
            self.assertIn(row["ds"], types_db[row["type"]], source)
        for (plugin, typ, _, ds) in cdtest.fabric_reference_rows():
            self.assertIn(typ, types_db, plugin)
            self.assertIn(ds, types_db[typ], plugin)

    def test_pairs_have_the_units_of_their_type(self):
        rows = cdtest.reference_rows()
        for source, row in rows.items():
            if row["type"] == "if_octets":
                self.assertEqual((row["unit"], row["scale"]) if "data" in source else None,
                                 ("bytes", 4), source)
            if row["type"] == "if_packets":
                self.assertEqual(row["unit"], "packets", source)


if __name__ == "__main__":
    unittest.main()
