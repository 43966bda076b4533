#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""One active fabric watcher per subnet, seen by a real Prometheus scraping two real collectds
(rdmakit.so, Fabric true, FabricRole auto, the same FabricHost; write_prometheus) on two nodes
of an ibsim + OpenSM fabric, with the shipped rules (every `for:` shortened to FOR seconds):

- one series per fabric port and fact, under the subnet's name, whichever watcher is active;
  each watcher's watcher_active under its own Hostname (1 and 0);
- kill -9 of the active one: the standby takes over and the fabric's series are the same
  label sets as before (no new series), fed again;
- both watchers stopped: RdmaNoActiveWatcher goes firing; one started again: it resolves, and
  that one becomes active alone.
One ibsim, one Prometheus, the two collectds for the whole file."""
import os
import signal
import sys
import tempfile
import time
import unittest

import promlib
from promlib import cdtest

sys.path.insert(0, os.path.join(cdtest.TOP, "tests", "sim"))
import simlib  # noqa: E402

FOR = 3  # seconds, the test copy's `for:`
INTERVAL, LEASE = 2, 6  # FabricInterval, FabricLease
SUBNET = "ib-subnet0"
PORTS = 'collectd_rdma_fabric_if_octets_rx_total'
ROLE = 'collectd_rdma_fabric_gauge{rdma_fabric="watcher_active"}'
STARTED = time.monotonic()


def label_sets(result):
    return sorted(tuple(sorted(labels.items())) for labels, _ in result)


class WatchersInPrometheus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), leaves=2, hosts=2,
                              spines=1, radix=4)
        cls.sim = simlib.Sim(f"rkpromw{os.getpid()}", net, cls.tmp.name).__enter__()
        cls.daemons, cls.ports, cls.prom = {}, {}, None
        try:
            cls.sim.opensm("Hca1", 10)
            for name in ("wa", "wb"):
                cls.ports[name] = cdtest.free_port()
                cls.start_watcher(name)
            rules = os.path.join(cls.tmp.name, "rules.yml")
            promlib.short_for_rules(rules, FOR)
            cls.prom = promlib.Prometheus([f"127.0.0.1:{p}" for p in cls.ports.values()], rules)
            cls.prom.start()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def start_watcher(cls, name):
        host, priority = {"wa": ("Hca3", 200), "wb": ("Hca4", 100)}[name]
        daemon = cdtest.Daemon(cdtest.plugin_block(
            SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True, FabricInterval=INTERVAL,
            Events=False, FabricLease=LEASE, FabricPriority=priority, FabricHost=SUBNET),
            hostname=name, extra=cdtest.prometheus_block(cls.ports[name]))
        env = dict(cdtest.sim_env(cls.sim.name), SIM_HOST=host)
        assert daemon.start(env=env, expect_values=False) == 0, daemon.start_output
        cls.daemons[name] = daemon

    @classmethod
    def tearDownClass(cls):
        if cls.prom:
            cls.prom.cleanup()
        for daemon in cls.daemons.values():
            daemon.cleanup()
        cls.sim.ctl("reap", cls.sim.name, check=False)
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()
        print(f"test_watchers_e2e: {time.monotonic() - STARTED:.1f} s in all", file=sys.stderr)

    def roles(self):
        """{Hostname: watcher_active} of the watchers whose last value is fresh (collectd
        stamps its samples, so a stopped one's last value stays in instant queries)."""
        fresh = self.prom.query(f"{ROLE} and on (instance) "
                                f"(time() - timestamp({ROLE}) < {2 * INTERVAL + 3})")
        return {labels["instance"]: value for labels, value in fresh}

    def test_1_takeover_keeps_the_series(self):
        cdtest.wait_for(lambda: self.roles() == {"wa": 1.0, "wb": 0.0}, 40,
                        f"wa active, wb standby in Prometheus: {self.roles()}")
        cdtest.wait_for(lambda: len(self.prom.query(PORTS)) == 16, 30, "every port's series")
        before = label_sets(self.prom.query(PORTS))
        self.assertEqual({dict(s)["instance"] for s in before}, {SUBNET})
        swept = self.prom.query('collectd_rdma_fabric_count{rdma_fabric="swept_ports"}')
        self.assertEqual([(labels["instance"], value) for labels, value in swept],
                         [(SUBNET, 16.0)])
        daemon = self.daemons["wa"]
        os.kill(daemon.pid, signal.SIGKILL)
        cdtest.wait_for(lambda: not daemon.running(), 10, "wa to die")
        daemon.pid = None
        self.sim.ctl("reap", self.sim.name, check=False)
        killed = time.monotonic()
        cdtest.wait_for(lambda: self.roles() == {"wb": 1.0}, 2 * INTERVAL + LEASE + 10,
                        f"wb active in Prometheus: {self.roles()}")
        print(f"wb active in Prometheus {time.monotonic() - killed:.1f} s after kill -9",
              file=sys.stderr)
        fed_after = time.time()
        cdtest.wait_for(lambda: all(float(v) > fed_after for v in self.sample_times()), 20,
                        "every port's series fed by wb")
        self.assertEqual(label_sets(self.prom.query(PORTS)), before)

    def sample_times(self):
        data = self.prom.get("/api/v1/query", query=f"timestamp({PORTS})")
        return [s["value"][1] for s in data["result"]] or ["0"]

    def test_2_no_active_watcher_fires_and_resolves(self):
        for daemon in self.daemons.values():
            daemon.stop()
        self.sim.ctl("reap", self.sim.name, check=False)
        promlib.wait_alert(self.prom, "RdmaNoActiveWatcher", "firing", FOR + 15)
        alert = self.prom.alerts("RdmaNoActiveWatcher")[0]
        self.assertEqual(alert["labels"]["job"], "collectd")
        self.start_watcher("wa")
        cdtest.wait_for(lambda: not self.prom.alerts("RdmaNoActiveWatcher"), LEASE + 30,
                        "RdmaNoActiveWatcher resolved")
        cdtest.wait_for(lambda: self.roles() == {"wa": 1.0}, LEASE + 20,
                        f"wa, alone, active: {self.roles()}")
        time.sleep(FOR + 2)
        self.assertEqual(self.prom.alerts("RdmaNoActiveWatcher"), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
