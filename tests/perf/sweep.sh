#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Wall time and peak memory of a fabric-wide counter sweep on a ~2,000-CA simulated fat tree
# (96 switches, 8,192 cabled ports), side by side with ibqueryerrors on the same sim:
#   ibqueryerrors (discovery + PortCounters of every port, one MAD at a time)
#   rdmakit sweep, one shot (discovery included, in its own process)
#   rdmakit sweep, steady state (topology cached; sweeps 2..N of one process, which
#   discovered through the rdmakit-discover helper; the peak is the larger process's)
# Usage: tests/perf/sweep.sh [BUILD_DIR] [RUNS]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
runs=${2:-5}
rdmakit=$build/cli/rdmakit
[ -x "$rdmakit" ] || BUILD_DIR=$build "$top/scripts/build.sh"
export RDMAKIT_DISCOVER_HELPER=$build/common/rdmakit-discover
work=$(mktemp -d)
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
trap 'sim_stop_started; rm -rf "$work"' EXIT
name=rkperf$$
big_fabric_start "$name"

# "seconds peak_kib" of one client run under the sim (GNU time's %e and %M).
measure() {
	sim_run "$name" /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>/dev/null
	cat "$work/time"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >"$work/ibq" && : >"$work/one" && : >"$work/steady"
for _ in $(seq "$runs"); do
	measure ibqueryerrors >>"$work/ibq"
	measure "$rdmakit" sweep --errors-only >>"$work/one"
	measure "$rdmakit" sweep --errors-only --json --interval 0 --count 6 >>"$work/steady.proc"
	# per-sweep seconds of sweeps 2..6 (the first one includes discovery)
	python3 -c 'import json,sys
for line in list(open(sys.argv[1]))[1:]:
    print(json.loads(line)["seconds"])' "$work/out" >>"$work/steady"
done

ibq_t=$(cut -d' ' -f1 "$work/ibq" | median); ibq_m=$(cut -d' ' -f2 "$work/ibq" | median)
one_t=$(cut -d' ' -f1 "$work/one" | median); one_m=$(cut -d' ' -f2 "$work/one" | median)
steady_t=$(median <"$work/steady"); steady_m=$(cut -d' ' -f2 "$work/steady.proc" | median)

echo "fabric: 96 switches, 2048 CAs, 8192 cabled ports; medians of $runs runs"
printf '%-36s %10s %12s %10s %10s\n' "" "wall s" "peak KiB" "time/ibq" "mem/ibq"
row() { awk -v n="$1" -v t="$2" -v m="$3" -v bt="$ibq_t" -v bm="$ibq_m" \
	'BEGIN { printf "%-36s %10.3f %12d %10.2f %10.2f\n", n, t, m, t / bt, m / bm }'; }
row "ibqueryerrors" "$ibq_t" "$ibq_m"
row "rdmakit sweep, one shot" "$one_t" "$one_m"
row "rdmakit sweep, steady state (each)" "$steady_t" "$steady_m"
echo "targets: one shot <= 0.50, steady state <= 0.25 of ibqueryerrors' time; memory <= 2.00"
