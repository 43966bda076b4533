#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""A real Prometheus scraping a real collectd (rdmakit.so in host, fabric and SM mode on an
ibsim + OpenSM fabric, write_prometheus) with the shipped rules: the documented series arrive
under the collectd Hostname; nothing alerts on the healthy fabric; a counter raised on ibsim's
console, a link set to 1X width (ibportstate, a PortInfo Set) and the master OpenSM stopped make
RdmaErrorsRising, RdmaLinkDegraded, RdmaSmMasterChanged and RdmaSmNoStandby go pending and
firing in /api/v1/alerts within their `for` plus the scrape, evaluation, sweep and rediscovery
intervals; the restored link resolves its alert.

The shipped `for:` are minutes long, so the server reads a copy of the rules with every `for:`
set to FOR seconds (promtool tests the shipped file: tests/prometheus/rules_test.yml). One
ibsim, one collectd and one Prometheus for the whole file."""
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

FOR = 3              # seconds, the test copy's `for:`
SCRAPE = EVAL = 1    # seconds (promlib's config)
FABRIC_INTERVAL = 1  # seconds, FabricInterval
REDISCOVER = 2       # seconds, Rediscover: a width change is seen at a discovery
SLACK = 4            # seconds: the sim, collectd's reads (a quarter interval), a loaded machine
LEAF1 = "0x0002c90200100001"  # gen-fattree.py's GUID of Leaf1
STARTED = time.monotonic()


def stamp():
    return time.strftime("%H:%M:%S", time.gmtime()) + f" (+{time.monotonic() - STARTED:.1f} s)"


class PrometheusEndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        net = simlib.generate(os.path.join(cls.tmp.name, "ft.net"), leaves=2, hosts=2, spines=1,
                              radix=4)
        cls.sim = simlib.Sim(f"rkprom{os.getpid()}", net, cls.tmp.name).__enter__()
        cls.daemon = cls.prom = None
        try:
            cls.sim.fast_failover()
            cls.sim.opensm("Hca1", 10)
            cls.sim.opensm("Hca2", 5)
            port = cdtest.free_port()
            cls.daemon = cdtest.Daemon(cdtest.plugin_block(
                SysfsRoot=cdtest.fixture("ib-hdr"), Fabric=True, SubnetManager=True,
                FabricInterval=FABRIC_INTERVAL, Rediscover=REDISCOVER, Notifications=True),
                extra=cdtest.prometheus_block(port))
            assert cls.daemon.start(env=cdtest.sim_env(cls.sim.name)) == 0, \
                cls.daemon.start_output
            rules = os.path.join(cls.tmp.name, "rules.yml")
            cls.shipped_for = promlib.short_for_rules(rules, FOR)
            cls.prom = promlib.Prometheus([f"127.0.0.1:{port}"], rules)
            cls.prom.start()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if cls.prom:
            cls.prom.cleanup()
        if cls.daemon:
            cls.daemon.cleanup()
        cls.sim.ctl("reap", cls.sim.name, check=False)
        cls.sim.__exit__(None, None, None)
        cls.tmp.cleanup()
        print(f"test_e2e: {time.monotonic() - STARTED:.1f} s in all", file=sys.stderr)

    def wait_series(self, expr, timeout=20):
        return cdtest.wait_for(lambda: self.prom.query(expr), timeout, expr)

    def pending_then_firing(self, name, since, budget, match=None):
        """The alert goes pending, then firing, within budget seconds of since; returns the
        firing alert. An alert without `for` goes straight to firing."""
        waits = self.shipped_for.get(name) is not None
        if waits:
            _, pending_at = promlib.wait_alert(self.prom, name, "pending", budget, match)
            print(f"{name} pending at {stamp()}, {pending_at - since:.1f} s after the change",
                  file=sys.stderr)
        alert, firing_at = promlib.wait_alert(self.prom, name, "firing", budget + FOR, match)
        took = firing_at - since
        print(f"{name} firing at {stamp()}, {took:.1f} s after the change "
              f"(budget {budget + (FOR if waits else 0)} s)", file=sys.stderr)
        self.assertLessEqual(took, budget + (FOR if waits else 0))
        return alert

    def test_1_series_and_a_healthy_fabric(self):
        want = {
            'collectd_rdma_fabric_count{rdma_fabric="swept_ports"}': 16,
            'collectd_rdma_fabric_count{rdma_fabric="links"}': 8,
            'collectd_rdma_fabric_count{rdma_fabric="degraded_links"}': 0,
            'collectd_rdma_sm_count{rdma_sm="masters"}': 1,
            'collectd_rdma_sm_count{rdma_sm="standbys"}': 1,
            'collectd_rdma_gauge{rdma="mlx5_0-1",type="state"}': 4,
        }
        for expr, value in want.items():
            cdtest.wait_for(lambda: [v for _, v in self.prom.query(expr)] == [value], 20,
                            f"{expr} = {value}")
            labels = self.prom.query(expr)[0][0]
            self.assertEqual(labels["instance"], cdtest.HOST, labels)  # honor_labels
        for expr in ("collectd_rdma_fabric_if_octets_rx_total",
                     "collectd_rdma_fabric_duration_seconds",
                     'collectd_rdma_sm_gauge{rdma_sm="master_lid"}',
                     'collectd_rdma_sm_derive_total{rdma_sm="master_activity_count"}',
                     'collectd_rdma_derive_total{type="symbol_error"}',
                     "collectd_rdma_if_octets_tx_total"):
            self.wait_series(expr)
        self.assertEqual(len(self.prom.query("collectd_rdma_fabric_if_octets_rx_total")), 16)
        worst = self.wait_series("rdmakit:host_worst_finding:severity")
        self.assertEqual(worst, [({"__name__": "rdmakit:host_worst_finding:severity",
                                   "instance": cdtest.HOST}, 0.0)])
        time.sleep(FOR + SCRAPE + EVAL)
        self.assertEqual(self.prom.alerts(), [])

    def test_2_counter_raised(self):
        # a fabric error counter has a series from the first sweep that sees it count: the
        # second raise is the rise the rate sees
        self.sim.cmd(f'PerformanceSet "Leaf1"[1] PortCounters.SymbolErrorCounter=5')
        self.wait_series(f'collectd_rdma_fabric_derive_total{{rdma_fabric="{LEAF1}-1"}} == 5')
        time.sleep(2 * SCRAPE)
        self.sim.cmd(f'PerformanceSet "Leaf1"[1] PortCounters.SymbolErrorCounter=25')
        since = time.monotonic()
        alert = self.pending_then_firing("RdmaErrorsRising", since,
                                         FABRIC_INTERVAL + SCRAPE + EVAL + SLACK,
                                         {"rdma_fabric": f"{LEAF1}-1"})
        self.assertEqual(alert["labels"]["code"], "ERRORS_RISING")
        self.assertEqual(alert["labels"]["severity"], "warning")
        rate = self.prom.query(f'rdmakit:fabric_port_errors:rate5m{{rdma_fabric="{LEAF1}-1"}}')
        self.assertGreater(rate[0][1], 0)

    def test_3_link_degraded_and_restored(self):
        lid = self.sim.lid("Leaf2")
        out = self.sim.run("ibportstate", str(lid), "3", "width", "1", timeout=20)
        self.assertIn("LinkWidthActive:.................1X", out.stdout, out.stderr)
        since = time.monotonic()
        budget = REDISCOVER + FABRIC_INTERVAL + SCRAPE + EVAL + SLACK
        alert = self.pending_then_firing("RdmaLinkDegraded", since, budget)
        self.assertEqual(alert["labels"]["instance"], cdtest.HOST)
        self.assertEqual(float(alert["value"]), 1.0)
        worst = self.prom.query("rdmakit:host_worst_finding:severity")
        self.assertEqual(worst[0][1], 1.0)
        # 4X again (LinkWidthEnabled 2): the alert resolves
        out = self.sim.run("ibportstate", str(lid), "3", "width", "2", timeout=20)
        self.assertIn("LinkWidthActive:.................4X", out.stdout, out.stderr)
        since = time.monotonic()
        cdtest.wait_for(lambda: not self.prom.alerts("RdmaLinkDegraded"), budget,
                        "RdmaLinkDegraded to resolve")
        print(f"RdmaLinkDegraded resolved at {stamp()}, {time.monotonic() - since:.1f} s "
              "after the link was restored", file=sys.stderr)

    def test_4_master_stopped(self):
        master = self.prom.query('collectd_rdma_sm_gauge{rdma_sm="master_lid"}')[0][1]
        self.assertEqual(master, float(self.sim.lid("host1 HCA-1")))
        standby = float(self.sim.lid("host2 HCA-1"))
        pid = self.sim.opensm_pid()
        os.kill(pid, signal.SIGTERM)
        since = time.monotonic()
        cdtest.wait_for(lambda: not os.path.exists(f"/proc/{pid}"), 15, "the master OpenSM")
        # the standby takes over after 2 lost polls of 500 ms (fast_failover)
        budget = 3 + REDISCOVER + FABRIC_INTERVAL + SCRAPE + EVAL + SLACK
        self.pending_then_firing("RdmaSmMasterChanged", since, budget)
        new = self.prom.query('collectd_rdma_sm_gauge{rdma_sm="master_lid"}')[0][1]
        self.assertEqual(new, standby)
        alert = self.pending_then_firing("RdmaSmNoStandby", since, budget)
        self.assertEqual(alert["labels"]["severity"], "warning")


if __name__ == "__main__":
    unittest.main(verbosity=2)
