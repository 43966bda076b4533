# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Python side of the simulated-fabric testbed: drives simctl.sh for unittest-based tests."""
import collections
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
SIMCTL = os.path.join(HERE, "simctl.sh")
GEN = os.path.join(HERE, "gen-fattree.py")
# tests/sim/lft_set.c: writes entries of a switch's LinearForwardingTable
LFT_SET = os.environ.get("LFT_SET", os.path.join(TOP, "build", "tests", "lft_set"))
sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
from rktest import umad2sim_env, wait_for  # noqa: E402

# tests/sim/mcast_join.c: joins SIM_HOST's CA port to a multicast group as a full member
MCAST_JOIN = os.environ.get("MCAST_JOIN", os.path.join(TOP, "build", "tests", "mcast_join"))
# tests/sim/issm_shim.c: makes the process named by RK_ISSM_COMM its node's SM-side client
ISSM_SHIM = os.environ.get("ISSM_SHIM", os.path.join(TOP, "build", "tests", "issm_shim.so"))


def issm_env(sim_name, host, comm):
    """What a process named comm needs to receive SA Reports on node host of the sim: its
    node, and the issm shim preloaded before umad2sim (tests/sim/README.md)."""
    env = umad2sim_env(sim_name)
    return dict(env, SIM_HOST=host, RK_ISSM_COMM=comm,
                LD_PRELOAD=f"{ISSM_SHIM} {env['LD_PRELOAD']}")


def join_group(sim, mgid, hosts):
    """Join each host's CA port to multicast group mgid (an SA Set(MCMemberRecord), as IPoIB
    joins); the group's MLID. OpenSM then programs the switches' multicast tables."""
    mlids = set()
    for host in hosts:
        proc = sim.run(MCAST_JOIN, mgid, host=host)
        if proc.returncode != 0:
            raise RuntimeError(f"mcast_join at {host}: {proc.stderr}")
        mlids.add(int(proc.stdout.split()[-1], 16))
    if len(mlids) != 1:
        raise RuntimeError(f"one group, several MLIDs: {mlids}")
    return mlids.pop()


