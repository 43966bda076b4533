#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# The whole fabric audit on the ~2,000-CA simulated fat tree (tests/perf/bigfabric.sh: 96
# switches, 2,048 CAs; OpenSM run with a partitions.conf), side by side with the same reads
# done the way an admin does them with the open tools:
#   rdmakit audit --partitions F   one process: discovery, then every ACTIVE port's SL-to-VL
#                                  map, every CA port's P_Key table, NodeInfo behind every
#                                  switch port that leads to no node, every switch's multicast
#                                  table and the SA's members of each group (one Get a group
#                                  and CA port); MADs counted by tests/perf/madcount.c preloaded
#   smpquery loop                  `smpquery pkeys LID` and `smpquery sl2vl LID` for CAs,
#                                  `smpquery sl2vl LID IN OUT` for switch ports, `ibroute -M
#                                  LID` for switches, and `saquery -m` once: one process a
#                                  read. The whole loop would take minutes, so each run times a
#                                  sample of SAMPLE reads of each kind and scales its mean to
#                                  the number of reads rdmakit made (said so in the output)
# Before the runs, JOINED hosts (every 64th CA) join one multicast group (tests/sim/mcast_join),
# so that the switches forward one MLID and the audit asks the SA of every CA port.
# Runs alternate which goes first; ratios are taken within a run.
# Usage: tests/perf/audit.sh [BUILD_DIR] [RUNS] [SAMPLE]. With PERF_MD=FILE (tests/perf/report.sh)
# it appends its section to FILE. Exit 0 target met (rdmakit <= 0.1x the loop), 1 missed, 77
# something missing.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
runs=${2:-${PERF_RUNS:-5}}
sample=${3:-40}
rdmakit=$build/cli/rdmakit
for tool in ibsim opensm smpquery ibroute saquery cc /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "audit.sh: $tool not found" >&2; exit 77; }
done
if [ ! -x "$rdmakit" ] || [ ! -x "$build/tests/mcast_join" ]; then
	BUILD_DIR=$build "$top/scripts/build.sh"
fi
work=$(mktemp -d)
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
trap 'sim_stop_started; rm -rf "$work"' EXIT
cc -O2 -Wall -shared -fPIC -o "$work/madcount.so" "$top/tests/perf/madcount.c" -ldl
printf 'Default=0x7fff, ipoib : ALL=full ;\n' >"$work/partitions.conf"
export SIM_OSM_ARGS="-P $work/partitions.conf"
name=rkaudit$$
big_fabric_start "$name"
SIM_TIMEOUT=120 sim_run "$name" "$rdmakit" fabric --json >"$work/fabric.json"
joined=0
for n in $(seq 1 64 2048); do
	SIM_HOST=Hca$n SIM_TIMEOUT=30 sim_run "$name" "$build/tests/mcast_join" ff12:e001::7 \
		>/dev/null 2>&1 && joined=$((joined + 1))
done

