#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""rdmakit bench client against rdmakit bench server inside one VM boot: every test, a sweep
with a plot, bidir, several QPs, a duration, and the refusals (bad test, sizes, no server, a
busy server, a port that is down, an address the server does not listen on); perftest's
ib_write_bw, ib_read_bw and ib_send_lat in the same VM."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmlib  # noqa: E402

RK = vmlib.quote(vmlib.RDMAKIT)
PORT = 20000 + os.getpid() % 10000
ADDR = "10.0.2.15"
CLIENT = "%s bench client %s --port %d" % (RK, ADDR, PORT)


def server(port, extra, name):
    return ("%s bench server --bind %s --port %d %s > /tmp/%s.log 2>&1 & echo $! > /tmp/%s.pid; "
            "for i in $(seq 100); do grep -q listening /tmp/%s.log && break; sleep 0.1; done; "
            "cat /tmp/%s.log" % (RK, ADDR, port, extra, name, name, name, name))


def perftest(tool, args, port):
    """A perftest server in the background, then its client against it. perftest measures the
    CPU's clock before it reports and refuses to report when that measure is noisy ("Can't
    produce a report", r^2 < 0.9), which a loaded TCG VM sometimes is: then both run again,
    on another port, at most 3 times in all, and the output says so."""
    return ("for a in 1 2 3; do p=$((%d + 20 * (a - 1))); %s %s -p $p > /tmp/%s.log 2>&1 & "
            "for i in $(seq 100); do ss -ltn | grep -q \":$p \" && break; sleep 0.1; done; "
            "%s %s -p $p %s > /tmp/%s.client 2>&1; rc=$?; "
            "grep -q \"Can't produce a report\" /tmp/%s.client || break; "
            "echo \"--- perftest could not measure its clock (attempt $a)\"; sleep 1; done; "
            "cat /tmp/%s.client; echo '--- server:'; cat /tmp/%s.log; exit $rc"
            % (port, tool, args, tool, tool, args, ADDR, tool, tool, tool, tool))


COMMANDS = [
    ("server", server(PORT, "", "srv")),
    ("write_bw", CLIENT + " --test write_bw --sizes 4096,65536 --iters 400 --json 2>/dev/null"),
    ("read_bw", CLIENT + " --test read_bw --iters 400 --json 2>/dev/null"),
    ("send_bw", CLIENT + " --test send_bw --iters 400 --qps 2 --size 8192 --json 2>/dev/null"),
    ("write_lat", CLIENT + " --test write_lat --iters 500 --json 2>/dev/null"),
    ("read_lat", CLIENT + " --test read_lat --iters 500 --json 2>/dev/null"),
    ("send_lat", CLIENT + " --test send_lat --iters 500 --size 64 --json 2>/dev/null"),
    ("bidir", CLIENT + " --test write_bw --bidir --iters 300 --json 2>/dev/null"),
    ("duration", CLIENT + " --test send_bw --duration 1.5 --size 4096 --json 2>/dev/null"),
    ("sweep_plot", CLIENT + " --test write_bw --sizes 2-1024 --iters 200 --plot /tmp/bw.svg "
     "> /tmp/sweep.txt 2>&1; rc=$?; cat /tmp/sweep.txt; grep -c '<svg' /tmp/bw.svg; "
     "grep -c 'link rate after encoding' /tmp/bw.svg; exit $rc"),
    ("progress_tty", "script -qec %s /dev/null" % vmlib.quote(
        CLIENT + " --test send_lat --duration 2.5 >/dev/null")),
    ("progress_pipe", CLIENT + " --test send_lat --duration 1.5 2>/tmp/e >/dev/null; cat /tmp/e"),
    ("text", CLIENT + " --test write_lat --iters 200"),
    ("wrong_test", CLIENT + " --test write_bandwidth"),
    ("size_zero", CLIENT + " --test write_bw --size 0"),
    ("size_too_big", CLIENT + " --test write_bw --size 16777216 --iters 10"),
    ("no_server", "%s bench client %s --port %d --test write_bw --iters 10 --timeout 3"
     % (RK, ADDR, PORT + 1)),
    ("unreachable", "%s bench client 10.0.2.99 --port %d --test write_bw --iters 10 --timeout 2"
     % (RK, PORT)),
    ("busy", "(%s --test send_bw --duration 5 --size 4096 >/dev/null 2>&1 &); sleep 2.5; "
     "%s --test write_bw --iters 10" % (CLIENT, CLIENT)),
    ("other_address", "ip addr add 10.0.2.16/24 dev eth0; sleep 4; %s bench client 10.0.2.16 "
     "--port %d --test write_bw --iters 10 --timeout 3" % (RK, PORT)),
    ("once", server(PORT + 2, "--once", "once") + "; %s bench client %s --port %d --test "
     "read_lat --sizes 2,64 --iters 100 > /dev/null 2>&1; echo client $?; sleep 1; "
     "kill -0 $(cat /tmp/once.pid) 2>/dev/null && echo still running || echo exited"
     % (RK, ADDR, PORT + 2)),
    ("ib_write_bw", perftest("ib_write_bw", "-s 65536 -n 500", PORT + 10)),
    ("ib_read_bw", perftest("ib_read_bw", "-s 65536 -n 500", PORT + 11)),
    ("ib_send_lat", perftest("ib_send_lat", "-s 2 -n 500", PORT + 12)),
    ("port_down", "ip link set eth0 down; " + vmlib.WAIT_DOWN + "; " + CLIENT +
     " --test write_bw --iters 10 --timeout 3"),
    ("server_log", "ip link set eth0 up; kill $(cat /tmp/srv.pid); cat /tmp/srv.log"),
]


