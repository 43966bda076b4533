#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Soak: a real collectd with rdmakit.so in host, fabric and SM modes and rdmakit-agentx
(host, fabric and SM modes, under a real snmpd) against a simulated fabric (ibsim + OpenSM)
whose links to Hca3 and Hca4 flap (console Unlink/ReLink, one change every FLAP seconds) and a
fixture tree whose first port goes DOWN and ACTIVE again at the same pace.

After 20 s (first discoveries and sweeps done) it samples each daemon's resident memory
(VmRSS), its heap in use (glibc's malloc_info, written every 10 s by tests/perf/malloc_sampler.c
preloaded into both daemons) and its open descriptors (/proc/PID/fd) every SAMPLE seconds for
MINUTES, and prints them with the count of error lines in each log (collectd's "[error]" lines,
the subagent's lines with "error" in them). Descriptors at the warm-up's end and at the end are
the median of five samples 0.5 s apart, so a descriptor a discovery holds for a moment does
not count.

A daemon's heap fills up for a while before it levels (arenas reach their working size, rings
and tables get touched page by page), so growth is judged after a warm-up (a third of the run,
at most WARMUP_MAX minutes): the least-squares slope of resident memory over the samples after
it, times the time they span. Flat means that fitted growth is at most RSS_TOLERANCE_KB
(2 MiB), open descriptors did not grow over the warm-up's figure, and collectd notified at
least one change. It also prints the mappings whose resident size grew most after the warm-up
(/proc/PID/smaps), which says whether growth is heap, another anonymous mapping or a file.
Exit 0 when both daemons are flat and still running, 1 otherwise, 77 when
collectd, snmpd or the subagent is missing.
Usage: soak.py MINUTES (environment as in tests/CMakeLists.txt: RDMAKIT_PLUGIN_DIR,
RDMAKIT_AGENTX, RDMAKIT_DISCOVER_HELPER: the daemons discover in the helper, as installed)."""
import collections
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path[:0] = [os.path.join(TOP, "tests", d) for d in ("lib", "collectd", "snmp", "sim")]
import cdtest  # noqa: E402
import simlib  # noqa: E402
import snmptest  # noqa: E402

FLAP = 3.0  # seconds between changes
WARMUP = 20.0  # seconds before the first sample
WARMUP_MAX = 10.0  # minutes: growth is judged after a third of the run, at most this long
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


class Sample:
    """One look at a process: seconds into the soak, VmRSS and heap in use in kB, descriptors."""

    def __init__(self, t, rss, heap, fds):
        self.t, self.rss, self.heap, self.fds = t, rss, heap, fds


def vm_rss(pid):
    """VmRSS in kB now, or None when the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return int(re.search(r"^VmRSS:\s+(\d+)", f.read(), re.M).group(1))
    except (FileNotFoundError, ProcessLookupError):
        return None


def heap_in_use(info_dir, pid):
    """kB of glibc heap in use (arenas' current size less their free chunks, so the unused top
    of each arena counts as used, plus mmapped chunks) from the process's last malloc_info, or
    None without one."""
    try:
        with open(os.path.join(info_dir, f"{pid}.xml")) as f:
            text = f.read()
    except (FileNotFoundError, TypeError):
        return None
    tail = text[text.rfind("</heap>"):]
    size = {m.group(1) + m.group(2): int(m.group(3)) for m in re.finditer(
        r'<(total|system) type="(\w+)"(?: count="\d+")? size="(\d+)"', tail)}
    free = size.get("totalfast", 0) + size.get("totalrest", 0)
    return (size.get("systemcurrent", 0) - free + size.get("totalmmap", 0)) // 1024


def take_sample(t, pid, info_dir):
    """A Sample of pid now, or None when it is gone."""
    rss = vm_rss(pid)
    if rss is None:
        return None
    try:
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except FileNotFoundError:
        return None
    return Sample(t, rss, heap_in_use(info_dir, pid), fds)


def mappings(pid):
    """{mapping name: resident kB} of a process (anonymous mappings other than the heap are
    named by their address and size)."""
    rss, name = collections.Counter(), None
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                head = re.match(r"([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)", line)
                if head:
                    size = (int(head.group(2), 16) - int(head.group(1), 16)) // 1024
                    name = head.group(3) or f"[anon at 0x{head.group(1)}, {size} kB]"
                elif line.startswith("Rss:"):
                    rss[name] += int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return rss


