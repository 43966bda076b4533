#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# How rdmakit's costs grow with the fabric: three-level fat trees in ibsim
# (tests/sim/gen-fattree.py --levels 3: P pods of 16 leaves of 16 hosts and 16 spines, 8*P cores,
# every switch of radix 32 with all its ports cabled, 6 cabled ports per CA), 512, 2,048 and
# 8,192 CAs by default (P = 2, 8, 32), each with its own ibsim (-N, -S, -P raised as the generator
# says) and OpenSM (default routing), started, waited for (SUBNET UP) and stopped by PID. Per size,
# RUNS runs of three pairs, the two tools of a pair one after the other in an order that
# alternates from run to run:
#   rdmakit sweep --errors-only       vs ibqueryerrors   (one shot: discovery + error counters)
#   rdmakit fabric --json >/dev/null  vs ibnetdiscover >/dev/null   (discovery)
#   rdmakit route check >/dev/null    vs dump_lfts >/dev/null   (dump_lfts.sh: every switch's LFT)
# Per tool: wall time and peak RSS (GNU time %e %M of the client, run under the shim by sim_run,
# i.e. inside `timeout`); the ratio rdmakit/other is taken within a run, then its median and
# range over the runs. Peak RSS per port: the peak divided by the cabled ports of the tree (the
# ports the sweep reads, checked against its "N ports swept"), and the growth of the peak per
# port added from the smallest size to each larger one (the fixed part taken out).
# Then, per size and once, the daemons on the same tree (tests/perf/scale_daemons.py): collectd
# in fabric mode and rdmakit-agentx with the fabric, each against itself without the fabric;
# their memory, the plugin's sweep and an snmpbulkwalk of the fabric port table.
# Usage: tests/perf/scale.sh [BUILD_DIR] [RUNS]   (RUNS default 3, or PERF_RUNS)
#   SCALE_DAEMONS=0              without the daemons' part
#   SCALE_SIZES="512 2048 8192"  CAs per tree, each 256*P with P a power of 2 from 2 to 32
#   SCALE_ROUTE_MAX=N            route check and dump_lfts only on trees of at most N CAs
#                                (default: every size)
#   SCALE_TIMEOUT=S              every client's timeout in seconds (default 600)
#   SCALE_DIAGS_SMPS=N           ibqueryerrors and ibnetdiscover with -o N (SMPs in flight;
#                                default: theirs, 2; rdmakit's discovery keeps 16)
# With PERF_MD=FILE (tests/perf/report.sh) it appends its section, in markdown, to FILE.
# Exit 0 when the sweep's target (median one-shot wall <= 0.5x ibqueryerrors at every size)
# and the daemons' (memory per port within 1.5x from the smallest size to the largest) are
# met, 1 when one is missed, 77 when a tool is missing, 2 when a client failed twice.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
runs=${2:-${PERF_RUNS:-3}}
sizes=${SCALE_SIZES:-512 2048 8192}
route_max=${SCALE_ROUTE_MAX:-1000000}
rdmakit=$build/cli/rdmakit
for tool in ibsim opensm ibqueryerrors ibnetdiscover dump_lfts /usr/bin/time python3; do
	command -v "$tool" >/dev/null || { echo "scale.sh: $tool not found" >&2; exit 77; }
done
for n in $sizes; do
	p=$((n / 256))
	case $p in 2 | 4 | 8 | 16 | 32) [ $((p * 256)) -eq "$n" ] && continue ;; esac
	echo "scale.sh: size $n: want 256*P CAs, P a power of 2 from 2 to 32" >&2
	exit 2
done
[ -x "$rdmakit" ] || BUILD_DIR=$build "$top/scripts/build.sh"
export RDMAKIT_DISCOVER_HELPER=$build/common/rdmakit-discover
export RDMAKIT_PLUGIN_DIR=$build/collectd-plugin RDMAKIT_AGENTX=$build/snmp-subagent/rdmakit-agentx
daemons=${SCALE_DAEMONS:-1}
diags_smps=()
[ -z "${SCALE_DIAGS_SMPS:-}" ] || diags_smps=(-o "$SCALE_DIAGS_SMPS")
if [ "$daemons" != 0 ]; then
	for tool in collectd snmpd snmpbulkwalk; do
		command -v "$tool" >/dev/null || { echo "scale.sh: $tool not found" >&2; exit 77; }
	done
