# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Helpers for the SNMP tests: a private snmpd (AgentX master on a private socket, UDP on
127.0.0.1 at a port derived from the PID), rdmakit-agentx against a fixture tree, and
net-snmp's command-line tools with RDMAKIT-MIB loaded. Everything is stopped by its PID."""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
# What every folder's tests share; the snmp tests reach it as snmptest.NAME too.
import rktest  # noqa: E402
from rktest import TOP, copy_fixture, fixture, wait_for, write_attr  # noqa: E402,F401

AGENTX = os.environ.get("RDMAKIT_AGENTX",
                        os.path.join(TOP, "build", "snmp-subagent", "rdmakit-agentx"))
MIBDIRS = ":".join([os.path.join(TOP, "mibs"), os.path.join(HERE, "mibs"),
                    "/usr/share/snmp/mibs"])
ROOT_OID = ".1.3.6.1.4.1.8072.9999.9999.42"


def free_port():
    """A UDP port on 127.0.0.1 for snmpd or snmptrapd (rktest.free_port)."""
    return rktest.free_port(socket.SOCK_DGRAM)


class Snmpd:
    """A private snmpd: AgentX master on workdir/agentx.sock, UDP on 127.0.0.1:port."""

    def __init__(self, workdir, port, extra=""):
        self.workdir = workdir
        self.port = port
        self.socket = os.path.join(workdir, "agentx.sock")
        self.pidfile = os.path.join(workdir, "snmpd.pid")
        self.conf = os.path.join(workdir, "snmpd.conf")
        with open(self.conf, "w") as f:
            f.write(f"agentaddress udp:127.0.0.1:{port}\nmaster agentx\n"
                    f"agentXSocket {self.socket}\n"
                    f"{extra or 'agentXPerms 0660 0770'}\nrocommunity public 127.0.0.1\n")
        self.proc = None

    def start(self):
        with open(os.path.join(self.workdir, "snmpd.log"), "a") as log:
            self.proc = subprocess.Popen(
                ["snmpd", "-f", "-Lo", "-C", "-c", self.conf, "-p", self.pidfile,
                 "-M", MIBDIRS, "-m", "RDMAKIT-MIB"], stdout=log, stderr=log,
                env=env(self.workdir))
        wait_for(lambda: os.path.exists(self.socket), 10, "snmpd's AgentX socket")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)
        self.proc = None