def slope_per_hour(points):
    """Least-squares slope of [(seconds, kB)] in kB per hour, or None under two points."""
    if len(points) < 2 or len({t for t, _ in points}) < 2:
        return None
    mean_t = statistics.fmean(t for t, _ in points)
    mean_v = statistics.fmean(v for _, v in points)
    num = sum((t - mean_t) * (v - mean_v) for t, v in points)
    den = sum((t - mean_t) ** 2 for t, _ in points)
    return num / den * 3600


def soak_sampling(span, total_s, flap, procs, info_dir):
    """Soak from span[0] to span[1] seconds into a soak of total_s, sampling every process
    every SAMPLE seconds (and at 0 s); prints resident memory every tenth of the soak (at
    least a minute apart), so a growth shows whether it levels off or keeps on.
    Returns {name: [Sample]}."""
    every = min(30.0, max(5.0, total_s / 120))
    report_every = max(60.0, total_s / 10)
    samples = {name: [] for name in procs}
    if span[0] == 0:
        samples = {name: [take_sample(0.0, pid, info_dir)] for name, pid in procs.items()}
    start = time.monotonic() - span[0]
    next_report = (span[0] // report_every + 1) * report_every
    while (now := time.monotonic() - start) < span[1]:
        soak(min(every, span[1] - now), flap)
        now = time.monotonic() - start
        for name, pid in procs.items():
            samples[name].append(take_sample(now, pid, info_dir))
        if now >= next_report or (now >= total_s and span[1] == total_s):
            next_report += report_every
            rss = ", ".join(f"{name} {s[-1].rss if s[-1] else 'gone'} kB"
                            for name, s in samples.items())
            print(f"soak: after {now / 60:.0f} min: {rss}", flush=True)
    return {name: [s for s in taken if s] for name, taken in samples.items()}


def sampler_library(tmp):
    """Build tests/perf/malloc_sampler.c into tmp; its path, or None without a compiler."""
    cc = shutil.which("cc") or shutil.which("gcc")
    out = os.path.join(tmp, "malloc_sampler.so")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "malloc_sampler.c")
    if not cc or subprocess.run([cc, "-std=c11", "-O2", "-shared", "-fPIC", "-pthread", "-o",
                                 out, src]).returncode != 0:
        return None
    return out


def with_sampler(env, sampler, info_dir):
    """env with the malloc sampler preloaded after what it preloads already."""
    if not sampler:
        return env
    preload = [p for p in env.get("LD_PRELOAD", "").split(":") if p] + [sampler]
    return dict(env, LD_PRELOAD=":".join(preload), RDMAKIT_MALLOC_INFO_DIR=info_dir)


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
    info_dir = os.path.join(tmp, "malloc-info")
    os.mkdir(info_dir)
    # Not in the sanitized build: ASan's allocator answers no malloc_info, and LeakSanitizer at
    # collectd's exit reports the sampler's thread as one it could not suspend.
    sampler = None if SANITIZED else sampler_library(tmp)
    with simlib.Sim(f"rksoak{os.getpid()}", net, tmp) as sim:
        sim.opensm("Hca1", 10)
        daemon = cdtest.Daemon(cdtest.plugin_block(
            SysfsRoot=root, Notifications=True, Fabric=True, SubnetManager=True,
            FabricInterval=1, FabricTimeout=100, Rediscover=5, FabricRole="active"))
        try:
            if daemon.start(env=with_sampler(cdtest.sim_env(sim.name), sampler, info_dir)) != 0:
                print(daemon.start_output)
                return 1
            config = "refresh 0.5\nfabric yes\nfabric-role active\nsm yes\nfabric-interval 1\nrediscover 5\n"
            shim = with_sampler(cdtest.umad2sim_env(sim.name), sampler, info_dir)
            with snmptest.Setup(root, config=config, env_extra=shim) as agent:
                return measure(minutes, sim, root, daemon, agent, info_dir)
        finally:
            daemon.cleanup()