fi
work=$(mktemp -d)
export SIM_DIR=$work SIM_QUIET=1 SIM_OWNER_PID=$$
export SIM_TIMEOUT=${SCALE_TIMEOUT:-600} SIM_OSM_TIMEOUT=${SCALE_TIMEOUT:-600}
export SIM_START_TIMEOUT=120
# shellcheck source=../sim/simctl.sh
. "$top/tests/sim/simctl.sh"
trap 'sim_stop_started; rm -rf "$work"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }
# field KEY SUMMARY: the value of KEY=VALUE in the generator's summary line.
field() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }
now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc; }

# measure SIZE RUN TAG CMD...: one client under the sim, output to $work/out (kept for the
# port count); appends "SIZE RUN TAG wall peak_kib" to $work/records. A failed client (status
# not 0, or a timeout) is run up to twice more and logged in $work/failures; three times is
# fatal (at 8,192 CAs ibqueryerrors died of SIGSEGV in the umad shim twice in a row once).
measure() {
	local size=$1 run=$2 tag=$3 attempt rc wall peak
	shift 3
	for attempt in 1 2 3; do
		rc=0
		sim_run "$name" /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err" ||
			rc=$?
		[ "$rc" -ne 0 ] || break
		echo "$size CAs, run $run, $tag: $* exited with status $rc (attempt $attempt):" \
			"$(tail -n 2 "$work/err" | tr '\n' ' ')" | tee -a "$work/failures" >&2
		[ "$attempt" -lt 3 ] || exit 2
	done
	read -r wall peak <"$work/time"
	echo "$size $run $tag $wall $peak" >>"$work/records"
	echo "  $size CAs run $run: $tag ${wall}s ${peak}KiB" >&2
}

# pair SIZE RUN I: the Ith pair, in the order of the run.
pair() {
	local size=$1 run=$2 i=$3 first second
	case $i in
	0)
		first=(rk_sweep "$rdmakit" sweep --errors-only)
		second=(ibqueryerrors ibqueryerrors "${diags_smps[@]}")
		;;
	1)
		first=(rk_fabric "$rdmakit" fabric --json)
		second=(ibnetdiscover ibnetdiscover "${diags_smps[@]}")
		;;
	2)
		first=(rk_route "$rdmakit" route check)
		second=(dump_lfts dump_lfts)
		;;
	esac
	if [ $(((run + i) % 2)) -eq 0 ]; then
		measure "$size" "$run" "${first[@]}"
		[ "$i" -ne 0 ] || ports_of rk_sweep "$size" "$run"
		measure "$size" "$run" "${second[@]}"
		[ "$i" -ne 0 ] || ports_of ibqueryerrors "$size" "$run"
	else
		measure "$size" "$run" "${second[@]}"
		[ "$i" -ne 0 ] || ports_of ibqueryerrors "$size" "$run"
		measure "$size" "$run" "${first[@]}"
		[ "$i" -ne 0 ] || ports_of rk_sweep "$size" "$run"
	fi
}

# ports_of TAG SIZE RUN: the ports the last sweep says it read ("N ports swept in S s (M MADs"
# / "N ports checked"); for rdmakit also the seconds and MADs of its sweep phase (discovery
# excluded), appended to $work/phase as "SIZE RUN seconds mads".
ports_of() {
	local n line
	if [ "$1" = rk_sweep ]; then
		line=$(grep -E '^[0-9]+ ports swept in ' "$work/out" | tail -n1)
		n=${line%% *}
		sed -E 's/^[0-9]+ ports swept in ([0-9.]+) s \(([0-9]+) MADs.*/\1 \2/' <<<"$line" |
			sed "s/^/$2 $3 /" >>"$work/phase"
	else
		n=$(sed -n 's/^## *\([0-9]*\) ports checked.*/\1/p' "$work/out" | tail -n1)
	fi
	echo "$2 $1 ${n:-?}" >>"$work/ports"
}

