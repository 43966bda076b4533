#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# The steady-state sweep of several builds of rdmakit, alternating on one simulated fat tree
# (tests/perf/bigfabric.sh: 96 switches, 2,048 CAs, 8,192 cabled ports), to tell what a change
# of the engine did: per build, the median of the seconds sweeps 2..12 of one
# `sweep --errors-only --json --interval 0 --count 12` process report (topology cached), the
# MADs a sweep sends (its JSON's mads.sent), and the CPU time per sweep of the client and of
# ibsim: (a --count 12 process − a --count 2 process) / 10. Each run measures every build once,
# in a rotating order; the cells are the median (min–max) over the runs, the ratio is to the
# first build within each run. The conditions (date, commit of this tree, load average before
# and after) are printed. A build is a build directory (BUILD/cli/rdmakit and
# BUILD/common/rdmakit-discover), e.g. one of an older commit: `git archive COMMIT | tar -x -C
# DIR && cmake -S DIR -B DIR/build && cmake --build DIR/build --target rdmakit rdmakit_discover`.
# Usage: tests/perf/sweep-builds.sh [--runs N] BUILD...
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
runs=5
[ "${1:-}" = --runs ] && { runs=$2; shift 2; }
[ $# -ge 1 ] || { sed -n '3,15s/^# \{0,1\}//p' "$0" >&2; exit 2; }
builds=()
for b in "$@"; do
	b=$(realpath "$b")
	[ -x "$b/cli/rdmakit" ] && [ -x "$b/common/rdmakit-discover" ] ||
		{ echo "sweep-builds: $b has no cli/rdmakit and common/rdmakit-discover" >&2; exit 2; }
	builds+=("$b")
done
work=$(mktemp -d)
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
trap 'sim_stop_started; rm -rf "$work"' EXIT
name=rkbuilds$$
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
big_fabric_start "$name"
sim_pid=$(cat "$(sim_dir "$name")/ibsim.pid")
hz=$(getconf CLK_TCK)
sim_ticks() { awk '{ print $14 + $15 }' "/proc/$sim_pid/stat"; }

# sweeps K BUILD: "client_cpu_s sim_cpu_s" of one --count K process; its JSON in $work/out
sweeps() {
	local before after
	before=$(sim_ticks)
	RDMAKIT_DISCOVER_HELPER=$2/common/rdmakit-discover sim_run "$name" /usr/bin/time \
		-f "%U %S" -o "$work/time" "$2/cli/rdmakit" sweep --errors-only --json --interval 0 \
		--count "$1" >"$work/out" 2>/dev/null
	after=$(sim_ticks)
	awk -v t="$((after - before))" -v hz="$hz" '{ print $1 + $2, t / hz }' "$work/time"
}

: >"$work/records"
for run in $(seq "$runs"); do
	for k in $(seq 0 $((${#builds[@]} - 1))); do
		i=$(((k + run) % ${#builds[@]}))
		read -r c2 s2 < <(sweeps 2 "${builds[$i]}")
		read -r c12 s12 < <(sweeps 12 "${builds[$i]}")
		python3 -c 'import json, statistics, sys
docs = [json.loads(l) for l in open(sys.argv[1])][1:]
print(sys.argv[2], sys.argv[3], statistics.median(d["seconds"] for d in docs),
      docs[-1]["mads"]["sent"], *sys.argv[4:])' "$work/out" "$run" "$i" \
			"$(echo "($c12 - $c2) / 10" | bc -l)" "$(echo "($s12 - $s2) / 10" | bc -l)" \
			>>"$work/records"
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work/records" "$runs" "$load_before" "$load_after" \
	"$(git -C "$top" describe --always --dirty)" "${builds[@]}" <<'PY'
import statistics, sys, time
path, runs, before, after, commit, *builds = sys.argv[1:]
rec = {}
for line in open(path):
    run, i, secs, mads, cpu, sim = line.split()
    rec[int(run), int(i)] = (float(secs), int(mads), float(cpu), float(sim))
def span(v, f):
    return (f + " (" + f + "–" + f + ")") % (statistics.median(v), min(v), max(v))
print("steady-state sweep --errors-only, %s runs; %s, tree at %s, load average %s before, %s after"
      % (runs, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), commit, before, after))
print("| build | s per sweep | x first build | MADs per sweep | client CPU s per sweep | ibsim CPU s per sweep |")
print("| --- | --- | --- | --- | --- | --- |")
R = range(1, int(runs) + 1)
for i, b in enumerate(builds):
    rows = [rec[r, i] for r in R]
    ratio = [rec[r, i][0] / rec[r, 0][0] for r in R]
    print("| %s | %s | %s | %s | %s | %s |" % (b, span([x[0] for x in rows], "%.3f"), span(ratio, "%.2f"),
          span([x[1] for x in rows], "%d"), span([x[2] for x in rows], "%.3f"), span([x[3] for x in rows], "%.3f")))
PY
