#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""RDMAKIT-MIB as net-snmp reads it agrees with the core's table of facts and catalog: every fact
the table gives an object of the MIB (every one SNMP serves, and the deprecated ones) is that
object at the fact's column, every PMA counter is a column of the port and fabric counter tables
with the catalog's number, and the core's link speeds are RdmakitLinkSpeed's enumeration."""
import os
import re
import subprocess
import unittest

import snmptest

PRINT_COLUMNS = os.environ.get("RDMAKIT_PRINT_COLUMNS",
                               os.path.join(snmptest.TOP, "build", "tests", "snmp_print_columns"))

def camel(name):
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def columns_of_mib(names):
    """{object name: last sub-identifier} through snmptranslate with RDMAKIT-MIB loaded."""
    out = subprocess.run(["snmptranslate", "-M", snmptest.MIBDIRS, "-m", "RDMAKIT-MIB",
                          "-On", *[f"RDMAKIT-MIB::{n}" for n in names]], capture_output=True,
                         text=True, env=snmptest.env(snmptest.HERE), check=True)
    oids = out.stdout.split()
    assert len(oids) == len(names), out.stderr
    return {n: int(o.rsplit(".", 1)[1]) for n, o in zip(names, oids)}


class Columns(unittest.TestCase):
    def setUp(self):
        out = subprocess.run([PRINT_COLUMNS], capture_output=True, text=True, check=True)
        self.facts, self.pma, self.speeds = {}, {}, {}
        for line in out.stdout.splitlines():
            kind, *rest = line.split()
            if kind == "fact":
                self.facts[(rest[0], rest[1])] = (int(rest[2]), rest[3])
            elif kind == "speed":
                self.speeds[rest[0].lower()] = int(rest[1])
            else:
                self.pma[rest[0]] = int(rest[1])

    def test_every_fact_is_a_column_of_the_mib(self):
        wanted = {obj: column for column, obj in self.facts.values() if obj != "-"}
        self.assertGreater(len(wanted), 60)
        self.assertEqual(columns_of_mib(list(wanted)), wanted)

    def test_every_fabric_node_port_and_counter_fact_is_a_column_of_the_mib(self):
        out = subprocess.run([PRINT_COLUMNS, "--topology"], capture_output=True, text=True,
                             check=True)
        wanted = {}
        for line in out.stdout.splitlines():
            _, _, _, column, obj = line.split()
            wanted[obj] = int(column)
        self.assertEqual(len(wanted), 19)
        self.assertEqual(columns_of_mib(list(wanted)), wanted)

    def test_every_pma_counter_has_the_catalogs_column(self):
        self.assertGreaterEqual(len(self.pma), 21)  # none of the published ones lost
        for prefix in ("rdmakitPc", "rdmakitFc"):
            wanted = {prefix + camel(n): c for n, c in self.pma.items()}
            self.assertEqual(columns_of_mib(list(wanted)), wanted)

    def test_link_speeds_are_the_mibs_enumeration(self):
        self.assertEqual(self.speeds["xdr"], 9)
        for column in ("rdmakitPortSpeed", "rdmakitFpSpeed"):
            out = subprocess.run(["snmptranslate", "-M", snmptest.MIBDIRS, "-m", "RDMAKIT-MIB",
                                  "-Td", f"RDMAKIT-MIB::{column}"], capture_output=True,
                                 text=True, env=snmptest.env(snmptest.HERE), check=True)
            syntax = next(line for line in out.stdout.splitlines() if "SYNTAX" in line)
            named = {n: int(v) for n, v in re.findall(r"(\w+)\((\d+)\)", syntax)}
            self.assertEqual(named, self.speeds, column)


if __name__ == "__main__":
    unittest.main(verbosity=2)