# The sample's targets: SAMPLE CA LIDs, and SAMPLE (switch LID, in, out) port pairs.
python3 - "$work/fabric.json" "$sample" >"$work/targets" <<'PY'
import json, sys
doc, n = json.load(open(sys.argv[1])), int(sys.argv[2])
cas = [x["lid"] for x in doc["nodes"] if x["type"] == "ca" and x.get("lid")]
sws = [x["lid"] for x in doc["nodes"] if x["type"] == "switch" and x.get("lid")]
step = max(1, len(cas) // n)
for lid in cas[::step][:n]:
    print("ca", lid)
for i in range(n):
    print("sw", sws[i % len(sws)], 1 + i % 8, 9 + i % 8)
for lid in sws[:n]:
    print("mft", lid)
PY

rdmakit_run() { # prints "wall peak mads"
	rm -f "$work/mads"
	LD_PRELOAD=$work/madcount.so RK_MADCOUNT_OUT=$work/mads SIM_TIMEOUT=300 sim_run "$name" \
		/usr/bin/time -f "%e %M" -o "$work/time" "$rdmakit" audit --json \
		--partitions "$work/partitions.conf" >"$work/audit.json" 2>"$work/err" || [ $? -le 2 ]
	echo "$(cat "$work/time") $(awk '{s += $2 + $4 + $6 + $8 + $10} END {print s}' "$work/mads")"
}

loop_run() { # prints "ca_pkeys_s ca_sl2vl_s sw_sl2vl_s mft_s saquery_s": mean seconds a read
	local kind lid in out t0 ca_p=0 ca_s=0 sw_s=0 mft=0 mfts=0 start
	while read -r kind lid in out; do
		if [ "$kind" = mft ]; then
			start=$(date +%s.%N)
			sim_run "$name" ibroute -M "$lid" >/dev/null 2>&1 || true
			mft=$(echo "$mft + $(date +%s.%N) - $start" | bc)
			mfts=$((mfts + 1))
		elif [ "$kind" = ca ]; then
			start=$(date +%s.%N)
			sim_run "$name" smpquery pkeys "$lid" >/dev/null 2>&1 || true
			t0=$(date +%s.%N)
			ca_p=$(echo "$ca_p + $t0 - $start" | bc)
			sim_run "$name" smpquery sl2vl "$lid" >/dev/null 2>&1 || true
			ca_s=$(echo "$ca_s + $(date +%s.%N) - $t0" | bc)
		else
			start=$(date +%s.%N)
			sim_run "$name" smpquery sl2vl "$lid" "$in" "$out" >/dev/null 2>&1 || true
			sw_s=$(echo "$sw_s + $(date +%s.%N) - $start" | bc)
		fi
	done <"$work/targets"
	start=$(date +%s.%N)
	sim_run "$name" saquery -m >/dev/null 2>&1 || true
	echo "$(echo "scale=6; $ca_p / $sample" | bc) $(echo "scale=6; $ca_s / $sample" | bc)" \
		"$(echo "scale=6; $sw_s / $sample" | bc) $(echo "scale=6; $mft / $mfts" | bc)" \
		"$(echo "$(date +%s.%N) - $start" | bc)"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
: >"$work/records"
for run in $(seq "$runs"); do
	if [ $((run % 2)) -eq 1 ]; then
		r=$(rdmakit_run)
		l=$(loop_run)
	else
		l=$(loop_run)
		r=$(rdmakit_run)
	fi
	echo "$run $r $l" >>"$work/records"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work/records" "$work/audit.json" "$work/fabric.json" "$sample" "$load_before" \
	"$load_after" "$(git -C "$top" rev-parse --short HEAD)" "${PERF_MD:-}" "$joined" <<'PY'
import json, statistics, sys
records, audit, fabric, sample, lb, la, commit, md, joined = sys.argv[1:10]
doc = json.load(open(fabric))
nodes = doc["nodes"]
cas = sum(1 for n in nodes if n["type"] == "ca")
links = len(doc.get("links", []))
# reads rdmakit made: a P_Key block and a map per CA port; a map per switch port that is up
switch_ports = 2 * links - cas
switches = len(nodes) - cas
rows = []
for line in open(records):
    run, wall, peak, smps, ca_p, ca_s, sw_s, mft, sa = line.split()
    loop = (cas * (float(ca_p) + float(ca_s)) + switch_ports * float(sw_s) +
            switches * float(mft) + float(sa))
    rows.append((float(wall), float(peak), int(smps), loop, float(wall) / loop))

def span(values, fmt):
    med = statistics.median(values)
    return (fmt + " (" + fmt + "-" + fmt + ")") % (med, min(values), max(values))

doc_audit = json.load(open(audit))
findings, mc = doc_audit["findings"], doc_audit["multicast"]
mc_text = (f"{mc['groups']} group forwarded, {mc['full_members']} full members of "
           f"{joined} joined, {mc['tables']} switch tables read, "
           f"{'checked' if mc['checked'] else 'NOT checked'}")
print(f"audit.sh: commit {commit}, {len(rows)} runs, load {lb} -> {la}; fabric: {cas} CAs, "
      f"{len(nodes) - cas} switches, {links} links")
print(f"  rdmakit audit --partitions (whole process, discovery included): "
      f"{span([r[0] for r in rows], '%.2f')} s, peak {span([r[1] / 1024 for r in rows], '%.0f')} MiB, "
      f"{rows[0][2]} MADs; findings: {sorted(set(f['code'] for f in findings)) or 'none'}; "
      f"multicast: {mc_text}")
print(f"  smpquery loop, {cas} pkeys + {cas} sl2vl + {switch_ports} switch sl2vl reads + "
      f"{switches} ibroute -M + 1 saquery -m, scaled from {sample} timed reads of each kind: "
      f"{span([r[3] for r in rows], '%.0f')} s")
ratio = statistics.median(r[4] for r in rows)
print(f"  ratio rdmakit / loop: {span([r[4] for r in rows], '%.4f')} (target <= 0.1)")
verdict = "met" if ratio <= 0.1 else "NOT met"
if md:
    codes = ", ".join(f"`{c}`" for c in sorted(set(f["code"] for f in findings))) or "none"
    with open(md, "a") as out:
        out.write(f"""## The fabric audit against smpquery reads of the same tables

`tests/perf/audit.sh` on the simulated fat tree of {len(nodes) - cas} switches and {cas:,} CAs
(ibsim + OpenSM run with a partitions.conf, `tests/perf/bigfabric.sh`). **rdmakit audit
--partitions** is one process: the discovery, then by directed route one SL-to-VL map of every
ACTIVE port, the P_Key blocks of every CA port, NodeInfo behind every switch port that leads
to no node and every switch's multicast table, then an SA MCMemberRecord Get for each CA port
and group forwarded; its MADs are counted by `tests/perf/madcount.c` preloaded. Before the runs
{joined} hosts (every 64th CA) joined one group (`tests/sim/mcast_join`); the audit saw
{mc_text}. The **smpquery loop** reads the same tables the way an admin would with
infiniband-diags, one process a read (`smpquery pkeys LID`, `smpquery sl2vl LID`, `smpquery
sl2vl LID IN OUT`, `ibroute -M LID`, and one `saquery -m`): {cas:,} + {cas:,} +
{switch_ports:,} + {switches} + 1 reads. A whole loop takes many minutes, so each run times
{sample} reads of each kind and scales their mean to that count: the loop's figure is an
estimate, said so here.
**wall s** is GNU time's `%e` (discovery included for rdmakit), **peak MiB** its `%M`; the
ratio is taken within one run, the two going first in turn. Every cell is the median (min–max)
over {len(rows)} runs.

| what | wall s | ×loop | peak MiB | MADs |
| --- | --- | --- | --- | --- |
| rdmakit audit --partitions (whole process) | {span([r[0] for r in rows], '%.2f')} | {span([r[4] for r in rows], '%.4f')} | {span([r[1] / 1024 for r in rows], '%.0f')} | {rows[0][2]:,} |
| smpquery loop (scaled from {sample} reads of each kind) | {span([r[3] for r in rows], '%.0f')} | 1 |  | {2 * cas + switch_ports + switches + 1:,} processes |

Target (median of the per-run ratios): rdmakit ≤ 0.1× the loop: median {ratio:.4f}×, {verdict}.
Findings on the healthy tree: {codes} (the sim's links support a faster speed than they
enable: an ok finding). The MAD count is the discovery's (about 16,600) and the audit's own
reads: 2 P_Key blocks per CA port (the sim's PartitionCap is 64), a map per ACTIVE port, 5
multicast table positions a switch (65 ports) for each block read, and a membership Get per
CA port and group (in the sim, an answer is one record: see docs/cli.md).
""")
sys.exit(0 if ratio <= 0.1 else 1)
PY
