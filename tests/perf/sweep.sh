#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# A fabric-wide counter sweep on the ~2,000-CA simulated fat tree (tests/perf/bigfabric.sh: 96
# switches, 2,048 CAs, 8,192 cabled ports), side by side with ibqueryerrors on the same sim,
# idle and under a competing load:
#   ibqueryerrors                 discovery + error counters, one MAD at a time
#   rdmakit sweep --errors-only   one shot: discovery (in its own process) and one sweep
#   ... steady state              sweeps 2..17 of `--errors-only --json --interval 0 --count 17`,
#                                 topology cached (discovered through rdmakit-discover)
# Conditions: "idle" is whatever else the machine runs (its load average is printed); "loaded"
# adds one busy loop (`sh -c 'while :; do :; done'`, one core's worth) that this script starts
# before the condition and stops by PID after it. Each run measures idle then loaded, the tools
# in a rotating order within each condition, and the ratios are taken within the run.
# Per tool: wall time and peak RSS (GNU time %e %M), CPU time of the client (%U + %S, its
# discovery helper included) and of ibsim (utime + stime of /proc/PID/stat, before and after),
# MADs sent (tests/perf/madcount.c preloaded before the shim: SMPs, PortCounters,
# PortCountersExtended, ClassPortInfo) and bytes of output. A steady-state sweep's CPU and MADs
# are those of a --count 17 process minus those of a --count 2 process, divided by 15 (enough
# sweeps that the two discoveries' CPU times, which differ, do not swamp them); its wall
# time is the median of the seconds the sweeps report; its output, one JSON line.
# Usage: tests/perf/sweep.sh [BUILD_DIR] [RUNS]. With PERF_MD=FILE (tests/perf/report.sh) it
# also appends its section, in markdown, to FILE. Exit status 1 when a target's median is missed.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
runs=${2:-${PERF_RUNS:-5}}
rdmakit=$build/cli/rdmakit
[ -x "$rdmakit" ] || BUILD_DIR=$build "$top/scripts/build.sh"
export RDMAKIT_DISCOVER_HELPER=$build/common/rdmakit-discover
work=$(mktemp -d)
load_pid=
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
stop_load() {
	[ -z "$load_pid" ] || { kill "$load_pid" 2>/dev/null || true; wait "$load_pid" 2>/dev/null || true; }
	load_pid=
}
trap 'stop_load; sim_stop_started; rm -rf "$work"' EXIT
cc -O2 -Wall -shared -fPIC -o "$work/madcount.so" "$top/tests/perf/madcount.c" -ldl
name=rkperf$$
big_fabric_start "$name"
sim_pid=$(cat "$(sim_dir "$name")/ibsim.pid")
hz=$(getconf CLK_TCK)

sim_ticks() { awk '{ print $14 + $15 }' "/proc/$sim_pid/stat"; }

# measure TAG CMD...: one client run under the sim (run again once if it fails: the failure is
# logged in $work/failures and printed with the results); appends to $work/records
# "TAG wall peak_kib cpu_s sim_cpu_s out_bytes smp pc ext cpi other".
measure() {
	local tag=$1 before after attempt rc
	shift
	for attempt in 1 2; do
		: >"$work/mads"
		before=$(sim_ticks)
		rc=0
		LD_PRELOAD=$work/madcount.so RK_MADCOUNT_OUT=$work/mads sim_run "$name" \
			/usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >"$work/out" 2>"$work/err" || rc=$?
		after=$(sim_ticks)
		[ "$rc" -ne 0 ] || break
		echo "$tag: $* exited with status $rc (attempt $attempt): $(tail -n 2 "$work/err" | tr '\n' ' ')" |
			tee -a "$work/failures" >&2
		[ "$attempt" -eq 1 ] || exit 1
	done
	read -r wall peak user sys <"$work/time"
	echo "$tag $wall $peak $(echo "$user + $sys" | bc) $(echo "($after - $before) / $hz" | bc -l)" \
		"$(wc -c <"$work/out") $(awk '{ for (i = 2; i <= NF; i += 2) s[i] += $i }
		END { print s[2] + 0, s[4] + 0, s[6] + 0, s[8] + 0, s[10] + 0 }' "$work/mads")" \
		>>"$work/records"
}

