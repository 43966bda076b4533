# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Helpers for the packaging tests: running commands (argument lists, never a shell), the
project's version, and a private collectd started and stopped by its PID."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from rktest import TOP, SYSFS_FIXTURES as FIXTURES, wait_for  # noqa: E402

# The packages the tree builds: the subagent's and the Zabbix template's where their folders are.
PACKAGES = ["rdmakit", "collectd-rdmakit"]
if os.path.isdir(os.path.join(TOP, "snmp-subagent")):
    PACKAGES.append("rdmakit-agentx")
if os.path.isdir(os.path.join(TOP, "packaging", "zabbix")):
    PACKAGES.append("rdmakit-zabbix-template")


def run(*args, timeout=600, check=True, env=None):
    """Run a command; return (exit status, stdout + stderr). Fail with its output if check
    and it exits non-zero."""
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
    output = proc.stdout + proc.stderr
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {proc.returncode}:\n{output[-4000:]}")
    return proc.returncode, output


def cmake_version():
    with open(os.path.join(TOP, "CMakeLists.txt")) as f:
        return re.search(r"project\(rdmakit\s+VERSION\s+([0-9.]+)", f.read()).group(1)


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return ""


def collectd_loads_installed_plugin(collectd="/usr/sbin/collectd"):
    """Start a collectd whose config has "LoadPlugin rdmakit" and no PluginDir line, on the
    ib-hdr fixture; return (its log, the csv directories of plugin rdma) once the plugin has
    logged its init line and written values. The daemon is stopped by its PID."""
    work = tempfile.mkdtemp(prefix="rdmakit-pkg-collectd-")
    log, csv, pidfile = (os.path.join(work, n) for n in ("collectd.log", "csv", "collectd.pid"))
    conf = os.path.join(work, "collectd.conf")
    with open(conf, "w") as f:
        f.write(f"""Hostname "pkgtest"
FQDNLookup false
BaseDir "{work}"
PIDFile "{pidfile}"
TypesDB "/usr/share/collectd/types.db"
Interval 1
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File "{log}"
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "{csv}"
  StoreRates false
</Plugin>
LoadPlugin rdmakit
<Plugin rdmakit>
  SysfsRoot "{os.path.join(FIXTURES, 'ib-hdr')}"
</Plugin>
""")
    proc = subprocess.Popen([collectd, "-f", "-C", conf], stdout=subprocess.DEVNULL,
                            stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: "started: host mode" in read(log), 15, "the plugin's init line")
        host = os.path.join(csv, "pkgtest")
        dirs = wait_for(lambda: os.path.isdir(host) and sorted(
            d for d in os.listdir(host) if d.startswith("rdma-")), 15, "rdma values")
        return read(log), dirs
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)
        shutil.rmtree(work, ignore_errors=True)
