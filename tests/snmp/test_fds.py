#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit-agentx on a generated host of 64 ports (thousands of sysfs attributes held open) with
a real snmpd: the attribute descriptors sit at 1024 and above, net-snmp's sockets below 1024
(where agent_check_and_process() selects on a plain fd_set). Under a hard descriptor limit of
1024 it says clearly that it cannot keep them apart, and still serves the same values. Its main
loop hands a request's internal hops on without a select() each: one select() per request."""
import os
import re
import shutil
import signal
import subprocess
import tempfile
import unittest

import snmptest
from snmptest import Setup

PORTS = 64
FLOOR = 1024
COUNTERS = snmptest.ROOT_OID + ".1.2.3"  # rdmakitPortCounterTable


def descriptors(pid):
    """{fd: link target} of a running process."""
    out = {}
    for name in os.listdir(f"/proc/{pid}/fd"):
        try:
            out[int(name)] = os.readlink(f"/proc/{pid}/fd/{name}")
        except FileNotFoundError:
            pass  # closed meanwhile
    return out


class DescriptorFloor(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.host = os.path.join(cls.tmp.name, "host")
        subprocess.run([os.path.join(snmptest.TOP, "tests", "fixtures", "make-many-ports.sh"),
                        cls.host, str(PORTS)], check=True, capture_output=True)
        cls.roomy = Setup(cls.host, config="refresh 1\n")
        cls.tight = Setup(cls.host, config="refresh 1\n")
        cls.tight.agent.args[:0] = ["prlimit", f"--nofile={FLOOR}:{FLOOR}"]
        cls.roomy.__enter__()
        try:
            cls.tight.__enter__()
        except BaseException:
            cls.roomy.__exit__(None, None, None)
            raise

    @classmethod
    def tearDownClass(cls):
        cls.tight.__exit__(None, None, None)
        cls.roomy.__exit__(None, None, None)
        cls.tmp.cleanup()

    def split(self, setup):
        """(attribute fds, socket fds) of a subagent."""
        fds = descriptors(setup.agent.proc.pid)
        attrs = [fd for fd, target in fds.items() if target.startswith(self.host + "/")]
        sockets = [fd for fd, target in fds.items() if target.startswith("socket:")]
        return attrs, sockets

    def test_attributes_above_the_floor_and_sockets_below_it(self):
        attrs, sockets = self.split(self.roomy)
        self.assertGreater(len(attrs), FLOOR, "a host this size holds more than 1024 attributes")
        self.assertGreaterEqual(min(attrs), FLOOR)
        self.assertTrue(sockets, "the AgentX session is a socket")
        self.assertLess(max(sockets), FLOOR)
        self.assertNotIn("leaves no room", self.roomy.agent.log())

    def test_a_low_limit_is_said_and_the_tables_are_the_same(self):
        log = self.tight.agent.log()
        self.assertIn(f"leaves no room above descriptor {FLOOR}", log)
        self.assertIn("descriptor budget of", log)  # the rest is read by path
        attrs, sockets = self.split(self.tight)
        self.assertLess(max(attrs), FLOOR)
        self.assertLess(max(sockets), FLOOR)
        roomy = self.roomy.walk(COUNTERS, bulk=True)
        self.assertGreater(len(roomy), PORTS * 20)
        self.assertEqual(self.tight.walk(COUNTERS, bulk=True), roomy)


    @unittest.skipUnless(shutil.which("strace"), "strace not installed")
    def test_one_select_per_request(self):
        """A GETNEXT walk, one AgentX request per varbind, under strace -c of the main thread:
        net-snmp's own loop selects three times per request (the AgentX socket, then each
        callback pipe), rdmakit-agentx's about once."""
        counts = os.path.join(self.tmp.name, "strace.txt")
        strace = subprocess.Popen(["strace", "-c", "-o", counts, "-e",
                                   "trace=select,pselect6,poll,ppoll",
                                   "-p", str(self.roomy.agent.proc.pid)],
                                  stderr=subprocess.PIPE, text=True)
        try:
            self.assertIn("attached", strace.stderr.readline())
            walked = self.roomy.walk(COUNTERS)
        finally:
            strace.send_signal(signal.SIGINT)
            strace.wait(30)
        self.assertEqual(walked, self.roomy.walk(COUNTERS, bulk=True))
        with open(counts) as f:
            calls = {m.group(2): int(m.group(1)) for m in
                     re.finditer(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$",
                                 f.read(), re.M)}
        calls.pop("total", None)
        selects = sum(calls.values())
        self.assertGreater(len(walked), PORTS * 20)
        self.assertLess(selects, 1.3 * len(walked), calls)
        self.assertGreater(selects, 0.9 * len(walked), calls)


if __name__ == "__main__":
    unittest.main(verbosity=2)
