# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""What the Python tests of every folder share: the tree's paths, private copies of the sysfs
fixtures and writes into them, waiting for a condition, running an rdmakit command for its
JSON, and the environment that attaches a process to a simulated fabric (tests/sim).

A test imports it with one line: sys.path.insert(0, <this directory>)."""
import json
import os
import shutil
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURES = os.environ.get("FIXTURES", os.path.join(TOP, "tests", "fixtures"))
SYSFS_FIXTURES = os.path.join(FIXTURES, "sysfs")
RDMAKIT = os.environ.get("RDMAKIT", "rdmakit")
UMAD2SIM = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"


def read_text(path):
    with open(path) as f:
        return f.read()


def fixture(name):
    """The path of a sysfs fixture tree (tests/fixtures/sysfs/NAME)."""
    return os.path.join(SYSFS_FIXTURES, name)


def copy_fixture(name, parent):
    """A private copy of a fixture tree (symlinks kept) that a test may change."""
    dest = os.path.join(parent, name)
    shutil.copytree(fixture(name), dest, symlinks=True)
    return dest


def write_attr(root, relpath, text):
    """Rewrite a sysfs attribute in place with one pwrite at offset 0 (same inode, as sysfs
    does), so a concurrent read sees the old or the new value. A shorter value is padded with
    spaces, which readers trim like the trailing newline."""
    path = os.path.join(root, relpath)
    data = (text + "\n").encode()
    data += b" " * max(0, os.path.getsize(path) - len(data))
    fd = os.open(path, os.O_WRONLY)
    try:
        os.pwrite(fd, data, 0)
    finally:
        os.close(fd)


def wait_for(predicate, timeout=10.0, what="condition"):
    """Poll predicate until it returns something true; fail after timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.1)


def run_json(run, *args, rc=0, **options):
    """The JSON document of run(*args, "--json", **options), where run starts a command and
    returns its subprocess.CompletedProcess; fails unless the command exits rc."""
    proc = run(*args, "--json", **options)
    if proc.returncode != rc:
        raise AssertionError(f"{' '.join(map(str, proc.args))}: exit {proc.returncode}: "
                             f"{proc.stderr}")
    return json.loads(proc.stdout)


def umad2sim_env(sim_name):
    """What a process's environment needs to send its MADs into the simulated fabric sim_name:
    the umad2sim shim preloaded and the ibsim instance named."""
    return {"LD_PRELOAD": UMAD2SIM, "IBSIM_SOCKNAME": sim_name}
