#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The measurements of tests/perf/snmp-floor.sh (see there): rdmakit-agentx next to the AgentX
floor, net-snmp's own `snmpd -X` serving ifXTable as a subagent of the same master, over as
many rows, in one run, alternating, pinned to one CPU and unpinned."""
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path[:0] = [os.path.join(TOP, "tests", d) for d in ("lib", "snmp")]
import snmptest  # noqa: E402
from rktest import wait_for  # noqa: E402

ROWS = int(os.environ.get("ROWS", "64"))
RUNS = int(os.environ.get("RUNS", "5"))
GETS = int(os.environ.get("GETS", "1000"))  # 10-varbind GETs per side, shape and run
REPEAT = int(os.environ.get("REPEAT", "4"))  # at least this many whole-table walks per figure
SECONDS = float(os.environ.get("SECONDS", "0.5"))  # and at least this long
BASE = os.environ.get("BASE_AGENTX")  # an rdmakit-agentx to show next to it (e.g. older)
BASE_NAME = os.environ.get("BASE_NAME", "without the fd floor")  # its column's name
DLMOD = os.environ.get("RDMAKIT_DLMOD")  # rdmakit-dlmod.so, measured next to native ifXTable
IFX = (1, 3, 6, 1, 2, 1, 31, 1, 1)  # ifXTable
OURS = tuple(int(x) for x in snmptest.ROOT_OID.strip(".").split(".")) + (1, 2, 3)
WALKS = (10, 50, 100)
PROFILE_S = float(os.environ.get("PROFILE_S", "3"))  # perf record of each subagent (0: none)
TICK = os.sysconf("SC_CLK_TCK")


# --- a minimal SNMPv2c client over UDP: no tool start-up in the figures -----------------------
def tlv(tag, body):
    n = len(body)
    if n < 128:
        return bytes([tag, n]) + body
    return bytes([tag, 0x82, n >> 8, n & 0xff]) + body


def ber_int(value):
    return tlv(0x02, value.to_bytes(4, "big", signed=True))


def ber_oid(subids):
    out = bytearray([subids[0] * 40 + subids[1]])
    for s in subids[2:]:
        chunk = [s & 0x7f]
        s >>= 7
        while s:
            chunk.insert(0, 0x80 | (s & 0x7f))
            s >>= 7
        out += bytes(chunk)
    return tlv(0x06, bytes(out))


def request(tag, reqid, oids, a=0, b=0):
    """A GET (0xa0) or GETBULK (0xa5, a = non-repeaters, b = max-repetitions) message."""
    varbinds = b"".join(tlv(0x30, ber_oid(o) + b"\x05\x00") for o in oids)
    pdu = tlv(tag, ber_int(reqid) + ber_int(a) + ber_int(b) + tlv(0x30, varbinds))
    return tlv(0x30, ber_int(1) + tlv(0x04, b"public") + pdu)


def head(data, i):
    """(tag, start of the body, end of the body) of the TLV at i."""
    tag, n = data[i], data[i + 1]
    i += 2
    if n & 0x80:
        k = n & 0x7f
        n = int.from_bytes(data[i:i + k], "big")
        i += k
    return tag, i, i + n


def decode_oid(body):
    first = body[0]
    out, value = [first // 40, first % 40], 0
    for byte in body[1:]:
        value = (value << 7) | (byte & 0x7f)
        if not byte & 0x80:
            out.append(value)
            value = 0
    return tuple(out)


def varbinds(data):
    """[(OID tuple, value tag)] of a response; raises on an SNMP error status."""
    _, i, _ = head(data, 0)
    for _ in range(2):  # version, community
        i = head(data, i)[2]
    _, i, _ = head(data, i)  # the PDU
    i = head(data, i)[2]  # request-id
    _, s, e = head(data, i)
    if data[s:e] != b"\x00":
        raise AssertionError(f"error status {int.from_bytes(data[s:e], 'big')}")
    i = head(data, head(data, e)[2])[1]  # skip the error index, into the varbind list
    out = []
    while i < len(data):
        _, vs, ve = head(data, i)
        _, os_, oe = head(data, vs)
        out.append((decode_oid(data[os_:oe]), data[oe]))
        i = ve
    return out


class Client:
    def __init__(self, port):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.settimeout(5)
        self.sock.connect(("127.0.0.1", port))
        self.reqid = 0

    def ask(self, tag, oids, a=0, b=0):
        self.reqid += 1
        self.sock.send(request(tag, self.reqid, oids, a, b))
        return varbinds(self.sock.recv(65535))

    def timed_get(self, oids):
        """(seconds from send to answer, varbinds): encoding and decoding are left out of the
        time, so the tables' OID lengths do not weigh on the client's side of it."""
        self.reqid += 1
        message = request(0xa0, self.reqid, oids)
        t0 = time.perf_counter()
        self.sock.send(message)
        data = self.sock.recv(65535)
        return time.perf_counter() - t0, varbinds(data)

    def walk(self, table, reps):
        """Varbinds of one GETBULK walk of a table (as snmpbulkwalk -CrN)."""
        count, oid = 0, table
        while True:
            got = self.ask(0xa5, [oid], 0, reps)
            for name, tag in got:
                if name[:len(table)] != table or tag == 0x82:
                    return count
                count += 1
            oid = got[-1][0]

    def columns(self, table, cols, reps=10):
        """Varbinds of a walk of ten columns side by side (as snmptable -Cr10)."""
        count, oids = 0, [table + (1, c) for c in cols]
        while True:
            got = self.ask(0xa5, oids, 0, reps)
            for j, (name, tag) in enumerate(got):
                if name[:len(table) + 2] != table + (1, cols[j % len(cols)]) or tag == 0x82:
                    return count
                count += 1
            oids = [n for n, _ in got[-len(cols):]]


# --- the processes ------------------------------------------------------------------------
def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def pin(pids, cpus):
    """Every thread of pids (and this client) on cpus."""
    for pid in pids:
        for tid in os.listdir(f"/proc/{pid}/task"):
            os.sched_setaffinity(int(tid), cpus)
    os.sched_setaffinity(0, cpus)


class Side:
    """One subagent behind the master: its table, its first ten columns and its rows."""

    def __init__(self, name, pid, table, master, client):
        self.name, self.pid, self.table = name, pid, table
        self.master, self.client = master, client
        self.cols = self.rows = None

    def learn(self):
        client = self.client
        seen = {}
        oid = self.table
        while True:
            got = client.ask(0xa5, [oid], 0, 50)
            for name, tag in got:
                if name[:len(self.table)] != self.table or tag == 0x82:
                    self.cols = sorted(seen)[:10]
                    self.rows = seen[self.cols[0]]
                    return
                seen.setdefault(name[len(self.table) + 1], []).append(
                    name[len(self.table) + 2:])
            oid = got[-1][0]


def start(cmd, workdir, name, env):
    log = open(os.path.join(workdir, f"{name}.log"), "a")
    return subprocess.Popen(cmd, stdout=log, stderr=log, cwd=workdir, env=env)


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def master(tmp, name, env, procs):
    """A private AgentX master (its own ifTable and ifXTable left out), added to procs:
    (process, socket, port)."""
    sock = os.path.join(tmp, f"{name}.sock")
    port = snmptest.free_port()
    with open(os.path.join(tmp, f"{name}.conf"), "w") as f:
        f.write(f"agentaddress udp:127.0.0.1:{port}\nmaster agentx\nagentXSocket {sock}\n"
                "agentXPerms 0660 0770\nrocommunity public 127.0.0.1\n"
                "dontLogTCPWrappersConnects yes\n")
    proc = start(["snmpd", "-f", "-Lo", "-C", "-c", f"{name}.conf", "-p", f"{name}.pid",
                  "-I", "-ifTable,ifXTable"], tmp, name,
                 dict(env, SNMP_PERSISTENT_DIR=os.path.join(tmp, f"{name}-persist")))
    procs.append(proc)
    wait_for(lambda: os.path.exists(sock), 10, f"{name}'s AgentX socket")
    return proc, sock, port


def setup(tmp, procs):
    """The floor and rdmakit-agentx behind one master; BASE, which registers the same subtree,
    behind a second master of the same config: the groups of Sides; every process started is
    added to procs."""
    env = snmptest.env(tmp)
    env.update(MIBS="", MIBDIRS="")
    first, sock, port = master(tmp, "master", env, procs)
    with open(os.path.join(tmp, "floor.conf"), "w") as f:
        f.write(f"agentXSocket {sock}\nagentxPingInterval 1\n")
    floor = start(["snmpd", "-X", "-f", "-Lo", "-C", "-c", "floor.conf", "-p", "floor.pid",
                   "-I", "ifTable,ifXTable"], tmp, "floor",
                  dict(env, SNMP_PERSISTENT_DIR=os.path.join(tmp, "floor-persist")))
    procs.append(floor)
    host = os.path.join(tmp, "host")
    subprocess.run([os.path.join(TOP, "tests", "fixtures", "make-many-ports.sh"), host,
                    str(ROWS)], check=True, capture_output=True)
    sides = [Side("floor (snmpd -X, ifXTable)", floor.pid, IFX, first.pid, Client(port))]
    for name, binary in (("rdmakit-agentx", snmptest.AGENTX), (BASE_NAME, BASE)):
        if not binary:
            continue
        if name != "rdmakit-agentx":
            first, sock, port = master(tmp, "master2", env, procs)
        work = os.path.join(tmp, name.replace(" ", "-"))
        os.makedirs(work)
        with open(os.path.join(work, "subagent.conf"), "w") as f:
            f.write("")
        procs.append(start([binary, "-f", "-Lo", "-x", sock, "-c", "subagent.conf",
                            "--sysfs-root", host], work, "agentx", env))
        sides.append(Side(name, procs[-1].pid, OURS, first.pid, Client(port)))
    groups = [("AgentX", sides, 1.0)]
    if DLMOD:
        groups.append(("inside snmpd", in_snmpd(tmp, env, host, procs), 0.8))
    for side in (s for _, group, _ in groups for s in group):
        wait_for(lambda: client_sees(side.client, side.table), 30, f"{side.name} registered")
        side.learn()
    return groups


def in_snmpd(tmp, env, host, procs):
    """snmpd with its own ifXTable and rdmakit-dlmod.so loaded: the two Sides (no subagent)."""
    port = snmptest.free_port()
    with open(os.path.join(tmp, "dlmod.conf"), "w") as f:
        f.write(f"sysfs-root {host}\n")
    with open(os.path.join(tmp, "native.conf"), "w") as f:
        f.write(f"agentaddress udp:127.0.0.1:{port}\nrocommunity public 127.0.0.1\n"
                f"dontLogTCPWrappersConnects yes\ndlmod rdmakit {DLMOD}\n")
    native = start(["snmpd", "-f", "-Lo", "-C", "-c", "native.conf", "-p", "native.pid"], tmp,
                   "native", dict(env, SNMP_PERSISTENT_DIR=os.path.join(tmp, "native-persist"),
                                  RDMAKIT_DLMOD_CONFIG=os.path.join(tmp, "dlmod.conf")))
    procs.append(native)
    return [Side("native ifXTable (snmpd)", None, IFX, native.pid, Client(port)),
            Side("rdmakit-dlmod.so", None, OURS, native.pid, Client(port))]


def client_sees(client, table):
    try:
        got = client.ask(0xa5, [table], 0, 1)
    except (OSError, AssertionError):  # a timeout, or no one listening yet
        return False
    return got[0][0][:len(table)] == table


# --- the shapes ---------------------------------------------------------------------------
def timed(side, what):
    """(varbinds per second, CPU s of the master, CPU s of the subagent) of what()."""
    master = side.master
    sub = side.pid or master
    m0, s0, t0 = cpu_seconds(master), cpu_seconds(sub), time.perf_counter()
    count = what()
    t = time.perf_counter() - t0
    return count / t, cpu_seconds(master) - m0, cpu_seconds(sub) - s0, count


def repeated(walk):
    """Varbinds of REPEAT walks, and more until SECONDS have passed (CPU is counted in ticks)."""
    count, start, n = 0, time.perf_counter(), 0
    while n < REPEAT or time.perf_counter() - start < SECONDS:
        count += walk()
        n += 1
    return count


def shape_walk(side, reps):
    return timed(side, lambda: repeated(lambda: side.client.walk(side.table, reps)))


def shape_columns(side):
    return timed(side, lambda: repeated(lambda: side.client.columns(side.table, side.cols)))


def shape_gets(side):
    """(p50, p99) seconds of 10-varbind GETs, one row's ten columns each, rows at random."""
    rng = random.Random(1)
    out = []
    for _ in range(GETS):
        row = rng.choice(side.rows)
        oids = [side.table + (1, c) + row for c in side.cols]
        seconds, got = side.client.timed_get(oids)
        out.append(seconds)
        if len(got) != 10 or any(tag in (0x80, 0x81, 0x82) for _, tag in got):
            raise AssertionError(f"{side.name}: GET of row {row} answered {got}")
    out.sort()
    return out[len(out) // 2], out[min(len(out) - 1, len(out) * 99 // 100)]


def one_run(order):
    """{(shape, side name): figure} of one run, sides in the given order for every shape."""
    fig = {}
    for reps in WALKS:
        for side in order:
            rate, mcpu, scpu, n = shape_walk(side, reps)
            fig[(f"-Cr{reps}", side.name)] = rate
            acc = fig.setdefault(("cpu", side.name), [0.0, 0.0, 0])
            acc[0] += mcpu
            acc[1] += scpu
            acc[2] += n
    for side in order:
        fig[("10 columns", side.name)] = shape_columns(side)[0]
    for side in order:
        p50, p99 = shape_gets(side)
        fig[("GET p50", side.name)] = p50
        fig[("GET p99", side.name)] = p99
    for side in order:
        m, s, n = fig.pop(("cpu", side.name))
        fig[("cpu master", side.name)] = m / n * 10000
        fig[("cpu subagent", side.name)] = s / n * 10000
    return fig


SHAPES = [(f"-Cr{r}", f"walk -Cr{r}, varbinds/s", True) for r in WALKS] + [
    ("10 columns", "10-column GETBULK -Cr10, varbinds/s", True),
    ("GET p50", "10-varbind GET p50, ms", False),
    ("GET p99", "10-varbind GET p99, ms", False),
    ("cpu master", "master CPU s / 10,000 varbinds (walks)", False),
    ("cpu subagent", "subagent CPU s / 10,000 varbinds (walks)", False)]


def ratio(shape, higher_better, ours, floor):
    return ours / floor if higher_better else floor / ours if ours else float("inf")


def profile(side, tmp):
    """{shared object: share of samples} of side's subagent under -Cr50 walks for PROFILE_S
    seconds (perf record of that process alone), or None without perf."""
    if not shutil.which("perf"):
        return None
    data = os.path.join(tmp, f"perf-{side.pid}.data")
    rec = subprocess.Popen(["perf", "record", "-q", "-o", data, "-p", str(side.pid)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.3)
    end = time.perf_counter() + PROFILE_S
    while time.perf_counter() < end:
        side.client.walk(side.table, 50)
    rec.send_signal(signal.SIGINT)
    rec.wait(30)
    out = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso",
                          "--stdio", "-q", "-g", "none"], capture_output=True, text=True).stdout
    shares = {}
    for line in out.splitlines():
        cells = line.split()
        if len(cells) >= 2 and cells[0].endswith("%"):
            shares[" ".join(cells[1:])] = float(cells[0][:-1])
    return shares


