#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""packaging/debian/copyright in the machine-readable format (DEP-5 1.0) matches the tree: a
header with Format, every Files paragraph with Copyright and License, every licence it names
defined by a standalone License paragraph with text, every pattern matching a file git tracks,
every file with the project's SPDX line under the project's licence, and every ASN.1 module
other than RDMAKIT-MIB (the IETF base MIBs the tests import) under a paragraph of its own."""
import fnmatch
import os
import re
import subprocess
import unittest

import pkgtest

COPYRIGHT = os.path.join(pkgtest.TOP, "packaging", "debian", "copyright")
FORMAT = "https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
PROJECT_SPDX = "SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB"
PROJECT_LICENSE = "GPL-2 or Linux-OpenIB"


def paragraphs(text):
    """The file's paragraphs as {field: value} (continuation lines joined with newlines)."""
    result = []
    for block in re.split(r"\n\s*\n", text.strip()):
        fields, key = {}, None
        for line in block.splitlines():
            if line.startswith((" ", "\t")) and key:
                fields[key] += "\n" + line.strip()
            else:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        result.append(fields)
    return result


def tracked_files():
    out = subprocess.run(["git", "-C", pkgtest.TOP, "ls-files", "-co", "--exclude-standard"],
                         capture_output=True, text=True, check=True).stdout
    return [f for f in out.splitlines() if os.path.isfile(os.path.join(pkgtest.TOP, f))]


def head(path, size=4096):
    with open(os.path.join(pkgtest.TOP, path), "rb") as f:
        return f.read(size).decode("utf-8", "replace")


class Copyright(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(COPYRIGHT) as f:
            parts = paragraphs(f.read())
        cls.header, cls.files = parts[0], [p for p in parts if "Files" in p]
        cls.licenses = {p["License"].split("\n")[0]: p["License"]
                        for p in parts[1:] if "Files" not in p}
        cls.tracked = tracked_files()

    def governing(self, path):
        """The last Files paragraph whose patterns match path (DEP-5: the last match wins)."""
        matches = [p for p in self.files
                   if any(fnmatch.fnmatchcase(path, pattern) for pattern in p["Files"].split())]
        return matches[-1] if matches else None

    def test_header_and_fields(self):
        self.assertEqual(self.header.get("Format"), FORMAT)
        self.assertEqual(self.header.get("Upstream-Name"), "rdmakit")
        self.assertTrue(self.files)
        for paragraph in self.files:
            self.assertTrue(paragraph.get("Copyright"), paragraph["Files"])
            self.assertTrue(paragraph.get("License"), paragraph["Files"])

    def test_every_licence_is_defined(self):
        for paragraph in self.files:
            names = re.split(r"\s+(?:or|and)\s+", paragraph["License"].split("\n")[0])
            for name in names:
                text = self.licenses.get(name, "")
                self.assertGreater(len(text.splitlines()), 3, f"no License: {name} paragraph")

    def test_every_pattern_matches_a_file(self):
        for paragraph in self.files:
            for pattern in paragraph["Files"].split():
                self.assertTrue(any(fnmatch.fnmatchcase(f, pattern) for f in self.tracked),
                                f"Files: {pattern} matches nothing git tracks")

    def test_project_files_under_the_project_licence(self):
        project = [f for f in self.tracked if PROJECT_SPDX in head(f, 512)]
        self.assertIn("common/include/rdmakit/log.h", project)
        wrong = [f for f in project if self.governing(f)["License"] != PROJECT_LICENSE]
        self.assertEqual(wrong, [])

    def test_other_mib_modules_have_their_own_paragraph(self):
        modules = {f: m.group(1) for f in self.tracked if f.endswith(".txt")
                   if (m := re.search(r"(?m)^\s*([A-Za-z][\w-]*)\s+DEFINITIONS\s*::=\s*BEGIN",
                                      head(f)))}
        self.assertEqual(modules.get("mibs/RDMAKIT-MIB.txt"), "RDMAKIT-MIB")
        foreign = [f for f, name in modules.items() if name != "RDMAKIT-MIB"]
        self.assertIn("tests/snmp/mibs/SNMPv2-SMI.txt", foreign)
        wrong = [f for f in foreign if self.governing(f)["License"] == PROJECT_LICENSE]
        self.assertEqual(wrong, [])


if __name__ == "__main__":
    unittest.main()
