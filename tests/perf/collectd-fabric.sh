#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# collectd's memory with rdmakit.so in fabric mode on the ~2,000-CA simulated fat tree (96
# switches, 2,048 CAs, 8,192 ports swept), and the sweep's duration as the plugin sees it.
# Usage: tests/perf/collectd-fabric.sh [BUILD_DIR] [SWEEPS]. With PERF_MD=FILE
# (tests/perf/report.sh) it also appends its section, in markdown, to FILE.
#
# Method. One ibsim + OpenSM (tests/sim/simctl.sh; ibsim gets -N 4096 from the net file's
# hint). The same private collectd (Interval 1, csv with StoreRates false, the host mode on
# the ib-hdr fixture, under the umad2sim shim) runs three times, each until the fabric read has
# dispatched SWEEPS (default 6) sweeps at FabricInterval 5, or for as long without Fabric:
#   host     <Plugin rdmakit> without Fabric: the baseline
#   fabric   Fabric true, SubnetManager true (the defaults: data counters of every port,
#            other counters once non-zero)
#   packets  the same with FabricPackets true (three more value lists per port)
# Then VmRSS and VmHWM of the daemon are read from /proc and it is stopped by PID. Growth is
# against the baseline; most of it is collectd's own cache, about 1.8 KB per value list.
# The sweep's duration is the duration-sweep value the plugin dispatches, median and maximum
# over the sweeps after the first (the first read, fabric or SM, also discovers the fabric:
# the plugin logs how long that took). KEEP=1 keeps the work directory (logs, csv files).
# Exit status: 0 when the default fabric mode grows collectd by less than TARGET_KIB
# (32 MiB), 1 when not, 77 when something needed is missing (ctest: skipped).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$top/build}")
sweeps=${2:-${PERF_RUNS:-6}}
fabric_interval=5
target_kib=$((32 * 1024))
shim=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so

skip() {
	echo "collectd-fabric: skipped: $*" >&2
	exit 77
}
for tool in collectd ibsim opensm; do
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found"
done
[ -r "$shim" ] || skip "$shim not found"
[ -f "$build/collectd-plugin/rdmakit.so" ] || BUILD_DIR=$build "$top/scripts/build.sh"

