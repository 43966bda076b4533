#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# Build rdmakit and show its main job on bundled sysfs fixtures (no HCA needed).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
fixtures=$top/tests/fixtures/sysfs
"$top/scripts/build.sh"
rdmakit=$build/cli/rdmakit
# the fabric discovery helper as built, not installed (common/src/fabric/fabric_helper.c)
export RDMAKIT_DISCOVER_HELPER=$build/common/rdmakit-discover

show() {
	printf '\n$ rdmakit %s\n' "$*"
	"$rdmakit" "$@" || true
}

printf '== A healthy ConnectX-6 HDR host (fixture ib-hdr)\n'
show status --sysfs-root "$fixtures/ib-hdr"
show doctor --sysfs-root "$fixtures/ib-hdr"
show counters --sysfs-root "$fixtures/ib-hdr" mlx5_0:1

printf '\n== Hosts with trouble\n'
for fixture in port-states degraded-rate pcie-x8 saturated fw-mismatch; do
	show doctor --expect-rate 200 --sysfs-root "$fixtures/$fixture"
done

printf '\n== A simulated InfiniBand fabric (ibsim + OpenSM): 4 leaves, 2 spines, 16 hosts\n'
work=$(mktemp -d)
export SIM_DIR=$work SIM_QUIET=1
# shellcheck source=../tests/sim/simctl.sh
. "$top/tests/sim/simctl.sh"
collectd_pid=
stop_collectd() {
	[ -z "$collectd_pid" ] || { kill "$collectd_pid" 2>/dev/null && wait "$collectd_pid"; } || true
	collectd_pid=
}
trap 'stop_collectd; sim_stop_started; rm -rf "$work"' EXIT
"$top/tests/sim/gen-fattree.py" --leaves 4 --hosts-per-leaf 4 --spines 2 --radix 8 \
	--slow-link Leaf2:3=4xSDR -q -o "$work/demo.net"
sim_start rkdemo$$ "$work/demo.net" >/dev/null
sim_opensm rkdemo$$ Hca1 10 >/dev/null
sim_opensm rkdemo$$ Hca2 5 >/dev/null
sim_cmd rkdemo$$ 'PerformanceSet "Leaf1"[3] PortCounters.SymbolErrorCounter=12' >/dev/null
sim_cmd rkdemo$$ 'PerformanceSet "Spine2"[1] PortCounters.LinkDownedCounter=300' >/dev/null

fabric() {
	printf '\n$ rdmakit %s\n' "$*"
	sim_run rkdemo$$ "$rdmakit" "$@" 2>/dev/null || true
}
fabric sm
fabric fabric --degraded
fabric sweep --errors-only
fabric doctor --fabric --sysfs-root "$fixtures/ib-hdr"

printf '\n== rdmakit.so in a private collectd: this host (fixture ib-hdr) and the simulated fabric\n'
cd_dir=$work/collectd
mkdir -p "$cd_dir"
{
	for n in 1 2 3 4; do printf '0x%016x "leaf%d"\n' $((0x0002c90200100000 + n)) "$n"; done
	for n in 1 2; do printf '0x%016x "spine%d"\n' $((0x0002c90200200000 + n)) "$n"; done
} >"$cd_dir/node-name-map"
cat >"$cd_dir/collectd.conf" <<CONF
Hostname "demo"
FQDNLookup false
BaseDir "$cd_dir"
PIDFile "$cd_dir/collectd.pid"
TypesDB "/usr/share/collectd/types.db"
Interval 1
PluginDir "/usr/lib/collectd"
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File "$cd_dir/collectd.log"
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$cd_dir/csv"
  StoreRates false
</Plugin>
LoadPlugin unixsock
<Plugin unixsock>
  SocketFile "$cd_dir/collectd.sock"
</Plugin>
PluginDir "$build/collectd-plugin"
LoadPlugin rdmakit
<Plugin rdmakit>
  SysfsRoot "$fixtures/ib-hdr"
  Port "mlx5_0:1"
  Notifications true
  Fabric true
  SubnetManager true
  FabricInterval 1
  NodeNameMap "$cd_dir/node-name-map"
</Plugin>
CONF
sed -n '/^LoadPlugin rdmakit/,$p' "$cd_dir/collectd.conf" | sed 's/^/    /'
# Under the umad2sim shim, attached to the simulated fabric; BaseDir is its working directory
# (the shim writes ./sys-<pid>/ there).
(cd "$cd_dir" && exec env IBSIM_SOCKNAME=rkdemo$$ LD_PRELOAD="$SIM_SHIM" \
	collectd -f -C "$cd_dir/collectd.conf" >"$cd_dir/collectd.out" 2>&1) &
collectd_pid=$!
for _ in $(seq 100); do
	[ -S "$cd_dir/collectd.sock" ] && [ -d "$cd_dir/csv/demo/rdma_sm" ] && break
	sleep 0.1
done
sleep 4
listval() { collectdctl -s "$cd_dir/collectd.sock" listval 2>/dev/null | sed 's/^[0-9.]* //'; }
printf '\n$ collectdctl listval   # %s values; a few of them:\n' "$(listval | grep -c rdma)"
listval | grep -E 'rdma-mlx5_0-1/(if_octets|gauge-state)$|rdma_fabric/|rdma_fabric-leaf1-3/|rdma_sm/' |
	sed 's/^/  /'
for value in rdma_sm/gauge-master_lid rdma_sm/count-standbys rdma_fabric/count-degraded_links; do
	printf '\n$ collectdctl getval demo/%s\n' "$value"
	collectdctl -s "$cd_dir/collectd.sock" getval "demo/$value" || true
done
printf '\n$ tail -n 2 csv/demo/rdma_fabric-leaf1-3/derive-symbol_error-*\n'
tail -q -n 2 "$cd_dir"/csv/demo/rdma_fabric-leaf1-3/derive-symbol_error-* 2>/dev/null || true
printf '\nnotifications (collectd.log):\n'
grep -h 'Notification:' "$cd_dir/collectd.log" | sed 's/^.*Notification: /  /' || true
stop_collectd
"$top/scripts/demo-snmp.sh" "$build" rkdemo$$ "$work"
