#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Memory that fabric discoveries leave behind, on the ~2,000-CA simulated fat tree (96
# switches, 2,048 CAs), measured by valgrind (memcheck's "definitely lost"):
#   ibnetdiscover                      one discovery, what a user would otherwise run
#   rdmakit sweep, in this process     DISCOVERIES sweeps that each rediscover, with the
#                                      discovery helper missing: libibnetdisc in rdmakit
#   rdmakit sweep, through the helper  the same, each discovery in rdmakit-discover
#                                      (common/src/fabric/fabric_helper.c), as daemons run it
# libibnetdisc before rdma-core 49.1 leaks a block per switch port at every discovery; a
# daemon that rediscovers every few minutes must not keep that. The helper's own leak ends
# with it (valgrind does not follow the exec).
# Usage: tests/perf/rediscover-leak.sh [BUILD_DIR] [DISCOVERIES]. With PERF_MD=FILE
# (tests/perf/report.sh) it also appends its section, in markdown, to FILE.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
discoveries=${2:-${PERF_RUNS:-4}}
rdmakit=$build/cli/rdmakit
[ -x "$rdmakit" ] || BUILD_DIR=$build "$top/scripts/build.sh"
work=$(mktemp -d)
export SIM_TIMEOUT=600 # clients under valgrind
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
trap 'sim_stop_started; rm -rf "$work"' EXIT
name=rkleak$$
big_fabric_start "$name"

# lost HELPER CMD...: bytes definitely lost by CMD under valgrind (the shim's own reports
# are not counted), with RDMAKIT_DISCOVER_HELPER=HELPER.
lost() {
	local helper=$1
	shift
	sim_run "$name" env RDMAKIT_DISCOVER_HELPER="$helper" valgrind --leak-check=full \
		--log-file="$work/vg" "$@" >/dev/null 2>&1 || true
	# memcheck leaves the "definitely lost" line out when nothing was lost
	awk '/definitely lost:/ { gsub(",", "", $4); lost = $4 }
		/LEAK SUMMARY|All heap blocks were freed/ { summary = 1 }
		END { print lost != "" ? lost : summary ? 0 : "?" }' "$work/vg"
}

sweep=("$rdmakit" sweep --errors-only --count "$discoveries" --interval 0.2 --rediscover 0.001)
ibnd=$(lost "" ibnetdiscover)
here=$(lost /nonexistent/rdmakit-discover "${sweep[@]}")
helper=$(lost "$build/common/rdmakit-discover" "${sweep[@]}")

echo "fabric: 96 switches, 2048 CAs; valgrind memcheck, bytes definitely lost"
printf '%-46s %12s %14s\n' "" "discoveries" "lost bytes"
printf '%-46s %12d %14s\n' "ibnetdiscover" 1 "$ibnd"
printf '%-46s %12d %14s\n' "rdmakit sweep, discovering in this process" "$discoveries" "$here"
printf '%-46s %12d %14s\n' "rdmakit sweep, through rdmakit-discover" "$discoveries" "$helper"
[ -z "${PERF_MD:-}" ] || {
	printf '## Memory left behind by discoveries\n\n'
	printf '`tests/perf/rediscover-leak.sh` counts with valgrind (memcheck, bytes "definitely lost")\n'
	printf 'what fabric discoveries of the simulated fat tree (96 switches, 2,048 CAs) leave behind:\n'
	printf 'one `ibnetdiscover`, and `rdmakit sweep --errors-only --count %s --rediscover 0.001`\n' "$discoveries"
	printf '(a discovery before each sweep) discovering in its own process and through the\n'
	printf '`rdmakit-discover` helper. One run: the counts do not move with the load.\n\n'
	printf '| | discoveries | bytes definitely lost |\n| --- | --- | --- |\n'
	printf '| ibnetdiscover | 1 | %s |\n' "$ibnd"
	printf '| rdmakit sweep, discovering in this process | %s | %s |\n' "$discoveries" "$here"
	printf '| rdmakit sweep, through rdmakit-discover | %s | %s |\n' "$discoveries" "$helper"
	printf '\nlibibnetdisc before rdma-core 49.1 leaks a block per switch port at every discovery;\n'
	printf 'the helper'"'"'s leak ends with it (valgrind does not follow the exec). The collectd plugin\n'
	printf 'and the commands that keep watching (`sweep --interval` or `--count`, `sm --interval`)\n'
	printf 'discover through the helper.\n'
} >>"$PERF_MD"
