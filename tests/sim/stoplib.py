# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""For the stop tests of the daemons: a fabric that stops answering while a discovery runs,
and the rdmakit-discover helpers a daemon started."""
import os
import signal
import sys
import time

import simlib

HELPER = "rdmakit-discover"


def alive(pid):
    """True while pid runs (a zombie is not running)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def helpers_of(sim_name):
    """PIDs of the helpers running against the simulator sim_name."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv0 = f.read().split(b"\0")[0].decode(errors="replace")
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if os.path.basename(argv0) == HELPER and \
                f"IBSIM_SOCKNAME={sim_name}".encode() in env and alive(int(entry)):
            found.append(int(entry))
    return found


def parent_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().split(")")[-1].split()[1])


def ibsim_pid(sim):
    with open(os.path.join(sim.env["SIM_DIR"], f"rdmakit-sim-{sim.name}", "ibsim.pid")) as f:
        return int(f.read().strip())


def age_of(pid):
    """Seconds since pid started (to the kernel's clock tick)."""
    with open(f"/proc/{pid}/stat") as f:
        started = int(f.read().split(")")[-1].split()[19]) / os.sysconf("SC_CLK_TCK")
    with open("/proc/uptime") as f:
        return float(f.read().split()[0]) - started


def young_helper_of(sim_name, daemon_pid, within=0.03):
    """The PID of a helper daemon_pid started against sim_name less than within seconds ago
    (too young to have finished its discovery), or None."""
    for pid in helpers_of(sim_name):
        try:
            if parent_of(pid) == daemon_pid and age_of(pid) < within:
                return pid
        except (FileNotFoundError, ProcessLookupError):
            pass
    return None


def control_socket_exists(sim_name):
    """Whether ibsim's abstract socket "@NAME:ctl" is bound (/proc/net/unix pads it with @)."""
    with open("/proc/net/unix") as f:
        return any(line.split()[-1].rstrip("@") == f"@{sim_name}:ctl"
                   for line in f.read().splitlines()[1:] if len(line.split()) > 7)


def kill_ibsim(sim, pid, timeout=5):
    """SIGKILL ibsim and wait until its control socket is gone (a client's last word to a
    socket still there would wait for an answer)."""
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid) and not control_socket_exists(sim.name):
            return
        time.sleep(0.01)
    raise AssertionError(f"ibsim {pid} still answers {timeout} s after SIGKILL")


def freeze_fabric_until_a_helper_waits(sim, daemon_pid, timeout=60):
    """Freeze ibsim (nothing is answered any more) while a discovery helper of daemon_pid has
    just started, let the helper wait on it for 1 s, then kill ibsim; the helper's PID."""
    ibsim = ibsim_pid(sim)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pid = young_helper_of(sim.name, daemon_pid)
        if pid is None:
            time.sleep(0.002)
            continue
        os.kill(ibsim, signal.SIGSTOP)
        time.sleep(1)
        if alive(pid):
            kill_ibsim(sim, ibsim)
            return pid
        os.kill(ibsim, signal.SIGCONT)  # it had finished: catch the next one
    raise AssertionError("no discovery helper waited on the frozen fabric")


def small_fabric(prefix, tmpdir):
    """A running simulated fat tree (two leaves, two hosts a leaf) with OpenSM master on Hca1,
    named prefix and this process's PID; leave it with sim.__exit__(None, None, None)."""
    net = simlib.generate(os.path.join(tmpdir, "ft.net"), leaves=2, hosts=2, spines=1, radix=8)
    sim = simlib.Sim(f"{prefix}{os.getpid()}", net, tmpdir).__enter__()
    try:
        sim.opensm("Hca1", 10)
    except BaseException:
        sim.__exit__(None, None, None)
        raise
    return sim


def assert_stopped_in_time(test, who, sim, helper, started):
    """The daemon who stopped within 5 s of started (time.monotonic()) and left no helper."""
    elapsed = time.monotonic() - started
    sys.stderr.write(f"{who} stopped {elapsed:.2f} s after SIGTERM\n")
    test.assertLess(elapsed, 5)
    test.assertFalse(alive(helper), f"helper {helper} left behind")
    test.assertEqual(helpers_of(sim.name), [])
