#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The table of facts (common/src/facts.c) is the only place that names a fact's collectd type
instance, JSON key or MIB column: the front ends' sources must take them from it. Fails with
file:line for every string literal that is a fact's type instance or JSON key (a nested key
"pci.numa_node" counts as "numa_node" too), every column constant of the subagent that is a
fact's column in its table, and every column number written into a row setter or a table
definition. The CLI talks to no collectd: its sources are checked for the JSON keys, and the
few literals of it that are a fact's key by coincidence (an index, an option) are listed below
with how many times each file has them."""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rktest  # noqa: E402

TOP = rktest.TOP
PRINT_FACTS = os.environ.get("RDMAKIT_PRINT_FACTS",
                             os.path.join(TOP, "build", "tests", "lint_print_facts"))
# The front ends whose sources are checked, and which of a fact's names each must not write.
FOLDERS = {"cli": ("key",), "collectd-plugin": ("instance", "key"),
           "snmp-subagent": ("instance", "key")}
# The CLI's literals that are a fact's JSON key but name no fact: (file, literal): (how many
# times the file has it, what it is). A new one is taken from the table, or listed here.
NOT_FACTS = {
    ("cli/host_out.c", "port"): (3, "a host port's number, the index of its object; a "
                                    "finding's fabric port"),
    ("cli/host_out.c", "guid"): (1, "a finding's fabric node GUID (with its port, its key)"),
    ("cli/host_out.c", "name"): (1, "a device's name, the index of its object"),
    ("cli/fabric_out.c", "port"): (2, "a fabric port's number, the index of its object"),
    ("cli/fabric_out.c", "guid"): (2, "a fabric node's GUID, the index of its object"),
    ("cli/fabric_out.c", "lid"): (2, "a fabric port's LID: no column of the topology's tables"),
    ("cli/fabric_out.c", "device_id"): (1, "a fabric node's NodeInfo device id: no column of "
                                           "the topology's tables"),
    ("cli/fabric_out.c", "answered"): (1, "the MADs of a sweep that were answered"),
    ("cli/route_out.c", "guid"): (1, "a route hop's or a table's node GUID, the index of its "
                                     "object"),
    ("cli/congestion_out.c", "port"): (1, "a swept port's number, the index of its object"),
    ("cli/congestion_out.c", "guid"): (1, "a swept port's node GUID, the index of its object"),
    ("cli/bench_out.c", "port"): (1, "the number of the port a benchmark ran over"),
    ("cli/cmd_bench.c", "port"): (1, "the name of bench's option --port (rdma_cm's port)"),
    ("cli/verbs_out.c", "port"): (1, "the number of the port a probe ran over"),
    ("cli/verbs_out.c", "netdev"): (2, "a GID's netdev, and the heading of its column"),
    ("cli/verbs_out.c", "address"): (1, "the heading of the GID column"),
    ("cli/verbs_out.c", "type"): (2, "a GID's type, and the heading of its column"),
    ("cli/tune_out.c", "state"): (1, "the state of a tune journal"),
    ("cli/cmd_events.c", "lid"): (1, "the LID an SA notice is about (the notice's field)"),
    ("cli/cmd_events.c", "name"): (1, "a trap's name"),
    ("cli/cmd_events.c", "port"): (2, "the port a notice, or the read after it, is about"),
    ("cli/cmd_events.c", "state"): (1, "a port's state as the read after a trap 128 found it"),
    ("cli/cmd_events.c", "type"): (1, "a notice's type (IBA 13.4.8.2: fatal .. informational)"),
}
# The subagent's column constants and table definitions, by the scope of facts their table has.
PREFIX_SCOPES = [("AK_SM_MASTER_", "sm"), ("AK_SM_", "sm_entry"), ("AK_DEVICE_", "device"),
                 ("AK_PORT_", "port"), ("AK_FABRIC_", "fabric"), ("AK_FN_", "fabric_node"),
                 ("AK_FP_", "fabric_port")]
TABLE_SCOPES = {"AK_T_PORT": "port", "AK_T_DEVICE": "device", "AK_T_SM_MASTER": "sm",
                "AK_T_SM": "sm_entry", "AK_T_FABRIC_SUMMARY": "fabric",
                "AK_T_FABRIC_NODE": "fabric_node", "AK_T_FABRIC_PORT": "fabric_port"}

COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                               re.S)


def load_facts():
    out = subprocess.run([PRINT_FACTS], capture_output=True, text=True, check=True).stdout
    facts = []
    for line in out.splitlines():
        scope, name, column, snmp, instance, key = line.split("\t")
        facts.append({"scope": scope, "name": name, "column": int(column),
                      "snmp": snmp == "1", "instance": None if instance == "-" else instance,
                      "key": None if key == "-" else key})
    return facts


def forbidden_strings(facts, kinds):
    """{literal: why} for every type instance and JSON key of the table (of kinds)."""
    words = {}
    for f in facts:
        what = f"fact {f['scope']}.{f['name']}"
        if f["instance"] and "instance" in kinds:
            words.setdefault(f["instance"], f"the collectd type instance of {what}")
        if f["key"] and "key" in kinds:
            words.setdefault(f["key"], f"the JSON key of {what}")
            words.setdefault(f["key"].rsplit(".", 1)[-1], f"the JSON key of {what}")
    return words


def columns_by_scope(facts):
    columns = {}
    for f in facts:
        if f["snmp"]:
            columns.setdefault(f["scope"], {})[f["column"]] = f["name"]
    return columns


def split_code(text):
    """(code with comments blanked and literals emptied, [(offset in text, literal)]); the
    code keeps the text's lines."""
    literals, code = [], []
    last = 0
    for m in COMMENT_OR_STRING.finditer(text):
        code.append(text[last:m.start()])
        token = m.group(0)
        if token.startswith('"'):
            literals.append((m.start(), token[1:-1]))
            code.append('""')
        else:
            code.append(re.sub(r"[^\n]", " ", token))
        last = m.end()
    code.append(text[last:])
    return "".join(code), literals


