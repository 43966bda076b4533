#!/usr/bin/env python3
"""The README's value reference table matches the core's catalog and the plugin's mapping."""
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

    def test_types_are_standard(self):
        types_db = {}
        for line in cdtest.read_text("/usr/share/collectd/types.db").splitlines():
            parts = line.split(None, 1)
            if parts and not parts[0].startswith("#"):
                types_db[parts[0]] = [ds.split(":")[0] for ds in parts[1].replace(",", " ").split()]
        for source, row in cdtest.reference_rows().items():
            self.assertIn(row["type"], types_db, source)
            self.assertIn(row["ds"], types_db[row["type"]], source)

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
