#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# rdmakit-agentx next to the AgentX floor (tests/perf/snmp_floor.py does the work): net-snmp's
# own `snmpd -X` serving ifXTable over ROWS (64) interfaces (bridges in a private network
# namespace) as a subagent of the same private master, and rdmakit-agentx serving
# rdmakitPortCounterTable on a generated host of ROWS ports; in one run, sides alternating,
# RUNS (5) times, pinned to CPU 0 (taskset of every thread) and unpinned: GETBULK walks -Cr10,
# -Cr50, -Cr100, a 10-column GETBULK, 10-varbind GETs (p50, p99), and the CPU of the master and
# of the subagent per 10,000 varbinds walked. Target: >= 1.0 x the floor on every shape.
# The same shapes inside one snmpd: its own ifXTable next to rdmakit-dlmod.so (RDMAKIT_DLMOD,
# default the build's; empty leaves it out); target >= 0.8 x native on every shape.
# BASE_AGENTX=<binary> adds another rdmakit-agentx (e.g. one built before the fd floor) behind
# a second master of the same config (it registers the same subtree); BASE_NAME names its
# column (default "without the fd floor").
# With PERF_MD=<file>, appends its markdown section to that file.
# Usage: tests/perf/snmp-floor.sh [BUILD_DIR]. Exit 0 when the target is met, 1 when not, 77
# when something needed is missing. Needs root (a network namespace).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
for tool in snmpd unshare ip; do
	command -v "$tool" >/dev/null 2>&1 || { echo "snmp-floor.sh: skipped: $tool not found" >&2; exit 77; }
done
[ -x "$build/snmp-subagent/rdmakit-agentx" ] || BUILD_DIR=$build "$top/scripts/build.sh"
export RDMAKIT_AGENTX=$build/snmp-subagent/rdmakit-agentx
dlmod=$build/snmp-subagent/rdmakit-dlmod.so
[ -n "${RDMAKIT_DLMOD+set}" ] || [ ! -f "$dlmod" ] || export RDMAKIT_DLMOD=$dlmod
exec python3 "$top/tests/perf/snmp_floor.py"