class Bench(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        results, cls.transcript = vmlib.boot([c for _, c in COMMANDS])
        cls.r = dict(zip([n for n, _ in COMMANDS], results))
        print(cls.transcript)

    def doc(self, name):
        r = self.r[name]
        self.assertEqual(r.status, 0, r)
        doc = json.loads(r.output)
        self.assertEqual(doc["schema_version"], 1)
        ctx = doc["context"]
        self.assertEqual((ctx["device"], ctx["port"], ctx["link_layer"]),
                         ("rxe0", 1, "Ethernet"))
        self.assertEqual((ctx["gid_type"], ctx["mtu_bytes"]), ("RoCE v2", 1024))
        self.assertEqual(ctx["clock"], "TSC calibrated against CLOCK_MONOTONIC_RAW"
                         if doc["test"].endswith("_lat") else "CLOCK_MONOTONIC_RAW")
        self.assertEqual(ctx["server"], ADDR)
        self.assertEqual(ctx["server_port"], PORT)
        self.assertIsNone(ctx["numa_node"])  # rxe has no PCI function
        self.assertEqual(ctx["cpu_binding"], "none (no NUMA node)")
        self.assertEqual(ctx["max_msg_size_bytes"], 8388608)
        for res in doc["results"]:
            self.assertTrue(res["verified"], res)
        return doc

    def check_bw(self, doc, test, sizes, iters):
        self.assertEqual(doc["test"], test)
        self.assertEqual([r["size_bytes"] for r in doc["results"]], sizes)
        link = doc["context"]["link_rate_gbps"]
        for res in doc["results"]:
            self.assertEqual(res["iterations"], iters)
            gbps = res["iterations"] * res["size_bytes"] * 8 / res["seconds"] / 1e9
            self.assertAlmostEqual(res["bandwidth_gbps"], gbps, places=6)
            self.assertGreater(res["bandwidth_gbps"], 0.0001)
            self.assertLess(res["bandwidth_gbps"], 100)
            self.assertAlmostEqual(res["messages_per_second"],
                                   res["iterations"] / res["seconds"], delta=1e-6)
            self.assertAlmostEqual(res["link_rate_percent"], 100 * gbps / link, places=4)
            self.assertIsNone(res["pcie_percent"])

    def check_lat(self, doc, test, size, iters, kind):
        self.assertEqual(doc["test"], test)
        (res,) = doc["results"]
        self.assertEqual((res["size_bytes"], res["iterations"]), (size, iters))
        self.assertEqual(res["latency_kind"], kind)
        lat = res["latency_us"]
        order = [lat[k] for k in ("min", "p50", "p90", "p99", "p99_9", "p99_99", "max")]
        self.assertEqual(order, sorted(order), lat)
        self.assertGreater(lat["min"], 0.1)
        self.assertLess(lat["p50"], 10000)
        self.assertTrue(lat["min"] <= lat["mean"] <= lat["max"])
        self.assertGreaterEqual(lat["stddev"], 0)
        self.assertLess(lat["stddev"], lat["max"] - lat["min"] + 1e-9)
        fractional = [v for v in order + [lat["mean"], lat["stddev"]] if v != int(v)]
        self.assertTrue(fractional, "perftest-like whole microseconds: %s" % lat)

    def test_write_bw_two_sizes(self):
        doc = self.doc("write_bw")
        self.check_bw(doc, "write_bw", [4096, 65536], 400)
        params = doc["parameters"]
        self.assertEqual((params["iterations"], params["qps"], params["tx_depth"],
                          params["warmup_iterations"], params["cq_moderation"]),
                         (400, 1, 128, 256, 16))

    def test_read_bw(self):
        self.check_bw(self.doc("read_bw"), "read_bw", [65536], 400)

    def test_send_bw_two_qps(self):
        self.check_bw(self.doc("send_bw"), "send_bw", [8192], 800)

    def test_write_lat(self):
        self.check_lat(self.doc("write_lat"), "write_lat", 2, 500,
                       "one-way (half the round trip)")

    def test_read_lat(self):
        self.check_lat(self.doc("read_lat"), "read_lat", 2, 500, "round trip")

    def test_send_lat(self):
        self.check_lat(self.doc("send_lat"), "send_lat", 64, 500,
                       "one-way (half the round trip)")

    def test_bidir(self):
        doc = self.doc("bidir")
        self.assertTrue(doc["parameters"]["bidirectional"])
        self.check_bw(doc, "write_bw", [65536], 300)

    def test_duration(self):
        doc = self.doc("duration")
        (res,) = doc["results"]
        self.assertEqual(doc["parameters"]["duration_seconds"], 1.5)
        self.assertIsNone(doc["parameters"]["iterations"])
        self.assertGreater(res["seconds"], 1.4)
        self.assertLess(res["seconds"], 3)
        self.assertGreater(res["iterations"], 10)

    def test_sweep_and_plot(self):
        r = self.r["sweep_plot"]
        self.assertEqual(r.status, 0, r)
        rows = [l.split() for l in r.output.splitlines() if l.split() and l.split()[0].isdigit()]
        self.assertEqual([int(row[0]) for row in rows[:11]], [2 ** i for i in range(1, 11)] + [1])
        self.assertEqual([row[-1] for row in rows[:10]], ["yes"] * 10)
        svg_tags, link_lines = r.output.splitlines()[-2:]
        self.assertEqual(svg_tags, "1")  # an SVG document ...
        self.assertGreaterEqual(int(link_lines), 1)  # ... with the link rate drawn

    def test_progress_line_only_on_a_terminal(self):
        self.assertRegex(self.r["progress_tty"].output,
                         r"send_lat 2 bytes: +\d+% after [12]\.\d s")
        self.assertNotIn("after", self.r["progress_pipe"].output)

    def test_text_output(self):
        r = self.r["text"]
        self.assertEqual(r.status, 0, r)
        self.assertIn("write_lat to %s:%d via rxe0:1 (Ethernet, RoCE v2, MTU 1024)" % (ADDR, PORT),
                      r.output)
        self.assertIn("clock TSC calibrated against CLOCK_MONOTONIC_RAW; CPU binding: none "
                      "(no NUMA node)", r.output)
        self.assertRegex(r.output, r"\n +2 +200 +\d+\.\d\d .* verified")

    def test_wrong_test_name(self):
        r = self.r["wrong_test"]
        self.assertEqual(r.status, 3, r)
        self.assertIn('unknown test "write_bandwidth" (write_bw, read_bw, send_bw', r.output)

    def test_size_zero(self):
        r = self.r["size_zero"]
        self.assertEqual(r.status, 3, r)
        self.assertIn("--size: expected a whole number from 1 to", r.output)

    def test_size_beyond_the_device_limit(self):
        r = self.r["size_too_big"]
        self.assertEqual(r.status, 3, r)
        self.assertIn("a size of 16777216 bytes is beyond rxe0's limit of 8388608 bytes",
                      r.output)

    def test_no_server(self):
        r = self.r["no_server"]
        self.assertEqual(r.status, 3, r)
        self.assertIn("no rdmakit bench server at %s:%d" % (ADDR, PORT + 1), r.output)

    def test_unreachable_host_times_out(self):
        r = self.r["unreachable"]
        self.assertEqual(r.status, 3, r)
        self.assertRegex(r.output, r"no answer from 10\.0\.2\.99:\d+ within 2 s|"
                                   r"resolving the address of 10\.0\.2\.99")

    def test_busy_server_refuses_a_second_client(self):
        r = self.r["busy"]
        self.assertEqual(r.status, 3, r)
        self.assertIn("refused the run: the server is serving another client's run", r.output)

    def test_server_listens_only_on_its_address(self):
        r = self.r["other_address"]
        self.assertEqual(r.status, 3, r)
        self.assertIn("no rdmakit bench server at 10.0.2.16", r.output)

    def test_once_serves_one_run_then_exits(self):
        r = self.r["once"]
        self.assertIn("client 0", r.output)
        self.assertTrue(r.output.endswith("exited"), r)

    def test_port_down_is_refused(self):
        r = self.r["port_down"]
        self.assertNotEqual(r.status, 0, r)
        self.assertRegex(r.output, r"port 1 of rxe0 is DOWN, not ACTIVE|"
                                   r"no answer from|resolving the address")

    def perftest_row(self, name, size, iters):
        r = self.r[name]
        self.assertEqual(r.status, 0, r)
        client = r.output.split("--- server:")[0]
        rows = [l.split() for l in client.splitlines() if l.split()[:2] == [str(size), str(iters)]]
        self.assertEqual(len(rows), 1, r)
        return [float(v) for v in rows[0]]

    def test_perftest_in_the_same_vm(self):
        write = self.perftest_row("ib_write_bw", 65536, 500)
        read = self.perftest_row("ib_read_bw", 65536, 500)
        self.assertGreater(write[3], 1)  # BW average, MB/s
        self.assertGreater(read[3], 1)
        lat = self.perftest_row("ib_send_lat", 2, 500)
        t_min, t_max, t_typical = lat[2], lat[3], lat[4]
        self.assertTrue(0 < t_min <= t_typical <= t_max, lat)

    def test_server_logged_each_run(self):
        log = self.r["server_log"].output
        self.assertIn("listening on %s port %d" % (ADDR, PORT), log)
        self.assertIn("refused a second client while run", log)
        self.assertGreaterEqual(log.count(" done"), 12)


if __name__ == "__main__":
    unittest.main(verbosity=2)
