#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Soak: a real collectd with rdmakit.so in host, fabric and SM modes and rdmakit-agentx
(host, fabric and SM modes, under a real snmpd) against a simulated fabric (ibsim + OpenSM)
whose links to Hca3 and Hca4 flap (console Unlink/ReLink, one change every FLAP seconds) and a
fixture tree whose first port goes DOWN and ACTIVE again at the same pace.

After a warm-up (first discoveries and sweeps done) it takes each daemon's resident memory
(VmRSS) and open descriptors (/proc/PID/fd), soaks for MINUTES, takes them again and prints
both, with the count of error lines in each log (collectd's "[error]" lines, the subagent's
lines with "error" in them). Each figure is the median of five samples 0.5 s apart, so a
descriptor a discovery holds for a moment does not count.

Flat means: resident memory grew by at most RSS_TOLERANCE_KB (2 MiB) and open descriptors
not at all, and collectd notified at least one change. Exit 0 when both daemons are flat and
still running, 1 otherwise, 77 when
collectd, snmpd or the subagent is missing.
Usage: soak.py MINUTES (environment as in tests/CMakeLists.txt: RDMAKIT_PLUGIN_DIR,
RDMAKIT_AGENTX, RDMAKIT_DISCOVER_HELPER: the daemons discover in the helper, as installed)."""
import collections
import os
import re
import shutil
import statistics
import sys
import tempfile
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path[:0] = [os.path.join(TOP, "tests", d) for d in ("lib", "collectd", "snmp", "sim")]
import cdtest  # noqa: E402
import simlib  # noqa: E402
import snmptest  # noqa: E402

FLAP = 3.0  # seconds between changes
WARMUP = 20.0
RSS_TOLERANCE_KB = 2048
SANITIZED = os.environ.get("RDMAKIT_SANITIZED") == "1"
INSTALLED_HELPER = "/usr/libexec/rdmakit/rdmakit-discover"
PORT0 = "class/infiniband/mlx5_0/ports/1"
FLAPPING = ('"Hca3"[1]', '"Hca4"[1]')


def proc_figures(pid):
    """(VmRSS in kB, open descriptors) of a process, the median of five samples."""
    rss, fds = [], []
    for _ in range(5):
        with open(f"/proc/{pid}/status") as f:
            rss.append(int(re.search(r"^VmRSS:\s+(\d+)", f.read(), re.M).group(1)))
        fds.append(len(os.listdir(f"/proc/{pid}/fd")))
        time.sleep(0.5)
    return int(statistics.median(rss)), int(statistics.median(fds))


def error_lines(text, pattern):
    """The log's lines that match pattern."""
    return [line for line in text.splitlines() if re.search(pattern, line, re.I)]


def common_errors(lines, top=3):
    """The most frequent kinds of error line (numbers and GUIDs folded), with their counts."""
    kinds = collections.Counter(
        re.sub(r"0x[0-9a-f]+|\d+(\.\d+)?", "N", re.sub(r"^\[[^]]*\] ", "", line)).strip()
        for line in lines)
    return kinds.most_common(top)