: >"$work/records" && : >"$work/failures" && : >"$work/ports" && : >"$work/sizes" && : >"$work/phase"
: >"$work/daemons"
commit=$(git -C "$top" rev-parse --short HEAD)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_before=$(load)
for size in $sizes; do
	p=$((size / 256))
	net=$work/fat$size.net
	"$top/tests/sim/gen-fattree.py" --levels 3 --pods "$p" --leaves 16 --hosts-per-leaf 16 \
		--spines 16 --cores $((8 * p)) --radix 32 -q -o "$net"
	summary=$(sed -n '1s/^# rdmakit-fattree: //p' "$net")
	name=rkscale$$s$size
	size_load=$(load)
	t0=$(now)
	sim_start "$name" "$net" >/dev/null
	t_sim=$(since "$t0")
	t0=$(now)
	sim_opensm "$name" Hca1 10 >/dev/null
	t_sm=$(since "$t0")
	printf 'scale.sh: %s CAs (%s): ibsim ready in %.1f s, OpenSM SUBNET UP in %.1f s, %s\n' \
		"$size" "$summary" "$t_sim" "$t_sm" "load average $size_load" >&2
	npairs=3
	[ "$size" -le "$route_max" ] || npairs=2
	for run in $(seq "$runs"); do
		for i in $(seq 0 $((npairs - 1))); do pair "$size" "$run" "$i"; done
	done
	if [ "$daemons" != 0 ]; then
		echo "$size $(python3 "$top/tests/perf/scale_daemons.py" "$name" \
			"$(field cabled_ports "$summary")" "$(field switches "$summary")")" >>"$work/daemons"
		echo "  $size CAs daemons: $(tail -n1 "$work/daemons")" >&2
	fi
	echo "$size $t_sim $t_sm $size_load $(load) $summary" >>"$work/sizes"
	sim_stop "$name" >/dev/null
done
load_after=$(load)

python3 - "$work" "$runs" "$commit" "$started" "$load_before" "$load_after" "$route_max" \
	"${PERF_MD:-}" <<'PY'
import os, statistics, sys
work, runs, commit, started, load_before, load_after, route_max, md = sys.argv[1:9]
runs, route_max = int(runs), int(route_max)
rec = {}
for line in open(work + "/records"):
    size, run, tag, wall, peak = line.split()
    rec[int(size), int(run), tag] = (float(wall), int(peak))
sizes = {}
for line in open(work + "/sizes"):
    f = line.split()
    kv = dict(x.split("=", 1) for x in f[9:] if "=" in x)
    sizes[int(f[0])] = dict(sim=float(f[1]), sm=float(f[2]), load0=" ".join(f[3:6]),
                            load1=" ".join(f[6:9]), **kv)
ports_seen = {}
for line in open(work + "/ports"):
    size, tag, n = line.split()
    ports_seen.setdefault((int(size), tag), set()).add(n)
failures = [l.strip() for l in open(work + "/failures") if l.strip()]
phase = {}
for line in open(work + "/phase"):
    size, run, secs, mads = line.split()
    phase[int(size), int(run)] = (float(secs), int(mads))

def span(values, fmt):
    med = statistics.median(values)
    if min(values) == max(values):
        return fmt % med
    return (fmt + " (" + fmt + "–" + fmt + ")") % (med, min(values), max(values))

PAIRS = [("rk_sweep", "ibqueryerrors", "`rdmakit sweep --errors-only` / `ibqueryerrors`"),
         ("rk_fabric", "ibnetdiscover", "`rdmakit fabric --json` / `ibnetdiscover`"),
         ("rk_route", "dump_lfts", "`rdmakit route check` / `dump_lfts`")]
order = sorted(sizes)
rows, text, notes = [], [], []
sweep_ok = True
for size in order:
    s = sizes[size]
    ports = int(s["cabled_ports"])
    for mine, other, label in PAIRS:
        if (size, 1, mine) not in rec:
            continue
        rs = range(1, runs + 1)
        mw = [rec[size, r, mine][0] for r in rs]
        ow = [rec[size, r, other][0] for r in rs]
        mp = [rec[size, r, mine][1] for r in rs]
        op = [rec[size, r, other][1] for r in rs]
        ratio = [a / b for a, b in zip(mw, ow)]
        pratio = [a / b for a, b in zip(mp, op)]
        if mine == "rk_sweep" and statistics.median(ratio) > 0.5:
            sweep_ok = False
        cells = ["%d" % size, "%s + %s" % (s["switches"], s["cas"]), "%d" % ports, label,
                 span(mw, "%.2f"), span(ow, "%.2f"), span(ratio, "%.2f"),
                 span(mp, "%.0f"), span(op, "%.0f"), span(pratio, "%.2f"),
                 span([1024 * v / ports for v in mp], "%.0f"),
                 span([1024 * v / ports for v in op], "%.0f")]
        rows.append(cells)
        text.append("%5s CAs (%s sw+CA, %s ports) %-50s rdmakit %s s, other %s s, ratio %s; "
                    "peak %s / %s KiB, ratio %s; bytes/port %s / %s" % tuple(cells))
