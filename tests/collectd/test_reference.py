#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The README's value reference tables are what tests/collectd/write_reference.py writes from
the core's catalog and table of facts through the plugin's mapping (the host mode's table, and
the fabric and SM modes' table), in collectd's standard types."""
import unittest

import cdtest
import write_reference


class ReferenceTable(unittest.TestCase):
    def test_tables_are_what_write_reference_writes(self):
        text = cdtest.read_text(cdtest.README)
        written = write_reference.render(text).splitlines()
        for number, (line, wanted) in enumerate(zip(text.splitlines(), written), 1):
            self.assertEqual(line, wanted, f"README line {number}: run "
                             "tests/collectd/write_reference.py --write")
        self.assertEqual(len(text.splitlines()), len(written), "rows missing or extra")

    def test_plugin_names_have_no_dash(self):
        plugins = {key[0] for key in cdtest.fabric_reference_rows()}
        self.assertEqual(plugins, {"rdma_fabric", "rdma_sm"})  # collectd splits on "-"

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