# per-sweep seconds of sweeps 2.. of the last JSON output, and one line's bytes
steady_seconds() {
	python3 -c 'import json,sys
lines = list(open(sys.argv[1]))
print(sys.argv[2], len(lines[-1]), *[json.loads(l)["seconds"] for l in lines[1:]])' \
		"$work/out" "$1" >>"$work/steady"
}

tool() { # tool N RUN COND: the Nth tool of the rotation
	case $1 in
	0) measure "$2 $3 ibq" ibqueryerrors ;;
	1) measure "$2 $3 one" "$rdmakit" sweep --errors-only ;;
	2)
		measure "$2 $3 steady2" "$rdmakit" sweep --errors-only --json --interval 0 --count 2
		measure "$2 $3 steady17" "$rdmakit" sweep --errors-only --json --interval 0 --count 17
		steady_seconds "$2 $3"
		;;
	esac
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
: >"$work/records" && : >"$work/steady" && : >"$work/failures"
for run in $(seq "$runs"); do
	for cond in idle loaded; do
		if [ "$cond" = loaded ]; then
			sh -c 'while :; do :; done' &
			load_pid=$!
			sleep 0.5
		fi
		for k in 0 1 2; do tool $(((k + run) % 3)) "$run" "$cond"; done
		stop_load
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work/records" "$work/steady" "$runs" "$load_before" "$load_after" \
	"${PERF_MD:-}" "$work/failures" <<'PY'
import statistics, sys
records, steady_file, runs, load_before, load_after, md, failures = sys.argv[1:8]
failures = [line.strip() for line in open(failures) if line.strip()]
runs = int(runs)
FIELDS = ["wall", "peak", "cpu", "sim", "bytes", "smp", "pc", "ext", "cpi", "other"]
rec = {}
for line in open(records):
    run, cond, tag, *vals = line.split()
    rec[int(run), cond, tag] = dict(zip(FIELDS, map(float, vals)))
steady = {}
for line in open(steady_file):
    run, cond, line_bytes, *secs = line.split()
    steady[int(run), cond] = (float(line_bytes), [float(s) for s in secs])

def row_of(run, cond, tool):
    """One run's figures of one tool, steady state per sweep."""
    if tool != "steady":
        return dict(rec[run, cond, tool])
    a, b = rec[run, cond, "steady2"], rec[run, cond, "steady17"]
    r = {k: (b[k] - a[k]) / 15 for k in ("cpu", "sim", "smp", "pc", "ext", "cpi", "other")}
    r["wall"] = statistics.median(steady[run, cond][1])
    r["peak"] = b["peak"]
    r["bytes"] = steady[run, cond][0]
    return r

def span(values, fmt):
    med = statistics.median(values)
    if min(values) == max(values):
        return fmt % med
    return (fmt + " (" + fmt + "–" + fmt + ")") % (med, min(values), max(values))

TOOLS = [("ibq", "ibqueryerrors"), ("one", "rdmakit sweep --errors-only, one shot"),
         ("steady", "rdmakit sweep --errors-only, steady state (per sweep)")]
missed = False
TARGETS = {("idle", "one"): 0.5, ("idle", "steady"): 0.25, ("loaded", "one"): 1.0,
           ("loaded", "steady"): 1.0}
table, text, verdicts = [], [], []
for cond in ("idle", "loaded"):
    for tool, label in TOOLS:
        rows = [row_of(r, cond, tool) for r in range(1, runs + 1)]
        ratios = [row["wall"] / rec[r, cond, "ibq"]["wall"] for r, row in zip(range(1, runs + 1), rows)]
        col = lambda k, f: span([row[k] for row in rows], f)
        mads = "%s / %s / %s / %s" % tuple(col(k, "%.0f") for k in ("smp", "pc", "ext", "cpi"))
        cells = [{"idle": "idle (no load added)", "loaded": "loaded (+1 busy loop)"}[cond], label, col("wall", "%.3f"), span(ratios, "%.2f"), col("cpu", "%.3f"),
                 col("sim", "%.3f"), mads, col("bytes", "%.0f"), col("peak", "%.0f")]
        table.append(cells)
        text.append("%-22s %-54s wall %s s, x ibq %s, cpu %s s, ibsim cpu %s s, MADs smp/pc/ext/cpi %s,"
                    " %s bytes out, peak %s KiB" % tuple(cells))
        if (cond, tool) in TARGETS:
            target, med = TARGETS[cond, tool], statistics.median(ratios)
            missed |= med > target
            verdicts.append("%s %s: median %.2f x ibqueryerrors, target <= %.2f: %s" % (
                cond, tool if tool == "steady" else "one shot", med, target,
                "met" if med <= target else "NOT met"))
