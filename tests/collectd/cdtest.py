# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Helpers for the collectd plugin tests: a private collectd daemon, its CSV values and log.

Each daemon gets its own temporary BaseDir with the PIDFile, the csv DataDir (StoreRates
false: raw counters), a unixsock socket and a logfile (PrintSeverity, so notifications are
logged too). It runs as a real daemon (it forks and writes its PIDFile) and is stopped by the
PID read from that file.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
# What every folder's tests share; the collectd tests reach it as cdtest.NAME too.
from rktest import (TOP, copy_fixture, fixture, free_port, read_text,  # noqa: E402,F401
                    umad2sim_env, wait_for, write_attr)

PLUGIN_DIR = os.environ.get("RDMAKIT_PLUGIN_DIR", os.path.join(TOP, "build", "collectd-plugin"))
REFERENCE = os.environ.get(
    "RDMAKIT_REFERENCE", os.path.join(TOP, "build", "tests", "collectd_print_reference"))
TEST_PLUGIN_DIR = os.environ.get("RDMAKIT_TEST_PLUGIN_DIR", os.path.join(TOP, "build", "tests"))
COLLECTD = os.environ.get("COLLECTD", "/usr/sbin/collectd")
COLLECTDCTL = os.environ.get("COLLECTDCTL", "/usr/bin/collectdctl")
SYSTEM_PLUGIN_DIR = "/usr/lib/collectd"
# The sanitized build (RDMAKIT_SANITIZE; tests/CMakeLists.txt sets these for every test).
SANITIZED = os.environ.get("RDMAKIT_SANITIZED") == "1"
ASAN_RUNTIME = os.environ.get("RDMAKIT_ASAN_RUNTIME", "")
HOST = "rdmakit-test"
README = os.path.join(TOP, "collectd-plugin", "README.md")


def plugin_block(**options):
    """A <Plugin rdmakit> block; option values are lists for repeated keys; booleans and
    numbers are written bare, anything else quoted."""
    lines = ["<Plugin rdmakit>"]
    for key, value in options.items():
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, bool):
                lines.append(f"  {key} {'true' if v else 'false'}")
            elif isinstance(v, (int, float)):
                lines.append(f"  {key} {v}")
            else:
                lines.append(f'  {key} "{v}"')
    lines.append("</Plugin>")
    return "\n".join(lines)


def table_cells(marker, header, path=README):
    """Cell lists of the README table between <!-- MARKER:begin --> and <!-- MARKER:end -->."""
    text = read_text(path)
    block = re.search(rf"<!-- {marker}:begin -->(.*?)<!-- {marker}:end -->", text, re.S)
    if not block:
        raise AssertionError(f"{path}: no {marker}:begin/{marker}:end block")
    rows = []
    for line in block.group(1).splitlines():
        line = line.strip()
        if not line.startswith("|") or set(line) <= set("|- "):
            continue
        cells = [c.strip().replace("`", "") for c in line.strip("|").split("|")]
        if cells[0].lower() != header:
            rows.append(cells)
    return rows


def parse_reference_table(path=README):
    """Rows of the value reference table in the README, keyed by their "from" cell."""
    rows = {}
    for source, typ, instance, ds, unit, meaning in table_cells("values", "from", path):
        rows[source] = {"type": typ, "type_instance": instance, "ds": ds, "unit": unit,
                        "help": meaning}
    return rows


def reference_rows():
    """What the plugin sends per counter, from the print_reference helper (catalog + mapping)."""
    out = subprocess.run([REFERENCE], capture_output=True, text=True, check=True).stdout
    rows = {}
    for line in out.splitlines():
        source, typ, instance, ds, unit, scale, meaning = line.split("\t")
        rows[source] = {"type": typ, "type_instance": instance, "ds": ds, "unit": unit,
                        "scale": int(scale), "help": meaning}
    return rows


def collectd_env(env=None, report_dir=None):
    """collectd's environment: env (default ours) and, in the sanitized build, the ASan runtime
    preloaded ahead of anything else (collectd is not built with it, rdmakit.so is) and the
    sanitizers' reports written to report_dir/sanitizer.<pid> for sanitizer_errors()."""
    env = dict(os.environ if env is None else env)
    if not SANITIZED:
        return env
    preload = [ASAN_RUNTIME] + [p for p in env.get("LD_PRELOAD", "").split(":") if p]
    env["LD_PRELOAD"] = ":".join(preload)
    if report_dir:
        for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
            env[var] = f"{env.get(var, '')}:log_path={report_dir}/sanitizer"
    return env


def leak_is_ours(block):
    """A LeakSanitizer record is rdmakit's when the code that allocated (the first frame
    outside the sanitizer's runtime and libc) is in this source tree: collectd's own leaks
    at exit are not judged, as in test_valgrind.py."""
    for line in block.splitlines():
        frame = line.strip()
        if not frame.startswith("#"):
            continue
        if "libasan.so" in frame or "libsanitizer" in frame or "libc.so" in frame:
            continue
        return TOP in frame
    return False


