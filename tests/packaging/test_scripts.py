#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""What the package build scripts refuse, each with a precise message: a CMake version that
differs from the Debian changelog's or the spec's, a tree that is not a git work tree, a
destination that does not exist; and copy-tree.sh copies what git tracks or would track,
leaving out ignored files and tracked files deleted in the work tree."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import pkgtest

SCRIPTS = ["build-deb.sh", "build-rpm.sh", "copy-tree.sh"]


def run(*args, cwd=None):
    proc = subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=cwd)
    return proc.returncode, proc.stdout + proc.stderr


class Scripts(unittest.TestCase):
    def setUp(self):
        self.top = tempfile.mkdtemp(prefix="rdmakit-scripts-")
        os.makedirs(os.path.join(self.top, "scripts"))
        for name in SCRIPTS:
            shutil.copy2(os.path.join(pkgtest.TOP, "scripts", name),
                         os.path.join(self.top, "scripts", name))
        for part in ("packaging/debian", "packaging/rpm"):
            shutil.copytree(os.path.join(pkgtest.TOP, part), os.path.join(self.top, part))
        self.write("CMakeLists.txt", f"project(rdmakit VERSION {pkgtest.cmake_version()})\n")

    def tearDown(self):
        shutil.rmtree(self.top, ignore_errors=True)

    def write(self, relpath, text):
        path = os.path.join(self.top, relpath)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def script(self, name, *args):
        return run(os.path.join(self.top, "scripts", name), *args)

    def test_versions_must_agree(self):
        self.write("CMakeLists.txt", "project(rdmakit VERSION 9.9.9 LANGUAGES C)\n")
        version = pkgtest.cmake_version()
        status, out = self.script("build-deb.sh", os.path.join(self.top, "out"))
        self.assertEqual(status, 1)
        self.assertIn(f"build-deb: CMakeLists.txt says 9.9.9, packaging/debian/changelog "
                      f"{version}", out)
        status, out = self.script("build-rpm.sh", os.path.join(self.top, "out"))
        self.assertEqual(status, 1)
        self.assertRegex(out, rf"build-rpm: CMakeLists.txt says 9\.9\.9, \S+/rdmakit.spec "
                              rf"{re.escape(version)}")

    def test_not_a_git_tree(self):
        dest = tempfile.mkdtemp(dir=self.top)
        status, out = self.script("copy-tree.sh", self.top, dest)
        self.assertEqual(status, 1)
        self.assertIn(f"copy-tree: no CMakeLists.txt copied from {self.top}", out)
        status, out = self.script("build-deb.sh", os.path.join(self.top, "out"))
        self.assertEqual(status, 1)
        self.assertIn("copy-tree: no CMakeLists.txt copied", out)

    def test_missing_destination(self):
        status, out = self.script("copy-tree.sh", self.top, "/nonexistent/rdmakit")
        self.assertEqual((status, out.strip()),
                         (1, "copy-tree: /nonexistent/rdmakit is not a directory"))

    def test_copies_what_git_would_track(self):
        self.write(".gitignore", "/build/\n")
        self.write("build/CMakeCache.txt", "ignored\n")
        self.write("gone.c", "deleted after git add\n")
        self.write("new file.c", "untracked, not ignored\n")
        for args in (["init", "-q"], ["add", "CMakeLists.txt", ".gitignore", "gone.c", "scripts"]):
            self.assertEqual(run("git", "-C", self.top, *args)[0], 0)
        os.unlink(os.path.join(self.top, "gone.c"))
        dest = tempfile.mkdtemp(prefix="rdmakit-copy-")
        try:
            status, out = self.script("copy-tree.sh", self.top, dest)
            copied = sorted(os.path.relpath(os.path.join(d, f), dest)
                            for d, _, files in os.walk(dest) for f in files)
        finally:
            shutil.rmtree(dest, ignore_errors=True)
        self.assertEqual((status, out), (0, ""))
        self.assertIn("new file.c", copied)
        self.assertIn("CMakeLists.txt", copied)
        self.assertIn("packaging/rpm/rdmakit.spec", copied)
        self.assertNotIn("gone.c", copied)
        self.assertFalse([f for f in copied if f.startswith("build/")], copied)


if __name__ == "__main__":
    unittest.main()
