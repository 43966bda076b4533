#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""The daemons' part of tests/perf/scale.sh, on the tree its ibsim SIM_NAME and OpenSM serve,
one daemon at a time:

- collectd with rdmakit.so (Interval 1, csv, the host mode on the ib-hdr fixture, under the
  umad2sim shim): once without Fabric (the baseline, as long as the fabric run takes to its
  first value), then with Fabric true and SubnetManager true at FabricInterval INTERVAL until
  it has dispatched SWEEPS sweeps; VmRSS and VmHWM from /proc, the sweeps' own duration as the
  plugin dispatches it (duration-sweep, after the first: the first read also discovers), and
  the rdma_fabric value lists of one sweep (csv files);
- rdmakit-agentx behind a private snmpd: once without the fabric (the baseline), then with
  fabric yes, sm yes and fabric-interval INTERVAL until its fabric port table
  (rdmakitFabricPortTable) has a row for every port (PORTS cabled ports and each switch's
  port 0); its VmRSS (median of 10 samples a second apart) and VmHWM, and the wall time of
  one snmpbulkwalk -Cr50 of the whole table.

Prints one line of key=value for scale.sh. Usage: scale_daemons.py SIM_NAME PORTS SWITCHES
(RDMAKIT_PLUGIN_DIR, RDMAKIT_AGENTX and RDMAKIT_DISCOVER_HELPER from the environment)."""
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "collectd")]
import cdtest  # noqa: E402
import snmp_perf  # noqa: E402  (tests/perf: bulkwalk, rss_samples)
import snmptest  # noqa: E402
from rktest import umad2sim_env, wait_for  # noqa: E402

SWEEPS = int(os.environ.get("SCALE_DAEMON_SWEEPS", "4"))
INTERVAL = int(os.environ.get("SCALE_DAEMON_INTERVAL", "5"))
TIMEOUT = int(os.environ.get("SCALE_TIMEOUT", "600"))


def status_kib(pid, field):
    """VmRSS or VmHWM of process pid, in KiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def collectd_run(sim, fabric):
    """(VmRSS, VmHWM, sweep seconds after the first, rdma_fabric value lists) of a private
    collectd on the sim, with the fabric mode or without it."""
    options = dict(SysfsRoot=cdtest.fixture("ib-hdr"))
    if fabric:
        options.update(Fabric=True, SubnetManager=True, FabricInterval=INTERVAL)
    with cdtest.Daemon(cdtest.plugin_block(**options)) as daemon:
        assert daemon.start(env=cdtest.sim_env(sim)) == 0, daemon.start_output
        if fabric:
            wait_for(lambda: len(daemon.rows("", "duration-sweep", plugin="rdma_fabric")) >= SWEEPS,
                     TIMEOUT, f"{SWEEPS} fabric sweeps dispatched")
        else:
            time.sleep(SWEEPS * INTERVAL)
        rss, hwm = status_kib(daemon.pid, "VmRSS"), status_kib(daemon.pid, "VmHWM")
        sweeps = [row[1] for row in daemon.rows("", "duration-sweep", plugin="rdma_fabric")][1:]
        lists = sum(len(daemon.value_files(d.partition("-")[2], "rdma_fabric"))
                    for d in daemon.values_dirs("rdma_fabric"))
        errors = daemon.errors()
    assert not errors, errors
    return rss, hwm, sweeps, lists


def port_rows(setup):
    """Rows of the fabric port table (its state column, one a port); 0 while a walk fails
    (snmpd times out on a subagent still busy with its first discovery)."""
    try:
        return snmp_perf.bulkwalk(setup, snmptest.ROOT_OID + ".1.5.2.1.2")[1]
    except subprocess.CalledProcessError:
        return 0


def agent_run(sim, rows):
    """(VmRSS median, VmHWM, walk seconds, walk varbinds) of rdmakit-agentx on the sim with the
    fabric (rows: the fabric port table's rows to wait for), or without it (rows 0)."""
    config = "refresh 1\n"
    if rows:
        config += f"fabric yes\nsm yes\nfabric-interval {INTERVAL}\n"
    with snmptest.Setup(snmptest.fixture("ib-hdr"), config=config, ready_timeout=TIMEOUT,
                        env_extra=umad2sim_env(sim)) as setup:
        walk = (0.0, 0)
        if rows:
            wait_for(lambda: port_rows(setup) >= rows, TIMEOUT, f"{rows} fabric port rows")
            walk = snmp_perf.bulkwalk(setup, snmptest.ROOT_OID + ".1.5.2")
        rss, _low, _high, hwm = snmp_perf.rss_samples(setup.agent.proc.pid)
    return rss, hwm, walk[0], walk[1]


def main():
    sim, ports, switches = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    base_rss, _hwm, _sweeps, _lists = collectd_run(sim, False)
    cd_rss, cd_hwm, sweeps, lists = collectd_run(sim, True)
    agent_base, _hwm, _secs, _walked = agent_run(sim, 0)
    agent_rss, agent_hwm, walk_s, walked = agent_run(sim, ports + switches)
    print(f"cd_base={base_rss} cd_rss={cd_rss} cd_hwm={cd_hwm} cd_lists={lists} "
          f"cd_sweep_med={statistics.median(sweeps):.3f} cd_sweep_max={max(sweeps):.3f} "
          f"cd_sweeps={len(sweeps)} ag_base={agent_base:.0f} ag_rss={agent_rss:.0f} "
          f"ag_hwm={agent_hwm} walk_s={walk_s:.2f} walk_varbinds={walked}")


if __name__ == "__main__":
    main()
