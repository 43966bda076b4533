#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# One active fabric watcher per subnet, measured: tests/sim/test_watchers.py (two collectds and
# rdmakit-agentx on ibsim with a master and a standby OpenSM, FabricInterval 3, FabricLease 6)
# with TRIES kill -9 takeovers instead of the test's 3, and the PMA MADs each watcher sent.
# Prints the test's lines of figures with the conditions.
# Usage: tests/perf/watchers.sh [BUILD_DIR] [TRIES]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
tries=${2:-10}
echo "watchers: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$top" describe --always --dirty)," \
	"load average $(cut -d' ' -f1-3 /proc/loadavg), $tries tries"
RDMAKIT_PLUGIN_DIR=$build/collectd-plugin RDMAKIT_AGENTX=$build/snmp-subagent/rdmakit-agentx \
	MADCOUNT=$build/tests/madcount.so RDMAKIT_DISCOVER_HELPER=$build/common/rdmakit-discover \
	TAKEOVER_TRIES=$tries python3 "$top/tests/sim/test_watchers.py" 2>&1 |
	grep -E "PMA MADs per watcher|takeover after kill|^(OK|FAILED)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
