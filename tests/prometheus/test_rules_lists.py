#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The error-counter lists written into packaging/prometheus/rdmakit.rules.yml are the core's:
every error counter (the catalog's is_error) the collectd plugin sends as a derive, in host and
in fabric mode (tests/collectd/print_reference.c --errors prints them), and nothing else. A
counter added to the catalog, or one that stops being an error, fails here until the rules
follow."""
import os
import re
import subprocess
import unittest

import yaml

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RULES = os.path.join(TOP, "packaging", "prometheus", "rdmakit.rules.yml")
REFERENCE = os.environ.get("RDMAKIT_REFERENCE",
                           os.path.join(TOP, "build", "tests", "collectd_print_reference"))
# The recording rule of each mode, the series it reads.
RECORDS = {"host": ("rdmakit:port_errors:rate5m", "collectd_rdma_derive_total"),
           "fabric": ("rdmakit:fabric_port_errors:rate5m", "collectd_rdma_fabric_derive_total")}


def catalog_errors():
    """{mode: set of type instances} of the error counters the plugin sends as derives."""
    out = subprocess.run([REFERENCE, "--errors"], check=True, capture_output=True,
                         text=True).stdout
    errors = {mode: set() for mode in RECORDS}
    for line in out.splitlines():
        mode, ctype, instance = line.split("\t")
        if ctype != "derive":
            raise AssertionError(f"{mode} error counter {instance} is sent as {ctype}")
        errors[mode].add(instance)
    return errors


def listed(expr, series):
    """The type instances of expr's type=~"a|b|..." selector on series, as a list."""
    m = re.search(re.escape(series) + r'\{type=~"([^"]*)"\}', expr)
    if not m:
        raise AssertionError(f"no type=~ selector on {series} in: {expr}")
    return m.group(1).split("|")


class RulesListTheCatalogsErrors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(RULES) as f:
            rules = [r for g in yaml.safe_load(f)["groups"] for r in g["rules"]]
        cls.exprs = {r["record"]: r["expr"] for r in rules if "record" in r}
        cls.errors = catalog_errors()

    def test_each_mode_lists_every_error_counter_once_and_nothing_else(self):
        for mode, (record, series) in RECORDS.items():
            with self.subTest(mode=mode):
                names = listed(self.exprs[record], series)
                self.assertEqual(len(names), len(set(names)), f"{record} lists one twice")
                self.assertEqual(set(names), self.errors[mode], record)

    def test_the_catalog_has_errors_of_both_kinds(self):
        # the check above means nothing on an empty reference
        self.assertIn("symbol_error", self.errors["fabric"])
        self.assertIn("out_of_sequence", self.errors["host"])
        self.assertNotIn("port_xmit_wait", self.errors["fabric"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