# growth of the peak per added port, from the smallest size (medians)
growth = []
if len(order) > 1:
    base = order[0]
    for size in order[1:]:
        dports = int(sizes[size]["cabled_ports"]) - int(sizes[base]["cabled_ports"])
        cells = ["%d → %d" % (base, size), "%d" % dports]
        for tag in ("rk_sweep", "ibqueryerrors", "rk_fabric", "ibnetdiscover", "rk_route",
                    "dump_lfts"):
            if (size, 1, tag) in rec and (base, 1, tag) in rec:
                a = statistics.median(rec[size, r, tag][1] for r in range(1, runs + 1))
                b = statistics.median(rec[base, r, tag][1] for r in range(1, runs + 1))
                cells.append("%.0f" % (1024 * (a - b) / dports))
            else:
                cells.append("not run")
        growth.append(cells)
phase_rows = []
for size in order:
    got = [phase[size, r] for r in range(1, runs + 1) if (size, r) in phase]
    if not got:
        continue
    secs = [g[0] for g in got]
    walls = [rec[size, r, "rk_sweep"][0] for r in range(1, runs + 1) if (size, r) in phase]
    ports = int(sizes[size]["cabled_ports"])
    phase_rows.append(["%d" % size, "%d" % ports, span(secs, "%.2f"),
                       span([1e6 * x / ports for x in secs], "%.0f"),
                       span([g[1] for g in got], "%.0f"),
                       span([w - x for w, x in zip(walls, secs)], "%.2f")])
for size in order:
    s = sizes[size]
    seen = {t: sorted(ports_seen.get((size, t), {"?"})) for t in ("rk_sweep", "ibqueryerrors")}
    notes.append("%d CAs: %s switches (%s leaves, %s spines, %s cores), %s nodes, %s links, "
                 "%s cabled ports (ports swept by rdmakit: %s; checked by ibqueryerrors: %s); "
                 "ibsim ready in %.1f s, OpenSM SUBNET UP in %.1f s; load average %s at the "
                 "start of this size, %s at its end" % (
                     size, s["switches"], s["leaves"], s["spines"], s["cores"], s["nodes"],
                     s["links"], s["cabled_ports"], "/".join(seen["rk_sweep"]),
                     "/".join(seen["ibqueryerrors"]), s["sim"], s["sm"], s["load0"], s["load1"]))
# the daemons, once per size: growth over their own baseline, per cabled port
daemons = {}
for line in open(work + "/daemons"):
    f = line.split()
    daemons[int(f[0])] = {k: float(v) for k, v in (x.split("=", 1) for x in f[1:])}
daemon_rows, per_port = [], {"collectd": [], "subagent": []}
for size in order:
    if size not in daemons:
        continue
    d, ports = daemons[size], int(sizes[size]["cabled_ports"])
    cd_growth, ag_growth = d["cd_hwm"] - d["cd_base"], d["ag_rss"] - d["ag_base"]
    per_port["collectd"].append(1024 * cd_growth / ports)
    per_port["subagent"].append(1024 * ag_growth / ports)
    daemon_rows.append([
        "%d" % size, "%d" % ports, "%.0f" % d["cd_base"], "%.0f" % d["cd_rss"],
        "%.0f" % d["cd_hwm"], "%.0f" % cd_growth, "%.0f" % per_port["collectd"][-1],
        "%.0f" % d["cd_lists"], "%.3f (max %.3f)" % (d["cd_sweep_med"], d["cd_sweep_max"]),
        "%.1f" % (1e6 * d["cd_sweep_med"] / ports), "%.0f" % d["ag_base"], "%.0f" % d["ag_rss"],
        "%.0f" % d["ag_hwm"], "%.0f" % ag_growth, "%.0f" % per_port["subagent"][-1],
        "%.0f" % d["walk_varbinds"], "%.2f" % d["walk_s"]])
