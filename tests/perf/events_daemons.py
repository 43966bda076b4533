#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""How soon the daemons tell a pulled cable, on the ~2,000-CA simulated fat tree (64 leaves of
32 hosts, 32 spines, radix 64: 2,144 nodes, as tests/perf/bigfabric.sh), side by side with a
sweep-only collectd:

  collectd, Events true      rdmakit.so with Fabric true, FabricInterval 300 (no sweep can be
                             what finds it), on Hca2048: from `Unlink` on ibsim's console to
                             the PORT_WENT_DOWN notification of the leaf port, and from `ReLink`
                             to its OKAY notification
  snmpd + rdmakit-agentx     fabric yes, fabric-interval 300, on Hca2047: the same to the
                             rdmakitFindingRaised and rdmakitFindingCleared traps received by
                             a private snmptrapd
  collectd, Events false     FabricInterval 30 (the issue's default), on Hca2046: from `Unlink`
                             to its first notification naming the port (PORT_WENT_DOWN or
                             PORT_NO_ANSWER), a cable pulled at a random point of the interval

Each daemon receives SA Reports through tests/sim/issm_shim.c (tests/sim/README.md). Host
cables are one a leaf (Hca5, Hca37, ...): OpenSM ignores a switch's traps after 10 within its
aging time. One spine cable is pulled last (after it comes back OpenSM stops while the sim has
SM-side clients: tests/sim/README.md).

Usage: tests/perf/events_daemons.py [BUILD_DIR] [TRIES] [SWEEP_TRIES]. With PERF_MD=FILE it
appends its section, in markdown, to FILE. Exit status 1 when the targets (median <= 2 s, max
<= 5 s) are missed."""
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "build"))
TRIES = int(sys.argv[2]) if len(sys.argv) > 2 else 20
SWEEP_TRIES = int(sys.argv[3]) if len(sys.argv) > 3 else 5
os.environ.setdefault("RDMAKIT_PLUGIN_DIR", os.path.join(BUILD, "collectd-plugin"))
os.environ.setdefault("RDMAKIT_AGENTX", os.path.join(BUILD, "snmp-subagent", "rdmakit-agentx"))
os.environ.setdefault("ISSM_SHIM", os.path.join(BUILD, "tests", "issm_shim.so"))
os.environ.setdefault("RDMAKIT_DISCOVER_HELPER", os.path.join(BUILD, "common", "rdmakit-discover"))
sys.path[:0] = [os.path.join(TOP, "tests", d) for d in ("lib", "sim", "collectd", "snmp")]
import cdtest  # noqa: E402
import simlib  # noqa: E402
import snmptest  # noqa: E402
from rktest import fixture, umad2sim_env, wait_for  # noqa: E402

LEAF = 0x0002c90200100000
SPINE = 0x0002c90200200000
TIMEOUT_S = 30


def host_leaf(n):
    """(leaf GUID, leaf port) of host n's cable: 32 hosts a leaf, ports 1 to 32."""
    return LEAF + (n - 1) // 32 + 1, (n - 1) % 32 + 1


class Watchers:
    """collectd with events, collectd without, and snmpd + rdmakit-agentx with events."""

    def __init__(self, sim, work):
        self.sim = sim
        block = dict(SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True, Notifications=True,
                     FabricRole="active")  # three watchers measured side by side
        self.events = cdtest.Daemon(cdtest.plugin_block(FabricInterval=300, **block))
        self.polling = cdtest.Daemon(cdtest.plugin_block(FabricInterval=30, Events=False,
                                                         **block))
        env = dict(os.environ, **simlib.issm_env(sim.name, "Hca2048", "collectd"),
                   SIM_TIMEOUT="3600")
        assert self.events.start(env=env) == 0, self.events.start_output
        env = dict(os.environ, **umad2sim_env(sim.name), SIM_HOST="Hca2046", SIM_TIMEOUT="3600")
        assert self.polling.start(env=env) == 0, self.polling.start_output
        self.setup = snmptest.Setup(
            fixture("ib-hdr"), config="refresh 10\nfabric yes\nfabric-role active\nfabric-interval 300\n",
            env_extra=dict(simlib.issm_env(sim.name, "Hca2047", "rdmakit-agentx"),
                                      SIM_TIMEOUT="3600"))
        self.trapd = snmptest.Trapd(self.setup.workdir, snmptest.free_port())
        with open(self.setup.snmpd.conf, "a") as f:
            f.write(f"trap2sink 127.0.0.1:{self.trapd.port} public\n")
        self.setup.__enter__()
        wait_for(lambda: "fabric events: subscribed" in self.events.log(), 120,
                 "collectd subscribed")
        wait_for(lambda: "fabric events: subscribed" in self.setup.agent.log(), 120,
                 "the subagent subscribed")
        wait_for(lambda: self.polling.values_dirs("rdma_fabric"), 120,
                 "the sweep-only collectd's first sweep")

    def stop(self):
        self.setup.__exit__(None, None, None)
        self.trapd.stop()
        self.events.cleanup()
        self.polling.cleanup()

    @staticmethod
    def notes(daemon, guid, port, codes, severity):
        instance = f"0x{guid:016x}-{port}"
        return [n for n in daemon.notifications()
                if n.get("plugin") == "rdma_fabric" and n.get("plugin_instance") == instance and
                n.get("type_instance") in codes and n.get("severity") == severity]

    def traps(self, kind, guid, port):
        return [t for t in snmptest.finding_traps(self.trapd.text())
                if t == (kind, "PORT_WENT_DOWN", snmptest.guid_text(guid), port)]

    def both(self, command, guid, port, down):
        """Send command; seconds to the collectd notification and to the trap (nan: none
        within TIMEOUT_S)."""
        severity, kind = ("WARNING", "Raised") if down else ("OKAY", "Cleared")
        notes = len(self.notes(self.events, guid, port, ("PORT_WENT_DOWN",), severity))
        traps = len(self.traps(kind, guid, port))
        start = time.monotonic()
        self.sim.cmd(command)
        got = {"note": math.nan, "trap": math.nan}
        while time.monotonic() - start < TIMEOUT_S and any(map(math.isnan, got.values())):
            now = time.monotonic() - start
            if math.isnan(got["note"]) and len(self.notes(
                    self.events, guid, port, ("PORT_WENT_DOWN",), severity)) > notes:
                got["note"] = now
            if math.isnan(got["trap"]) and len(self.traps(kind, guid, port)) > traps:
                got["trap"] = now
            time.sleep(0.02)
        return got["note"], got["trap"]

    def sweep_only(self, host):
        """Seconds from pulling host's cable, at a random point of the interval, to the
        polling collectd's first notification about its leaf port."""
        guid, port = host_leaf(host)
        codes = ("PORT_WENT_DOWN", "PORT_NO_ANSWER")
        time.sleep(random.uniform(0, 30))
        before = len(self.notes(self.polling, guid, port, codes, "WARNING"))
        start = time.monotonic()
        self.sim.cmd(f'Unlink "Hca{host}"[1]')
        told = math.nan
        while time.monotonic() - start < 90:
            if len(self.notes(self.polling, guid, port, codes, "WARNING")) > before:
                told = time.monotonic() - start
                break
            time.sleep(0.05)
        self.sim.cmd(f'ReLink "Hca{host}"[1]')
        time.sleep(3)
        return told


def cell(values):
    ok = [v for v in values if not math.isnan(v)]
    missed = len(values) - len(ok)
    if not ok:
        return "none told", math.inf, math.inf
    text = "%.2f (%.2f–%.2f)" % (statistics.median(ok), min(ok), max(ok))
    return (text + (", %d not told" % missed if missed else ""), statistics.median(ok),
            max(ok) if not missed else math.inf)


def main():
    load_before = open("/proc/loadavg").read().split()[:3]
    commit = subprocess.run(["git", "-C", TOP, "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip()
    rec = {"host": [], "spine": [], "sweep": []}
    with tempfile.TemporaryDirectory() as work:
        net = simlib.generate(os.path.join(work, "fat.net"), leaves=64, hosts=32, spines=32,
                              radix=64)
        with simlib.Sim(f"rkevd{os.getpid()}", net, work) as sim:
            sim.opensm("Hca1", 10)
            time.sleep(20)  # OpenSM's first heavy sweep of 2,144 nodes
            watchers = Watchers(sim, work)
            try:
                for i in range(TRIES):
                    host = 32 * i + 5
                    guid, port = host_leaf(host)
                    down = watchers.both(f'Unlink "Hca{host}"[1]', guid, port, True)
                    up = watchers.both(f'ReLink "Hca{host}"[1]', guid, port, False)
                    rec["host"].append(down + up)
                    time.sleep(1)
                for i in range(SWEEP_TRIES):
                    rec["sweep"].append((watchers.sweep_only(32 * i + 9),))
                # Spine1 port 1 leads to Leaf1 port 33
                down = watchers.both('Unlink "Spine1"[1]', LEAF + 1, 33, True)
                up = watchers.both('ReLink "Spine1"[1]', LEAF + 1, 33, False)
                rec["spine"].append(down + up)
            finally:
                watchers.stop()
                sim.ctl("reap", sim.name, check=False)
    load_after = open("/proc/loadavg").read().split()[:3]
    report(rec, commit, load_before, load_after)


def report(rec, commit, before, after):
    out = ["daemons' events vs sweep-only; %s, tree at %s, load average %s before, %s after; "
           "%d tries a host cable, %d sweep-only tries, 1 spine cable"
           % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), commit, " ".join(before),
              " ".join(after), TRIES, SWEEP_TRIES), "",
           "| what | cable pulled: s, median (min–max) | put back: s |", "| --- | --- | --- |"]
    ok = True
    for kind, label in (("host", "a host's cable"), ("spine", "a spine's cable")):
        for col, who in ((0, "collectd notification"), (1, "SNMP trap")):
            down, dmed, dmax = cell([r[col] for r in rec[kind]])
            up, umed, umax = cell([r[col + 2] for r in rec[kind]])
            ok &= dmed <= 2 and dmax <= 5 and umed <= 2 and umax <= 5
            out.append(f"| {who}, {label}, FabricInterval 300 | {down} | {up} |")
    down, _, _ = cell([r[0] for r in rec["sweep"]])
    out.append(f"| collectd sweep-only (Events false), FabricInterval 30 | {down} | - |")
    print("\n".join(out))
    if os.environ.get("PERF_MD"):
        with open(os.environ["PERF_MD"], "a") as f:
            f.write("\n## Fabric events in the daemons (`tests/perf/events_daemons.py`)\n\n" +
                    "\n".join(out) + "\n")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