def sanitizer_errors(report_dir):
    """The sanitizer reports under report_dir that concern rdmakit: every ASan or UBSan error
    (collectd stops at the first), and leaks allocated by rdmakit's code."""
    errors = []
    for name in sorted(os.listdir(report_dir)):
        if not name.startswith("sanitizer."):
            continue
        text = read_text(os.path.join(report_dir, name))
        if "ERROR: LeakSanitizer" not in text:
            errors.append(text)
            continue
        blocks = re.split(r"\n(?=(?:Direct|Indirect) leak of )", text)
        errors += [b for b in blocks[1:] if leak_is_ours(b)]
    return errors


def read_csv_rows(path):
    """Rows of one csv file as [epoch, v1, ...]: none while the csv plugin has created the
    file and not yet written its header, no line it has not finished."""
    rows = []
    with open(path) as f:
        header = f.readline()
        if not header.endswith("\n"):
            return []
        assert header.startswith("epoch,"), header
        for line in f:
            if line.endswith("\n"):
                rows.append([number(x) for x in line.strip().split(",")])
    return rows


class Daemon:
    """A private collectd with rdmakit.so (block None: without it); use as a context manager or
    call stop(). hostname: its Hostname (default HOST)."""

    def __init__(self, block, interval=1, extra="", hostname=HOST):
        self.hostname = hostname
        self.dir = tempfile.mkdtemp(prefix="rdmakit-collectd-")
        self.conf = os.path.join(self.dir, "collectd.conf")
        self.pidfile = os.path.join(self.dir, "collectd.pid")
        self.logfile = os.path.join(self.dir, "collectd.log")
        self.csvdir = os.path.join(self.dir, "csv")
        self.socket = os.path.join(self.dir, "collectd.sock")
        self.pid = None
        with open(self.conf, "w") as f:
            f.write(self.config_text(block, interval, extra))

    def config_text(self, block, interval, extra):
        plugin = "" if block is None else f'PluginDir "{PLUGIN_DIR}"\nLoadPlugin rdmakit\n{block}\n'
        return f"""Hostname "{self.hostname}"
FQDNLookup false
BaseDir "{self.dir}"
PIDFile "{self.pidfile}"
TypesDB "/usr/share/collectd/types.db"
Interval {interval}
PluginDir "{SYSTEM_PLUGIN_DIR}"
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File "{self.logfile}"
  Timestamp true
  PrintSeverity true
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "{self.csvdir}"
  StoreRates false
</Plugin>
LoadPlugin unixsock
<Plugin unixsock>
  SocketFile "{self.socket}"
  SocketGroup "root"
  SocketPerms "0600"
</Plugin>
{extra}
{plugin}"""

    def start(self, expect_values=True, env=None, prefix=()):
        """Start the daemon; it forks and writes its PIDFile. Returns collectd's exit status.
        env: the daemon's environment (e.g. sim_env()), default ours; prefix: a command that
        runs it (e.g. ip netns exec NS)."""
        proc = subprocess.run([*prefix, COLLECTD, "-C", self.conf], capture_output=True, text=True,
                              timeout=30, env=collectd_env(env, self.dir))
        self.start_output = proc.stdout + proc.stderr
        if proc.returncode != 0:
            return proc.returncode
        self.pid = int(wait_for(lambda: self.read_pidfile(), 10, "the PIDFile"))
        wait_for(lambda: os.path.exists(self.socket), 10, "the unixsock socket")
        if expect_values:
            wait_for(lambda: self.values_dirs(), 10, "the first rdma values")
        return 0

    def read_pidfile(self):
        try:
            return read_text(self.pidfile).strip()
        except FileNotFoundError:
            return None

    def running(self):
        if self.pid is None:
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        try:
            state = read_text(f"/proc/{self.pid}/stat").split(")")[-1].split()[0]
        except FileNotFoundError:
            return False
        return state != "Z"

    def stop(self):
        """SIGTERM to the PID from the PIDFile; wait until the process is gone. In the
        sanitized build, fails on any sanitizer error of rdmakit's it reported."""
        if self.pid is not None and self.running():
            os.kill(self.pid, signal.SIGTERM)
            try:
                wait_for(lambda: not self.running(), 15, "collectd to exit")
            except AssertionError:  # hung (e.g. in a blocking open): never leave it behind
                os.kill(self.pid, signal.SIGKILL)
                wait_for(lambda: not self.running(), 15, "collectd to die")
                raise
        self.pid = None
        errors = sanitizer_errors(self.dir) if SANITIZED else []
        if errors:
            raise AssertionError("sanitizer errors in collectd:\n" + "\n".join(errors))

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.cleanup()

    def log(self):
        try:
            return read_text(self.logfile)
        except FileNotFoundError:
            return ""

    def errors(self):
        """The log's [error] lines, without collectd's own that are not rdmakit's:
        write_prometheus 5.12's one at start (libmicrohttpd's options), and unixsock's naming
        of a connection thread that has already ended (set_thread_name: ENOENT, a race)."""
        return [line for line in self.log().splitlines() if "[error]" in line and
                "MHD_OPTION_EXTERNAL_LOGGER" not in line and
                'set_thread_name("unixsock conn")' not in line]

    def host_dir(self, host=None):
        """The csv plugin's directory of host (default: its own Hostname)."""
        return os.path.join(self.csvdir, host or self.hostname)

    def values_dirs(self, plugin="rdma", host=None):
        """The csv plugin's directories of plugin ("rdma-mlx5_0-1", ...; "rdma_sm" for
        values without a plugin instance), under host (default: the daemon's)."""
        try:
            return sorted(d for d in os.listdir(self.host_dir(host))
                          if d == plugin or d.startswith(plugin + "-"))
        except FileNotFoundError:
            return []

    def value_files(self, instance, plugin="rdma", host=None):
        """{"type-type_instance": [path, ...]} of a plugin instance's csv files ("" for none):
        the csv plugin starts a file a day (name-YYYY-MM-DD), so a run past midnight has two,
        oldest first."""
        d = os.path.join(self.host_dir(host), f"{plugin}-{instance}" if instance else plugin)
        files = {}
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            m = re.fullmatch(r"(.*)-\d{4}-\d{2}-\d{2}", name)
            if m:
                files.setdefault(m.group(1), []).append(os.path.join(d, name))
        return files

    def rows(self, instance, ident, plugin="rdma", host=None):
        """Rows of one value as [epoch, v1, ...], of every day's file; ident is "type" or
        "type-instance"."""
        rows = []
        for path in self.value_files(instance, plugin, host).get(ident, []):
            rows += read_csv_rows(path)
        return rows

    def last(self, instance, ident, plugin="rdma"):
        rows = self.rows(instance, ident, plugin)
        return rows[-1][1:] if rows else None

    def collectdctl(self, *args):
        return subprocess.run([COLLECTDCTL, "-s", self.socket, *args], capture_output=True,
                              text=True, timeout=10).stdout

    def notifications(self):
        """The logfile's notification lines, as dicts of their fields."""
        found = []
        for line in self.log().splitlines():
            if "Notification: " not in line:
                continue
            body = line.split("Notification: ", 1)[1]
            fields = dict(re.findall(r"(\w+) = (.*?)(?=, \w+ = |$)", body))
            found.append(fields)
        return found


