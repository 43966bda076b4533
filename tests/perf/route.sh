#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Reading every switch's forwarding table and checking every route on the ~2,000-CA simulated
# fat tree (tests/perf/bigfabric.sh: 96 switches, 2,048 CAs; OpenSM's default routing), side by
# side with the open tools on the same sim:
#   rdmakit route check   one process: discovery, every LFT block, every route followed
#   dump_lfts             every switch's LFT as text (infiniband-diags; dump_fts underneath)
#   dump_lfts + check     dump_lfts, ibnetdiscover --cache and check_lft_balance, one after the
#                         other (what balance takes with the open tools)
# Each run measures the three in an order that rotates from run to run; ratios are taken within
# a run. Per tool: wall time and peak RSS (GNU time %e %M; for the chain, the sum of the walls
# and the largest peak); for rdmakit also the phase "tables read + routes checked" (its
# read_seconds + check_seconds), discovery excluded. The switches check_lft_balance flags are
# compared with rdmakit's ROUTES_UNBALANCED of the same run.
# Usage: tests/perf/route.sh [BUILD_DIR] [RUNS]. With PERF_MD=FILE (tests/perf/report.sh) it
# appends its section to FILE. Exit 0 targets met, 1 one missed, 77 something missing.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
runs=${2:-${PERF_RUNS:-5}}
rdmakit=$build/cli/rdmakit
for tool in ibsim opensm dump_lfts ibnetdiscover check_lft_balance /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "route.sh: $tool not found" >&2; exit 77; }
done
[ -x "$rdmakit" ] || BUILD_DIR=$build "$top/scripts/build.sh"
work=$(mktemp -d)
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
trap 'sim_stop_started; rm -rf "$work"' EXIT
name=rkroute$$
big_fabric_start "$name"

# timed TAG OUT CMD...: run CMD under the sim into OUT; prints "wall peak_kib".
timed() {
	local out=$1
	shift
	sim_run "$name" /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$out" 2>"$work/err" || {
		echo "route.sh: $* failed: $(tail -n 3 "$work/err" | tr '\n' ' ')" >&2
		exit 2
	}
	cat "$work/time"
}

flagged_theirs() { sed -n 's/^Unbalanced Switch Port Usage: \([^,]*\),.*/\1/p' "$1" | sort | paste -sd, -; }

tool() { # tool N RUN: the Nth tool of the rotation; appends to $work/records
	local wall peak w2 p2 w3 p3
	case $1 in
	0)
		read -r wall peak < <(timed "$work/check.json" "$rdmakit" route check --json)
		python3 - "$work/check.json" "$2" "$wall" "$peak" >>"$work/records" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
s = doc["summary"]
flagged = sorted(f["subject"] for f in doc["findings"] if f["code"] == "ROUTES_UNBALANCED")
print(sys.argv[2], "rdmakit", sys.argv[3], sys.argv[4], s["read_seconds"] + s["check_seconds"],
      s["routes"], s["reached"], s["smps"], ",".join(flagged) or "-")
PY
		;;
	1)
		read -r wall peak < <(timed "$work/lfts1.txt" dump_lfts)
		echo "$2 dump $wall $peak" >>"$work/records"
		;;
	2)
		read -r wall peak < <(timed "$work/lfts2.txt" dump_lfts)
		rm -f "$work/ib.cache"
		read -r w2 p2 < <(timed /dev/null ibnetdiscover --cache "$work/ib.cache")
		read -r w3 p3 < <(timed "$work/balance.txt" check_lft_balance -l "$work/lfts2.txt" \
			-i "$work/ib.cache")
		local theirs
		theirs=$(flagged_theirs "$work/balance.txt")
		echo "$2 chain $(echo "$wall + $w2 + $w3" | bc) $(printf '%s\n' "$peak" "$p2" "$p3" |
			sort -n | tail -n1) ${theirs:--}" >>"$work/records"
		;;
	esac
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
: >"$work/records"
for run in $(seq "$runs"); do
	for k in 0 1 2; do tool $(((k + run) % 3)) "$run"; done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work/records" "$runs" "$load_before" "$load_after" "${PERF_MD:-}" <<'PY'
import statistics, sys
records, runs, load_before, load_after, md = sys.argv[1:6]
runs = int(runs)
rk, dump, chain = {}, {}, {}
for line in open(records):
    f = line.split()
    run = int(f[0])
    if f[1] == "rdmakit":
        rk[run] = dict(wall=float(f[2]), peak=float(f[3]), phase=float(f[4]), routes=int(f[5]),
                       reached=int(f[6]), smps=int(f[7]), flagged=f[8])
    elif f[1] == "dump":
        dump[run] = dict(wall=float(f[2]), peak=float(f[3]))
    else:
        chain[run] = dict(wall=float(f[2]), peak=float(f[3]), flagged=f[4])

