#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The Debian packages, end to end on this machine (root): scripts/build-deb.sh builds them
from a copy of the tree and lintian finds no error or warning; apt-get installs them;
rdmakit --version is the CMake version; the doctor unit passes systemd-analyze verify, is not
enabled, and its ExecStart runs the installed rdmakit; a collectd with "LoadPlugin rdmakit"
and no PluginDir loads the installed plugin; when the subagent is packaged, snmptranslate finds
the installed MIB and its unit runs the installed subagent. Then apt-get purge leaves nothing
behind. An upgrade (the same packages repacked as a later version) keeps every file and an
enabled timer. Exits 77 (skipped) when not root or when the packages are already installed."""
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import unittest

import pkgtest
from pkgtest import run

PACKAGES = ["rdmakit", "collectd-rdmakit"]
if os.path.isdir(os.path.join(pkgtest.TOP, "snmp-subagent")):
    PACKAGES.append("rdmakit-agentx")
if os.path.isdir(os.path.join(pkgtest.TOP, "packaging", "zabbix")):
    PACKAGES.append("rdmakit-zabbix-template")
APT = ["apt-get", "-y", "-q", "-o", "DPkg::Lock::Timeout=300"]
ENV = dict(os.environ, DEBIAN_FRONTEND="noninteractive")


def installed(package):
    status, out = run("dpkg-query", "-W", "-f=${Status}", package, check=False)
    return status == 0 and "not-installed" not in out


def unit_exec_start(unit):
    """The ExecStart= command line of an installed unit, as an argument list."""
    text = pkgtest.read(f"/lib/systemd/system/{unit}")
    return shlex.split(re.search(r"^ExecStart=(.*)$", text, flags=re.M).group(1))


def repack(deb, version, later, directory):
    """deb with its version (and the exact-version dependencies between our packages) set
    to later; returns the new file's path."""
    tree = tempfile.mkdtemp(prefix="rdmakit-repack-")
    try:
        run("dpkg-deb", "-R", deb, tree)
        control = os.path.join(tree, "DEBIAN", "control")
        text = pkgtest.read(control).replace(f"Version: {version}\n", f"Version: {later}\n")
        text = text.replace(f"(= {version})", f"(= {later})")
        with open(control, "w") as f:
            f.write(text)
        path = os.path.join(directory, os.path.basename(deb).replace(version, later, 1))
        run("dpkg-deb", "--root-owner-group", "-b", tree, path)
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    return path


