#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""collectd with rdmakit.so under valgrind (memcheck): reads, events, a device that vanishes
and comes back, then SIGTERM to its PID. No memory error and no leak may involve rdmakit.so.

collectd's own leaks are not judged. A record is rdmakit's when its stack goes through
rdmakit.so and, for a leak, when the code that allocated the block (the first frame outside
valgrind's malloc replacement and libc) is in rdmakit.so. That leaves out what collectd
itself allocates when the plugin registers (cf_register_complex keeps the complex config
callback until the process exits) while keeping everything the plugin and the core allocate,
directly or through libc (strdup, regcomp, opendir, ...).
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

import cdtest

sys.path.insert(0, os.path.join(cdtest.TOP, "tests", "sim"))
import simlib  # noqa: E402

PORT0 = "class/infiniband/mlx5_0/ports/1"


def frames(error):
    stack = error.find("stack")
    return [(f.findtext("obj") or "", f.findtext("fn") or "?") for f in stack.iter("frame")]


def allocator(stack):
    """The first frame outside valgrind's preload and libc: the code that allocated (or made
    the system call)."""
    for obj, fn in stack:
        base = os.path.basename(obj)
        if not base.startswith("vgpreload") and not base.startswith("libc.so"):
            return obj, fn
    return "", "?"


def ours(error):
    stack = frames(error)
    if not any(obj.endswith("/rdmakit.so") for obj, _ in stack):
        return False
    if os.path.basename(allocator(stack)[0]) == "libumad2sim.so":
        return False  # the shim's reads past its buffers and writes of stack bytes (sim/README)
    if error.findtext("kind").startswith("Leak_"):
        return allocator(stack)[0].endswith("/rdmakit.so")
    return True


def run_under_valgrind(test, daemon, exercise, env=None):
    """collectd -f under memcheck while exercise() runs, then SIGTERM to its PID; asserts a
    normal exit and no error or leak of rdmakit.so."""
    xml = os.path.join(daemon.dir, "valgrind.xml")
    proc = subprocess.Popen(
        ["valgrind", "--tool=memcheck", "--leak-check=full", "--show-leak-kinds=all",
         "--xml=yes", f"--xml-file={xml}", cdtest.COLLECTD, "-f", "-C", daemon.conf],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=daemon.dir)
    try:
        exercise()
    finally:
        proc.send_signal(signal.SIGTERM)  # the PID of valgrind is collectd's
        status = proc.wait(timeout=120)
    test.assertEqual(status, 0)
    test.assertIn("Exiting normally", daemon.log())
    tree = ET.parse(xml).getroot()
    test.assertEqual([s.findtext("state") for s in tree.iter("status")],
                     ["RUNNING", "FINISHED"])
    found = [(e.findtext("kind"), e.findtext("xwhat/text") or e.findtext("what"),
              frames(e)[:10]) for e in tree.iter("error") if ours(e)]
    test.assertEqual(found, [])


class Valgrind(unittest.TestCase):
    def test_clean_shutdown(self):
        parent = tempfile.mkdtemp(prefix="rdmakit-fixture-")
        self.addCleanup(shutil.rmtree, parent, True)
        root = cdtest.copy_fixture("ib-hdr", parent)
        block = cdtest.plugin_block(SysfsRoot=root, Port=["/^mlx5_/"],
                                    HwCounter=["out_of_buffer", "rx_read_requests"],
                                    Notifications=True)
        daemon = cdtest.Daemon(block)
        self.addCleanup(daemon.cleanup)
        run_under_valgrind(self, daemon, lambda: self.exercise(daemon, root))

    def exercise(self, daemon, root):
        def last(instance, ident):
            return daemon.last(instance, ident)

        cdtest.wait_for(lambda: last("mlx5_1-1", "gauge-state") == [4.0], 60, "first values")
        cdtest.write_attr(root, f"{PORT0}/state", "2: INIT")
        cdtest.write_attr(root, f"{PORT0}/counters/symbol_error", "4")
        cdtest.wait_for(lambda: last("mlx5_0-1", "gauge-state") == [2.0], 30, "the new state")
        device = os.path.join(root, "class/infiniband/mlx5_1")
        os.rename(device, device + ".aside")
        cdtest.wait_for(lambda: "mlx5_1: device vanished" in daemon.log(), 30, "the vanishing")
        os.rename(device + ".aside", device)
        cdtest.wait_for(lambda: "mlx5_1: device is back" in daemon.log(), 30, "the return")
        rows = len(daemon.rows("mlx5_1-1", "gauge-state"))
        cdtest.wait_for(lambda: len(daemon.rows("mlx5_1-1", "gauge-state")) > rows, 30,
                        "values of the returned device")
        seen = {(n["plugin_instance"], n["severity"]) for n in daemon.notifications()}
        self.assertLessEqual({("mlx5_0-1", "WARNING"), ("mlx5_1", "FAILURE"), ("mlx5_1", "OKAY")},
                             seen)
        time.sleep(1)


class FabricValgrind(unittest.TestCase):
    """The fabric and SM modes on a simulated fabric: discoveries, sweeps, findings that come
    and go, an SM that stops, a rediscovery, then SIGTERM."""

    def test_clean_shutdown_of_fabric_and_sm_modes(self):
        tmp = tempfile.mkdtemp(prefix="rdmakit-sim-")
        self.addCleanup(shutil.rmtree, tmp, True)
        net = simlib.generate(os.path.join(tmp, "ft.net"), leaves=2, hosts=2, spines=1, radix=4,
                              slow=["Leaf1:2=4xSDR"])
        name_map = os.path.join(tmp, "map")
        with open(name_map, "w") as f:
            f.write('0x0002c90200100001 "leaf one"\n')
        sim = simlib.Sim(f"rkcdv{os.getpid()}", net, tmp).__enter__()
        self.addCleanup(sim.__exit__, None, None, None)
        sim.opensm("Hca1", 10)
        sim.opensm("Hca2", 5)
        block = cdtest.plugin_block(SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True,
                                    SubnetManager=True, FabricInterval=1, Rediscover=3,
                                    FabricPackets=True, NodeNameMap=name_map,
                                    Notifications=True)
        daemon = cdtest.Daemon(block)
        self.addCleanup(daemon.cleanup)
        self.addCleanup(sim.ctl, "reap", sim.name, check=False)
        run_under_valgrind(self, daemon, lambda: self.exercise(daemon, sim, tmp),
                           env=cdtest.sim_env(sim.name))

    def exercise(self, daemon, sim, tmp):
        def rows(ident, plugin="rdma_fabric"):
            return len(daemon.rows("", ident, plugin))

        cdtest.wait_for(lambda: rows("count-nodes") >= 2, 120, "two sweeps")
        sim.cmd('PerformanceSet "Leaf1"[1] PortCounters.SymbolErrorCounter=3')
        os.kill(sim.opensm_pid("Hca2"), signal.SIGTERM)
        cdtest.wait_for(lambda: "ERRORS_RISING leaf one[1]: cleared" in daemon.log(), 120,
                        "rising errors, then not")
        cdtest.wait_for(lambda: daemon.log().count("fabric discovered") >= 2, 120,
                        "a rediscovery")
        cdtest.wait_for(lambda: daemon.last("", "count-standbys", "rdma_sm") == [0.0], 120,
                        "the standby gone")
        seen = {(n["plugin"], n["type_instance"]) for n in daemon.notifications()}
        self.assertLessEqual({("rdma_fabric", "LINK_DEGRADED"), ("rdma_sm", "SM_NO_STANDBY")},
                             seen)


if __name__ == "__main__":
    if cdtest.SANITIZED:  # ctest counts 77 as skipped in the sanitized build only
        print("collectd_valgrind: skipped: this is the sanitized build, and valgrind cannot run "
              "a program with ASan; the normal build runs this test")
        sys.exit(77)
    unittest.main()
