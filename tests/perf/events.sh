#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# How soon a pulled cable is told, on the ~2,000-CA simulated fat tree (tests/perf/bigfabric.sh:
# 96 switches, 2,048 CAs), side by side with a sweep-only watch at collectd's default
# FabricInterval (30 s):
#   rdmakit events --json      on Hca2048 (through tests/sim/issm_shim.c: ibsim hands Reports
#                              only to its node's SM-side client), from `Unlink` on ibsim's
#                              console to the line naming the port that went DOWN, and from
#                              `ReLink` to the line of it coming back; TRIES host cables
#                              (one a leaf: Hca5, Hca37, ...; OpenSM ignores a switch's traps
#                              once it sent 10 within its aging time of each other,
#                              osm_trap_rcv.c) and one spine cable, last: after a spine cable
#                              comes back, OpenSM stops (no trap received or logged) while the
#                              sim has an SM-side client (tests/sim/README.md), so no second
#                              spine try can be made on the same run
#   sweep --interval 30        `rdmakit sweep --errors-only --json --interval 30`, from `Unlink`
#                              to the first sweep that lists the host's port as not read
#                              (SWEEP_TRIES tries; a cable pulled at a random point of the
#                              interval)
# and the MADs the events process sends for one cable pulled (a run of 8 s with one Unlink,
# minus a run of 8 s without), against a full discovery's SMPs (`rdmakit fabric`), counted by
# tests/perf/madcount.c.
# Usage: tests/perf/events.sh [BUILD_DIR] [TRIES] [SWEEP_TRIES]. With PERF_MD=FILE it appends
# its section, in markdown, to FILE. Exit status 1 when the targets (median <= 2 s, max <= 5 s,
# MADs <= 1% of a discovery's) are missed.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
tries=${2:-20}
sweep_tries=${3:-5}
rdmakit=$build/cli/rdmakit
shim=$build/tests/issm_shim.so
[ -x "$rdmakit" ] && [ -f "$shim" ] || { echo "events.sh: build $build first" >&2; exit 2; }
export RDMAKIT_DISCOVER_HELPER=$build/common/rdmakit-discover
work=$(mktemp -d)
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
events_pid=
stop_events() { # SIGTERM to rdmakit itself (not the sim_run shell above it): it unsubscribes
	# and leaves ibsim's client slot free for the next SM-side client of its node
	[ -z "$events_pid" ] || { pkill -TERM -f "$rdmakit events --json" 2>/dev/null || true
		wait "$events_pid" 2>/dev/null || true; }
	events_pid=
}
trap 'stop_events; sim_stop_started; rm -rf "$work"' EXIT
cc -O2 -Wall -shared -fPIC -o "$work/madcount.so" "$top/tests/perf/madcount.c" -ldl
name=rkev$$
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
big_fabric_start "$name"
sim_wait_master "$name" >/dev/null

# events_start OUT [ARGS...]: rdmakit events --json on Hca2048 in the background, to OUT
events_start() {
	local out=$1
	shift
	SIM_HOST=Hca2048 RK_ISSM_COMM=rdmakit LD_PRELOAD=$shim SIM_TIMEOUT=3600 \
		sim_run "$name" "$rdmakit" events --json "$@" >"$out" 2>"$out.err" &
	events_pid=$!
}

# wait_line FILE FROM PATTERN: seconds from FROM (epoch s) to the arrival of the first line
# after the FROM-th byte matching PATTERN (polled every 10 ms; 30 s at most)
wait_line() {
	python3 - "$@" <<'PY'
import re, sys, time
path, start, offset, pattern = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
deadline = time.time() + 30
while time.time() < deadline:
    with open(path) as f:
        f.seek(offset)
        if re.search(pattern, f.read()):
            print("%.3f" % (time.time() - start))
            sys.exit(0)
    time.sleep(0.01)
print("nan")
PY
}

# one_try KIND CABLE PEER_RE: Unlink then ReLink, the two latencies appended to records
one_try() {
	local kind=$1 cable=$2 peer=$3 size t0 down up
	size=$(stat -c %s "$work/events")
	t0=$(date +%s.%N)
	sim_cmd "$name" "Unlink $cable" >/dev/null
	down=$(wait_line "$work/events" "$t0" "$size" "\"state\":\"DOWN\"[^}]*\"peer\":\"$peer")
	size=$(stat -c %s "$work/events")
	t0=$(date +%s.%N)
	sim_cmd "$name" "ReLink $cable" >/dev/null
	up=$(wait_line "$work/events" "$t0" "$size" "\"was\":\"DOWN\"")
	echo "$kind $down $up" >>"$work/records"
	# a spine cable put back stays INIT until OpenSM's next heavy sweep activates it, and the
	# SA's Reports to this host may take it meanwhile: let it finish before the next try
	[ "$kind" = host ] && sleep 1 || sleep 10
}

: >"$work/records"
events_start "$work/events"
sleep 8 # discovery of 2,144 nodes, the master's LID, the subscription
for i in $(seq 0 $((tries - 1))); do
	one_try host "\"Hca$((32 * i + 5))\"[1]" "host$((32 * i + 5)) HCA-1\\[1\\]"
done
stop_events