work=$(mktemp -d)
pid=
# shellcheck source=bigfabric.sh
. "$top/tests/perf/bigfabric.sh"
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || true
	sim_stop_started
	if [ -n "${KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

name=rkcdperf$$
big_fabric_start "$name"

# write_conf NAME [LINE...]: a private daemon whose <Plugin rdmakit> block has the LINEs.
write_conf() {
	local run=$1 line
	shift
	mkdir -p "$work/$run"
	{
		printf 'Hostname "perf"\nFQDNLookup false\nBaseDir "%s"\n' "$work/$run"
		printf 'PIDFile "%s/pid"\nTypesDB "/usr/share/collectd/types.db"\n' "$work/$run"
		printf 'Interval 1\nPluginDir "/usr/lib/collectd"\nLoadPlugin logfile\n'
		printf '<Plugin logfile>\n  LogLevel info\n  File "%s/log"\n</Plugin>\n' "$work/$run"
		printf 'LoadPlugin csv\n<Plugin csv>\n  DataDir "%s/csv"\n' "$work/$run"
		printf '  StoreRates false\n</Plugin>\n'
		printf 'PluginDir "%s/collectd-plugin"\nLoadPlugin rdmakit\n' "$build"
		printf '<Plugin rdmakit>\n  SysfsRoot "%s"\n' "$top/tests/fixtures/sysfs/ib-hdr"
		for line in "$@"; do printf '  %s\n' "$line"; done
		printf '</Plugin>\n'
	} >"$work/$run/collectd.conf"
}

# run NAME: start the daemon under the shim, wait for SWEEPS sweeps (or as long), print
# "rss_kib hwm_kib", stop it by PID.
run() {
	local run=$1 csv i rss hwm
	csv=$work/$run/csv/perf/rdma_fabric
	(cd "$work/$run" && exec env IBSIM_SOCKNAME="$name" LD_PRELOAD="$shim" \
		RDMAKIT_DISCOVER_HELPER="$build/common/rdmakit-discover" collectd -f -C "$work/$run/collectd.conf" >"$work/$run/out" 2>&1) &
	pid=$!
	for ((i = 0; i < 20 * sweeps * fabric_interval + 600; i++)); do
		kill -0 "$pid" 2>/dev/null || { cat "$work/$run/out" "$work/$run/log" >&2; exit 1; }
		if grep -q Fabric "$work/$run/collectd.conf"; then
			[ "$(cat "$csv"/count-nodes-* 2>/dev/null | grep -vc epoch)" -ge "$sweeps" ] && break
		else
			[ "$i" -ge $((10 * sweeps * fabric_interval)) ] && break
		fi
		sleep 0.1
	done
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
	kill -TERM "$pid"
	wait "$pid" || true
	pid=
	echo "$rss $hwm"
}

# sweep_seconds NAME: "median max" of the duration-sweep values after the first.
sweep_seconds() {
	cat "$work/$1"/csv/perf/rdma_fabric/duration-sweep-* | grep -v epoch | cut -d, -f2 |
		tail -n +2 | sort -g | awk '{ v[NR] = $1 }
		END { printf "%.3f %.3f\n", v[int((NR + 1) / 2)], v[NR] }'
}

write_conf host
write_conf fabric "Fabric true" "SubnetManager true" "FabricInterval $fabric_interval"
write_conf packets "Fabric true" "SubnetManager true" "FabricInterval $fabric_interval" \
	"FabricPackets true"
read -r host_rss host_hwm < <(run host)
read -r fab_rss fab_hwm < <(run fabric)
read -r pkt_rss pkt_hwm < <(run packets)
read -r median max < <(sweep_seconds fabric)
lists=$(find "$work/fabric/csv/perf" -type f -path '*/rdma_fabric*' -name '*-[0-9]*' | wc -l)

echo "fabric: 96 switches, 2048 CAs, 8192 ports swept;" \
	"$sweeps sweeps at FabricInterval $fabric_interval"
printf '%-44s %10s %10s %12s\n' "collectd with rdmakit.so" "VmRSS KiB" "VmHWM KiB" "growth KiB"
row() { printf '%-44s %10d %10d %12d\n' "$1" "$2" "$3" $(($2 - host_rss)); }
row "host mode only (baseline)" "$host_rss" "$host_hwm"
row "+ Fabric true, SubnetManager true" "$fab_rss" "$fab_hwm"
row "+ FabricPackets true" "$pkt_rss" "$pkt_hwm"
echo "value lists of rdma_fabric per sweep (default): $lists"
echo "sweep as the plugin sees it (duration-sweep): median $median s, max $max s"
grep -h "fabric discovered" "$work/fabric/log" | head -1 | sed 's/^.*rdmakit plugin: /log: /'
discovered=$(grep -h "fabric discovered" "$work/fabric/log" | head -1 | sed 's/^.*rdmakit plugin: //')
[ -z "${PERF_MD:-}" ] || {
	printf '## collectd in fabric mode\n\n'
	printf '`tests/perf/collectd-fabric.sh` runs a private collectd (Interval 1, csv) with `rdmakit.so`\n'
	printf 'three times on the simulated fat tree (96 switches, 2,048 CAs, 8,192 ports swept), each\n'
	printf 'until the plugin has dispatched %s sweeps at `FabricInterval %s`: without `Fabric` (the\n' "$sweeps" "$fabric_interval"
	printf 'baseline), with `Fabric true` and `SubnetManager true`, and with `FabricPackets true` as\n'
	printf 'well; then reads the daemon'"'"'s VmRSS and VmHWM. Growth is against the baseline'"'"'s VmRSS;\n'
	printf 'most of it is collectd'"'"'s own cache, about 1.8 KB per value list. The sweep row is the\n'
	printf '`duration-sweep` value the plugin dispatches (a phase: the MADs of one sweep), over the\n'
	printf 'sweeps after the first. One daemon per row, one run.\n\n'
	printf '| collectd with rdmakit.so | VmRSS KiB | VmHWM KiB | growth KiB |\n| --- | --- | --- | --- |\n'
	printf '| host mode only (baseline) | %d | %d | 0 |\n' "$host_rss" "$host_hwm"
	printf '| + Fabric true, SubnetManager true | %d | %d | %d |\n' "$fab_rss" "$fab_hwm" $((fab_rss - host_rss))
	printf '| + FabricPackets true | %d | %d | %d |\n' "$pkt_rss" "$pkt_hwm" $((pkt_rss - host_rss))
	printf '\nValue lists of `rdma_fabric` per sweep (default): %s. One sweep as the plugin sees it:\n' "$lists"
	printf 'median %s s, max %s s. The plugin'"'"'s log: "%s". Target: growth (VmHWM − baseline\n' "$median" "$max" "$discovered"
	printf 'VmRSS) under %s KiB.\n' "$target_kib"
} >>"$PERF_MD"
growth=$((fab_hwm - host_rss))
if [ "$growth" -lt "$target_kib" ]; then
	echo "target: growth (VmHWM - baseline VmRSS) under $target_kib KiB: met ($growth KiB)"
else
	echo "target: growth (VmHWM - baseline VmRSS) under $target_kib KiB: NOT met ($growth KiB)"
	exit 1
fi
