#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# rdmakit sweep at --window 4096 (the largest) next to --window 32 (the default) on the
# ~2,000-CA simulated fat tree (tests/perf/bigfabric.sh: 96 switches, 2,048 CAs, 8,192 cabled
# ports): per window, the wall time of a one-shot sweep (discovery included) and the time of a
# steady-state sweep (sweeps 2..6 of one process, topology cached), with the median and range
# over RUNS runs, the counters both read (they must agree but for the traffic the sweeps
# themselves add) and the conditions: date, commit, load average before and after.
# Usage: tests/perf/sweep-window.sh [BUILD_DIR] [RUNS]. With PERF_MD=FILE (tests/perf/report.sh)
# it also appends its section, in markdown, to FILE.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
runs=${2:-${PERF_RUNS:-5}}
rdmakit=$build/cli/rdmakit
[ -x "$rdmakit" ] || BUILD_DIR=$build "$top/scripts/build.sh"
export RDMAKIT_DISCOVER_HELPER=$build/common/rdmakit-discover
work=$(mktemp -d)
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
trap 'sim_stop_started; rm -rf "$work"' EXIT
name=rkwin$$
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
big_fabric_start "$name"

# one_shot WINDOW: seconds of one rdmakit sweep (its JSON in $work/one.WINDOW.json)
one_shot() {
	local start end
	start=$(date +%s.%N)
	SIM_TIMEOUT=300 sim_run "$name" "$rdmakit" sweep --window "$1" --json \
		>"$work/one.$1.json" 2>/dev/null || {
		echo "sweep --window $1 failed (124: still running after 300 s)" >&2
		exit 1
	}
	end=$(date +%s.%N)
	echo "$end - $start" | bc
}

# steady WINDOW: the seconds of sweeps 2..6 of one process, one a line
steady() {
	SIM_TIMEOUT=300 sim_run "$name" "$rdmakit" sweep --window "$1" --errors-only --json \
		--interval 0 --count 6 >"$work/steady.$1" 2>/dev/null || {
		echo "sweep --window $1 --count 6 failed (124: still running after 300 s)" >&2
		exit 1
	}
	python3 -c 'import json,sys
for line in list(open(sys.argv[1]))[1:]:
    print(json.loads(line)["seconds"])' "$work/steady.$1"
}

# "median min max" of the numbers on stdin
summary() {
	sort -g | awk '{ v[NR] = $1 } END { printf "%.3f %.3f %.3f\n", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

for w in 32 4096; do : >"$work/one.$w" && : >"$work/steady.$w.s"; done
for _ in $(seq "$runs"); do
	for w in 32 4096; do
		one_shot "$w" >>"$work/one.$w"
		steady "$w" >>"$work/steady.$w.s"
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

same=$(python3 - "$work/one.32.json" "$work/one.4096.json" <<'PY'
import json, sys
TRAFFIC = {"port_xmit_data", "port_rcv_data", "port_xmit_packets", "port_rcv_packets"}
def counters(path):
    doc = json.load(open(path))
    return doc["ports_swept"], len(doc["failed"]), {
        (p["guid"], p["port"]): {k: v for k, v in p["counters"].items() if k not in TRAFFIC}
        for p in doc["ports"]}
a, b = counters(sys.argv[1]), counters(sys.argv[2])
print(f"ports swept {a[0]} and {b[0]}, failed {a[1]} and {b[1]}, error counters "
      f"{'the same' if a[2] == b[2] else 'DIFFERENT'}")
PY
)

echo "fabric: 96 switches, 2048 CAs, 8192 cabled ports; $runs runs per window"
echo "conditions: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$top" rev-parse --short HEAD)," \
	"$(nproc) cores, load average $load_before before, $load_after after"
printf '%-40s %12s %20s\n' "" "median s" "range s"
row() {
	read -r med lo hi < <(summary <"$2")
	printf '%-40s %12s %20s\n' "$1" "$med" "$lo-$hi"
}
row "window 32, one shot (with discovery)" "$work/one.32"
row "window 4096, one shot (with discovery)" "$work/one.4096"
row "window 32, steady state (each sweep)" "$work/steady.32.s"
row "window 4096, steady state (each sweep)" "$work/steady.4096.s"
echo "last one-shot sweeps: $same"

[ -z "${PERF_MD:-}" ] || python3 - "$work" "$runs" "$same" >>"$PERF_MD" <<'PY'
import statistics, sys
work, runs, same = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def span(v, f="%.3f"):
    return (f + " (" + f + "–" + f + ")") % (statistics.median(v), min(v), max(v))
one = {w: [float(x) for x in open(f"{work}/one.{w}")] for w in (32, 4096)}
steady = {}
for w in (32, 4096):
    vals = [float(x) for x in open(f"{work}/steady.{w}.s")]
    per = len(vals) // runs
    steady[w] = [statistics.median(vals[i * per:(i + 1) * per]) for i in range(runs)]
print(f"""## A large MAD window

`tests/perf/sweep-window.sh` runs `rdmakit sweep` at `--window 32` (the default) and
`--window 4096` (the largest) on the simulated fat tree (96 switches, 2,048 CAs, 8,192 cabled
ports), alternating within each run: a one-shot sweep (wall time of the whole process,
discovery included, every counter of every port, `--json`) and the steady-state sweeps 2 to 6
of one `--errors-only --interval 0 --count 6` process (the seconds each reports; the run's
median). The ratio is window 4096 over window 32 within each run. Median (min–max) over
{runs} runs.

| | window 32, s | window 4096, s | 4096 / 32 |
| --- | --- | --- | --- |
| one shot (with discovery) | {span(one[32])} | {span(one[4096])} | {span([b / a for a, b in zip(one[32], one[4096])], "%.2f")} |
| steady state (each sweep) | {span(steady[32])} | {span(steady[4096])} | {span([b / a for a, b in zip(steady[32], steady[4096])], "%.2f")} |

The last one-shot sweeps of both windows: {same} (the traffic counters differ by the MADs
the sweeps themselves add).

The engine sends at most 4 MADs in a row before it reads what has arrived (waiting up to 1 ms
for an answer while more than 4 are in flight), and keeps at most 16 in flight to one
destination's agent (`RK_MAD_MAX_PER_AGENT`: a LID's SMA or PMA, or one directed-route path);
the requests of a full destination wait there in order while the window goes on to other
nodes. Without that, a large window never finished under ibsim: the engine sent a whole window
without reading, and ibsim's umad shim holds the lock its receiver thread needs while a send
blocks ([tests/sim/README.md](../tests/sim/README.md)). `sim_sweep_window` checks windows 512
and 4096 on a 100-node tree and the per-agent cap. Under ibsim a larger window gains little:
the simulator answers in tens of microseconds, so between bursts the answers come back and few
MADs are in flight whatever the window; a window matters where answers take longer (real
switches' PMAs), which the per-agent cap keeps from piling onto one node.
""")
PY