class DebianPackages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(prefix="rdmakit-debs-")
        cls.version = pkgtest.cmake_version()
        _, cls.build_output = run(os.path.join(pkgtest.TOP, "scripts", "build-deb.sh"), cls.out,
                                  timeout=900)
        cls.debs = sorted(f for f in os.listdir(cls.out) if f.endswith(".deb"))
        wanted = [os.path.join(cls.out, f"{p}_{cls.version}_{arch}.deb")
                  for p in PACKAGES for arch in ("amd64", "all")]
        try:
            run(*APT, "install", "--no-install-recommends",
                *[w for w in wanted if os.path.exists(w)], env=ENV)
        except AssertionError:
            run(*APT, "purge", *PACKAGES, env=ENV, check=False)
            raise
        cls.files = {}
        for package in PACKAGES:
            _, listing = run("dpkg-query", "-L", package)
            cls.files[package] = [f for f in listing.splitlines()
                                  if os.path.lexists(f) and not os.path.isdir(f)]

    @classmethod
    def tearDownClass(cls):
        """Purge: every file the packages installed is gone, and no package is left half."""
        run(*APT, "purge", *PACKAGES, env=ENV)
        shutil.rmtree(cls.out, ignore_errors=True)
        left = [f for files in cls.files.values() for f in files if os.path.lexists(f)]
        left += [d for d in ("/usr/share/rdmakit", "/usr/libexec/rdmakit", "/etc/rdmakit",
                             "/etc/systemd/system/timers.target.wants/rdmakit-doctor.timer",
                             "/var/lib/systemd/deb-systemd-helper-enabled/"
                             "rdmakit-doctor.timer.dsh-also") if os.path.lexists(d)]
        half = [p for p in PACKAGES if installed(p)]
        if left or half:
            raise AssertionError(f"after purge: files left {left}, packages left {half}")

    def test_built_the_split_lintian_clean(self):
        self.assertIn("build-deb: lintian clean", self.build_output)
        self.assertNotRegex(self.build_output, r"(?m)^[EW]: ")
        names = sorted({d.split("_")[0] for d in self.debs if "-dbgsym" not in d})
        self.assertEqual(names, sorted(PACKAGES))

    def test_version(self):
        _, out = run("/usr/bin/rdmakit", "--version")
        self.assertEqual(out, f"rdmakit {self.version}\n")

    def test_layout(self):
        self.assertIn("/usr/bin/rdmakit", self.files["rdmakit"])
        self.assertIn("/usr/libexec/rdmakit/rdmakit-discover", self.files["rdmakit"])
        self.assertIn("/usr/share/man/man1/rdmakit.1.gz", self.files["rdmakit"])
        self.assertIn("/usr/lib/collectd/rdmakit.so", self.files["collectd-rdmakit"])
        self.assertIn("/usr/share/man/man5/rdmakit-collectd.5.gz", self.files["collectd-rdmakit"])
        self.assertIn("/usr/share/rdmakit/collectd/rdmakit.conf", self.files["collectd-rdmakit"])

    def test_doctor_unit(self):
        units = ["/lib/systemd/system/rdmakit-doctor.service",
                 "/lib/systemd/system/rdmakit-doctor.timer"]
        status, out = run("systemd-analyze", "verify", *units, check=False)
        self.assertEqual((status, out), (0, ""))
        _, state = run("systemctl", "is-enabled", "rdmakit-doctor.timer", check=False)
        self.assertEqual(state.strip(), "disabled")
        command = unit_exec_start("rdmakit-doctor.service")
        self.assertEqual(command, ["/usr/bin/rdmakit", "doctor", "--json"])
        for extra in ([], ["--sysfs-root", os.path.join(pkgtest.FIXTURES, "ib-hdr")]):
            status, out = run(*command, *extra, check=False)
            worst = json.loads(out)["worst"]
            self.assertEqual(status, {"ok": 0, "warning": 1, "critical": 2}[worst], out)

    def test_collectd_loads_installed_plugin(self):
        log, dirs = pkgtest.collectd_loads_installed_plugin()
        self.assertIn(f"rdmakit plugin: rdmakit {self.version} started: host mode", log)
        self.assertIn("rdma-mlx5_0-1", dirs)

    def test_upgrade_keeps_the_admins_choices(self):
        """The built packages repacked as a later version and installed over these: dpkg
        upgrades them (maintainer scripts in upgrade mode), every file is still in place, and
        a timer the admin enabled stays enabled. The timer is disabled again afterwards."""
        later = f"{self.version}+upgrade1"
        debs = [repack(os.path.join(self.out, deb), self.version, later, self.out)
                for deb in self.debs if deb.split("_")[0] in PACKAGES]
        run("systemctl", "enable", "rdmakit-doctor.timer")
        try:
            run(*APT, "install", "--no-install-recommends", *debs, env=ENV)
            for package in PACKAGES:
                _, version = run("dpkg-query", "-W", "-f=${Version}", package)
                self.assertEqual(version, later)
                self.assertEqual([f for f in self.files[package] if not os.path.lexists(f)], [])
            _, state = run("systemctl", "is-enabled", "rdmakit-doctor.timer", check=False)
            self.assertEqual(state.strip(), "enabled")
        finally:
            run("systemctl", "disable", "rdmakit-doctor.timer", check=False)

    @unittest.skipUnless("rdmakit-agentx" in PACKAGES, "no snmp-subagent/ in the tree")
    def test_agentx(self):
        # The installed MIB from snmp's default path; the IETF base MIBs it imports are not
        # in Debian's main archive (snmp-mibs-downloader is non-free): the tests' copies.
        ietf = os.path.join(pkgtest.TOP, "tests", "snmp", "mibs")
        _, out = run("snmptranslate", "-M", "+" + ietf, "-m", "RDMAKIT-MIB", "-IR", "-On",
                     "rdmakitMIB")
        self.assertRegex(out, r"^\.1\.3\.6\.1\.")
        self.assertIn("/etc/rdmakit/agentx.conf", self.files["rdmakit-agentx"])
        status, out = run("systemd-analyze", "verify",
                          "/lib/systemd/system/rdmakit-agentx.service", check=False)
        self.assertEqual((status, out), (0, ""))
        command = unit_exec_start("rdmakit-agentx.service")
        self.assertEqual(command[0], "/usr/sbin/rdmakit-agentx")
        _, out = run(command[0], "--version")
        self.assertEqual(out, f"rdmakit-agentx {self.version}\n")


if __name__ == "__main__":
    if os.geteuid() != 0:
        print("skipped: installing packages needs root")
        sys.exit(77)
    if any(installed(p) for p in PACKAGES):
        print(f"skipped: one of {PACKAGES} is already installed; purge it first")
        sys.exit(77)
    unittest.main()