def profile_lines(profiles):
    """Markdown: where each subagent's CPU went, grouped: the table's handlers (rdmakit-agentx's
    binary; snmpd's are in libnetsnmpmibs), net-snmp's agent and AgentX library, libc, the
    kernel, the rest."""
    groups = (("the table's handlers (rdmakit-agentx; libnetsnmpmibs and snmpd)",
               lambda d, n: d == n or d.startswith("libnetsnmpmibs")),
              ("net-snmp's agent and AgentX code (libnetsnmp, libnetsnmpagent)",
               lambda d, n: d.startswith(("libnetsnmp.", "libnetsnmpagent."))),
              ("libc", lambda d, n: d.startswith("libc.")),
              ("the kernel", lambda d, n: d.startswith("[kernel")))
    lines = ["| share of the subagent's CPU samples | " + " | ".join(profiles) + " |",
             "| --- " * (len(profiles) + 1) + "|"]
    for label, match in groups + (("the rest", None),):
        cells = []
        for binary, shares in profiles.values():
            if match:
                got = sum(v for d, v in shares.items() if match(d, binary))
            else:
                got = 100 - sum(v for d, v in shares.items()
                                if any(m(d, binary) for _, m in groups))
            cells.append(f"{got:.1f} %")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def fmt(shape, value):
    if shape.startswith("GET"):
        return f"{value * 1000:.3f}"
    if shape.startswith("cpu"):
        return f"{value:.3f}"
    return f"{value / 1000:.1f} k"


