#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The aggregating collectd's CPU and memory per 1,000 incoming value lists per interval
(tests/perf/aggregator.sh runs it; see there for the method). Environment: PERF_RUNS (rounds,
default 3), SENDERS (12), WINDOW (seconds of CPU measured per phase, 10), STORE, FILL_TIMEOUT,
PERF_MD (a file to append the markdown section to), RDMAKIT_PLUGIN_DIR, MANY_PORTS (the 16-port
tree)."""
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "collectd"))
import cdtest  # noqa: E402

RUNS = int(os.environ.get("PERF_RUNS", "3"))
SENDERS = int(os.environ.get("SENDERS", "12"))
WINDOW = float(os.environ.get("WINDOW", "10"))
STORE = os.environ.get("STORE", "none")
# seconds for the aggregator to hold every sender's value lists
FILL_TIMEOUT = float(os.environ.get("FILL_TIMEOUT", "60"))
STORE_TEXT = {"none": "no store: its cache only",
              "write_prometheus": "`write_prometheus` as its store"}
INTERVAL = 1
PORT = cdtest.free_port()
TICK = os.sysconf("SC_CLK_TCK")
MODES = {"default": "", "HwCounters false": "  HwCounters false\n"}


def conf(work, name, body):
    """A private collectd: logfile, unixsock, body; daemonizes and writes its PIDFile."""
    d = os.path.join(work, name)
    os.makedirs(d)
    with open(os.path.join(d, "collectd.conf"), "w") as f:
        f.write(f"""Hostname "{name}"
FQDNLookup false
BaseDir "{d}"
PIDFile "{d}/pid"
TypesDB "/usr/share/collectd/types.db"
Interval {INTERVAL}
PluginDir "/usr/lib/collectd"
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File "{d}/log"
</Plugin>
LoadPlugin unixsock
<Plugin unixsock>
  SocketFile "{d}/sock"
</Plugin>
{body}""")
    return d


def start(d):
    subprocess.run([cdtest.COLLECTD, "-C", f"{d}/collectd.conf"], check=True,
                   capture_output=True, timeout=30)
    return int(cdtest.wait_for(lambda: read(f"{d}/pid"), 10, f"{d}/pid"))


def read(path):
    try:
        return cdtest.read_text(path).strip()
    except FileNotFoundError:
        return None


def stop(pid):
    os.kill(pid, signal.SIGTERM)
    cdtest.wait_for(lambda: not os.path.exists(f"/proc/{pid}"), 20, f"collectd {pid} to exit")


def cpu_seconds(pid):
    fields = cdtest.read_text(f"/proc/{pid}/stat").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_kib(pid):
    for line in cdtest.read_text(f"/proc/{pid}/status").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def udp_counters():
    """(datagrams received, dropped for a full receive buffer) of this network namespace."""
    lines = [line.split() for line in cdtest.read_text("/proc/net/snmp").splitlines()
             if line.startswith("Udp:")]
    row = dict(zip(lines[0][1:], (int(x) for x in lines[1][1:])))
    return row["InDatagrams"], row["RcvbufErrors"]


def listed(d):
    out = subprocess.run([cdtest.COLLECTDCTL, "-s", f"{d}/sock", "listval"],
                         capture_output=True, text=True, timeout=20).stdout
    return len(out.splitlines())


def store_block():
    """The aggregator's store: STORE=none (default: the cache only) or write_prometheus."""
    if STORE == "none":
        return ""
    return (f'LoadPlugin write_prometheus\n<Plugin write_prometheus>\n  Host "127.0.0.1"\n'
            f'  Port "{cdtest.free_port()}"\n</Plugin>\n')


def phase(work, mode, many_ports):
    """One aggregator, SENDERS senders in mode: (value lists, CPU ms per interval, RSS growth
    KiB, datagrams received and dropped in the window, value lists in the aggregator's cache
    at the window's end)."""
    auth = os.path.join(work, "auth")
    with open(auth, "w") as f:
        f.writelines(f"s{i}: k{i}\n" for i in range(SENDERS))
    agg = conf(work, "aggregator", f"""LoadPlugin network
<Plugin network>
  <Listen "127.0.0.1" "{PORT}">
    SecurityLevel Sign
    AuthFile "{auth}"
  </Listen>
  ReportStats false
</Plugin>
{store_block()}""")
    pids, senders = [], []
    try:
        agg_pid = start(agg)
        pids.append(agg_pid)
        time.sleep(2)
        base = rss_kib(agg_pid)
        for i in range(SENDERS):
            d = conf(work, f"s{i}", f"""LoadPlugin network
<Plugin network>
  <Server "127.0.0.1" "{PORT}">
    SecurityLevel Sign
    Username "s{i}"
    Password "k{i}"
  </Server>
  ReportStats false
</Plugin>
PluginDir "{cdtest.PLUGIN_DIR}"
LoadPlugin rdmakit
<Plugin rdmakit>
  SysfsRoot "{many_ports}"
{MODES[mode]}</Plugin>
""")
            pids.append(start(d))
            senders.append(d)
        # the value lists sent: each sender's own cache; steady once the aggregator has them
        # all (values lost in a full receive buffer come back at the next interval)
        started = time.monotonic()
        time.sleep(3)
        lists = sum(listed(d) for d in senders)
        try:
            cdtest.wait_for(lambda: listed(agg) >= lists, FILL_TIMEOUT,
                            f"the aggregator to hold {lists} value lists")
            fill = time.monotonic() - started
        except AssertionError:  # it does not keep up: measured all the same, and said
            fill = None
        u0, c0, t0 = udp_counters(), cpu_seconds(agg_pid), time.monotonic()
        time.sleep(WINDOW)
        u1, c1, t1 = udp_counters(), cpu_seconds(agg_pid), time.monotonic()
        rss = rss_kib(agg_pid)
        return (lists, (c1 - c0) / (t1 - t0) * INTERVAL * 1000, rss - base, u1[0] - u0[0],
                u1[1] - u0[1], fill)
    finally:
        for pid in reversed(pids):
            stop(pid)
        shutil.rmtree(agg, ignore_errors=True)
        for i in range(SENDERS):
            shutil.rmtree(os.path.join(work, f"s{i}"), ignore_errors=True)