def prometheus_block(port):
    """collectd's write_prometheus plugin serving /metrics on 127.0.0.1:port."""
    return (f'LoadPlugin write_prometheus\n<Plugin write_prometheus>\n  Host "127.0.0.1"\n'
            f'  Port "{port}"\n</Plugin>\n')


def scrape(port):
    """{(metric, frozenset of label pairs): value} of write_prometheus' /metrics on port."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        return parse_exposition(r.read().decode())


def parse_exposition(text):
    """{(metric, frozenset of label pairs): value} of Prometheus' text format."""
    series = {}
    for line in text.splitlines():
        m = re.fullmatch(r'(\w+)\{(.*)\} (\S+)(?: \d+)?', line)
        if m:
            labels = frozenset(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
            series[(m.group(1), labels)] = float(m.group(3))
    return series


def sim_env(sim_name):
    """The environment of a collectd that sends MADs into the simulated fabric sim_name: the
    umad2sim shim preloaded and the ibsim instance named (collectd's BaseDir, its working
    directory, is writable: the shim writes ./sys-<pid>/ there)."""
    return dict(os.environ, **umad2sim_env(sim_name))


def parse_fabric_table(path=README):
    """Rows of the fabric and SM value table, keyed by (plugin, type, type instance, ds)."""
    rows = {}
    for cells in table_cells("fabric-values", "plugin", path):
        plugin, instance, typ, type_instance, ds, unit, sent, meaning = cells
        rows[(plugin, typ, type_instance, ds)] = {
            "instance": instance, "unit": unit, "sent": sent, "help": meaning}
    return rows


def fabric_reference_rows():
    """What the fabric and SM modes send, from print_reference --fabric."""
    out = subprocess.run([REFERENCE, "--fabric"], capture_output=True, text=True,
                         check=True).stdout
    rows = {}
    for line in out.splitlines():
        plugin, instance, typ, type_instance, ds, unit, sent, meaning = line.split("\t")
        rows[(plugin, typ, type_instance, ds)] = {
            "instance": instance, "unit": unit, "sent": sent, "help": meaning}
    return rows


def number(text):
    """A csv field: derive values are whole numbers (kept exact), gauges and times floats."""
    return int(text) if re.fullmatch(r"-?\d+", text) else float(text)


def ident(row):
    """The csv file key ("type" or "type-instance") of a reference row."""
    return row["type"] + ("-" + row["type_instance"] if row["type_instance"] else "")


def counter_files(root, device, port=None):
    """{"counters/NAME": raw text} of a port's (or the device's) counter directories."""
    base = os.path.join(root, "class", "infiniband", device)
    if port is not None:
        base = os.path.join(base, "ports", str(port))
    found = {}
    for sub in ("counters", "hw_counters") if port is not None else ("hw_counters",):
        d = os.path.join(base, sub)
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            found[f"{sub}/{name}"] = read_text(os.path.join(d, name)).strip()
    return found
