# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Network namespaces for the pipeline tests: one namespace per node, each with a veth whose
other end is on a bridge in a namespace of its own, so the nodes reach each other and nothing
else (link-local IPv4 addresses, 169.254.77.0/24, on that bridge only; no route leaves it).
Needs root and iproute2. Every namespace is deleted by cleanup()."""
import os
import subprocess

SUBNET = "169.254.77"


def ip(*args, check=True):
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


def available():
    """None when namespaces can be made here, else why not."""
    if os.geteuid() != 0:
        return "not root"
    name = f"rkprobe{os.getpid()}"
    made = ip("netns", "add", name, check=False)
    if made.returncode != 0:
        return f"ip netns add: {made.stderr.strip()}"
    ip("netns", "del", name, check=False)
    return None


class Fabric:
    """A bridge namespace and the nodes' namespaces, named PREFIX-NAME; node i gets
    169.254.77.(i + 1) in the order add() was called."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.bridge = f"{prefix}-br"
        self.nodes = {}
        ip("netns", "add", self.bridge)
        ip("-n", self.bridge, "link", "add", "br0", "type", "bridge")
        ip("-n", self.bridge, "link", "set", "br0", "up")

    def add(self, name):
        """A node's namespace with lo and eth0 up; returns its address."""
        ns = f"{self.prefix}-{name}"
        address = f"{SUBNET}.{len(self.nodes) + 1}"
        veth = f"v{len(self.nodes)}"
        ip("netns", "add", ns)
        self.nodes[name] = (ns, address)
        ip("-n", self.bridge, "link", "add", veth, "type", "veth", "peer", "name", "eth0",
           "netns", ns)
        ip("-n", self.bridge, "link", "set", veth, "master", "br0", "up")
        ip("-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
        ip("-n", ns, "link", "set", "eth0", "up")
        ip("-n", ns, "link", "set", "lo", "up")
        return address

    def ns(self, name):
        return self.nodes[name][0]

    def address(self, name):
        return self.nodes[name][1]

    def prefix_of(self, name):
        """The command prefix that runs a program in node name's namespace."""
        return ["ip", "netns", "exec", self.ns(name)]

    def run(self, name, *args, timeout=30):
        return subprocess.run([*self.prefix_of(name), *args], capture_output=True, text=True,
                              timeout=timeout)

    def cleanup(self):
        for ns, _ in self.nodes.values():
            ip("netns", "del", ns, check=False)
        ip("netns", "del", self.bridge, check=False)
        self.nodes = {}
