#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Many nodes into one aggregator through collectd's own network plugin, signed.

Network namespaces on one bridge (tests/pipeline/netns.py): 8 compute nodes, each a collectd
with rdmakit.so in host mode on its own copy of a fixture tree (a different fixture each, its
symbol_error set to a value of its own) and its own Hostname; one management node in fabric
and SM mode on an ibsim + OpenSM fabric (ibsim's sockets are abstract unix sockets, which are
per network namespace, so the sim and its OpenSM run in the management node's namespace too);
one aggregating collectd in a namespace of its own that receives with `SecurityLevel Sign`
and an AuthFile and writes csv and write_prometheus; and one collectd that signs with a wrong
password and one that does not sign. Asserts: each node's values arrive under its Hostname with its own values; a node's
and the management node's notifications arrive; nothing is counted twice; a stopped node goes
absent; the unsigned-for packets are refused. One aggregator for the file; label pipeline.
Needs root (exits 77 without it)."""
import glob
import os
import re
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "collectd"))
import cdtest  # noqa: E402
import netns  # noqa: E402

sys.path.insert(0, os.path.join(cdtest.TOP, "tests", "sim"))
import simlib  # noqa: E402

FIXTURES = ["ib-hdr", "ib-xdr", "degraded-rate", "fw-mismatch", "hfi1", "no-sm", "pcie-slow",
            "pcie-x8"]
NODES = [f"node{i + 1:02d}" for i in range(len(FIXTURES))]
PORT = 25826             # the network plugin's port on the aggregator
PROM_PORT = 9103         # write_prometheus on the aggregator, inside its namespace
STARTED = time.monotonic()
SCRAPE = ("import sys, urllib.request; sys.stdout.write(urllib.request.urlopen("
          f"'http://127.0.0.1:{PROM_PORT}/metrics', timeout=5).read().decode())")


def symbol_errors(i):
    """The value node i's fixture copy holds in its first port's symbol_error."""
    return 1000 + 17 * i


def client_block(server, user, password):
    """The network plugin of a node: sends to the aggregator, signed as user."""
    return f"""LoadPlugin network
<Plugin network>
  <Server "{server}" "{PORT}">
    SecurityLevel Sign
    Username "{user}"
    Password "{password}"
  </Server>
  ReportStats false
</Plugin>
"""


class NsSim(simlib.Sim):
    """The simulated fabric, its OpenSMs and clients in one network namespace."""

    def __init__(self, prefix, *args):
        super().__init__(*args)
        self.prefix = prefix

    def ctl(self, *args, timeout=120, check=True, env=None):
        proc = simlib.subprocess.run([*self.prefix, simlib.SIMCTL, *args], capture_output=True,
                                     text=True, timeout=timeout, env=env or self.env)
        if check and proc.returncode != 0:
            raise RuntimeError(f"simctl {' '.join(args)}: {proc.stderr}")
        return proc


class NetworkAggregation(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        why = netns.available()
        if why:
            print(f"test_network: skipped: {why}", file=sys.stderr)
            sys.exit(77)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.daemons, cls.sim = {}, None
        cls.fab = netns.Fabric(f"rk{os.getpid()}")
        try:
            cls.start_all()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def start_all(cls):
        fab, tmp = cls.fab, cls.tmp.name
        server = fab.add("agg")
        auth = os.path.join(tmp, "auth")
        with open(auth, "w") as f:
            f.writelines(f"{name}: secret-{name}\n" for name in NODES + ["mgmt"])
        agg = cdtest.Daemon(None, hostname="aggregator", extra=f"""LoadPlugin network
<Plugin network>
  <Listen "{server}" "{PORT}">
    SecurityLevel Sign
    AuthFile "{auth}"
  </Listen>
  Forward false
  ReportStats false
</Plugin>
{cdtest.prometheus_block(PROM_PORT)}""")
        cls.daemons["agg"] = agg
        assert agg.start(expect_values=False, prefix=fab.prefix_of("agg")) == 0, agg.start_output

        fab.add("mgmt")
        net = simlib.generate(os.path.join(tmp, "ft.net"), leaves=2, hosts=2, spines=1, radix=4)
        cls.sim = NsSim(fab.prefix_of("mgmt"), f"rknet{os.getpid()}", net, tmp).__enter__()
        cls.sim.opensm("Hca1", 10)
        mgmt = cdtest.Daemon(cdtest.plugin_block(
            SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True, SubnetManager=True,
            FabricInterval=1, Notifications=True), hostname="mgmt",
            extra=client_block(server, "mgmt", "secret-mgmt"))
        cls.daemons["mgmt"] = mgmt
        assert mgmt.start(env=cdtest.sim_env(cls.sim.name), prefix=fab.prefix_of("mgmt")) == 0, \
            mgmt.start_output

        cls.roots = {}
        for i, (name, fixture) in enumerate(zip(NODES, FIXTURES)):
            fab.add(name)
            root = cdtest.copy_fixture(fixture, os.path.join(tmp, name))
            cls.roots[name] = root
            cdtest.write_attr(root, cls.first_port(root) + "/counters/symbol_error",
                              str(symbol_errors(i)))
            node = cdtest.Daemon(cdtest.plugin_block(SysfsRoot=root, Notifications=True),
                                 hostname=name,
                                 extra=client_block(server, name, f"secret-{name}"))
            cls.daemons[name] = node
            assert node.start(prefix=fab.prefix_of(name)) == 0, node.start_output

        # one signs as node01 with the wrong password, one does not sign
        for name, extra in (("rogue", client_block(server, "node01", "guess")),
                            ("plain", f'LoadPlugin network\n<Plugin network>\n  Server "{server}" '
                                      f'"{PORT}"\n</Plugin>\n')):
            fab.add(name)
            rogue = cdtest.Daemon(cdtest.plugin_block(SysfsRoot=cdtest.fixture("ib-hdr")),
                                  hostname=name, extra=extra)
            cls.daemons[name] = rogue
            assert rogue.start(prefix=fab.prefix_of(name)) == 0, rogue.start_output
        print(f"test_network: {len(cls.daemons)} collectds in {len(fab.nodes)} namespaces "
              f"started in {time.monotonic() - STARTED:.1f} s", file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        for daemon in cls.daemons.values():
            daemon.cleanup()
        if cls.sim:
            cls.sim.ctl("reap", cls.sim.name, check=False)
            cls.sim.__exit__(None, None, None)
        cls.fab.cleanup()
        cls.tmp.cleanup()
        print(f"test_network: {time.monotonic() - STARTED:.1f} s in all", file=sys.stderr)

    @staticmethod
    def first_port(root):
        """The relative path of the fixture's first port ("class/infiniband/mlx5_0/ports/1")."""
        ports = sorted(glob.glob(os.path.join(root, "class", "infiniband", "*", "ports", "*")))
        return os.path.relpath(ports[0], root)

    @classmethod
    def instance(cls, name):
        """The plugin instance of a node's first port ("mlx5_0-1")."""
        parts = cls.first_port(cls.roots[name]).split("/")
        return f"{parts[2]}-{parts[4]}"

    @property
    def agg(self):
        return self.daemons["agg"]

    def scrape(self):
        out = self.fab.run("agg", sys.executable, "-c", SCRAPE)
        self.assertEqual(out.returncode, 0, out.stderr)
        return cdtest.parse_exposition(out.stdout)

    def hosts_scraped(self):
        return {dict(labels).get("instance") for _, labels in self.scrape()}

    def agg_files(self, host):
        """{(plugin dir, file key)} of host's csv files at the aggregator."""
        found = set()
        base = self.agg.host_dir(host)
        for plugin_dir in os.listdir(base) if os.path.isdir(base) else []:
            for name in os.listdir(os.path.join(base, plugin_dir)):
                found.add((plugin_dir, re.sub(r"-\d{4}-\d{2}-\d{2}$", "", name)))
        return found

    def own_files(self, name):
        node = self.daemons[name]
        found = set()
        for plugin_dir in os.listdir(node.host_dir()):
            for f in os.listdir(os.path.join(node.host_dir(), plugin_dir)):
                found.add((plugin_dir, re.sub(r"-\d{4}-\d{2}-\d{2}$", "", f)))
        return found

    def agg_last(self, host, plugin_dir, key):
        """The last row of host's value at the aggregator (the csv plugin's own reader)."""
        plugin, _, instance = plugin_dir.partition("-")
        saved = self.agg.hostname
        self.agg.hostname = host
        try:
            return self.agg.last(instance, key, plugin)
        finally:
            self.agg.hostname = saved

    def test_1_each_node_under_its_hostname_with_its_values(self):
        cdtest.wait_for(lambda: set(NODES) | {"mgmt"} <= set(os.listdir(self.agg.csvdir)), 20,
                        "every node at the aggregator")
        for i, name in enumerate(NODES):
            own = self.own_files(name)
            cdtest.wait_for(lambda: own <= self.agg_files(name), 20, f"{name}'s values")
            port = "rdma-" + self.instance(name)
            cdtest.wait_for(lambda: self.agg_last(name, port, "derive-symbol_error"), 10,
                            f"{name}'s symbol_error")
            self.assertEqual(self.agg_last(name, port, "derive-symbol_error"),
                             [symbol_errors(i)], name)
            # every counter of the (static) fixture as the node read it
            for plugin_dir, key in own:
                if key.startswith(("derive-", "if_octets", "if_packets")):
                    mine = self.daemons[name].last(plugin_dir.partition("-")[2], key,
                                                   plugin_dir.partition("-")[0])
                    self.assertEqual(self.agg_last(name, plugin_dir, key), mine,
                                     (name, plugin_dir, key))
        series = self.scrape()
        for i, name in enumerate(NODES):
            key = ("collectd_rdma_derive_total", frozenset(
                {("rdma", self.instance(name)), ("type", "symbol_error"), ("instance", name)}))
            self.assertEqual(series.get(key), symbol_errors(i), name)
        swept = ("collectd_rdma_fabric_count",
                 frozenset({("rdma_fabric", "swept_ports"), ("instance", "mgmt")}))
        cdtest.wait_for(lambda: self.scrape().get(swept) == 16, 10, "mgmt's swept_ports")

    def test_2_nothing_counted_twice(self):
        name = NODES[0]
        time.sleep(3)
        node_rows = self.daemons[name].rows(self.instance(name), "if_octets")
        agg_rows = []
        saved, self.agg.hostname = self.agg.hostname, name
        try:
            agg_rows = self.agg.rows(self.instance(name), "if_octets")
        finally:
            self.agg.hostname = saved
        epochs = [r[0] for r in agg_rows]
        self.assertEqual(epochs, sorted(set(epochs)), "a value list written twice")
        # the aggregator has no row the node did not read itself
        self.assertTrue(set(epochs) <= {r[0] for r in node_rows})
        # one series per value list and host: a node's series count at the aggregator is the
        # number of data sources it wrote itself
        own = self.own_files(name)
        pairs = sum(2 if key.startswith(("if_octets", "if_packets")) else 1 for _, key in own)
        scraped = [k for k in self.scrape() if ("instance", name) in k[1]]
        self.assertEqual(len(scraped), pairs)
        # Forward false: the aggregator sends nothing on, and has no values of its own
        self.assertNotIn("aggregator", os.listdir(self.agg.csvdir))

    def test_3_notifications_arrive(self):
        def notes(**match):
            return [n for n in self.agg.notifications()
                    if all(n.get(k) == v for k, v in match.items())]
        cdtest.wait_for(lambda: notes(host="mgmt", type_instance="SM_NO_STANDBY"), 20,
                        "mgmt's SM_NO_STANDBY at the aggregator")
        name = NODES[2]
        port = self.first_port(self.roots[name])
        cdtest.write_attr(self.roots[name], port + "/state", "1: DOWN")
        cdtest.write_attr(self.roots[name], port + "/phys_state", "3: Disabled")
        found = cdtest.wait_for(lambda: notes(host=name, type_instance="state"), 20,
                                f"{name}'s port DOWN at the aggregator")
        self.assertEqual(found[0]["severity"], "FAILURE", found)
        self.assertEqual(found[0]["plugin_instance"], self.instance(name))
        self.assertEqual(len(notes(host=name, type_instance="state")), 1)

    def test_4_a_stopped_node_goes_absent(self):
        name = NODES[-1]
        self.assertIn(name, self.hosts_scraped())
        self.daemons[name].stop()
        stopped = time.monotonic()
        cdtest.wait_for(lambda: name not in self.hosts_scraped(), 20,
                        f"{name} to go absent from the aggregator")
        print(f"test_network: {name} absent {time.monotonic() - stopped:.1f} s after its "
              "collectd stopped", file=sys.stderr)
        self.assertTrue(set(NODES[:-1]) | {"mgmt"} <= self.hosts_scraped())

    def test_5_a_wrong_key_is_refused(self):
        time.sleep(2)
        for name in ("rogue", "plain"):
            self.assertTrue(self.daemons[name].running())
            self.assertTrue(self.daemons[name].values_dirs())  # it reads, and sends
            self.assertNotIn(name, os.listdir(self.agg.csvdir))
            self.assertNotIn(name, self.hosts_scraped())
        self.assertIn("network plugin: Verifying HMAC-SHA-256 signature failed: Hash mismatch. "
                      "Username: node01", self.agg.log())
        self.assertIn("network plugin: Unsigned packet or part has been ignored.", self.agg.log())


if __name__ == "__main__":
    unittest.main(verbosity=2)