def span(values, fmt):
    med = statistics.median(values)
    if min(values) == max(values):
        return fmt % med
    return (fmt + " (" + fmt + "–" + fmt + ")") % (med, min(values), max(values))

R = range(1, runs + 1)
phase_vs_dump = [rk[r]["phase"] / dump[r]["wall"] for r in R]
whole_vs_dump = [rk[r]["wall"] / dump[r]["wall"] for r in R]
whole_vs_chain = [rk[r]["wall"] / chain[r]["wall"] for r in R]
agree = all(rk[r]["flagged"] == chain[r]["flagged"] for r in R)
targets = [("tables read + routes checked vs dump_lfts", statistics.median(phase_vs_dump), 0.1),
           ("whole route check vs dump_lfts + check_lft_balance", statistics.median(whole_vs_chain), 0.1)]
missed = any(m > t for _, m, t in targets)
rows = [
    ("rdmakit route check (whole process)", span([rk[r]["wall"] for r in R], "%.3f"),
     span(whole_vs_dump, "%.2f"), span(whole_vs_chain, "%.3f"), span([rk[r]["peak"] for r in R], "%.0f")),
    ("rdmakit: tables read + routes checked", span([rk[r]["phase"] for r in R], "%.3f"),
     span(phase_vs_dump, "%.3f"), "", ""),
    ("dump_lfts", span([dump[r]["wall"] for r in R], "%.3f"), "1", "", span([dump[r]["peak"] for r in R], "%.0f")),
    ("dump_lfts + ibnetdiscover --cache + check_lft_balance", span([chain[r]["wall"] for r in R], "%.3f"),
     "", "1", span([chain[r]["peak"] for r in R], "%.0f")),
]
verdicts = ["%s: median %.3f×, target ≤ %.1f×: %s" % (what, med, t, "met" if med <= t else "NOT met")
            for what, med, t in targets]
print("fabric: 96 switches, 2048 CAs; %d runs, tools rotated; median (min-max)" % runs)
print("load average %s before, %s after" % (load_before, load_after))
print("routes followed %d, reached %d, SMPs %d (run 1)" % (rk[1]["routes"], rk[1]["reached"], rk[1]["smps"]))
for row in rows:
    print("%-55s wall %s s, x dump_lfts %s, x chain %s, peak %s KiB" % row)
print("unbalanced switches, rdmakit / check_lft_balance, run 1: %s / %s; same in every run: %s" % (
    rk[1]["flagged"], chain[1]["flagged"], "yes" if agree else "NO"))
print("targets:\n  " + "\n  ".join(verdicts))
if md:
    with open(md, "a") as out:
        out.write("""## Route check against dump_lfts and check_lft_balance

`tests/perf/route.sh` on the simulated fat tree of 96 switches and 2,048 CAs (ibsim + OpenSM
with its default routing, `tests/perf/bigfabric.sh`). **rdmakit route check** is one process:
discovery, SwitchInfo and every LinearForwardingTable block of every switch, every route
followed (%d routes) and the balance; its phase **tables read + routes checked** is the
`read_seconds` + `check_seconds` it reports (discovery excluded). **dump_lfts** writes every
switch's table as text; the chain runs `dump_lfts`, `ibnetdiscover --cache` and
`check_lft_balance` one after the other (the sum of their wall times, the largest peak).
**wall s** is GNU time's `%%e`, **peak KiB** its `%%M`; ratios are taken within one run; the
three tools run in an order that rotates from run to run. Every cell is the median (min–max)
over %d runs.

| what | wall s | ×dump_lfts | ×chain | peak KiB |
| --- | --- | --- | --- | --- |
""" % (rk[1]["routes"], runs))
        for row in rows:
            out.write("| " + " | ".join(row) + " |\n")
        out.write("\nTargets (medians of the per-run ratios): " + "; ".join(verdicts) + ".\n")
        out.write("\nSwitches flagged unbalanced: rdmakit `%s`, check_lft_balance `%s` (run 1); "
                  "the same in every run: %s.\n" % (rk[1]["flagged"], chain[1]["flagged"],
                                                    "yes" if agree else "no"))
sys.exit(1 if missed else 0)
PY
