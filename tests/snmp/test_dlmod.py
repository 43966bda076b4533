#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit-dlmod.so loaded into a real private snmpd (`dlmod rdmakit PATH`), next to
rdmakit-agentx behind another snmpd on the same host trees (a fixture and a generated 64-port
host): every table walks the same, row for row, but for the scalars that change with time;
snmpd's sockets stay below 1024 with the attributes above; SIGHUP unloads and loads it again;
in an snmpd that forks into the background its refresh thread runs (a value written into the
tree is served); a bad config is logged and snmpd goes on serving its own MIBs; in fabric and SM
mode against a real ibsim + OpenSM it serves the fabric's nodes, a PerformanceSet counter and the
master SM, discovering through the helper process, not inside snmpd."""
import os
import shutil
import signal
import subprocess
import tempfile
import unittest

import snmptest
import test_fabric as sim_fabric
from rktest import umad2sim_env, wait_for
from snmptest import Setup, fixture

simlib = sim_fabric.simlib

DLMOD = os.environ.get("RDMAKIT_DLMOD", os.path.join(snmptest.TOP, "build", "snmp-subagent",
                                                     "rdmakit-dlmod.so"))
SCALARS = snmptest.ROOT_OID + ".1.1"  # version, refreshed at, duration, age: they move


class Snmpd:
    """A private snmpd with the module loaded (no AgentX) on 127.0.0.1:port; in the
    foreground, or forked into the background as snmpd does without -f."""

    def __init__(self, workdir, port, config, foreground=True, extra_env=None):
        self.workdir, self.port = workdir, port
        os.makedirs(os.path.join(workdir, "persist"), exist_ok=True)
        self.rkconf = os.path.join(workdir, "rdmakit.conf")
        with open(self.rkconf, "w") as f:
            f.write(config)
        conf = os.path.join(workdir, "snmpd.conf")
        with open(conf, "w") as f:
            f.write(f"agentaddress udp:127.0.0.1:{port}\nrocommunity public 127.0.0.1\n"
                    f"dontLogTCPWrappersConnects yes\ndlmod rdmakit {DLMOD}\n")
        self.log = os.path.join(workdir, "snmpd.log")
        pidfile = os.path.join(workdir, "snmpd.pid")
        env = dict(snmptest.env(workdir), RDMAKIT_DLMOD_CONFIG=self.rkconf, **(extra_env or {}))
        proc = subprocess.Popen(["snmpd", *(["-f"] if foreground else []), "-Lf", self.log,
                                 "-C", "-c", conf, "-p", pidfile, "-I", "-smux"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=env, cwd=workdir)
        self.proc = proc if foreground else None
        if foreground:
            self.pid = proc.pid
        else:
            proc.wait(10)
            self.pid = int(wait_for(lambda: read_pid(pidfile), 10, "snmpd's pidfile"))

    def tool(self, *args):
        out = subprocess.run(["snmpbulkwalk", "-v2c", "-c", "public", "-On", "-Oe", "-Ox",
                              "-t", "0.5", "-r", "3", *args[:-1],
                              f"127.0.0.1:{self.port}", args[-1]],
                             capture_output=True, text=True, timeout=60,
                             env=snmptest.env(self.workdir))
        return out.stdout if out.returncode == 0 else ""

    def text(self):
        try:
            with open(self.log) as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def stop(self):
        os.kill(self.pid, signal.SIGTERM)
        if self.proc:
            self.proc.wait(10)
        else:  # forked: not our child
            wait_for(lambda: not os.path.exists(f"/proc/{self.pid}"), 10, "snmpd to exit")


def read_pid(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except FileNotFoundError:
        return None


def tables(text):
    """The walk's lines outside the moving scalars."""
    return [line for line in text.splitlines() if not line.startswith(SCALARS + ".")]