one = row_of(1, "idle", "one"); ibq = row_of(1, "idle", "ibq"); st = row_of(1, "idle", "steady")
per_port = ("MADs per swept port (8,192) and sweep, from run 1 idle: rdmakit's steady state %.2f "
            "(PortCounters: one per switch summed over its ports, AllPortSelect, and port by port "
            "on CAs and where a sum has errors; PortCountersExtended only of ports with errors), "
            "ibqueryerrors %.2f PerfMgt MADs (PortCounters, PortCountersExtended and ClassPortInfo "
            "once per node: a switch's ports summed in one answer, AllPortSelect, and port by "
            "port only where that sum has errors); SMPs per "
            "discovery %d for rdmakit (libibnetdisc), %d for ibqueryerrors; output %d bytes "
            "(rdmakit one shot, text) and %d (ibqueryerrors)." % (
                (st["pc"] + st["ext"]) / 8192, (ibq["pc"] + ibq["ext"] + ibq["cpi"]) / 8192,
                one["smp"], ibq["smp"], one["bytes"], ibq["bytes"]))
print(per_port)
print("fabric: 96 switches, 2048 CAs, 8192 cabled ports; %d runs, each idle then loaded "
      "(one busy loop); median (min-max) over the runs" % runs)
print("load average %s before, %s after" % (load_before, load_after))
print("\n".join(text))
print("targets:\n  " + "\n  ".join(verdicts))
print("client runs that failed and were run again: %s" % ("; ".join(failures) or "none"))
if md:
    with open(md, "a") as out:
        out.write("""## Fabric sweep against ibqueryerrors, idle and loaded

`tests/perf/sweep.sh` on the simulated fat tree of 96 switches, 2,048 CAs and 8,192 cabled
ports (ibsim + OpenSM, `tests/perf/bigfabric.sh`). Each run measures the three rows "idle"
(nothing added to what the machine runs anyway: see its load average above), then again while
one busy loop (`sh -c 'while :; do :; done'`, started and stopped by the
script) takes one core; the tools run one after the other in an order that rotates from run
to run. **wall s** is the wall time of the whole process from start to exit (GNU time `%%e`),
except for the steady state: the median of the seconds that sweeps 2 to 17 of one
`--interval 0 --count 17` process report (topology cached, no discovery). **CPU s** is the
client's user + system time (its discovery helper included); **ibsim CPU s** the simulator's
over the same run; for the steady state both are (a `--count 17` process − a `--count 2`
one) / 15, per sweep. **MADs** are counted by `tests/perf/madcount.c` preloaded before the
shim (SMPs / PortCounters / PortCountersExtended / PerfMgt ClassPortInfo, resends included).
**×ibq** is the wall-time ratio to ibqueryerrors within the same run and condition. Every cell
is the median (min–max) over %d runs.

| condition | tool | wall s | ×ibq | CPU s | ibsim CPU s | MADs smp / pc / ext / cpi | output bytes | peak KiB |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
""" % runs)
        for cells in table:
            out.write("| " + " | ".join(cells) + " |\n")
        out.write("\nTargets (medians of the per-run ratios): " + "; ".join(verdicts) + ".\n")
        out.write("\n" + per_port + "\n")
        out.write("\nClient runs that failed and were run again: %s.\n" % (
            "; ".join("`%s`" % f for f in failures) if failures else "none"))
sys.exit(1 if missed else 0)
PY
