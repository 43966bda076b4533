#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd loads rdmakit.so: its init line names the version, and that version is the
one project() sets in the top-level CMakeLists.txt (ctest passes it as RDMAKIT_CMAKE_VERSION)."""
import os
import re
import unittest

import cdtest


def cmake_version():
    """The VERSION of project(rdmakit ...) in the top-level CMakeLists.txt."""
    text = cdtest.read_text(os.path.join(cdtest.TOP, "CMakeLists.txt"))
    match = re.search(r"project\(rdmakit\s+VERSION\s+([0-9.]+)", text)
    if not match:
        raise AssertionError("CMakeLists.txt: no project(rdmakit VERSION ...)")
    return match.group(1)


class Version(unittest.TestCase):
    def test_init_line_reports_the_cmake_version(self):
        expected = cmake_version()
        self.assertEqual(os.environ.get("RDMAKIT_CMAKE_VERSION", expected), expected)
        block = cdtest.plugin_block(SysfsRoot=cdtest.fixture("ib-hdr"))
        with cdtest.Daemon(block) as daemon:
            self.assertEqual(daemon.start(), 0, daemon.start_output)
            line = cdtest.wait_for(
                lambda: re.search(r"rdmakit plugin: rdmakit (\S+) started: (.*)", daemon.log()),
                10, "the plugin's init line")
        self.assertEqual(line.group(1), expected)
        self.assertEqual(line.group(2), "host mode")


if __name__ == "__main__":
    unittest.main()