# MADs for one cable: two runs of 8 s (after the discovery), one with an Unlink at 3 s
mads_of_run() { # mads_of_run UNLINK: the events process's own SMPs and SA MADs
	: >"$work/mads"
	SIM_HOST=Hca2048 RK_ISSM_COMM=rdmakit LD_PRELOAD="$shim:$work/madcount.so" \
		RK_MADCOUNT_OUT=$work/mads SIM_TIMEOUT=120 sim_run "$name" "$rdmakit" events --json \
		--timeout 14 >/dev/null 2>&1 &
	local pid=$!
	sleep 9
	[ "$1" = no ] || sim_cmd "$name" 'Unlink "Hca1900"[1]' >/dev/null
	wait "$pid" || true
	[ "$1" = no ] || { sim_cmd "$name" 'ReLink "Hca1900"[1]' >/dev/null; sleep 2; }
	# the events process's line: the smallest that sent anything (the discovery helper writes
	# its own, and so do timeout and env, which send nothing)
	awk '$2 + $10 > 0' "$work/mads" | sort -n -k2 | head -n 1 | awk '{ print $2 + $10 }'
}
with=$(mads_of_run yes)
without=$(mads_of_run no)
: >"$work/mads"
LD_PRELOAD=$work/madcount.so RK_MADCOUNT_OUT=$work/mads sim_run "$name" "$rdmakit" fabric \
	>/dev/null 2>&1
discovery=$(awk '{ s += $2 } END { print s }' "$work/mads")

# sweep-only: a cable pulled at a random point of the 30 s interval
sweep_latency() { # sweep_latency N: seconds from Unlink to a sweep that did not read host N
	local out=$work/sweep.$1 t0 s
	SIM_HOST=Hca2047 SIM_TIMEOUT=600 sim_run "$name" "$rdmakit" sweep --errors-only --json \
		--interval 30 >"$out" 2>/dev/null &
	local pid=$!
	sleep $((40 + RANDOM % 30)) # the first sweep done, then anywhere in an interval
	t0=$(date +%s.%N)
	sim_cmd "$name" "Unlink \"Hca$1\"[1]" >/dev/null
	s=$(python3 - "$out" "$t0" "host$1 HCA-1" <<'PY'
import json, sys, time
path, start, host = sys.argv[1], float(sys.argv[2]), sys.argv[3]
deadline = time.time() + 60
seen = 0
while time.time() < deadline:
    lines = open(path).read().splitlines()
    for line in lines[seen:]:
        seen += 1
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        text = json.dumps(doc.get("failed", [])) + json.dumps(doc.get("unreached", []))
        if host in text:
            print("%.3f" % (time.time() - start))
            sys.exit(0)
    time.sleep(0.05)
print("nan")
PY
)
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	sim_cmd "$name" "ReLink \"Hca$1\"[1]" >/dev/null
	echo "sweep $s $s" >>"$work/records"
}
for i in $(seq "$sweep_tries"); do
	sweep_latency $((400 + i))
done
events_start "$work/events"
sleep 8
one_try spine '"Spine1"[1]' 'Spine1\[1\]'
stop_events
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work/records" "$with" "$without" "$discovery" "$load_before" "$load_after" \
	"$(git -C "$top" describe --always --dirty)" "$tries" "$sweep_tries" <<'PY'
import math, statistics, sys, time
path, with_, without, discovery, before, after, commit, tries, sweep_tries = sys.argv[1:]
rec = {}
for line in open(path):
    kind, down, up = line.split()
    rec.setdefault(kind, []).append((float(down), float(up)))
def cell(values):
    ok = [v for v in values if not math.isnan(v)]
    missed = len(values) - len(ok)
    if not ok:
        return "none told", math.inf, math.inf
    text = "%.2f (%.2f–%.2f)" % (statistics.median(ok), min(ok), max(ok))
    return text + (", %d not told" % missed if missed else ""), statistics.median(ok), \
        (max(ok) if not missed else math.inf)
out = []
out.append("events vs sweep-only; %s, tree at %s, load average %s before, %s after; %s tries a "
           "host cable, %s sweep-only tries" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                               commit, before, after, tries, sweep_tries))
out.append("")
out.append("| what | cable pulled: s to its line, median (min–max) | put back: s to its line |")
out.append("| --- | --- | --- |")
ok = True
for kind, label in (("host", "rdmakit events, a host's cable"),
                    ("spine", "rdmakit events, a spine's cable"),
                    ("sweep", "sweep-only, FabricInterval 30 s")):
    if kind not in rec:
        continue
    down, dmed, dmax = cell([d for d, _ in rec[kind]])
    up, umed, umax = cell([u for _, u in rec[kind]])
    if kind != "sweep":
        ok &= dmed <= 2 and dmax <= 5 and umed <= 2 and umax <= 5
    label += " (%d tr%s)" % (len(rec[kind]), "y" if len(rec[kind]) == 1 else "ies")
    out.append("| %s | %s | %s |" % (label, down, up if kind != "sweep" else "-"))
mads = int(with_) - int(without)
share = mads / int(discovery) if int(discovery) else math.inf
ok &= share <= 0.01
out.append("")
out.append("MADs for one cable pulled (SMPs and SA MADs of the events process, a run with one "
           "`Unlink` minus one without: %s - %s): %d; a full discovery: %s SMPs; %.2f%% of it"
           % (with_, without, mads, discovery, 100 * share))
print("\n".join(out))
import os
if os.environ.get("PERF_MD"):
    with open(os.environ["PERF_MD"], "a") as f:
        f.write("\n## Fabric events (`tests/perf/events.sh`)\n\n" + "\n".join(out) + "\n")
sys.exit(0 if ok else 1)
PY
