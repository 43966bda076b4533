#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Writes the value reference tables of collectd-plugin/README.md (between <!-- values:begin -->
and <!-- values:end -->, and the fabric-values pair) from what collectd_print_reference prints:
the core's catalog and table of facts through the plugin's mapping.

Usage: write_reference.py --write|--check [README]; RDMAKIT_REFERENCE names the printer
(default: build/tests/collectd_print_reference). --check exits 1 when the README differs."""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(TOP, "collectd-plugin", "README.md")
REFERENCE = os.environ.get(
    "RDMAKIT_REFERENCE", os.path.join(TOP, "build", "tests", "collectd_print_reference"))

HOST_HEADER = ["From", "Type", "Type instance", "Data source", "Unit", "Meaning"]
FABRIC_HEADER = ["Plugin", "Plugin instance", "Type", "Type instance", "Data source", "Unit",
                 "Sent", "Meaning"]


def code(text):
    return f"`{text}`" if text else ""


def markdown_row(cells):
    return "| " + " | ".join(cells) + " |"


def table(header, rows):
    """A markdown table: the header, its rule, a line per row."""
    lines = [markdown_row(header), "|" + "---|" * len(header)]
    return "\n".join(lines + [markdown_row(r) for r in rows])


def printed(*args):
    """The printer's rows, a list of tab-separated cells each."""
    out = subprocess.run([REFERENCE, *args], capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines()]


def host_table():
    rows = [[code(source), code(typ), code(instance), code(ds), unit, meaning]
            for source, typ, instance, ds, unit, _scale, meaning in printed()]
    return table(HOST_HEADER, rows)


def fabric_table():
    rows = [[code(plugin), code(instance), code(typ), code(type_instance), code(ds), unit, sent,
             meaning]
            for plugin, instance, typ, type_instance, ds, unit, sent, meaning
            in printed("--fabric")]
    return table(FABRIC_HEADER, rows)


def render(text):
    """The README with both tables written again between their markers."""
    for marker, body in (("values", host_table()), ("fabric-values", fabric_table())):
        pattern = re.compile(rf"(<!-- {marker}:begin -->\n).*?(<!-- {marker}:end -->)", re.S)
        if not pattern.search(text):
            raise SystemExit(f"no <!-- {marker}:begin --> ... <!-- {marker}:end --> block")
        text = pattern.sub(lambda m, body=body: m.group(1) + body + "\n" + m.group(2), text)
    return text


def main(argv):
    if len(argv) not in (2, 3) or argv[1] not in ("--write", "--check"):
        sys.exit(__doc__)
    path = argv[2] if len(argv) == 3 else README
    with open(path, encoding="utf-8") as f:
        text = f.read()
    new = render(text)
    if argv[1] == "--write":
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    elif new != text:
        sys.exit(f"{path}: the value tables differ from the catalog and the table of facts; "
                 f"run tests/collectd/write_reference.py --write")


if __name__ == "__main__":
    main(sys.argv)