class InsideSnmpd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="rdmakit-dlmod-")
        cls.big = os.path.join(cls.tmp, "host")
        subprocess.run([os.path.join(snmptest.TOP, "tests", "fixtures", "make-many-ports.sh"),
                        cls.big, "64"], check=True, capture_output=True)
        cls.servers = {}
        try:
            for i, root in enumerate((fixture("ib-hdr"), cls.big)):
                sub = Setup(root, config="refresh 30\n").__enter__()
                mod = Snmpd(os.path.join(cls.tmp, f"mod{i}"), snmptest.free_port(),
                            f"sysfs-root {root}\nrefresh 30\n")
                cls.servers[root] = (sub, mod)
                wait_for(lambda: "serving" in mod.text(), 20, "rdmakit-dlmod.so serving")
            cls.bad = Snmpd(os.path.join(cls.tmp, "bad"), snmptest.free_port(),
                            "refresh soon\n")
            cls.copy = snmptest.copy_fixture("ib-hdr", cls.tmp)
            cls.forked = Snmpd(os.path.join(cls.tmp, "forked"), snmptest.free_port(),
                               f"sysfs-root {cls.copy}\nrefresh 0.5\n", foreground=False)
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        for sub, mod in cls.servers.values():
            mod.stop()
            sub.__exit__(None, None, None)
        for name in ("bad", "forked"):
            if getattr(cls, name, None):
                getattr(cls, name).stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_the_tables_are_those_of_the_subagent(self):
        for root, (sub, mod) in self.servers.items():
            ours = tables(mod.tool(snmptest.ROOT_OID))
            theirs = tables(sub.tool("snmpbulkwalk", "-On", "-Oe", "-Ox", snmptest.ROOT_OID))
            self.assertGreater(len(ours), 100, root)
            self.assertEqual(ours, theirs, root)

    def test_the_scalars_that_do_not_move_are_the_subagents(self):
        sub, mod = self.servers[self.big]
        moving = tuple(f"{SCALARS}.{n}.0 " for n in (2, 3, 4))  # refreshed at, duration, age
        ours = [x for x in mod.tool(SCALARS).splitlines() if not x.startswith(moving)]
        theirs = [x for x in sub.tool("snmpbulkwalk", "-On", "-Oe", "-Ox", SCALARS).splitlines()
                  if not x.startswith(moving)]
        self.assertIn(f"{SCALARS}.1.0 = STRING: ", ours[0])
        self.assertEqual(ours, theirs)

    def test_sockets_below_1024_attributes_above(self):
        sub, mod = self.servers[self.big]
        fds = {}
        for name in os.listdir(f"/proc/{mod.pid}/fd"):
            try:
                fds[int(name)] = os.readlink(f"/proc/{mod.pid}/fd/{name}")
            except FileNotFoundError:
                pass
        attrs = [fd for fd, t in fds.items() if t.startswith(self.big + "/")]
        sockets = [fd for fd, t in fds.items() if t.startswith("socket:")]
        self.assertGreater(len(attrs), 1024)
        self.assertGreaterEqual(min(attrs), 1024)
        self.assertLess(max(sockets), 1024)

    def test_a_forked_snmpd_refreshes(self):
        counter = snmptest.ROOT_OID + ".1.2.3.1.43.1.1"  # rdmakitPcPortXmitData.1.1
        wait_for(lambda: "Counter64: 4938271560492 " in self.forked.tool(counter), 20,
                 "the fixture's value (in bytes: 4 x the words)")
        snmptest.write_attr(self.copy, "class/infiniband/mlx5_0/ports/1/counters/port_xmit_data",
                            "2000000000000")
        wait_for(lambda: "Counter64: 8000000000000 " in self.forked.tool(counter), 10,
                 "the new value after a refresh in the forked snmpd")

    def test_sighup_reloads_the_module_and_it_serves_the_same(self):
        sub, mod = self.servers[self.big]
        before = tables(mod.tool(snmptest.ROOT_OID))
        os.kill(mod.pid, signal.SIGHUP)
        wait_for(lambda: mod.text().count("serving") == 2, 20, "the module loaded again")
        wait_for(lambda: tables(mod.tool(snmptest.ROOT_OID)) == before, 10, "the same tables")
        self.assertNotIn("not serving", mod.text())

    def test_a_bad_config_is_said_and_snmpd_serves_on(self):
        wait_for(lambda: "has errors: not loaded" in self.bad.text(), 10, "the error logged")
        self.assertIn("refresh", self.bad.text())
        self.assertIn(".1.3.6.1.2.1.1.1.0", self.bad.tool(".1.3.6.1.2.1.1"))
        walk = self.bad.tool(snmptest.ROOT_OID).splitlines()
        self.assertFalse([line for line in walk if line.startswith(snmptest.ROOT_OID + ".")])


class FabricInsideSnmpd(unittest.TestCase):
    """The module in fabric and SM mode: snmpd preloads ibsim's umad2sim shim, as a real snmpd
    on a management node would hold its HCA."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), leaves=sim_fabric.LEAVES,
                              hosts=sim_fabric.HOSTS, spines=sim_fabric.SPINES,
                              radix=sim_fabric.RADIX)
        cls.sim = simlib.Sim(f"rkdlmod{os.getpid()}", net, cls.tmp.name).__enter__()
        try:
            cls.sim.opensm("Hca1", 10)
            cls.mod = Snmpd(os.path.join(cls.tmp.name, "mod"), snmptest.free_port(),
                            f"sysfs-root {fixture('ib-hdr')}\nrefresh 0.5\nfabric yes\n"
                            "sm yes\nfabric-interval 1\nrediscover 2\n",
                            extra_env=umad2sim_env(cls.sim.name))
            wait_for(lambda: cls.nodes(), 30, "the fabric node table")
        except BaseException:
            cls.sim.__exit__(None, None, None)
            raise

    @classmethod
    def tearDownClass(cls):
        cls.mod.stop()
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()

    @classmethod
    def walk(cls, entry):
        rows = []
        for line in cls.mod.tool(snmptest.ROOT_OID + entry).splitlines():
            oid, _, value = line.partition(" = ")
            rows.append((tuple(int(x) for x in oid.strip(".").split(".")), None,
                         value.partition(": ")[2]))
        return rows

    @classmethod
    def nodes(cls):
        return sim_fabric.column(cls.walk(sim_fabric.NODE), sim_fabric.NODE, 2)

    def test_nodes_match_the_fabric(self):
        self.assertEqual(self.nodes(), sim_fabric.FabricMode.expected_nodes(self))

    def test_performance_set_counter(self):
        self.sim.cmd('PerformanceSet "Leaf1"[3] PortCounters.SymbolErrorCounter=7')
        key = sim_fabric.guid_index(sim_fabric.LEAF + 1) + ".3"
        wait_for(lambda: sim_fabric.column(self.walk(sim_fabric.COUNTER), sim_fabric.COUNTER,
                                           sim_fabric.SYMBOL_ERROR).get(key, "").split(" ")[0] == "7", 15,
                 "SymbolErrorCounter 7 served")

    def test_master_sm(self):
        scalars = sim_fabric.column(self.walk(".1.4.1"), ".1.4.1", 1)  # rdmakitSmMasterLid
        self.assertEqual(scalars, {"0": str(self.sim.lid("host1 HCA-1"))})

    def test_discovery_runs_in_the_helper(self):
        self.assertIn("serving", self.mod.text())
        self.assertNotIn("discovering in this process", self.mod.text())


if __name__ == "__main__":
    unittest.main(verbosity=2)
