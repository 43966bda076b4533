# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""What the Python tests of every folder share: the tree's paths, private copies of the sysfs
fixtures and writes into them, waiting for a condition, running an rdmakit command for its
JSON, the environment that attaches a process to a simulated fabric (tests/sim), and the fault
shim's environment with a byte-, mode- and owner-exact listing of a tree (the fault matrix).

A test imports it with one line: sys.path.insert(0, <this directory>)."""
import hashlib
import json
import os
import shutil
import socket
import stat
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
    the umad2sim shim preloaded and the ibsim instance named; no descriptor floor, since the
    shim takes every descriptor from 1024 up for its own (its close() never closes them)."""
    return {"LD_PRELOAD": UMAD2SIM, "IBSIM_SOCKNAME": sim_name}


FAULT_SHIM = os.environ.get("RDMAKIT_FAULT_SHIM", "")
FAULT_CALLS = ("write", "fsync", "rename", "unlink", "rmdir")


def fault_env(call=None, at=None, errno_name="ENOSPC", counts=None):
    """The environment that preloads the fault shim (tests/fakes/fault_shim.c): the at-th call
    (1-based) of call fails with errno_name (ENOSPC or EIO); with counts, the shim writes how
    many of each of FAULT_CALLS the process made to that file at its exit."""
    env = {"LD_PRELOAD": FAULT_SHIM}
    if call:
        env.update(RDMAKIT_FAULT_CALL=call, RDMAKIT_FAULT_AT=str(at),
                   RDMAKIT_FAULT_ERRNO=errno_name)
    if counts:
        env["RDMAKIT_FAULT_COUNTS"] = counts
    return env


def read_call_counts(path):
    """{call: count} from the file the fault shim wrote."""
    with open(path) as f:
        return {name: int(count) for name, count in (line.split() for line in f)}


def tree_state(root, skip=()):
    """{relpath: (kind, mode, uid, gid, sha256 or link target)} of every entry under root, for
    a byte-, mode- and owner-exact comparison; a path equal to or under one in skip is left
    out."""
    state = {}
    for top, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(top, name)
            rel = os.path.relpath(path, root)
            if any(rel == s or rel.startswith(s + "/") for s in skip):
                continue
            st = os.lstat(path)
            what = ""
            if stat.S_ISLNK(st.st_mode):
                what = os.readlink(path)
            elif stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    what = hashlib.sha256(f.read()).hexdigest()
            kind = stat.S_IFMT(st.st_mode)
            state[rel] = (kind, stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, what)
    return state


_ports_handed_out = set()


def free_port(kind=socket.SOCK_STREAM):
    """A TCP (or with kind=socket.SOCK_DGRAM, UDP) port on 127.0.0.1 that nothing uses now (the
    kernel's pick), never the same twice in a process: a port derived from the pid collided
    between tests ctest ran together."""
    while True:
        with socket.socket(socket.AF_INET, kind) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _ports_handed_out:
            _ports_handed_out.add(port)
            return port