memory_ok = all(max(v) <= 1.5 * min(v) for v in per_port.values() if v)
spread = "; ".join("%s %.2f×" % (k, max(v) / min(v)) for k, v in per_port.items() if v)
skipped = [s for s in order if s > route_max]
conditions = ("conditions: %s, commit %s, load average %s before, %s after; %d runs per size, "
              "median (min–max); ibqueryerrors and ibnetdiscover with %s" % (
                  started, commit, load_before, load_after, runs,
                  "-o " + os.environ["SCALE_DIAGS_SMPS"] if os.environ.get("SCALE_DIAGS_SMPS")
                  else "their default SMPs in flight"))
print(conditions)
print("\n".join(text))
for cells in growth:
    print("peak growth per added port (bytes), %s CAs (+%s ports): sweep %s, ibqueryerrors %s, "
          "fabric %s, ibnetdiscover %s, route check %s, dump_lfts %s" % tuple(cells))
for cells in phase_rows:
    print("%s CAs (%s ports): rdmakit's sweep phase %s s, %s ms per 1,000 ports, %s MADs; "
          "the rest of the one shot (discovery, start, exit) %s s" % tuple(cells))
print("\n".join(notes))
if skipped:
    print("route check and dump_lfts not run at %s CAs (SCALE_ROUTE_MAX=%d)" % (
        ", ".join(map(str, skipped)), route_max))
print("sweep target (median one-shot <= 0.5x ibqueryerrors at every size): %s" % (
    "met" if sweep_ok else "NOT met"))
for cells in daemon_rows:
    print("%s CAs (%s ports): collectd VmRSS %s KiB without the fabric, %s with it (VmHWM %s, "
          "growth %s KiB, %s bytes per port), %s value lists per sweep, sweep %s s, %s ms "
          "per 1,000 ports; rdmakit-agentx %s KiB without, %s with (VmHWM %s, growth %s KiB, "
          "%s bytes per port), fabric port table walk %s varbinds in %s s" % tuple(cells))
if daemon_rows:
    print("daemons' target (growth per port within 1.5x across sizes): %s (%s)" % (
        "met" if memory_ok else "NOT met", spread))
