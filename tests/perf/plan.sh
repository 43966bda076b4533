#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# What --expect adds to a one-shot rdmakit fabric on the ~2,000-CA simulated fat tree (96
# switches, 2,048 CAs, 4,096 links), next to ibnetdiscover --diff against a cache of the same
# sim. The plan is saved once (rdmakit fabric --save), the cache written once
# (ibnetdiscover --cache); then each run times, alternating, in separate processes:
#   rdmakit fabric            (discovery and the node list)
#   rdmakit fabric --expect   (discovery, the plan read and compared; must exit 0)
#   ibnetdiscover --diff      (discovery and the diff against its cache)
# Prints the load average before and after, each one's median and range of wall seconds,
# and the median of the per-run ratio expect / fabric (the target is below 1.10). --expect
# prints findings where plain fabric prints the node list, so the whole-process ratio can
# come out below 1; tests/plan_bench then times what --expect adds, read and compare, in
# one process on the saved plan (a plan compared with itself: every link looked at).
# Usage: tests/perf/plan.sh [BUILD_DIR] [RUNS]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
runs=${2:-7}
rdmakit=$build/cli/rdmakit
[ -x "$rdmakit" ] || BUILD_DIR=$build "$top/scripts/build.sh"
work=$(mktemp -d)
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
trap 'sim_stop_started; rm -rf "$work"' EXIT
name=rkplan$$
big_fabric_start "$name"

# Wall seconds of one client run under the sim; fails when the client does.
measure() {
	sim_run "$name" /usr/bin/time -f "%e" -o "$work/time" "$@" >"$work/out" 2>"$work/err" ||
		{ echo "plan.sh: $* failed: $(tail -3 "$work/err")" >&2; exit 1; }
	cat "$work/time"
}

stats() {
	sort -n | awk '{ v[NR] = $1 }
		END { printf "%.3f (%.3f-%.3f)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'; }

sim_run "$name" "$rdmakit" fabric --save "$work/fabric.plan" 2>/dev/null
sim_run "$name" ibnetdiscover --cache "$work/ibnd.cache" >/dev/null 2>&1
echo "date $(date -u +%FT%TZ), commit $(git -C "$top" rev-parse --short HEAD)," \
	"load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$work/fabric" && : >"$work/expect" && : >"$work/diff" && : >"$work/ratio"
for _ in $(seq "$runs"); do
	f=$(measure "$rdmakit" fabric)
	e=$(measure "$rdmakit" fabric --expect "$work/fabric.plan")
	d=$(measure ibnetdiscover --diff "$work/ibnd.cache")
	echo "$f" >>"$work/fabric"; echo "$e" >>"$work/expect"; echo "$d" >>"$work/diff"
	awk -v e="$e" -v f="$f" 'BEGIN { print e / f }' >>"$work/ratio"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); $runs runs, wall s median (range)"
echo "rdmakit fabric               $(stats <"$work/fabric")"
echo "rdmakit fabric --expect      $(stats <"$work/expect")"
echo "ibnetdiscover --diff         $(stats <"$work/diff")"
echo "expect / fabric, per run     $(median <"$work/ratio") (target < 1.10)"
echo "in one process, no discovery ($(grep -c . "$work/fabric.plan") plan lines, 21 reps):"
"$build/tests/plan_bench" "$work/fabric.plan" 21