def span(values, fmt):
    med = statistics.median(values)
    if len(values) == 1:
        return fmt.format(med)
    return f"{fmt.format(med)} ({fmt.format(min(values))}–{fmt.format(max(values))})"


def main():
    many_ports = os.environ["MANY_PORTS"]
    results = {mode: [] for mode in MODES}
    ratios = {"cpu": [], "mem": []}
    with tempfile.TemporaryDirectory(prefix="rdmakit-aggperf-") as work:
        for r in range(RUNS):
            order = list(MODES) if r % 2 == 0 else list(reversed(MODES))
            got = {}
            for mode in order:
                got[mode] = phase(work, mode, many_ports)
                lists, cpu_ms, growth, received, dropped, fill = got[mode]
                print(f"round {r + 1} {mode}: {lists} value lists per {INTERVAL} s, aggregator "
                      f"{cpu_ms:.1f} ms CPU per interval, VmRSS +{growth} KiB; {received} "
                      f"datagrams received, {dropped} dropped (receive buffer full); "
                      + (f"every value list in its cache {fill:.1f} s after the senders started"
                         if fill is not None else
                         f"its cache did not hold every value list within {FILL_TIMEOUT:.0f} s"),
                      flush=True)
                results[mode].append(got[mode])
            d, h = got["default"], got["HwCounters false"]
            ratios["cpu"].append(d[1] / h[1] if h[1] else float("nan"))
            ratios["mem"].append(d[2] / h[2] if h[2] else float("nan"))
    write_section(results, ratios)
    kept_up = all(g[5] is not None for got in results.values() for g in got)
    return 0 if kept_up else 1


def fills(got):
    """The seconds until the aggregator held every value list, or how many phases it never
    did within FILL_TIMEOUT."""
    done = [g[5] for g in got if g[5] is not None]
    missed = len(got) - len(done)
    text = span(done, "{:.0f}") if done else ""
    if missed:
        text += (", " if text else "") + f"{missed} of {len(got)}: not within {FILL_TIMEOUT:.0f} s"
    return text


def write_section(results, ratios):
    rows = []
    for mode, got in results.items():
        lists = [g[0] for g in got]
        cpu_per_k = [g[1] / (g[0] / 1000) for g in got]
        mem_per_k = [g[2] / (g[0] / 1000) / 1024 for g in got]
        drop = [100 * g[4] / (g[3] + g[4]) if g[3] + g[4] else 0 for g in got]
        rows.append(f"| {mode} | {span(lists, '{:.0f}')} | {span([g[1] for g in got], '{:.1f}')} "
                    f"| {span(cpu_per_k, '{:.2f}')} | {span([g[2] / 1024 for g in got], '{:.1f}')} "
                    f"| {span(mem_per_k, '{:.2f}')} | {span(drop, '{:.1f}')} "
                    f"| {fills(got)} |")
    text = f"""## The aggregating collectd: CPU and memory per 1,000 value lists

One aggregating collectd 5.12 (the `network` plugin listening on 127.0.0.1 with `SecurityLevel
Sign` and an AuthFile, {STORE_TEXT[STORE]}, no rdmakit) receives from {SENDERS}
collectds with `rdmakit.so` in host mode on the generated 16-port host
(`tests/fixtures/make-many-ports.sh`), each signing with its own user, every sender and the
aggregator at `Interval {INTERVAL}`. Per phase: a fresh aggregator, its VmRSS read, the senders
started; once its cache holds every sender's value lists (collectdctl `listval`, the same count
twice) its CPU time (utime + stime) is measured over {WINDOW:.0f} s and its VmRSS read again.
"Value lists" is what the senders send per interval (the sum of their own caches);
"dropped" the datagrams the kernel dropped for a full socket receive buffer in the window
(`RcvbufErrors` of a private network namespace, over those received plus dropped); CPU is per interval
(measured at `Interval {INTERVAL}`: the per-interval cost at a longer interval is not
measured here); growth is VmRSS against the
aggregator before the senders started. Each round runs both modes, alternating which goes
first; ratios are default over `HwCounters false` within a round; medians (ranges) over {RUNS}
rounds. An aggregator that does not hold every value list within {FILL_TIMEOUT:.0f} s is
measured all the same: it is not keeping up (exit status 1).

| senders' rdmakit | value lists per interval | aggregator CPU, ms per interval | ms per 1,000 value lists | VmRSS growth, MiB | MiB per 1,000 value lists | datagrams dropped, % | s until every value list is in |
|---|---|---|---|---|---|---|---|
{chr(10).join(rows)}

Default over `HwCounters false`, same round: CPU {span(ratios['cpu'], '{:.2f}')}×, memory
{span(ratios['mem'], '{:.2f}')}×. The senders run on the same 2 cores as the aggregator.
"""
    print(text)
    md = os.environ.get("PERF_MD")
    if md:
        with open(md, "a") as f:
            f.write(text)


if __name__ == "__main__":
    sys.exit(main())
