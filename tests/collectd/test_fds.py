#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real collectd with rdmakit.so on a generated 64-port host (thousands of attributes held
open), the unixsock and network plugins loaded: the attributes sit at descriptor 1024 and
above, collectd's sockets below 1024, and both plugins still answer (unixsock lists the
values, the network plugin receives a value sent to it)."""
import os
import socket
import struct
import subprocess
import tempfile
import time
import unittest

import cdtest
from rktest import wait_for

PORTS = 64
FLOOR = 1024


def part(kind, text):
    """A string part of collectd's network protocol."""
    body = text.encode() + b"\0"
    return struct.pack(">HH", kind, len(body) + 4) + body


class Descriptors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.host = os.path.join(cls.tmp.name, "host")
        subprocess.run([os.path.join(cdtest.TOP, "tests", "fixtures", "make-many-ports.sh"),
                        cls.host, str(PORTS)], check=True, capture_output=True)
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        probe.bind(("127.0.0.1", 0))
        cls.port = probe.getsockname()[1]
        probe.close()
        network = (f'LoadPlugin network\n<Plugin network>\n  Listen "127.0.0.1" "{cls.port}"\n'
                   "</Plugin>\n")
        cls.daemon = cdtest.Daemon(cdtest.plugin_block(SysfsRoot=cls.host), extra=network)
        if cls.daemon.start() != 0:
            raise AssertionError(f"collectd did not start: {cls.daemon.start_output}")

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()
        cls.daemon.cleanup()
        cls.tmp.cleanup()

    def descriptors(self):
        fds = {}
        for name in os.listdir(f"/proc/{self.daemon.pid}/fd"):
            try:
                fds[int(name)] = os.readlink(f"/proc/{self.daemon.pid}/fd/{name}")
            except FileNotFoundError:
                pass
        return fds

    def test_attributes_above_the_floor_sockets_below(self):
        fds = self.descriptors()
        attrs = [fd for fd, target in fds.items() if target.startswith(self.host + "/")]
        sockets = [fd for fd, target in fds.items() if target.startswith("socket:")]
        self.assertGreater(len(attrs), FLOOR)
        self.assertGreaterEqual(min(attrs), FLOOR)
        self.assertGreaterEqual(len(sockets), 2, "unixsock's and the network plugin's")
        self.assertLess(max(sockets), FLOOR)

    def test_unixsock_and_network_still_answer(self):
        wait_for(lambda: "rdma-mlx5_63-1/" in self.daemon.collectdctl("listval"), 10,
                 "unixsock listing the last port's values")
        # collectd's binary protocol: host, time (s), plugin and type parts, one gauge.
        stamp = struct.pack(">HHQ", 0x0001, 12, int(time.time()))
        value = struct.pack(">HHHB", 0x0006, 15, 1, 1) + struct.pack("<d", 42.0)
        packet = (part(0x0000, "netpeer") + stamp + part(0x0002, "fdtest") +
                  part(0x0004, "gauge") + value)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.sendto(packet, ("127.0.0.1", self.port))
        wait_for(lambda: "netpeer/fdtest/gauge" in self.daemon.collectdctl("listval"), 10,
                 "the value sent to the network plugin")


if __name__ == "__main__":
    unittest.main(verbosity=2)
