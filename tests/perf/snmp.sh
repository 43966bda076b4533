#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# rdmakit-agentx's speed and memory, from one run (tests/perf/snmp_perf.py does the work):
# - GET latency p50/p99 of one port counter, sent one at a time over UDP to a private snmpd,
#   on a generated host of ROWS (64) ports, idle and while the subagent refreshes the
#   ~2,000-CA simulated fat tree (ibsim + OpenSM, sweep every second, rediscovery every 2 s);
#   target: busy p99 <= 1.2 x idle p99;
# - varbinds per second of snmpbulkwalk -Cr50 of rdmakitPortCounterTable, next to snmpd's own
#   ifXTable over as many interfaces (bridges in a private network namespace: this kernel has
#   no dummy driver) walked the same way; no target: native is out of an AgentX subagent's
#   reach (the master turns each GETBULK repetition into one AgentX GetNext), and the target
#   is the AgentX floor of tests/perf/snmp-floor.sh (>= 1.0 x snmpd -X serving ifXTable);
# - the wall time to walk rdmakitFabricPortTable of that fabric (8,192 cabled ports + switch
#   port 0s);
# - the subagent's VmRSS with that fabric; target <= 32 MiB.
# Usage: tests/perf/snmp.sh [BUILD_DIR]. Exit 0 when every target is met, 1 when not, 77 when
# something needed is missing. Needs root (a network namespace).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
for tool in snmpd snmpbulkwalk ibsim opensm unshare bc; do
	command -v "$tool" >/dev/null 2>&1 || { echo "snmp.sh: skipped: $tool not found" >&2; exit 77; }
done
[ -x "$build/snmp-subagent/rdmakit-agentx" ] || BUILD_DIR=$build "$top/scripts/build.sh"
export RDMAKIT_AGENTX=$build/snmp-subagent/rdmakit-agentx
export RDMAKIT_DISCOVER_HELPER=$build/common/rdmakit-discover
exec python3 "$top/tests/perf/snmp_perf.py"