def spread(values, shape=None, ratio_=False):
    med, lo, hi = statistics.median(values), min(values), max(values)
    if ratio_:
        return f"{med:.2f} ({lo:.2f}–{hi:.2f})"
    return f"{fmt(shape, med)} ({fmt(shape, lo)}–{fmt(shape, hi)})"


def table(mode, runs, sides, target):
    """Markdown lines of one group's figures (the first side the reference), and whether every
    shape of the second side met target x the reference."""
    ref = sides[0].name
    names = [s.name for s in sides]
    in_snmpd = sides[0].pid is None
    lines = [f"| {mode}: shape | " + " | ".join(names) + " | " +
             " | ".join(f"{n} / {'native' if in_snmpd else 'floor'}" for n in names[1:]) + " |",
             "| --- " * (2 * len(names)) + "|"]
    met = True
    for shape, label, higher in SHAPES:
        if in_snmpd and shape == "cpu subagent":
            continue
        if in_snmpd:
            label = label.replace("master CPU", "snmpd CPU")
        cells = [spread([r[(shape, n)] for r in runs], shape) for n in names]
        ratios = []
        for n in names[1:]:
            rs = [ratio(shape, higher, r[(shape, n)], r[(shape, ref)]) for r in runs]
            ratios.append(spread(rs, ratio_=True))
            counted = in_snmpd or shape != "cpu master"
            if n == names[1] and counted and statistics.median(rs) < target:
                met = False
        lines.append(f"| {label} | " + " | ".join(cells + ratios) + " |")
    return lines, met


