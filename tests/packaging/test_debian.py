#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The Debian packages, end to end on this machine (root): scripts/build-deb.sh builds them
from a copy of the tree and lintian finds no error or warning; apt-get installs them;
rdmakit --version is the CMake version; the doctor unit passes systemd-analyze verify, is not
enabled, and its ExecStart runs the installed rdmakit; a collectd with "LoadPlugin rdmakit"
and no PluginDir loads the installed plugin; when the subagent is packaged, snmptranslate finds
the installed MIB, its system user and AgentX directory exist, and its unit's ExecStart, under
the unit's capability bounding set and no-new-privileges, runs as that user, registers with a
real snmpd that includes the installed snmpd.conf snippet, and makes only system calls of the
unit's SystemCallFilter. Then apt-get purge leaves nothing behind but the system user (Debian
keeps system users on purge). An upgrade (the same packages repacked as a later version) keeps
every file and an enabled timer. Exits 77 (skipped) when not root or when the packages are
already installed."""
import grp
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

import pkgtest
from pkgtest import PACKAGES, run

APT = ["apt-get", "-y", "-q", "-o", "DPkg::Lock::Timeout=300"]
ENV = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
AGENTX_USER = "_rdmakit"
AGENTX_DIR = "/var/agentx"
SNMPD_SNIPPET = "/etc/snmp/snmpd.conf.d/rdmakit-agentx.conf"
IETF_MIBS = os.path.join(pkgtest.TOP, "tests", "snmp", "mibs")


def installed(package):
    status, out = run("dpkg-query", "-W", "-f=${Status}", package, check=False)
    return status == 0 and "not-installed" not in out


def unit_settings(unit):
    """{key: [values]} of the [Service] section of an installed unit."""
    settings = {}
    text = pkgtest.read(f"/lib/systemd/system/{unit}")
    for key, value in re.findall(r"^(\w+)=(.*)$", text.split("[Service]", 1)[1], flags=re.M):
        settings.setdefault(key, []).append(value)
    return settings


def unit_exec_start(unit):
    """The ExecStart= command line of an installed unit, as an argument list."""
    return shlex.split(unit_settings(unit)["ExecStart"][0])


def exists(lookup, name):
    try:
        lookup(name)
        return True
    except KeyError:
        return False


def syscall_group(group):
    """Every system call name in a systemd system call group, nested groups expanded."""
    names, todo, seen = set(), [group], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        _, out = run("systemd-analyze", "syscall-filter", current)
        for item in (line.strip() for line in out.splitlines()[1:]):
            if item.startswith("@"):
                todo.append(item)
            elif item and not item.startswith("#"):
                names.add(item)
    return names


def allowed_syscalls(settings):
    """The system calls a unit's SystemCallFilter= lines allow (an allow list, then ~ lines
    taking groups out)."""
    allowed, denied = set(), set()
    for line in settings["SystemCallFilter"]:
        into = denied if line.startswith("~") else allowed
        for group in line.removeprefix("~").split():
            into |= syscall_group(group)
    return allowed - denied


def sandboxed(settings, command):
    """command under the unit's CapabilityBoundingSet= and NoNewPrivileges= (setpriv); with
    DynamicUser=, as nobody without supplementary groups (what a dynamic user has)."""
    caps = " ".join(settings["CapabilityBoundingSet"]).split()
    wrapper = ["setpriv", "--bounding-set=" + ",".join(
        ["-all"] + ["+" + c.lower().removeprefix("cap_") for c in caps])]
    if settings.get("NoNewPrivileges") == ["yes"]:
        wrapper.append("--no-new-privs")
    if settings.get("DynamicUser") == ["yes"]:
        wrapper += ["--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    return wrapper + command


def traced(trace):
    """(system call names, socket families) in an strace -f log."""
    text = pkgtest.read(trace)
    return (set(re.findall(r"(?m)^\d+\s+([a-z0-9_]+)\(", text)),
            set(re.findall(r"\bsocket\((AF_\w+)", text)))


def process_of(program, parent):
    """The PID of the child of parent running program, or None."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            status = pkgtest.read(f"/proc/{pid}/status")
            if (os.readlink(f"/proc/{pid}/exe") == program
                    and f"\nPPid:\t{parent}\n" in status):
                return int(pid)
        except OSError:
            continue
    return None