print("client runs that failed and were run again: %s" % ("; ".join(failures) or "none"))
if md:
    with open(md, "a") as out:
        out.write("""## Scale: three-level fat trees

`tests/perf/scale.sh` on three-level fat trees in ibsim with OpenSM (its default routing):
`tests/sim/gen-fattree.py --levels 3 --pods P --leaves 16 --hosts-per-leaf 16 --spines 16
--cores 8P --radix 32`, P pods of 16 leaves (16 CAs each) and 16 spines, 8·P cores, every
switch port cabled (full bisection, 6 cabled ports per CA: each CA's, 2 leaf, 2 spine, 1 core).
Each size runs in its own ibsim and OpenSM. Per size, %d runs of three pairs, the two tools of
a pair one after the other in an order that alternates from run to run: the one-shot
`rdmakit sweep --errors-only` (discovery in its helper process, then one sweep) against
`ibqueryerrors`; discovery, `rdmakit fabric --json >/dev/null` against `ibnetdiscover
>/dev/null`; `rdmakit route check` (discovery, every LFT block, every route followed) against
`dump_lfts` (`dump_lfts.sh`: every switch's LFT as text). **wall s** is the whole process (GNU
time `%%e`), **peak KiB** its peak RSS (`%%M`: the largest of the process and its children,
rdmakit's discovery helper included); **rdmakit/other** is taken within a run; **bytes per
port** is the peak divided by the tree's cabled ports (which both sweeps read). Every cell is
the median (min–max) over the runs. The load average is that of a 2-core machine shared
with other work: it is given per size below the table.

| CAs | switches + CAs | cabled ports | pair: rdmakit / other | rdmakit wall s | other wall s | rdmakit/other, wall | rdmakit peak KiB | other peak KiB | rdmakit/other, peak | rdmakit bytes per port | other bytes per port |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
""" % runs)
        for cells in rows:
            out.write("| " + " | ".join(cells) + " |\n")
        if growth:
            out.write("\nGrowth of the peak RSS per cabled port added (bytes, medians), from the "
                      "smallest tree to each larger one (the fixed part of each process taken out):\n\n"
                      "| CAs | ports added | rdmakit sweep | ibqueryerrors | rdmakit fabric | "
                      "ibnetdiscover | rdmakit route check | dump_lfts |\n"
                      "| --- | --- | --- | --- | --- | --- | --- | --- |\n")
            for cells in growth:
                out.write("| " + " | ".join(cells) + " |\n")
        if phase_rows:
            out.write("\nThe one-shot sweep's own phases: **sweep s** is the time its sweep of "
                      "the counters took as it reports it (`N ports swept in S s (M MADs`, "
                      "to 10 ms), discovery excluded; **rest s** is the process's wall time minus that "
                      "(discovery in the helper, start and exit).\n\n"
                      "| CAs | cabled ports | sweep s | ms per 1,000 ports | MADs | rest s |\n"
                      "| --- | --- | --- | --- | --- | --- |\n")
            for cells in phase_rows:
                out.write("| " + " | ".join(cells) + " |\n")
        out.write("\n" + "".join("- %s.\n" % n for n in notes))
        if skipped:
            out.write("- `route check` and `dump_lfts` not run at %s CAs (`SCALE_ROUTE_MAX=%d`).\n"
                      % (", ".join(map(str, skipped)), route_max))
        if daemon_rows:
            out.write("""
The daemons on the same trees (`tests/perf/scale_daemons.py`, one run per size, one daemon at a
time): a private collectd (Interval 1, csv, the host mode on a fixture, under the umad2sim
shim) with `rdmakit.so`, without `Fabric` and then with `Fabric true`, `SubnetManager true`
and `FabricInterval %s` until it has dispatched %s sweeps; `rdmakit-agentx` behind a private
snmpd, without the fabric and then with `fabric yes`, `sm yes`, `fabric-interval %s` until its
fabric port table has every port. **growth** is the fabric run's VmHWM (collectd) or VmRSS
(the subagent, median of 10 samples a second apart) minus the same daemon's VmRSS without the
fabric; **bytes per port** is that growth per cabled port. The plugin's **sweep s** is the
median (and the maximum) of the `duration-sweep` values it dispatched after the first (the
MADs of one sweep of every port's counters, discovery excluded); **value lists** are the
`rdma_fabric` ones of one sweep (csv files). The **walk** is one `snmpbulkwalk -Cr50` of
`rdmakitFabricPortTable`, every column, wall time of the process.

| CAs | cabled ports | collectd VmRSS KiB, no fabric | with the fabric | VmHWM | growth KiB | bytes per port | value lists | sweep s | ms per 1,000 ports | agentx VmRSS KiB, no fabric | with the fabric | VmHWM | growth KiB | bytes per port | walk varbinds | walk s |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
""" % (os.environ.get("SCALE_DAEMON_INTERVAL", "5"), os.environ.get("SCALE_DAEMON_SWEEPS", "4"),
       os.environ.get("SCALE_DAEMON_INTERVAL", "5")))
            for cells in daemon_rows:
                out.write("| " + " | ".join(cells) + " |\n")
            out.write("\nTarget: each daemon's growth per cabled port within 1.5× from the "
                      "smallest size to the largest: %s (largest over smallest per-port "
                      "figure: %s).\n" % ("met" if memory_ok else "NOT met", spread))
        out.write("\nTarget: the one-shot sweep at most 0.5× ibqueryerrors (median) at every "
                  "size: %s.\n" % ("met" if sweep_ok else "NOT met"))
        out.write("\n`ibqueryerrors` and `ibnetdiscover` ran with %s.\n" % (
            "`-o %s`" % os.environ["SCALE_DIAGS_SMPS"] if os.environ.get("SCALE_DIAGS_SMPS")
            else "libibnetdisc's default of 2 SMPs in flight (rdmakit's discovery keeps 16)"))
        out.write("\nClient runs that failed and were run again: %s.\n" % (
            "; ".join("`%s`" % f for f in failures) if failures else "none"))
sys.exit(0 if sweep_ok and memory_ok else 1)
PY