def scope_of_constant(name):
    for prefix, scope in PREFIX_SCOPES:
        if name.startswith(prefix):
            return scope
    return None


def constants(code):
    """[(offset, name, value)] of #define NAME number and of enumerators (counting on)."""
    found = [(m.start(), m.group(1), int(m.group(2)))
             for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(\d+)\b", code, re.M)]
    for body in re.finditer(r"\benum\b[^{;]*\{([^}]*)\}", code):
        value = -1
        for m in re.finditer(r"(\w+)\s*(?:=\s*(\d+))?\s*(?:,|$)", body.group(1)):
            value = int(m.group(2)) if m.group(2) else value + 1
            found.append((body.start(1) + m.start(), m.group(1), value))
    return found


class FactLiterals(unittest.TestCase):
    def setUp(self):
        self.facts = load_facts()
        self.assertGreater(len(self.facts), 50)

    def sources(self):
        for folder, kinds in FOLDERS.items():
            for root, _, files in os.walk(os.path.join(TOP, folder)):
                for name in sorted(files):
                    if name.endswith((".c", ".h")):
                        path = os.path.join(root, name)
                        with open(path) as f:
                            yield os.path.relpath(path, TOP), f.read(), kinds

    def literal_problems(self, path, text, literals, words):
        """The literals that are a fact's name, but for the listed ones that are not facts;
        a listed literal the file has more or fewer times than listed."""
        found = {}
        for offset, literal in literals:
            if literal in words:
                found.setdefault(literal, []).append(text.count("\n", 0, offset) + 1)
        for literal, lines in sorted(found.items()):
            count, what = NOT_FACTS.get((path, literal), (0, None))
            if len(lines) != count:
                for line in lines:
                    listed = f" (listed {count} times as {what})" if what else ""
                    yield f'{path}:{line}: "{literal}" is {words[literal]}{listed}'
        for (listed_path, literal), (count, what) in NOT_FACTS.items():
            if listed_path == path and literal not in found:
                yield f'{path}: "{literal}" is listed {count} times ({what}), found none'

    def problems(self):
        columns = columns_by_scope(self.facts)
        for path, text, kinds in self.sources():
            code, literals = split_code(text)

            def where(offset, source=code):
                return f"{path}:{source.count(chr(10), 0, offset) + 1}"

            yield from self.literal_problems(path, text, literals,
                                             forbidden_strings(self.facts, kinds))
            for offset, name, value in constants(code):
                scope = scope_of_constant(name)
                if scope and value in columns.get(scope, {}):
                    yield (f"{where(offset)}: {name} = {value} is the MIB column of fact "
                           f"{scope}.{columns[scope][value]}")
            for m in re.finditer(r"\bak_row_set_\w+\s*\(\s*[\w>.-]+\s*,\s*(\d+)", code):
                yield f"{where(m.start())}: column {m.group(1)} written as a number"
            for m in re.finditer(r"\{\s*(AK_T_\w+)\s*,\s*\"\"\s*,\s*\{[^}]*\}\s*,\s*\d+\s*,"
                                 r"\s*\{([^}]*)\}", code):
                scope = TABLE_SCOPES.get(m.group(1))
                for n in re.findall(r"\b\d+\b", m.group(2)):
                    if scope and int(n) in columns.get(scope, {}):
                        yield (f"{where(m.start())}: {m.group(1)} lists column {n}, the MIB "
                               f"column of fact {scope}.{columns[scope][int(n)]}")

    def test_only_the_table_of_facts_names_them(self):
        found = list(self.problems())
        for problem in found:
            print(problem, file=sys.stderr)
        self.assertEqual(found, [], "take these from the table of facts (rdmakit/facts.h)")


if __name__ == "__main__":
    unittest.main(verbosity=2)
