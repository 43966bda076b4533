#!/usr/bin/env python3
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
import tempfile
import time
import unittest
import xml.etree.ElementTree as ET

import cdtest

PORT0 = "class/infiniband/mlx5_0/ports/1"


def frames(error):
    stack = error.find("stack")
    return [(f.findtext("obj") or "", f.findtext("fn") or "?") for f in stack.iter("frame")]


def allocator(stack):
    """The first frame outside valgrind's preload and libc: the code that allocated."""
    for obj, fn in stack:
        base = os.path.basename(obj)
        if not base.startswith("vgpreload") and not base.startswith("libc.so"):
            return obj, fn
    return "", "?"


def ours(error):
    stack = frames(error)
    if not any(obj.endswith("/rdmakit.so") for obj, _ in stack):
        return False
    if error.findtext("kind").startswith("Leak_"):
        return allocator(stack)[0].endswith("/rdmakit.so")
    return True


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
        xml = os.path.join(daemon.dir, "valgrind.xml")
        proc = subprocess.Popen(
            ["valgrind", "--tool=memcheck", "--leak-check=full", "--show-leak-kinds=all",
             "--xml=yes", f"--xml-file={xml}", cdtest.COLLECTD, "-f", "-C", daemon.conf],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self.exercise(daemon, root)
        finally:
            proc.send_signal(signal.SIGTERM)  # the PID of valgrind is collectd's
            status = proc.wait(timeout=120)
        self.assertEqual(status, 0)
        self.assertIn("Exiting normally", daemon.log())
        tree = ET.parse(xml).getroot()
        self.assertEqual([s.findtext("state") for s in tree.iter("status")],
                         ["RUNNING", "FINISHED"])
        found = [(e.findtext("kind"), e.findtext("xwhat/text") or e.findtext("what"),
                  frames(e)[:10]) for e in tree.iter("error") if ours(e)]
        self.assertEqual(found, [])

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


if __name__ == "__main__":
    unittest.main()