def main():
    if os.environ.get("RK_FLOOR_NETNS") != "1":
        os.environ["RK_FLOOR_NETNS"] = "1"
        os.execvp("unshare", ["unshare", "--net", sys.executable, *sys.argv])
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    for i in range(1, ROWS + 1):
        subprocess.run(["ip", "link", "add", f"rk{i}", "type", "bridge"], check=True)
    tmp = tempfile.mkdtemp(prefix="rdmakit-floor-")
    os.makedirs(os.path.join(tmp, "persist"))
    commit = subprocess.run(["git", "-C", TOP, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    load_before = loadavg()
    procs = []
    try:
        groups = setup(tmp, procs)
        sides = [side for _, group, _ in groups for side in group]
        results = {"pinned to CPU 0": [], "unpinned": []}
        allcpus = set(range(os.cpu_count()))
        for i in range(RUNS):
            for mode in results:
                pin([p.pid for p in procs], {0} if mode.startswith("pinned") else allcpus)
                order = sides if i % 2 == 0 else sides[::-1]
                results[mode].append(one_run(order))
        profiles = {}
        if PROFILE_S > 0:
            pin([p.pid for p in procs], allcpus)
            for side in (s for s in groups[0][1] if s.pid):
                shares = profile(side, tmp)
                if shares is not None:
                    binary = os.path.basename(os.readlink(f"/proc/{side.pid}/exe"))
                    profiles[side.name] = (binary, shares)
    finally:
        for proc in reversed(procs):
            stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)
    load_after = loadavg()

    rows = {s.name: len(s.rows) for s in sides}
    cond = (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit},"
            f" {os.cpu_count()} cores, load average {load_before} before and {load_after}"
            f" after; {RUNS} runs, sides alternating in order from run to run; median (range);"
            f" ratios within each run (for times and CPU: floor / ours, so > 1 is better);"
            f" rows: " + ", ".join(f"{n} {r}" for n, r in rows.items()) +
            f"; at least {REPEAT} whole-table walks and {SECONDS} s per figure, {GETS} GETs per"
            " percentile")
    out, verdicts = [], []
    for title, group, target in groups:
        met = True
        for mode, runs in results.items():
            lines, ok = table(f"{title}, {mode}", runs, group, target)
            met &= ok
            out += lines + [""]
        verdicts.append(f"{group[1].name} >= {target} x {group[0].name} on every shape: "
                        + ("met" if met else "NOT met"))
    print(f"rdmakit-agentx next to the AgentX floor ({cond}):\n")
    print("\n".join(out))
    prof = []
    if profiles:
        prof = [f"Where each AgentX subagent's CPU goes: `perf record` of that process alone"
                f" during {PROFILE_S:g} s of -Cr50 walks after the runs, unpinned; share of its"
                " samples by shared object:", ""] + profile_lines(profiles) + [""]
        print("\n".join(prof))
    print("targets (the master's CPU behind AgentX shown, not a target):")
    print("\n".join(f"  {v}" for v in verdicts))
    md = os.environ.get("PERF_MD")
    if md:
        with open(md, "a") as f:
            f.write("## The subagent next to the AgentX floor (tests/perf/snmp-floor.sh)\n\n"
                    f"rdmakit-agentx serving rdmakitPortCounterTable on a generated {ROWS}-port"
                    " host, next to net-snmp's own `snmpd -X` serving ifXTable over as many"
                    " interfaces as an AgentX subagent of the same master (the best a net-snmp"
                    " subagent can do), through that master over UDP, measured by a raw"
                    f" SNMPv2c client; with rdmakit-dlmod.so, the same tables inside snmpd next"
                    f" to its own ifXTable; {cond}.\n\n" + "\n".join(out) + "\n" +
                    "\n".join(prof) + "\n" + "".join(f"- {v}\n" for v in verdicts) + "\n")
    return 0 if all(v.endswith(": met") for v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