def mft_flip(mlid, ports):
    """tests/sim/smp_set's attribute modifier and patch that flip the bits of ports (in one
    byte of the entry) in a switch's MulticastForwardingTable entry for mlid: blocks of 32
    MLIDs, 16 ports a position, an entry's 16 bits big-endian."""
    index, bits = mlid - 0xc000, 0
    for port in ports:
        assert port // 8 == ports[0] // 8, "the ports share one byte"
        bits |= 1 << port % 8
    byte = 2 * (index % 32) + (0 if ports[0] % 16 >= 8 else 1)
    return str((ports[0] // 16) << 28 | index // 32), f"{byte}^={bits}"


def generate(path, leaves=4, hosts=4, spines=2, radix=8, slow=()):
    """Write a fat tree net file; slow is a list of 'Leaf2:3=4xSDR' specs."""
    args = [GEN, "--leaves", str(leaves), "--hosts-per-leaf", str(hosts), "--spines",
            str(spines), "--radix", str(radix), "-q", "-o", path]
    for spec in slow:
        args += ["--slow-link", spec]
    subprocess.run(args, check=True)
    return path


class Sim:
    """One ibsim instance (and its OpenSMs), stopped by PID on exit."""

    def __init__(self, name, net, workdir):
        self.name = name
        self.net = net
        self.env = dict(os.environ, SIM_DIR=workdir, SIM_OWNER_PID=str(os.getpid()),
                        SIM_QUIET="1")

    def ctl(self, *args, timeout=120, check=True, env=None):
        proc = subprocess.run([SIMCTL, *args], capture_output=True, text=True,
                              timeout=timeout, env=env or self.env)
        if check and proc.returncode != 0:
            raise RuntimeError(f"simctl {' '.join(args)}: {proc.stderr}")
        return proc

    def __enter__(self):
        self.ctl("start", self.name, self.net)
        return self

    def __exit__(self, *exc):
        self.ctl("stop", self.name, check=False)

    def fast_failover(self):
        """OpenSMs started from now on poll the master's SMInfo every 500 ms and take over
        after 2 lost polls, instead of OpenSM's default of about 50 s."""
        conf = os.path.join(self.env["SIM_DIR"], "opensm.conf")
        with open(conf, "w") as f:
            f.write("sminfo_polling_timeout 500\npolling_retry_number 2\n")
        self.env["SIM_OSM_ARGS"] = f"-F {conf}"

    def opensm(self, node="Hca1", priority=10):
        self.ctl("opensm", self.name, node, str(priority))

    @property
    def dir(self):
        """Where simctl keeps this sim's files (pid files, each OpenSM's log)."""
        return os.path.join(self.env["SIM_DIR"], f"rdmakit-sim-{self.name}")

    def opensm_pid(self, node="Hca1"):
        with open(os.path.join(self.dir, f"opensm-{node}.pid")) as f:
            return int(f.read())

    def subnet_ups(self, node="Hca1"):
        """How many times that OpenSM's log says it finished a routing ("SUBNET UP")."""
        try:
            with open(os.path.join(self.dir, f"opensm-{node}", "opensm.log"),
                      errors="replace") as f:
                return f.read().count("SUBNET UP")
        except FileNotFoundError:
            return 0

    def opensm_routing(self, engine, node="Hca1", priority=10):
        """Start OpenSM with routing engine engine; back once its first routing is in the
        switches' tables."""
        before = self.subnet_ups(node)
        self.env["SIM_OSM_ARGS"] = f"-R {engine}"
        self.opensm(node, priority)
        wait_for(lambda: self.subnet_ups(node) > before, 30, f"OpenSM -R {engine}: SUBNET UP")

    def stop_opensm(self, node="Hca1", reap=True):
        """Stop that OpenSM (SIGTERM to the one this test started); with reap, free its client
        slot in ibsim too (before another OpenSM on that node). Not before a failover: with
        the master's slot freed, a standby once did not take over within 90 s."""
        pid = self.opensm_pid(node)
        os.kill(pid, signal.SIGTERM)
        wait_for(lambda: not running(pid), 15, f"OpenSM on {node} to exit")
        if reap:
            self.ctl("reap", self.name, check=False)

    def break_routes(self, leaf="Leaf2", hole="host9 HCA-1", looped="host5 HCA-1"):
        """With OpenSM stopped, write into leaf's table a hole (hole's LID to no port) and a
        loop (looped, a CA on leaf, sent up the port hole's LID went, so the up-links stay
        balanced): leaf's own route to hole ends there, every switch's to looped loops.
        (hole's LID, looped's LID)."""
        leaf_lid, hole_lid, looped_lid = self.lid(leaf), self.lid(hole), self.lid(looped)
        table = self.run("ibroute", str(leaf_lid)).stdout
        up = int(re.search(rf"^0x{hole_lid:04x} (\d+) ", table, re.M).group(1))
        done = self.run(LFT_SET, str(leaf_lid), f"{hole_lid}=255", f"{looped_lid}={up}")
        if done.returncode != 0:
            raise AssertionError(f"lft_set: {done.stderr}")
        return hole_lid, looped_lid

    def cmd(self, line):
        return self.ctl("cmd", self.name, line).stdout

    def lid(self, node):
        return int(self.ctl("lid", self.name, node).stdout.strip(), 0)

    def run(self, *args, host=None, timeout=60):
        env = dict(self.env, SIM_TIMEOUT=str(timeout))
        if host:
            env["SIM_HOST"] = host
        return self.ctl("run", self.name, *args, timeout=timeout + 30, check=False, env=env)


def uncleared_raises(notes, traps):
    """What among collectd's notifications (cdtest.Daemon.notifications) and the subagent's
    finding traps (snmptest.finding_traps) was raised more often than cleared, or cleared more
    often than raised, by the same identifiers: (plugin instance, type instance) and (code,
    GUID, port); a dict of ("collectd" or "trap", identifiers) to raises minus clears."""
    def key(note):
        return note.get("plugin_instance", ""), note["type_instance"]
    balance = collections.Counter()
    for note in notes:
        balance[("collectd", key(note))] += -1 if note["severity"] == "OKAY" else 1
    for trap in traps:
        balance[("trap", trap[1:])] += 1 if trap[0] == "Raised" else -1
    return {what: count for what, count in balance.items() if count}


def raises_cleared(notes, traps):
    """Whether every raise among collectd's notifications and the subagent's finding traps has
    its clear, with the same identifiers (uncleared_raises)."""
    return not uncleared_raises(notes, traps)


def stop_watched(owner):
    """Stop what a test class started around its sim, the last started first: snmpd and the
    subagent (owner.setup), snmptrapd (owner.trapd), collectd (owner.daemon), each when set;
    then the sim, its clients reaped, and owner.tmp."""
    if owner.setup:
        owner.setup.__exit__(None, None, None)
    if owner.trapd:
        owner.trapd.stop()
    if owner.daemon:
        owner.daemon.cleanup()
    owner.sim.ctl("reap", owner.sim.name, check=False)
    owner.sim.__exit__(None, None, None)
    owner.tmp.cleanup()


def running(pid):
    """Whether process pid runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


class WaitRaiser:
    """Raise one port's PortXmitWait on ibsim's console by step every period seconds, in a
    thread, until stop(): the port keeps having data it cannot send, as a congested port."""

    def __init__(self, sim, port, step=1_000_000, period=0.2, start=0):
        self.sim, self.port, self.step, self.period = sim, port, step, period
        self.value = start
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stopped.is_set():
            self.value += self.step
            self.sim.cmd(f"PerformanceSet {self.port} PortCounters.PortXmitWait={self.value}")
            self.stopped.wait(self.period)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        """Stop raising; the counter keeps its last value (its wait no longer rises)."""
        self.stopped.set()
        self.thread.join()
        return self.value


def parse_ibnetdiscover(text):
    """{guid: (type, lid)} for every node ibnetdiscover printed, and the link count."""
    nodes, links, current = {}, 0, None
    for line in text.splitlines():
        m = re.match(r'^(Switch|Ca)\s+\d+\s+"[SH]-([0-9a-f]+)"', line)
        if m:
            kind = "switch" if m.group(1) == "Switch" else "ca"
            lid = re.search(r"\blid (\d+)", line)
            current = int(m.group(2), 16)
            nodes[current] = (kind, int(lid.group(1)) if lid and kind == "switch" else None)
            continue
        m = re.match(r'^\[(\d+)\]', line)
        if m and current is not None:
            links += 1
            kind, lid = nodes[current]
            own = re.search(r"# lid (\d+) lmc", line)
            if kind == "ca" and lid is None and own:
                nodes[current] = (kind, int(own.group(1)))
    return nodes, links // 2


def start(sim, *args):
    """Start a client under the sim in the background (a Popen with text pipes)."""
    return subprocess.Popen([SIMCTL, "run", sim.name, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=sim.env)


class SimTestCase(unittest.TestCase):
    """Tests sharing one sim with an OpenSM on Hca1: set NET (generate()'s arguments)."""
    NET = {}
    PREFIX = "rksim"

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = generate(os.path.join(cls.tmp.name, "ft.net"), **cls.NET)
        cls.sim = Sim(f"{cls.PREFIX}{os.getpid()}", net, cls.tmp.name).__enter__()
        cls.sim.opensm("Hca1", 10)

    @classmethod
    def tearDownClass(cls):
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()