class Verdict:
    """A daemon's figures over the soak: at the first sample, after the warm-up, at the end,
    and the growth fitted after the warm-up."""

    def __init__(self, samples, warmup_s, fds_warm, fds_end):
        judged = [s for s in samples if s.t >= warmup_s]
        self.first, self.warm, self.last = samples[0], judged[0], samples[-1]
        self.span_h = (self.last.t - self.warm.t) / 3600
        self.rss_slope = slope_per_hour([(s.t, s.rss) for s in judged]) or 0.0
        heap = [(s.t, s.heap) for s in judged if s.heap is not None]
        self.heap_slope = slope_per_hour(heap)
        self.growth = self.rss_slope * self.span_h
        self.fds_warm, self.fds_end = fds_warm, fds_end

    def flat(self):
        rss_ok = SANITIZED or self.growth <= RSS_TOLERANCE_KB
        return rss_ok and self.fds_end <= self.fds_warm

    def row(self, name, errors):
        heap = (f"{self.warm.heap} -> {self.last.heap} kB ({self.heap_slope:+.0f} kB/h)"
                if self.heap_slope is not None else "n/a")
        return (f"{name:16} {self.first.rss:>7} kB {self.warm.rss:>7} kB {self.last.rss:>7} kB "
                f"{self.rss_slope:>+9.0f} {self.growth:>+9.0f} kB {self.fds_warm:>5} "
                f"{self.fds_end:>5} {errors:>6}   heap in use {heap}")


def grown_mappings(before, after, top=3):
    """The mappings whose resident size grew most between two mappings() readings."""
    grown = [(after[n] - before.get(n, 0), n + ("" if n in before else " (new)"))
             for n in after if after[n] > before.get(n, 0)]
    return sorted(grown, reverse=True)[:top]


def measure(minutes, sim, root, daemon, agent, info_dir):
    flap = Flapper(sim, root)
    soak(WARMUP, flap)
    procs = {"collectd": daemon.pid, "rdmakit-agentx": agent.agent.proc.pid}
    warmup_s = min(WARMUP_MAX * 60, minutes * 20)
    samples, maps_warm, fds_warm = soak_warm_then_judged(minutes, warmup_s, flap, procs,
                                                         info_dir)
    alive = {"collectd": daemon.running(), "rdmakit-agentx": agent.agent.proc.poll() is None}
    end = {name: proc_figures(pid) for name, pid in procs.items() if alive[name]}
    maps_end = {name: mappings(pid) for name, pid in procs.items() if alive[name]}
    notes = len(daemon.notifications())
    errors = {"collectd": error_lines(daemon.log(), r"\[error\]"),
              "rdmakit-agentx": error_lines(agent.agent.log(), r"error")}
    print(f"soak: {minutes:g} min after {WARMUP:g} s, {flap.step} changes "
          f"(links {', '.join(FLAPPING)} and {PORT0}, one every {FLAP:g} s); growth judged "
          f"after a warm-up of {warmup_s / 60:.1f} min, over "
          f"{len([s for s in samples['collectd'] if s.t >= warmup_s])} samples")
    print(f"{'process':16} {'RSS first':>10} {'RSS warm':>10} {'RSS end':>10} "
          f"{'kB/h':>9} {'fitted':>12} {'fds w':>5} {'fds e':>5} {'errors':>6}")
    flat = True
    for name in procs:
        if not alive[name]:
            log = daemon.log() if name == "collectd" else agent.agent.log()
            print(f"{name:16} stopped during the soak; the end of its log:")
            print("\n".join(log.splitlines()[-15:]))
            flat = False
            continue
        verdict = Verdict(samples[name], warmup_s, fds_warm[name], end[name][1])
        print(verdict.row(name, len(errors[name])))
        for kb, mapping in grown_mappings(maps_warm[name], maps_end[name]):
            print(f"  {name} grew most after the warm-up in: {mapping} +{kb} kB")
        flat = flat and verdict.flat()
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
    print(f"soak: {'flat' if flat else 'NOT flat'} (tolerance: RSS fitted after the warm-up "
          f"+{RSS_TOLERANCE_KB} kB, fds +0 over the warm-up's)")
    return 0 if flat else 1


def soak_warm_then_judged(minutes, warmup_s, flap, procs, info_dir):
    """Soak for MINUTES, sampling; at warmup_s seconds take each daemon's mappings and
    descriptors (median of five). Returns (samples, mappings at warm-up, fds at warm-up)."""
    total_s = minutes * 60
    warm = soak_sampling((0, warmup_s), total_s, flap, procs, info_dir)
    maps_warm = {name: mappings(pid) for name, pid in procs.items()}
    fds_warm = {name: proc_figures(pid)[1] for name, pid in procs.items()}
    rest = soak_sampling((warmup_s, total_s), total_s, flap, procs, info_dir)
    return {name: warm[name] + rest[name] for name in procs}, maps_warm, fds_warm


if __name__ == "__main__":
    sys.exit(main())
