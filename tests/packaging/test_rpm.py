#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The RPMs: scripts/build-rpm.sh builds packaging/rpm/rdmakit.spec with rpmbuild -bb
(--nodeps: the spec's BuildRequires are Fedora/RHEL names that Debian's rpm database does not
have) and rpmlint reports no errors; the split and each package's files, requirements and
systemd scriptlets are as the spec means; the rdmakit in the payload runs and reports the
CMake version. Installing them is not possible on Debian."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import pkgtest
from pkgtest import PACKAGES, run

VERSION = pkgtest.cmake_version()


class Rpms(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="rdmakit-rpms-")
        _, cls.output = run(os.path.join(pkgtest.TOP, "scripts", "build-rpm.sh"), cls.out,
                            timeout=900, env=dict(os.environ, RPM_NODEPS="1"))
        cls.rpms = {re.sub(r"-[^-]+-[^-]+\.[^.]+\.rpm$", "", f): os.path.join(cls.out, f)
                    for f in os.listdir(cls.out) if f.endswith(".rpm")}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, ignore_errors=True)

    def query(self, package, *what):
        return run("rpm", "-qp", *what, self.rpms[package])[1]

    def test_split_and_rpmlint(self):
        self.assertEqual(sorted(self.rpms), sorted(PACKAGES))
        self.assertRegex(self.output, r"checked; 0 errors, \d+ warnings")
        self.assertNotRegex(self.output, r"(?m): E: ")

    def test_files(self):
        cli = self.query("rdmakit", "-l").split()
        for path in ("/usr/bin/rdmakit", "/usr/libexec/rdmakit/rdmakit-discover",
                     "/usr/lib/systemd/system/rdmakit-doctor.service",
                     "/usr/lib/systemd/system/rdmakit-doctor.timer"):
            self.assertIn(path, cli)
        self.assertTrue(any(p.startswith("/usr/share/man/man1/rdmakit.1") for p in cli))
        plugin = self.query("collectd-rdmakit", "-l").split()
        self.assertIn("/usr/lib64/collectd/rdmakit.so", plugin)
        self.assertIn("/usr/share/rdmakit/collectd/rdmakit.conf", plugin)
        self.assertIn("/usr/share/rdmakit/prometheus/rdmakit.rules.yml", plugin)

    def test_requires_and_scriptlets(self):
        requires = self.query("collectd-rdmakit", "--requires")
        self.assertRegex(requires, r"(?m)^collectd$")
        self.assertIn(f"rdmakit(x86-64) = {VERSION}-1", requires)
        scripts = self.query("rdmakit", "--scripts")
        self.assertRegex(scripts, r"(?s)postinstall scriptlet.*preset rdmakit-doctor\.timer.*"
                                  r"preuninstall scriptlet.*disable --now rdmakit-doctor\.timer")

    @unittest.skipUnless("rdmakit-agentx" in PACKAGES, "no snmp-subagent/ in the tree")
    def test_agentx_user(self):
        """The subagent's package ships its sysusers.d and tmpfiles.d files and the snmpd.conf
        snippet (a noreplace config file); %pre creates the system user _rdmakit and its
        group only when missing, %post creates /var/agentx from the tmpfiles.d line."""
        files = self.query("rdmakit-agentx", "-l").split()
        for path in ("/usr/lib/sysusers.d/rdmakit-agentx.conf",
                     "/usr/lib/tmpfiles.d/rdmakit-agentx.conf",
                     "/etc/snmp/snmpd.conf.d/rdmakit-agentx.conf"):
            self.assertIn(path, files)
        self.assertIn("/etc/snmp/snmpd.conf.d/rdmakit-agentx.conf",
                      self.query("rdmakit-agentx", "-c").split())
        scripts = self.query("rdmakit-agentx", "--scripts")
        self.assertRegex(scripts, r"(?s)preinstall scriptlet.*"
                                  r"getent group _rdmakit >/dev/null \|\| groupadd -r _rdmakit.*"
                                  r"getent passwd _rdmakit >/dev/null \|\| useradd -r -g _rdmakit"
                                  r".*postinstall scriptlet.*systemd-tmpfiles --create "
                                  r"/usr/lib/tmpfiles\.d/rdmakit-agentx\.conf")
        self.assertIn("/usr/sbin/useradd", self.query("rdmakit-agentx", "--requires"))

    def test_payload_runs(self):
        root = tempfile.mkdtemp(prefix="rdmakit-rpm-payload-")
        try:
            cpio = subprocess.run(["rpm2cpio", self.rpms["rdmakit"]], capture_output=True,
                                  check=True).stdout
            subprocess.run(["cpio", "-idm", "--quiet"], input=cpio, cwd=root, check=True)
            _, out = run(os.path.join(root, "usr", "bin", "rdmakit"), "--version")
        finally:
            shutil.rmtree(root, ignore_errors=True)
        self.assertEqual(out, f"rdmakit {VERSION}\n")


if __name__ == "__main__":
    unittest.main()