def ids_of(pid):
    """(real, effective, saved, fs) uids, the same gids, and the effective capabilities."""
    status = pkgtest.read(f"/proc/{pid}/status")
    field = lambda name: re.search(rf"^{name}:\s*(.*)$", status, flags=re.M).group(1).split()
    return [int(u) for u in field("Uid")], [int(g) for g in field("Gid")], field("CapEff")[0]


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
        # What the packages create that purge keeps (the user) or that is snmpd's (the AgentX
        # directory): removed at the end only if this test brought them.
        cls.had_user = exists(pwd.getpwnam, AGENTX_USER)
        cls.had_group = exists(grp.getgrnam, AGENTX_USER)
        cls.had_agentx_dir = os.path.lexists(AGENTX_DIR)
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
        kept_user = "rdmakit-agentx" not in PACKAGES or exists(pwd.getpwnam, AGENTX_USER)
        cls.restore_machine()
        if left or half or not kept_user:
            raise AssertionError(f"after purge: files left {left}, packages left {half}, "
                                 f"system user {AGENTX_USER} kept: {kept_user}")

    @classmethod
    def restore_machine(cls):
        """Remove the system user, its group and /var/agentx if this test created them."""
        if not cls.had_user and exists(pwd.getpwnam, AGENTX_USER):
            run("userdel", AGENTX_USER, check=False)
        if not cls.had_group and exists(grp.getgrnam, AGENTX_USER):
            run("groupdel", AGENTX_USER, check=False)
        if not cls.had_agentx_dir and os.path.isdir(AGENTX_DIR):
            shutil.rmtree(AGENTX_DIR, ignore_errors=True)

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
        self.assertIn("/usr/share/rdmakit/prometheus/rdmakit.rules.yml", self.files["collectd-rdmakit"])

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

    def test_doctor_unit_sandboxed(self):
        """The doctor's ExecStart on a fixture (four critical findings) as its unit runs it (an unprivileged user, no
        capabilities, no-new-privileges, UMask) under strace -f: the same findings as
        unsandboxed, only system calls its SystemCallFilter allows, sockets only of
        RestrictAddressFamilies."""
        settings = unit_settings("rdmakit-doctor.service")
        command = unit_exec_start("rdmakit-doctor.service") + [
            "--sysfs-root", os.path.join(pkgtest.FIXTURES, "port-states")]
        work = tempfile.mkdtemp(prefix="rdmakit-pkg-doctor-")
        trace = os.path.join(work, "trace")
        os.chmod(work, 0o755)
        with open(trace, "w"):  # strace runs as the unprivileged user
            os.chown(trace, pwd.getpwnam("nobody").pw_uid, -1)
        try:
            proc = subprocess.run(sandboxed(settings, ["strace", "-f", "-qq", "-o", trace]
                                            + command), capture_output=True, text=True,
                                  umask=int(settings["UMask"][0], 8), timeout=60)
            calls, families = traced(trace)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        _, plain = run(*command, check=False)
        self.assertEqual((proc.returncode, json.loads(proc.stdout)), (2, json.loads(plain)))
        self.assertEqual(len(json.loads(plain)["findings"]), 4)
        self.assertIn("openat", calls)
        self.assertEqual(sorted(calls - allowed_syscalls(settings)), [])
        self.assertLessEqual(families, set(settings["RestrictAddressFamilies"][0].split()))

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
        _, out = run("snmptranslate", "-M", "+" + IETF_MIBS, "-m", "RDMAKIT-MIB", "-IR", "-On",
                     "rdmakitMIB")
        self.assertRegex(out, r"^\.1\.3\.6\.1\.")
        self.assertIn("/etc/rdmakit/agentx.conf", self.files["rdmakit-agentx"])
        status, out = run("systemd-analyze", "verify",
                          "/lib/systemd/system/rdmakit-agentx.service", check=False)
        self.assertEqual((status, out), (0, ""))
        command = unit_exec_start("rdmakit-agentx.service")
        self.assertEqual(command[0], "/usr/sbin/rdmakit-agentx")
        self.assertEqual(command[command.index("-u") + 1], AGENTX_USER)
        _, out = run(command[0], "--version")
        self.assertEqual(out, f"rdmakit-agentx {self.version}\n")

    @unittest.skipUnless("rdmakit-agentx" in PACKAGES, "no snmp-subagent/ in the tree")
    def test_agentx_user_and_socket_directory(self):
        """postinst made the system user (sysusers.d) and the AgentX directory it may search
        (tmpfiles.d); the snmpd.conf snippet is a conffile."""
        user = pwd.getpwnam(AGENTX_USER)
        self.assertLess(user.pw_uid, 1000)
        self.assertEqual((user.pw_dir, user.pw_shell), ("/", "/usr/sbin/nologin"))
        self.assertEqual(grp.getgrgid(user.pw_gid).gr_name, AGENTX_USER)
        info = os.stat(AGENTX_DIR)
        self.assertEqual((oct(info.st_mode & 0o7777), info.st_uid, info.st_gid),
                         (oct(0o750), 0, user.pw_gid))
        _, conffiles = run("dpkg-query", "-W", "-f=${Conffiles}", "rdmakit-agentx")
        self.assertIn(SNMPD_SNIPPET, conffiles)
        self.assertRegex(pkgtest.read(SNMPD_SNIPPET),
                         rf"(?m)^agentXPerms 0660 0750 root {AGENTX_USER}$")

    @unittest.skipUnless("rdmakit-agentx" in PACKAGES, "no snmp-subagent/ in the tree")
    def test_agentx_unit_runs_as_its_user_and_registers(self):
        """A real snmpd (run as Debian's unit runs it: root, then Debian-snmp) whose config
        includes the installed snippet, its AgentX socket a private name in /var/agentx; the
        unit's ExecStart (plus -x that socket and a fixture sysfs) under the unit's capability
        bounding set, no-new-privileges, UMask and strace -f: it runs as _rdmakit with no
        capabilities, snmpd answers for RDMAKIT-MIB, every system call it made is in the
        unit's SystemCallFilter and every socket of a family in RestrictAddressFamilies, and
        SIGTERM ends it with status 0."""
        settings = unit_settings("rdmakit-agentx.service")
        user = pwd.getpwnam(AGENTX_USER)
        work = tempfile.mkdtemp(prefix="rdmakit-pkg-agentx-")
        os.chmod(work, 0o755)
        port = 20000 + (os.getpid() * 7 + 3) % 40000
        socket = os.path.join(AGENTX_DIR, f"pkgtest-{os.getpid()}")
        conf, trace = os.path.join(work, "snmpd.conf"), os.path.join(work, "trace")
        with open(conf, "w") as f:
            f.write(f"agentaddress udp:127.0.0.1:{port}\nmaster agentx\n"
                    f"agentXSocket {socket}\nincludeFile {SNMPD_SNIPPET}\n"
                    "rocommunity public 127.0.0.1\n")
        # Debian's snmpd.service options; its persistent directory becomes Debian-snmp's.
        snmpd = subprocess.Popen(
            ["snmpd", "-f", "-Lf", os.path.join(work, "snmpd.log"), "-u", "Debian-snmp",
             "-g", "Debian-snmp", "-I", "-smux,mteTrigger,mteTriggerConf", "-C", "-c", conf,
             "-p", os.path.join(work, "snmpd.pid")],
            env=dict(os.environ, SNMP_PERSISTENT_DIR=os.path.join(work, "persistent")))
        agent = pid = None
        try:
            pkgtest.wait_for(lambda: os.path.exists(socket), 10, "snmpd's AgentX socket")
            info = os.stat(socket)
            self.assertEqual((oct(info.st_mode & 0o777), info.st_gid), (oct(0o660), user.pw_gid))
            command = unit_exec_start("rdmakit-agentx.service") + [
                "-x", socket, "--sysfs-root", os.path.join(pkgtest.FIXTURES, "ib-hdr")]
            umask = int(settings["UMask"][0], 8)
            agent = subprocess.Popen(
                sandboxed(settings, ["strace", "-f", "-qq", "-o", trace] + command),
                cwd=work, umask=umask, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            pid = pkgtest.wait_for(lambda: process_of(command[0], agent.pid), 10,
                                   "the subagent under strace")
            snmp = ["-v2c", "-c", "public", "-t", "0.3", "-r", "2", "-M", "+" + IETF_MIBS,
                    "-m", "RDMAKIT-MIB", f"127.0.0.1:{port}"]
            version = pkgtest.wait_for(lambda: re.search(r"(?m)^STRING: (\S+)$", run(
                "snmpget", "-Ov", *snmp, "rdmakitAgentVersion.0", check=False)[1]), 20,
                "rdmakitAgentVersion from snmpd")
            self.assertEqual(version.group(1), self.version)
            _, names = run("snmpwalk", "-Oqv", *snmp, "rdmakitDeviceName")
            self.assertEqual(names.split(), ["mlx5_0", "mlx5_1"])
            uids, gids, caps = ids_of(pid)
            self.assertEqual((uids, gids, caps), ([user.pw_uid] * 4, [user.pw_gid] * 4,
                                                  "0000000000000000"))
            os.kill(pid, signal.SIGTERM)
            self.assertEqual(agent.wait(timeout=15), 0)
        finally:
            if agent and agent.poll() is None:
                # strace killed would leave the subagent running: stop it first
                os.kill(pid or agent.pid, signal.SIGKILL)
                agent.wait(timeout=15)
            snmpd.send_signal(signal.SIGTERM)
            snmpd.wait(timeout=15)
            if os.path.lexists(socket):  # snmpd leaves it behind
                os.unlink(socket)
            calls, families = traced(trace)
            shutil.rmtree(work, ignore_errors=True)
        self.assertIn("connect", calls)
        self.assertEqual(sorted(calls - allowed_syscalls(settings)), [])
        self.assertIn("AF_UNIX", families)
        self.assertLessEqual(families, set(settings["RestrictAddressFamilies"][0].split()))

if __name__ == "__main__":
    if os.geteuid() != 0:
        print("skipped: installing packages needs root")
        sys.exit(77)
    if any(installed(p) for p in PACKAGES):
        print(f"skipped: one of {PACKAGES} is already installed; purge it first")
        sys.exit(77)
    unittest.main()