class Flapper:
    """One change a call: a link down or up (in turn over FLAPPING), and the fixture's port."""

    def __init__(self, sim, root):
        self.sim, self.root, self.step = sim, root, 0

    def __call__(self):
        link = FLAPPING[(self.step // 2) % len(FLAPPING)]
        self.sim.cmd(("Unlink " if self.step % 2 == 0 else "ReLink ") + link)
        cdtest.write_attr(self.root, f"{PORT0}/state",
                          "1: DOWN" if self.step % 2 == 0 else "4: ACTIVE")
        cdtest.write_attr(self.root, f"{PORT0}/phys_state",
                          "3: Disabled" if self.step % 2 == 0 else "5: LinkUp")
        self.step += 1


def soak(seconds, flap):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        flap()
        time.sleep(FLAP)


def soak_in_steps(minutes, flap, procs):
    """Soak, printing each daemon's resident memory every tenth of the run (at least a
    minute apart), so a growth shows whether it levels off or keeps on."""
    step = max(60.0, minutes * 6)
    left = minutes * 60
    while left > 0:
        soak(min(step, left), flap)
        left -= step
        rss = ", ".join(f"{name} {proc_rss(pid)} kB" for name, pid in procs.items())
        print(f"soak: after {(minutes * 60 - max(left, 0)) / 60:.0f} min: {rss}", flush=True)


def proc_rss(pid):
    """VmRSS in kB now, or "gone"."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return re.search(r"^VmRSS:\s+(\d+)", f.read(), re.M).group(1)
    except (FileNotFoundError, ProcessLookupError):
        return "gone"


def main():
    if len(sys.argv) != 2 or not re.fullmatch(r"\d+(\.\d+)?", sys.argv[1]):
        sys.exit("usage: tests/perf/soak.sh MINUTES")
    for path in (cdtest.COLLECTD, snmptest.AGENTX, shutil.which("snmpd") or "/nonexistent"):
        if not os.access(path, os.X_OK):
            print(f"soak: skipped: {path} missing")
            return 77
    helper = os.environ.get("RDMAKIT_DISCOVER_HELPER") or INSTALLED_HELPER
    if not os.access(helper, os.X_OK):
        # Without it both daemons discover in their own process, and ibsim's umad shim
        # leaks an agent slot at each discovery's close (libibmad does not unregister),
        # so after a few dozen discoveries every MAD agent registration fails there.
        print(f"soak: {helper} missing: set RDMAKIT_DISCOVER_HELPER to the build's "
              "common/rdmakit-discover (ctest does), as the packages install it")
        return 2
    minutes = float(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="rdmakit-soak-")
    try:
        return run(minutes, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(minutes, tmp):
    root = cdtest.copy_fixture("ib-hdr", tmp)
    net = simlib.generate(os.path.join(tmp, "ft.net"), leaves=2, hosts=2, spines=1, radix=4)
    with simlib.Sim(f"rksoak{os.getpid()}", net, tmp) as sim:
        sim.opensm("Hca1", 10)
        daemon = cdtest.Daemon(cdtest.plugin_block(
            SysfsRoot=root, Notifications=True, Fabric=True, SubnetManager=True,
            FabricInterval=1, FabricTimeout=100, Rediscover=5))
        try:
            if daemon.start(env=cdtest.sim_env(sim.name)) != 0:
                print(daemon.start_output)
                return 1
            config = "refresh 0.5\nfabric yes\nsm yes\nfabric-interval 1\nrediscover 5\n"
            shim = cdtest.umad2sim_env(sim.name)
            with snmptest.Setup(root, config=config, offset=13, env_extra=shim) as agent:
                return measure(minutes, sim, root, daemon, agent)
        finally:
            daemon.cleanup()


def measure(minutes, sim, root, daemon, agent):
    flap = Flapper(sim, root)
    soak(WARMUP, flap)
    procs = {"collectd": daemon.pid, "rdmakit-agentx": agent.agent.proc.pid}
    start = {name: proc_figures(pid) for name, pid in procs.items()}
    soak_in_steps(minutes, flap, procs)
    alive = {"collectd": daemon.running(), "rdmakit-agentx": agent.agent.proc.poll() is None}
    end = {name: proc_figures(pid) for name, pid in procs.items() if alive[name]}
    notes = len(daemon.notifications())
    errors = {"collectd": error_lines(daemon.log(), r"\[error\]"),
              "rdmakit-agentx": error_lines(agent.agent.log(), r"error")}
    print(f"soak: {minutes:g} min after {WARMUP:g} s of warm-up, {flap.step} changes "
          f"(links {', '.join(FLAPPING)} and {PORT0}, one every {FLAP:g} s)")
    print(f"{'process':16} {'RSS start':>10} {'RSS end':>10} {'fds start':>10} "
          f"{'fds end':>8} {'errors':>7}")
    flat = True
    for name in procs:
        if not alive[name]:
            log = daemon.log() if name == "collectd" else agent.agent.log()
            print(f"{name:16} stopped during the soak; the end of its log:")
            print("\n".join(log.splitlines()[-15:]))
            flat = False
            continue
        (rss0, fd0), (rss1, fd1) = start[name], end[name]
        print(f"{name:16} {rss0:>7} kB {rss1:>7} kB {fd0:>10} {fd1:>8} {len(errors[name]):>7}")
        flat = flat and (SANITIZED or rss1 - rss0 <= RSS_TOLERANCE_KB) and fd1 <= fd0
    for name in procs:
        for kind, count in common_errors(errors[name]):
            print(f"  {name} error lines, {count}x: {kind[:150]}")
    print(f"collectd sent {notes} notifications (port state and fabric changes)")
    if not notes:
        print("soak: the changes never reached collectd")
        flat = False
    if SANITIZED:
        print("soak: sanitized build: RSS is not judged (ASan's quarantine keeps freed memory, "
              "so it grows without a leak; LeakSanitizer checks leaks here), descriptors are")
    print(f"soak: {'flat' if flat else 'NOT flat'} (tolerance: RSS +{RSS_TOLERANCE_KB} kB, "
          "fds +0)")
    return 0 if flat else 1


if __name__ == "__main__":
    sys.exit(main())
