#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Where the CPU of steady-state sweeps goes, in the client and in the simulator: perf record of
# `rdmakit sweep --errors-only --json --interval 0 --count SWEEPS` (default 21: one discovery,
# then sweeps of the cached topology) on the simulated fat tree (tests/perf/bigfabric.sh: 96
# switches, 2,048 CAs, 8,192 cabled ports), and of ibsim over the same time; prints the share
# of samples per shared object (the kernel, libc, the umad2sim shim, rdmakit, libibmad, ...)
# of each, the median seconds of the sweeps after the first, and the conditions.
# Usage: tests/perf/sweep-profile.sh [BUILD_DIR] [SWEEPS]. Needs perf (linux-perf).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
sweeps=${2:-21}
command -v perf >/dev/null || { echo "sweep-profile: skipped: perf not found" >&2; exit 77; }
[ -x "$build/cli/rdmakit" ] || BUILD_DIR=$build "$top/scripts/build.sh"
work=$(mktemp -d)
perf_pid=
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
trap '[ -z "$perf_pid" ] || kill -INT "$perf_pid" 2>/dev/null || true; sim_stop_started; rm -rf "$work"' EXIT
name=rkprof$$
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
big_fabric_start "$name"
perf record -q -o "$work/sim.data" -p "$(cat "$(sim_dir "$name")/ibsim.pid")" 2>/dev/null &
perf_pid=$!
sleep 0.5
RDMAKIT_DISCOVER_HELPER=$build/common/rdmakit-discover sim_run "$name" perf record -q \
	-o "$work/client.data" "$build/cli/rdmakit" sweep --errors-only --json --interval 0 \
	--count "$sweeps" >"$work/out" 2>/dev/null
kill -INT "$perf_pid"
wait "$perf_pid" || true
perf_pid=
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$top" describe --always --dirty)," \
	"load average $load_before before, $load_after after; $sweeps sweeps"
python3 -c 'import json, statistics, sys
docs = [json.loads(l) for l in open(sys.argv[1])][1:]
print("steady-state sweep: median %.3f s (%.3f-%.3f), %d MADs each" % (
    statistics.median(d["seconds"] for d in docs), min(d["seconds"] for d in docs),
    max(d["seconds"] for d in docs), docs[-1]["mads"]["sent"]))' "$work/out"
for side in client sim; do
	echo "$side: share of samples by shared object"
	perf report -i "$work/$side.data" --sort dso --stdio 2>/dev/null | grep -v '^#' | grep . |
		head -8
done