class Trapd:
    """A private snmptrapd on 127.0.0.1:port writing every notification to a log; with
    mib=False it loads no MIB (as a stock receiver without RDMAKIT-MIB) and prints numbers."""

    def __init__(self, workdir, port, mib=True, name="traps"):
        self.port = port
        self.log = os.path.join(workdir, f"{name}.log")
        conf = os.path.join(workdir, f"snmptrapd-{name}.conf")
        with open(conf, "w") as f:
            f.write("disableAuthorization yes\n")
        mibs = ["-m", "RDMAKIT-MIB", "-OQ"] if mib else ["-m", "", "-On", "-Oe"]
        self.proc = subprocess.Popen(
            ["snmptrapd", "-f", "-C", "-c", conf, "-Lf", self.log, "-M", MIBDIRS, *mibs,
             f"udp:127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env(workdir))
        try:
            wait_for(lambda: os.path.exists(self.log) and "NET-SNMP" in self.text(), 10,
                     "snmptrapd started")
        except AssertionError:
            self.proc.kill()  # no caller holds it yet: stopped here, not left running
            self.proc.wait(10)
            raise

    def text(self):
        try:
            with open(self.log) as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def count(self, what):
        return self.text().count(what)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


class Agent:
    """rdmakit-agentx in the foreground, logging to workdir/agentx.log."""

    def __init__(self, workdir, socket, root, config="", extra=(), env_extra=None):
        self.workdir = workdir
        self.env_extra = env_extra or {}
        self.log_path = os.path.join(workdir, "agentx.log")
        # Not agentx.conf: net-snmp reads that name in SNMPCONFPATH for its own settings.
        self.config = os.path.join(workdir, "subagent.conf")
        with open(self.config, "w") as f:
            f.write(config)
        self.args = [AGENTX, "-f", "-Lf", self.log_path, "-x", socket, "-c", self.config,
                     "--sysfs-root", root, *extra]
        self.proc = None

    def start(self):
        # The working directory is writable: under ibsim, the umad shim writes ./sys-<pid>/.
        with open(os.path.join(self.workdir, "agentx.stderr"), "a") as err:
            self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL, stderr=err,
                                         cwd=self.workdir,
                                         env=dict(env(self.workdir), **self.env_extra))
        return self

    def log(self):
        try:
            with open(self.log_path) as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(10)
        self.proc = None


def env(workdir):
    """Keep net-snmp's tools and daemons away from the system's config and state."""
    e = dict(os.environ)
    e["SNMP_PERSISTENT_DIR"] = os.path.join(workdir, "persist")
    e["SNMPCONFPATH"] = workdir
    e["MIBDIRS"] = MIBDIRS
    e["MIBS"] = "RDMAKIT-MIB"
    return e


class Setup:
    """snmpd + rdmakit-agentx on one fixture tree, in a temporary directory."""

    def __init__(self, root, config="", extra=(), env_extra=None, snmpd_extra="",
                 ready_timeout=20):
        self.ready_timeout = ready_timeout
        self.workdir = tempfile.mkdtemp(prefix="rdmakit-snmp-")
        os.makedirs(os.path.join(self.workdir, "persist"))
        self.snmpd = Snmpd(self.workdir, free_port(), snmpd_extra)
        self.agent = Agent(self.workdir, self.snmpd.socket, root, config, extra, env_extra)

    def __enter__(self):
        self.snmpd.start()
        self.agent.start()
        try:
            self.wait_ready(self.ready_timeout)
        except AssertionError:
            with open(os.path.join(self.workdir, "agentx.stderr")) as f:
                stderr = f.read()
            sys.stderr.write(f"rdmakit-agentx's log:\n{self.agent.log()[-3000:]}\n"
                             f"its stderr:\n{stderr[-3000:]}\n")
            self.__exit__(None, None, None)
            raise
        return self

    def wait_ready(self, timeout=20):
        wait_for(lambda: self.get_raw("RDMAKIT-MIB::rdmakitAgentVersion.0").startswith("0"),
                 timeout, "rdmakit-agentx registered")

    def __exit__(self, *exc):
        self.agent.stop()
        self.snmpd.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def tool(self, name, *args, check=True):
        cmd = [name, "-v2c", "-c", "public", "-M", MIBDIRS, "-m", "RDMAKIT-MIB",
               *args[:-1], f"127.0.0.1:{self.snmpd.port}", args[-1]] if args else [name]
        out = subprocess.run(cmd, capture_output=True, text=True, env=env(self.workdir),
                             timeout=60)
        if check and out.returncode != 0:
            raise AssertionError(f"{' '.join(cmd)}: {out.returncode}: {out.stderr}")
        return out.stdout

    def get_raw(self, oid):
        out = subprocess.run(["snmpget", "-v2c", "-c", "public", "-t", "0.2", "-r", "3",
                              "-Oqv", "-M", MIBDIRS, "-m", "RDMAKIT-MIB",
                              f"127.0.0.1:{self.snmpd.port}", oid],
                             capture_output=True, text=True, env=env(self.workdir), timeout=30)
        return out.stdout.strip() if out.returncode == 0 else ""

    def get_values(self, *oids):
        """The values of oids (-Oqv) from one GET request: the subagent answers it from one
        snapshot."""
        out = subprocess.run(["snmpget", "-v2c", "-c", "public", "-Oqv", "-M", MIBDIRS, "-m",
                              "RDMAKIT-MIB", f"127.0.0.1:{self.snmpd.port}", *oids],
                             capture_output=True, text=True, env=env(self.workdir), timeout=30)
        values = out.stdout.splitlines()
        assert out.returncode == 0 and len(values) == len(oids), out
        return values

    def walk(self, oid=ROOT_OID, bulk=False, extra=()):
        """[(numeric OID tuple, type, value)] of a walk, with -On -OQ -Oe-free output."""
        out = self.tool("snmpbulkwalk" if bulk else "snmpwalk", "-On", "-Oe", "-Ox", *extra,
                        oid)
        rows = []
        for line in out.splitlines():
            m = re.match(r"^(\.[\d.]+) = (\w[\w-]*): ?(.*)$", line)
            if m:
                rows.append((tuple(int(x) for x in m.group(1)[1:].split(".")), m.group(2),
                             m.group(3)))
            elif rows:  # a value continued on the next line
                rows[-1] = (rows[-1][0], rows[-1][1], rows[-1][2] + " " + line.strip())
        return rows

    def named(self, oid=ROOT_OID):
        """{symbolic name with index: value} of a walk, names from RDMAKIT-MIB."""
        out = self.tool("snmpwalk", "-OQ", "-Oe", "-OU", oid)
        values = {}
        for line in out.splitlines():
            name, _, value = line.partition(" = ")
            values[name.replace("RDMAKIT-MIB::", "")] = value.strip().strip('"')
        return values


def finding_rows(setup, prefixes):
    """[(code, subject)] of the rows of rdmakitFindingTable whose code starts with one of
    prefixes (a string or a tuple), sorted."""
    table = setup.named("RDMAKIT-MIB::rdmakitFindingTable")
    codes = {m.group(1): v for n, v in table.items()
             if (m := re.match(r"rdmakitFindingCode\.(\d+)$", n))}
    subjects = {m.group(1): v for n, v in table.items()
                if (m := re.match(r"rdmakitFindingSubject\.(\d+)$", n))}
    return sorted((c.strip('"'), subjects.get(i, "").strip('"')) for i, c in codes.items()
                  if c.strip('"').startswith(prefixes))


def finding_traps(text):
    """[(Raised or Cleared, code, node GUID text, port)] of the subagent's finding traps (one
    a line, its varbinds separated by tabs)."""
    found = []
    for line in text.splitlines():
        kind = re.search(r"= RDMAKIT-MIB::rdmakitFinding(Raised|Cleared)\t", line)
        if not kind:
            continue
        fields = dict(re.findall(r"RDMAKIT-MIB::rdmakitFinding(\w+)\.\d+ = ([^\t]*)", line))
        port = fields.get("NodePort")
        found.append((kind.group(1), fields.get("Code", ""), fields.get("NodeGuid"),
                      int(port) if port else None))
    return found


def guid_text(guid):
    """A GUID as the kernel writes one: 0002:c903:0000:0010."""
    return ":".join(f"{guid >> s & 0xffff:04x}" for s in (48, 32, 16, 0))
